"""What the index says about a tier's records, before any row is read: which
hold a word, every word in the title, a resource type an intent word asks
for, a place the query names."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from functools import partial

from ..engine import SearchEngine
from ..loaders import gather
from ..terms import Clause
from . import rules
from .analysis import analysed
from .nearby import council_area, possessive_joined
from .query import Term, named_places, preference


def records_holding(engine: SearchEngine, clause: Clause, fields: Sequence[str] = rules.FIELDS) -> set[int]:
    """Every record holding the word (any of its expansions) in any of `fields` (all by default).

    One set of the word's records (its lists joined in C) rather than a
    search of every list per record: thousands of records, a few ms in Pyodide."""
    held: set[int] = set()
    for holding in engine.matcher.members(clause, list(fields)).values():
        for found in holding.values():
            held.update(found)
    return held


def in_title(engine: SearchEngine, terms: list[Term], clauses: list[Clause]) -> set[int]:
    """Records with every non-intent query word (any of its expansions) in the title."""
    return titled_by_all(engine, [clause for term, clause in zip(terms, clauses) if not term.intent] or clauses)


def area_clauses(area: str) -> list[Clause]:
    """The words of a council area's name as the index holds them: what a record about the area
    holds in its title or publisher ("west sussex": "west", "sussex")."""
    return [Clause(indexed, "optional") for _, indexed in analysed(area)]


def read_areas(engine: SearchEngine, terms: list[Term]) -> None:
    """Read the postings of the council areas of the towns the query names beside its topic,
    which `placed` and councils.candidates read later: in the browser they then come in the
    same rounds of downloads as the query's own words, not in a round of their own."""
    named = named_places(terms)
    # And a possessive's place without its apostrophe, which councils.candidates also reads ("king s lynn").
    unpossessed = {spelt for place in named if (spelt := possessive_joined(place)) != place}
    areas = sorted({area for area in named.values() if area} | unpossessed)
    gather(*(partial(engine.matcher.members, clause, []) for area in areas for clause in area_clauses(area)))


def titled_by_all(engine: SearchEngine, clauses: Sequence[Clause]) -> set[int]:
    """Records whose title holds every one of these words (any of its expansions)."""
    return holding_all(engine, clauses, ("title",))


def holding_all(engine: SearchEngine, clauses: Sequence[Clause], fields: Sequence[str]) -> set[int]:
    """Records holding every one of these words (any of its expansions), each in one of `fields`."""
    holders: set[int] | None = None
    for clause in clauses:
        found = records_holding(engine, clause, fields)
        holders = found if holders is None else holders & found
        if not holders:
            return set()
    return holders or set()


def published_by_council(engine: SearchEngine, numbers: Iterable[int], area: str) -> set[int]:
    """Those of the records whose publisher is the council of the area (`area`, a name key:
    nearby.council_area): Lincolnshire County Council's for "lincolnshire", not North
    Lincolnshire Council's, another council's area."""
    published = engine.facets.publishers(numbers)
    return {number for number, names in published.items() if any(council_area(name) == area for name in names)}


def organisations(
    engine: SearchEngine, numbers: Iterable[int], filters: Mapping[str, frozenset[str]] | None = None
) -> list[int]:
    """Those of the records that are organisations, passing `filters` (their profiles read)."""
    numbers = set(numbers)
    if not numbers:
        return []
    engine.facets.require(numbers)
    profile_of, values = engine.facets.profiles
    bodies = {profile for profile in {profile_of[number] for number in numbers} if "organisation" in values[profile][0]}
    passing = engine.passing(bodies, filters) if filters else bodies
    return sorted(number for number in numbers if profile_of[number] in passing)


def titles_a_body(engine: SearchEngine, clauses: list[Clause]) -> bool:
    """Whether an organisation's title holds every word of the query, intent words too
    ("companies house data" is no body's name): only then may the query be a body's
    whole name (identifiers.name_key), worth a lookup."""
    return bool(organisations(engine, titled_by_all(engine, clauses)))


def titled_by_words(engine: SearchEngine, words: list[Clause]) -> set[int]:
    """Records whose title holds rules.TITLE_WORDS or more of these words (each as
    typed or one of its expansions; not its related words, which only find records)."""
    held: Counter[int] = Counter()
    for clause in words:
        held.update(records_holding(engine, replace(clause, alternatives=()), ("title",)))
    return {number for number, count in held.items() if count >= rules.TITLE_WORDS}


def intent_profiles(engine: SearchEngine, terms: list[Term]) -> set[int]:
    """The facet profiles whose resource type an intent word of the query asks for."""
    types = {kind for term in terms for kind in term.intent}
    if not types:
        return set()
    return {profile for profile, values in enumerate(engine.facets.profiles[1]) if not types.isdisjoint(values[0])}


# Intent words a title holds as part of a thing's name as often as to say its kind: "Price Paid
# Data" is the dataset, and "How to access HM Land Registry Price Paid Data" a guide to it.
NAMING_WORDS = frozenset({"data", "dataset", "datasets"})


def naming_intent(engine: SearchEngine, terms: list[Term], clauses: list[Clause]) -> set[int]:
    """Records whose title names an intent word of the query ("Universal Credit statistics", a
    GOV.UK page, for "how many people claim universal credit": read as "statistics"): whatever
    their resource type, they are the kind asked for (not for NAMING_WORDS)."""
    found: set[int] = set()
    for term, clause in zip(terms, clauses):
        if term.intent and not term.prefix and term.typed not in NAMING_WORDS:
            found |= records_holding(engine, clause, ("title",))
    return found


def placed(engine: SearchEngine, terms: list[Term], clauses: list[Clause], topic: bool) -> set[int]:
    """Records holding a place the query names beside its topic (every word of a
    place named in several, "North Yorkshire"). In any_term a
    record holding the place alone shares none of the topic (coverage scores
    it 0), so the boost never brings a place's unrelated records back."""
    named = ("title", "publisher")  # a record about the place names it there, not in passing
    places: dict[str, set[int]] = {}
    for term, clause in zip(terms, clauses):
        if term.place and preference(term, topic):
            holders = records_holding(engine, clause, named)
            # A place of several words is held by records holding every one of them.
            places[term.place] = places[term.place] & holders if term.place in places else holders
    if not places:
        return set()
    for place, area in named_places(terms).items():
        if area:  # a town's records are its council area's too ("skegness": Lincolnshire's)
            places[place] |= published_by_council(engine, holding_all(engine, area_clauses(area), named), area)
    # The topic in the record's own words (its publisher's too: "leeds city council"), not only in a
    # catalogue theme among its keywords: Bristol's "Allotment Plots" holds "population" only as its
    # theme "Population and statistics".
    about = ("title", "publisher", "summary", "body")
    topical: set[int] = set()
    for term, clause in zip(terms, clauses):
        if not preference(term, topic):
            topical |= records_holding(engine, clause, about)
    return set().union(*places.values()) & topical
