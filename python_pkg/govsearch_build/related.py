"""Related records for each record page, computed once at build time.

A record page answers the visitor's next question with plain links to:

- the same series (govsearch.ranking.series, the rule search answers group by too):
  records of the same publisher and resource type whose titles are the same
  once years, dates, numbers and versions are removed ("Price Paid Data
  2019" and "Price Paid Data 2020"), nearest in title order first;
- the API and its documentation: a documentation record's API records (its
  links with a recordId) and back, and an API whose documentationUrl is
  another record's address;
- the same publisher and topic: records of that publisher sharing the most
  of its rarer topic words (keywords and title words).

Only record ids are kept (a few per record), so the cost stays small at
hundreds of thousands of records: a word on more than COMMON_WORD_LIMIT of one
publisher's records says nothing about topic and is not followed.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from govsearch.ranking.series import plain as _plain
from govsearch.ranking.series import series_of

MAX_SERIES = 6
MAX_API = 6
MAX_TOPIC = 5
# A word on more of one publisher's records than this is not a topic.
COMMON_WORD_LIMIT = 40
# The rarest words of a record that are followed to find its topic neighbours.
TOPIC_WORDS = 6

# Words that name no topic (English function words and catalogue boilerplate).
_STOP = frozenset(
    "a an and are as at be by data dataset datasets for from in into is it its of on or the to with api apis"
    " service services information guidance about your our new all use using via per".split()
)
_WORD = re.compile(r"[a-z][a-z0-9]+")


@dataclass(frozen=True)
class Related:
    """A record's related record ids, by kind (each list nearest first)."""

    series: tuple[str, ...] = ()
    api: tuple[str, ...] = ()
    topic: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.series or self.api or self.topic)


def topic_words(record: Mapping[str, Any]) -> set[str]:
    """The words that say what a record is about: its keywords and title, less the
    publisher's own name and words that name no topic."""
    publisher = set(_WORD.findall(_plain(record.get("publisher", ""))))
    text = " ".join([record.get("title", ""), *(str(word) for word in record.get("keywords") or ())])
    return {word for word in _WORD.findall(_plain(text)) if word not in _STOP and word not in publisher}


def _url_key(url: Any) -> str:
    return str(url or "").strip().rstrip("/").casefold()


def _series(records: Sequence[Mapping[str, Any]]) -> dict[str, list[str]]:
    """Each record in a series of two or more: its neighbours in title order."""
    groups: dict[tuple[str, str], list[Mapping[str, Any]]] = defaultdict(list)
    for record in records:
        key = series_of(record)
        if key:
            groups[key].append(record)
    found: dict[str, list[str]] = {}
    half = MAX_SERIES // 2
    for members in groups.values():
        if len(members) < 2:
            continue
        members.sort(key=lambda r: (_plain(r["title"]), r["id"]))
        for place, record in enumerate(members):
            start = max(0, min(place - half, len(members) - MAX_SERIES - 1))
            near = members[start : start + MAX_SERIES + 1]
            found[record["id"]] = [other["id"] for other in near if other is not record][:MAX_SERIES]
    return found


def _api_pairs(records: Sequence[Mapping[str, Any]]) -> dict[str, list[str]]:
    """API and documentation records, both ways."""
    ids = {record["id"] for record in records}
    by_url = {}
    for record in records:
        by_url.setdefault(_url_key(record.get("url")), record["id"])
    pairs: dict[str, list[str]] = defaultdict(list)

    def pair(one: str, other: str | None) -> None:
        if other and other != one and other in ids:
            for a, b in ((one, other), (other, one)):
                if b not in pairs[a]:
                    pairs[a].append(b)

    for record in records:
        if record.get("documentationUrl"):
            pair(record["id"], by_url.get(_url_key(record["documentationUrl"])))
        for link in record.get("links") or ():
            pair(record["id"], link.get("recordId"))
    return pairs


def _topic(records: Sequence[Mapping[str, Any]], taken: Mapping[str, set[str]]) -> dict[str, list[str]]:
    """Each record's nearest records of the same publisher by shared rarer topic words."""
    by_publisher: dict[str, list[int]] = defaultdict(list)
    for number, record in enumerate(records):
        by_publisher[record["publisher"]].append(number)
    found: dict[str, list[str]] = {}
    for numbers in by_publisher.values():
        if len(numbers) < 2:
            continue
        words = {number: topic_words(records[number]) for number in numbers}
        postings: dict[str, list[int]] = defaultdict(list)
        for number in numbers:
            for word in words[number]:
                postings[word].append(number)
        for number in numbers:
            found_here = _neighbours(number, words[number], postings, taken.get(records[number]["id"], set()), records)
            if found_here:
                found[records[number]["id"]] = found_here
    return found


def _neighbours(
    number: int,
    words: set[str],
    postings: Mapping[str, list[int]],
    skip: set[str],
    records: Sequence[Mapping[str, Any]],
) -> list[str]:
    # ties by the word itself: a set's order changes from run to run, and so would the words kept
    useful = sorted(
        (w for w in words if 2 <= len(postings[w]) <= COMMON_WORD_LIMIT), key=lambda w: (len(postings[w]), w)
    )
    scores: dict[int, float] = defaultdict(float)
    for word in useful[:TOPIC_WORDS]:
        weight = 1.0 / len(postings[word])  # a rarer shared word says more
        for other in postings[word]:
            if other != number and records[other]["id"] not in skip:
                scores[other] += weight
    best = sorted(scores, key=lambda other: (-scores[other], _plain(records[other]["title"]), records[other]["id"]))
    return [records[other]["id"] for other in best[:MAX_TOPIC]]


def related_records(records: Iterable[Mapping[str, Any]]) -> dict[str, Related]:
    """Every record's related records by id (records with none are left out)."""
    records = list(records)
    series = _series(records)
    apis = _api_pairs(records)
    taken = {
        record["id"]: {
            record["id"],
            *series.get(record["id"], ()),
            *apis.get(record["id"], ()),
            *(link.get("recordId") for link in record.get("links") or () if link.get("recordId")),
        }
        for record in records
    }
    topics = _topic(records, taken)
    related = {}
    for record in records:
        shown = {link.get("recordId") for link in record.get("links") or ()}  # already listed on the page
        entry = Related(
            series=tuple(series.get(record["id"], ())),
            api=tuple(other for other in apis.get(record["id"], ()) if other not in shown)[:MAX_API],
            topic=tuple(topics.get(record["id"], ())),
        )
        if entry:
            related[record["id"]] = entry
    return related
