"""Series: one publisher's records under one title, again and again.

HM Land Registry publishes "UK House Price Index for <month> <year>" every
month, ONS a postcode lookup every quarter, councils the same dataset each
year. Such records differ only in what varies between editions (years,
dates, quarters, months, numbers, versions, nations), so a search for the topic
returns ten editions where one, with the others a click away, would do
(issue 32, class 4). One rule says which records are a series, here, for
the build's record pages (govsearch_build.related) and for the answer
(ranking.stages):

- a series is one publisher's records of one resource type whose titles
  are the same once what varies is removed (`series_of`, `series_key`); an
  organisation is no edition of its API;
- an answer groups a series, and also one title that local authorities each
  publish (`group_of`: 42 councils' "Tree Preservation Orders" are different
  data, and the record pages keep them apart, but ten of them in one answer
  would push out every other kind of record);
- in an answer, the group's best-placed record leads it and keeps its place
  (a place the query names puts that place's record first); the others in
  the same answer stand behind it (`grouped`), so the answer shows other
  records instead;
- a query naming no year wants the newest edition first (`edition`): a
  group an older edition leads is led by the series' newest instead, in
  its place, whether the answer found it or not (`newest_editions`,
  ranking.stages).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Hashable, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any

from .query import Term
from .state import Ranked

_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTH_NAMES = "|".join([*_MONTHS, *(month[:3] for month in _MONTHS if month != "may"), "sept"])
# What varies between the editions of a series: years, dates, quarters, months, numbers and versions.
_EDITIONS = rf"v\d+(?:\.\d+)*|version\s*\d+|q[1-4]|{_MONTH_NAMES}|\d+(?:st|nd|rd|th)?"
# Between the members of a series, a nation too: HM Land Registry's "UK House Price Index England:
# September 2021", "... Scotland: ..." and "... Wales: ..." are one series, not three results for
# "house price index"; but Scotland's figures are no older edition of England's (_editions_key).
_NATIONS = r"england|scotland|wales|northern\s+ireland|great\s+britain|united\s+kingdom|uk|gb"
_VARYING = re.compile(rf"\b(?:{_EDITIONS}|{_NATIONS})\b")
_VARYING_EDITIONS = re.compile(rf"\b(?:{_EDITIONS})\b")
_WORD = re.compile(r"[a-z][a-z0-9]+")
_TOKEN = re.compile(r"[a-z0-9]+")  # numbers too: "Key Stage 2" and "Key Stage 4" are two things
_YEAR = re.compile(r"(?:19|20)\d\d")
Key = tuple[str, str, str]  # (publisher, resource type, series_key)
_MONTH_WORD = re.compile(_MONTH_NAMES)
_DATED = re.compile(rf"\b(?:({_MONTH_NAMES})\.?\s+)?((?:19|20)\d\d)\b")
# A title's dates as editions name them: a month and year, a year, or a span of years
# ("2024/25", "2024-25", "2024 to 2025").
_EDITION_DATE = re.compile(rf"\b(?:(?:{_MONTH_NAMES})\.?\s+)?(?:19|20)\d\d(?:\s*(?:/|-|to)\s*(?:(?:19|20)?\d\d))?\b")


def plain(text: str) -> str:
    """The text folded for comparing: accents dropped, case folded."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()


@lru_cache(maxsize=1 << 14)  # answers read the same titles query after query
def series_key(title: str) -> str:
    """The title without what varies between the members of a series ("" when nothing is left)."""
    return _without(_VARYING, title)


@lru_cache(maxsize=1 << 14)
def _editions_key(title: str) -> str:
    """The title without what varies between one nation's editions (series_key keeps its nation)."""
    return _without(_VARYING_EDITIONS, title)


def _without(varying: re.Pattern[str], title: str) -> str:
    return " ".join(_WORD.findall(varying.sub(" ", plain(title))))


