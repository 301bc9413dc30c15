"""Where a query asks about, and what the answer can say of it.

A query about where the asker is ("libraries near me", "crime in my area",
"flood risk for my postcode") that names no place: the search cannot know
where they are, so its answer is the whole country's records. And a query
naming a place ("population of Manchester") whose answer holds no record of
that place: its results are national or other places' records. Either way
the answer says so (tools.py: notices `place_not_named`, `place_not_matched`),
so a person adds a town or reads national figures as such, and an agent
asks for a place or says that the catalogue has nothing local."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import lru_cache

from . import rules
from .analysis import singular
from .evidence import one_edit_apart
from .query import Term, named_places
from .series import LOCAL_AUTHORITY
from .state import Ranked, in_answer_order

# The asker's own whereabouts, as people write them; "near Leeds" names a place instead. After
# "close to", "around" or "local to", "my" asks about their place only before a place's word
# ("close to my home", not "close to my due date"); "my area", "where we live" count anywhere.
_HERE = re.compile(
    r"\b(?:near(?:by|est)?\s+(?:me|us|here|my\s+\w+)|nearby|nearest|closest|close\s+by"
    r"|(?:around|local\s+to|close\s+to)\s+(?:me|us|here|my\s+(?:home|house|flat|work|school))"
    r"|my\s+(?:local|area|town|city|street|road|village|neighbourhood|postcode|post\s+code)|where\s+(?:i|we)\s+live)\b",
    re.IGNORECASE,
)


def asks_for_here(text: str, terms: Sequence[Term], filters: Collection[str] = ()) -> bool:
    """Whether the query asks about the asker's own place without naming one the estate
    knows, nor a publishers filter (`filters`: the call's filter names) naming whose records."""
    return _HERE.search(text) is not None and not any(term.place for term in terms) and "publishers" not in filters


def places_respelt(terms: Sequence[Term], places: frozenset[str], begins: Callable[[str], bool]) -> dict[str, str]:
    """The query's words one edit from exactly one place the estate knows that no index term
    begins with (`begins`, the vocabulary), each with that place: "Manchster libraries" asks
    for Manchester's libraries, not for records holding "manchester" and "libraries" (none:
    its libraries are the council's, named by publisher) nor, failing those, for any library.
    A word the catalogue holds ("trent", "horwich") is that word. Words of five letters or
    more, as the fuzzy tier's; the query is read again with them respelt (respelt_text), so a
    place of several words is one ("north yorkshre").

    The places near a word come from an index of their one-letter deletions (a few lookups,
    where a word's edits are hundreds of strings), and the vocabulary is asked only of a word
    near a place: in the sharded layout it is a download a common word's search does not make."""
    respelt = {}
    for term in terms:
        if term.fuzzable and not (term.place or term.intent) and term.typed.isalpha():
            near = _places_one_edit_from(term.typed, places)
            if len(near) == 1 and not begins(term.indexed):
                respelt[term.typed] = near.pop()
    return respelt


def _places_one_edit_from(word: str, places: frozenset[str]) -> set[str]:
    """The places one edit from `word`: those sharing a one-letter deletion with it (or it), checked."""
    index = _deletions_index(places)
    found = set().union(*(index.get(key, ()) for key in _deletions(word)))
    return {place for place in found if one_edit_apart(word, place)}


@lru_cache(maxsize=2)
def _deletions_index(places: frozenset[str]) -> dict[str, frozenset[str]]:
    """Each single-word place and its one-letter deletions -> the places they come from."""
    index: dict[str, set[str]] = {}
    for place in places:
        if place.isalpha():
            for key in _deletions(place):
                index.setdefault(key, set()).add(place)
    return {key: frozenset(found) for key, found in index.items()}


def _deletions(word: str) -> set[str]:
    return {word, *(word[:i] + word[i + 1 :] for i in range(len(word)))}


def respelt_text(text: str, respelt: Mapping[str, str]) -> str:
    """The query with each respelt word (places_respelt) as its place."""
    return re.sub(r"\w+", lambda word: respelt.get(word[0].lower(), word[0]), text)


def unmatched_places(terms: Sequence[Term], results: Sequence[tuple[Sequence[str], float]]) -> list[str]:
    """The places a query prefers beside its topic (each one's name) when no result holding
    some of its topic (`results`: each one's reasons and score; a record holding the
    place alone scores 0) is placed there by its title or publisher."""
    named = list(named_places(terms))
    if not named or not results or any("place_matches" in reasons and score > 0 for reasons, score in results):
        return []
    return named


# A service that finds things for any place says so in its title or summary: "Find and compare
# schools in England", "Search sold property prices", "Planning Data map", "Postcode look-up",
# "Finds the council responsible for the road", "Looks up a vehicle".
# Or it shows something "by area", "for an area", "for any area" ("Check UK property price trends":
# "house price trends by area"); not "by postcode" or "your area", which services that send you
# to your council say ("Report a missed bin collection").
_FINDS = re.compile(
    r"\b(?:finds?|search|maps?|looks?[\s-]?up)\b|\b(?:by|for an?|for any)\s+(?:area|local area|neighbourhood)\b",
    re.IGNORECASE,
)


def finds_any_place(row: Mapping[str, object]) -> bool:
    """Whether a record is a service that finds things for any place: not a dataset, whose
    "map" or "lookup" is a file (ONS's "Ward to Local Authority Lookup", a map layer)."""
    return row.get("resourceType") != "dataset" and bool(
        _FINDS.search(f"{row.get('title', '')} {row.get('summary', '')}")
    )


def finders_first(ranked: list[Ranked], rows: Sequence[Mapping[str, object]]) -> None:
    """Where the catalogue holds nothing local for the query (nothing about the place
    it names, or the asker's own place, named nowhere), lift the services that find,
    search, map or look up (rules.FINDER_BOOST), within each mode: the answer for any
    place. Over all place and "near me" queries it lowered a named place's own records
    ("allotments Gateshead"); only where there are none, it lifts the finders
    (docs/ranking.md)."""
    for item, row in zip(ranked, rows):
        if item.mode != "identifier" and finds_any_place(row):
            item.score *= rules.FINDER_BOOST
            item.reasons.append("finds_any_place")
    in_answer_order(ranked)


# Words a place's name writes in lower case ("Vale of Glamorgan", "Newcastle-under-Lyme").
_LOWER_IN_NAMES = frozenset({"and", "of", "on", "upon", "under", "the", "le", "in", "with"})


def as_written(place: str) -> str:
    """A place as typed (lower case) with its name's capitals: "Bath and North East Somerset"."""
    return re.sub(r"\w+", lambda word: word[0] if word[0] in _LOWER_IN_NAMES else word[0].capitalize(), place)


def local_example(text: str, publishers: Mapping[str, int], places: Collection[str]) -> str | None:
    """The query as it would read naming the place of the local authority that
    publishes most of the answer's records (`publishers`: the answer's counts,
    over every word matched), so the notice's example finds that council's
    records first: "libraries near me" -> "libraries in Leeds". None when no
    council the estate knows as a place publishes any."""
    found = _HERE.search(text)
    councils = [
        (-count, name, place)
        for name, count in publishers.items()
        if count and LOCAL_AUTHORITY.search(name) and (place := _place_name(name, places))
    ]
    if found is None or not councils:
        return None
    place = min(councils)[2]
    before, after = text[: found.start()].strip(), text[found.end() :].strip()
    here = found[0].lower()
    if here.startswith("my"):  # "libraries in my area" -> "libraries in Leeds"
        parts = (before, place, after)
    elif here.startswith("where"):  # "libraries where I live" -> "libraries in Leeds"
        parts = (before, f"in {place}", after)
    else:  # "nearest library", "libraries near me" -> "library in Leeds", "libraries in Leeds"
        parts = (before, after, f"in {place}")
    return " ".join(part for part in parts if part)


# How local authorities name themselves: "<place> City Council", "London Borough of <place>" ...
# (govsearch_build.places reads the estate's place words from the same names).
COUNCIL_NAMES = (
    re.compile(
        r"^(?P<place>.+?)\s+(?:City|Borough|District|County|Metropolitan Borough|Metropolitan District|London Borough)?"
        r"\s*Council$"
    ),
    re.compile(
        # "Comhairle nan Eilean Siar": the Western Isles' council, named in Gaelic.
        r"^(?:London Borough of|Royal Borough of|City of|Borough of|Borough Council of|Council of the"
        r"|City and County of|County of|Comhairle nan)"
        r"\s+(?P<place>.+?)(?:\s+Council)?$"
    ),
    re.compile(r"^(?P<place>.+?)\s+National Park Authority$"),
    # The one council GOV.UK's list names by its place and "City" alone; not any "<Word> City"
    # ("Hull City", "Garden City").
    re.compile(r"^(?P<place>Derby)\s+City$"),
)


# A possessive's "s" as name_key reads it ("king s lynn"), and the joints of a name of several places.
_POSSESSIVE_S = re.compile(r"(?<=\w) s\b")
_JOINED = re.compile(r" (?:and|with) ")

# Words a place's name opens or ends with that say what kind of body or place it is, not which
# ("City of York", "Bridgend County", "St Albans City and District").
GENERIC_NAME_WORDS = frozenset(
    "city of the and royal upon on le in with borough district county council metropolitan".split()
)
_LETTERS = re.compile(r"[A-Za-z]+")


def name_key(place: str) -> str:
    """A place's name as a key: its words in lower case ("&" read as "and"), less the generic
    words it opens or ends with: "City of York" and "York" are "york", "City and County of
    Swansea" "swansea", "Rhondda Cynon Taf County Borough" "rhondda cynon taf"."""
    words = [word.lower() for word in _LETTERS.findall(place.replace("&", " and "))]
    while words and words[0] in GENERIC_NAME_WORDS:
        words.pop(0)
    while words and words[-1] in GENERIC_NAME_WORDS:
        words.pop()
    return " ".join(words)


def possessive_joined(key: str) -> str:
    """A name key with a possessive's "s" joined to its word ("king s lynn", as name_key reads
    "King's Lynn", is "kings lynn"): one key however the apostrophe is written, or left out."""
    return _POSSESSIVE_S.sub("s", key)


def joined_places(name: str) -> list[str]:
    """The places a name of several joins with "and" or "with", as name keys ("epsom" and "ewell"
    of "epsom and ewell", "blackburn" and "darwen" of "blackburn with darwen", "swansea" of "city
    and county of swansea"); none for a name of one place. Not "of": "vale of white horse" is one
    place, and "white" alone no council's."""
    parts = [name_key(part) for part in _JOINED.split(name)]
    return [part for part in parts if part] if len(parts) > 1 else []


def council_area(publisher: str) -> str:
    """The area a local authority is the council of, as a name key ("" for a publisher that is
    none; a National Park Authority runs a park, not a council area)."""
    place = council_place(publisher)
    return "" if place is None or publisher.endswith("National Park Authority") else name_key(place)


def council_place(publisher: str) -> str | None:
    """The place a local authority's name names, as it writes it ("Vale of Glamorgan"
    of "Vale of Glamorgan Council", "Camden" of "London Borough of Camden"), or None."""
    for pattern in COUNCIL_NAMES:
        found = pattern.match(publisher)
        if found:
            return found["place"]
    return None


def _place_name(publisher: str, places: Collection[str]) -> str:
    """A council's place as people write it, when a word of it is one the estate
    knows as a place (so the example's search prefers it); "" otherwise."""
    place = council_place(publisher) or ""
    return place if any(word.lower() in places for word in re.findall(r"[A-Za-z]+", place)) else ""


def titled_as_typed(title: str, words: Sequence[str]) -> bool:
    """Whether the title holds each word as typed or in its other number
    ("library" for "libraries"), not only its stem: "parking" and a National
    Park's "Park" share the stem "park" and nothing else."""
    held = {singular(word) for word in re.findall(r"\w+", title.lower())}
    return all(singular(word) in held for word in words)


# A full UK postcode ("SW1A 1AA", "m1 1ae"): the catalogue holds no postcode's place.
_POSTCODE = re.compile(r"\b[A-Z]{1,2}[0-9][A-Z0-9]?\s*[0-9][A-Z]{2}\b", re.IGNORECASE)


def names_a_postcode(text: str) -> bool:
    """Whether the query holds a full UK postcode."""
    return _POSTCODE.search(text) is not None