@lru_cache(maxsize=1 << 14)
def edition(title: str) -> tuple[int, int]:
    """The newest (year, month) a title names ((0, 0) when none; month 0 when it names no month)."""
    return max(
        ((int(year), _month(month)) for month, year in _DATED.findall(plain(title))),
        default=(0, 0),
    )


def _month(name: str) -> int:
    return next((number for number, month in enumerate(_MONTHS, 1) if name and month.startswith(name[:3])), 0)


def names_a_date(terms: Sequence[Term]) -> bool:
    """Whether the query names a year or a month (not a word still being
    typed: "mar" may become "market"): then it asks for those editions, not the newest."""
    return any(names_date(term) for term in terms)


def names_date(term: Term) -> bool:
    """Whether a word is a year or a month, as typed (not a word still being typed)."""
    return not term.prefix and bool(_YEAR.fullmatch(term.typed) or _MONTH_WORD.fullmatch(term.typed))


@lru_cache(maxsize=1 << 14)
def edition_key(title: str) -> str:
    """The title without its dates alone: editions of one thing share it
    ("UK House Price Index for May 2026", "... for October 2025"), where
    series_key also leaves out other numbers ("Key Stage 2 attainment 2019"
    and "Key Stage 4 attainment 2024" are one series, not one thing)."""
    return " ".join(_TOKEN.findall(_EDITION_DATE.sub(" ", plain(title))))


def newest_editions(records: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    """For each dated edition that a newer edition of the same thing follows
    (one publisher's records of one type whose titles differ only in their
    dates: edition_key), the newest edition's number (by list place; the
    first of the newest when two share a date). One rule for the build's
    rows and the single layout, so both answer alike."""
    newest: dict[Key, tuple[tuple[int, int], int]] = {}
    dated: list[tuple[int, Key, tuple[int, int]]] = []
    for number, record in enumerate(records):
        title = record.get("title", "")
        key = (record.get("publisher", ""), record.get("resourceType", ""), edition_key(title))
        when = edition(title)
        if not key[2] or when == (0, 0):
            continue
        dated.append((number, key, when))
        if key not in newest or when > newest[key][0]:
            newest[key] = (when, number)
    return {number: newest[key][1] for number, key, when in dated if when < newest[key][0]}


def grouped(keys: Sequence[Hashable | None]) -> list[tuple[int, list[int]]]:
    """The places of an answer's results once series are grouped: each
    series' first place with the places of the rest of it in the answer,
    then everything else in order. `keys`: each result's series_of (or
    anything equal exactly when those are: the build's series numbers),
    None for a record that belongs to no series."""
    leads: dict[Hashable, list[int]] = {}
    kept: list[tuple[int, list[int]]] = []
    for place, key in enumerate(keys):
        if key is not None and key in leads:
            leads[key].append(place)
            continue
        members: list[int] = []
        if key is not None:
            leads[key] = members
        kept.append((place, members))
    return kept


def series_of(record: Mapping[str, Any]) -> Key | None:
    """A record's series (from its row or its data), None when its title is nothing but what varies."""
    return _keyed(record, series_key(record.get("title", "")))


def editions_of(record: Mapping[str, Any]) -> Key | None:
    """The records a record is an edition of: its series, one nation's ("Population
    estimates for Northern Ireland: mid-2020" is no older edition of England's mid-2022)."""
    return _keyed(record, _editions_key(record.get("title", "")))


def _keyed(record: Mapping[str, Any], key: str) -> Key | None:
    """One publisher's records of one type under one title key (None for an empty key)."""
    return (record.get("publisher", ""), record.get("resourceType", ""), key) if key else None


# How local authorities name themselves (the build's `local_authority_row` flag reads it too).
LOCAL_AUTHORITY = re.compile(
    r"\b(council|comhairle|borough|district|county|metropolitan|city of|unitary authority|national park authority)\b",
    re.IGNORECASE,
)
LOCAL_AUTHORITIES = "local authorities"  # the publisher of a group of local authorities' records


# Words of local authorities' names that name no one place ("Erewash District Council"),
# and the words that join a name to a title ("Public Toilets in Ipswich").
_AUTHORITY_WORDS = frozenset(
    "council borough district county metropolitan city unitary authority national park royal "
    "of the and in for at on".split()
)


def group_of(record: Mapping[str, Any]) -> Key | None:
    """The group an answer shows as one result: the record's series, with every
    local authority counted as one publisher (one title each of them publishes,
    with or without its own name: "Guildford Brownfield Land Register" and
    "LDNPA Brownfield Land Register" are two authorities' "Brownfield Land Register")."""
    key = series_of(record)
    if key is None or not LOCAL_AUTHORITY.search(key[0]):
        return key
    if key[1] == "organisation":  # an authority's own record names it: no title it publishes
        return (LOCAL_AUTHORITIES, *key[1:])
    return (LOCAL_AUTHORITIES, key[1], _without_own_name(key[2], key[0]))


def result_leads(rows: Sequence[Mapping[str, Any]]) -> Iterator[int]:
    """The places of the records that lead the answer's results, in order: a series shows as
    its best-placed record (group_of), so its later records lead none."""
    seen: set[object] = set()
    for at, row in enumerate(rows):
        key = group_of(row) or at
        if key not in seen:
            seen.add(key)
            yield at


@lru_cache(maxsize=1 << 14)
def _without_own_name(title_key: str, publisher: str) -> str:
    """A series key without the publisher's own name as the title holds it:
    its own words or its initials (three letters or more: "LDNPA"), with the
    words of an authority's name and the joining words next to them ("Erewash
    District Council", "City of York", "in Ipswich"); unchanged when none of
    its name is there or nothing else would be left."""
    named = _WORD.findall(plain(publisher))
    own = {word for word in named if word not in _AUTHORITY_WORDS}
    initials = "".join(word[0] for word in named if word not in ("of", "the", "and"))
    if len(initials) >= 3:
        own.add(initials)
    words = title_key.split()
    dropped: set[int] = set()
    for at, word in enumerate(words):
        if word in own:
            dropped.add(at)
            for step in (-1, 1):  # the name's run of authority and joining words on either side
                near = at + step
                while 0 <= near < len(words) and words[near] in _AUTHORITY_WORDS:
                    dropped.add(near)
                    near += step
    kept = [word for at, word in enumerate(words) if at not in dropped]
    return " ".join(kept) if dropped and kept else title_key


def grouped_answer(terms: Sequence[Term], ranked: list[Ranked], rows: Mapping[int, Mapping[str, Any]]) -> list[Ranked]:
    """The answer's records with each group (group_of) behind its best-placed
    record (in its `others`), a series' dated editions newest first when the
    query names no year or month (one publisher's: another council's newer
    record is no newer edition of the named place's)."""
    if not names_a_date(terms):
        newest_first(ranked, [editions_of(rows[item.number]) for item in ranked], rows)
    keys = [group_of(rows[item.number]) for item in ranked]
    kept = []
    for place, others in grouped(keys):
        lead = ranked[place]
        lead.others = [ranked[other].number for other in others]
        kept.append(lead)
    return kept


def newest_first(ranked: list[Ranked], keys: Sequence[Key | None], rows: Mapping[int, Mapping[str, Any]]) -> None:
    """The dated editions of one series ("English indices of deprivation 2010"
    and "... 2019") in the places they hold, newest first: a query naming no
    year wants the latest edition. Within one mode, in place; a record naming
    no date keeps its place."""
    editions: dict[tuple[str, Key], list[int]] = {}
    for position, (item, key) in enumerate(zip(ranked, keys)):
        if key is not None and edition(rows[item.number].get("title", "")) > (0, 0):
            editions.setdefault((item.mode, key), []).append(position)
    for positions in editions.values():
        if len(positions) > 1:
            newest = sorted(
                (ranked[position] for position in positions),
                key=lambda item: edition(rows[item.number].get("title", "")),
                reverse=True,
            )
            for position, item in zip(positions, newest):
                ranked[position] = item
