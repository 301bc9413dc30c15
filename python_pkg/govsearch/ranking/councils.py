"""A place's own council, where the catalogue holds nothing local on the topic.

"edinburgh residents parking permit", "bin collection leeds": the estate holds
GOV.UK's page for any place and no record of that council's permits or bins;
the council's own website, where the service is, is the next answer. Its
record holds the place and none of the topic, so the tiers rank it below every
record holding the topic, past the first window: it is found by the index (an
organisation titled by the place) and put right after the first record that
says the council is where it is done ("Points you to your local council to
apply for a parking permit"): reason `place_council`, mode `any_term` (it
holds one word of the query). A query that says "council" itself ("Cornwall
council planning application search") says so first: the council comes
second. Where neither says so ("aberdeen hmo licence": the catalogue holds no HMO
licensing page, only census counts of HMOs), it comes all the same, unless a
result before it finds any place (ranking.nearby: "Search sold property
prices" for "house prices in Leeds", "Police API" for "crime in
Nottingham"): that record answers for the place, and a council's homepage
says nothing of prices or crime. Never later than second where the answer
leads with a service's page (the council is where a service is done), or
fourth where it leads with a dataset ("population of Cornwall": a figure
the council's homepage does not give)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from itertools import islice
from typing import Any

from ..engine import SearchEngine
from ..terms import Clause
from . import rules
from .identifiers import name_words
from .index_evidence import area_clauses, organisations, titled_by_all
from .nearby import council_area, council_place, joined_places, possessive_joined
from .query import Term, named_places
from .series import result_leads
from .state import Ranked

# More organisations than this titled by a place's words: the words are no one council's name.
MOST = 8


def candidates(
    engine: SearchEngine, terms: Sequence[Term], clauses: Sequence[Clause], filters: Mapping[str, frozenset[str]]
) -> dict[int, str]:
    """The organisation records whose title holds every word of a place the query names beside
    its topic, or of the council area of a town it names ("skegness": Lincolnshire's), passing
    the call's filters, each with that place's (or area's) name key."""
    found: dict[int, str] = {}
    for place, area in named_places(terms).items():
        words = [clause for term, clause in zip(terms, clauses) if term.place == place]
        # The area first: a council titled by the town's word and its area ("bath": Bath and North
        # East Somerset Council) is the area's, by whose name put_council_in knows it.
        # A possessive's place is also read without its apostrophe, as a council may write it
        # ("King's Lynn" of "Borough Council of Kings Lynn and West Norfolk").
        unpossessed = possessive_joined(place)
        spelt = [(unpossessed, area_clauses(unpossessed))] if unpossessed != place else []
        for name, holding in ((area, area_clauses(area) if area else []), (place, words), *spelt):
            bodies = organisations(engine, titled_by_all(engine, holding), filters) if holding else []
            if len(bodies) <= MOST:
                found.update({body: name_words(name) for body in bodies if body not in found})
    return found


# A record saying the council is where it is done: "your local council", "the council responsible
# for the road", "Council Tax"; not a council's homes ("buying your council home"). Or the local
# authority, yours or by its duty: "apply to your local planning authority", "the local highway
# authority"; not "the local authority" alone, which ONS's lookups and geographies say
# ("the local authority districts") and every table "by local authority".
_COUNCILS_OWN = re.compile(
    r"\b(?:your|local|the)\s+council(?:'s)?\b(?!\s+(?:homes?|house|houses|housing|tenants?|flats?)\b)"
    r"|\bcouncil\s+tax\b"
    r"|\byour\s+local\s+(?:\w+\s+)?authority\b"
    r"|\blocal\s+(?:planning|highways?|education|housing|licensing)\s+authorit(?:y|ies)\b",
    re.IGNORECASE,
)


def asks_for_council(terms: Sequence[Term]) -> bool:
    """Whether the query's words say a council does it ("Cornwall council planning", "cornwall
    council's car parks"), as typed or as a question's opening reads them ("which council is X
    in" reads "local council": search.openings)."""
    return any(not term.synonym and term.indexed.rstrip("'") == "council" for term in terms)


def put_council_in(
    ranked: list[Ranked], found: Mapping[int, str], rows: Mapping[int, Mapping[str, Any]], asked: bool = False
) -> None:
    """Put the place's own council (the candidate whose title, or a place its council's
    name names, "Leeds" of "Leeds City Council", "epsom" of "Epsom and Ewell Borough Council",
    is the place named; _names) right after the first
    record that says the council does it, or the first result where the query `asked` for
    the council (asks_for_council), but no later than after the answer's first
    rules.COUNCIL_AFTER results, or rules.COUNCIL_AFTER_SERVICE where the first is no
    dataset (_council_after; a series counted once, as the answer shows it); where
    neither says so, there, unless a record among those results finds any place. Not when
    the answer holds the council already."""
    said = (
        0
        if asked
        else next((at for at, item in enumerate(ranked) if _COUNCILS_OWN.search(_text(rows[item.number]))), None)
    )
    after = _after_results(ranked, rows, _council_after(rows[ranked[0].number]))
    if said is not None:
        after = min(said + 1, after)  # a record saying so far down says it no less
    elif any("finds_any_place" in item.reasons for item in ranked[:after]):
        return
    shown = {item.number for item in ranked}
    for number, place in found.items():
        title = str(rows[number].get("title", ""))
        if number not in shown and council_place(title) is not None and place in _names(title):
            ranked.insert(after, Ranked(number, ranked[after - 1].score, "any_term", ["place_council"]))
            return


def _council_after(first: Mapping[str, Any]) -> int:
    """How many results come before the council at most: one where the answer leads with a
    service's page ("Apply for a Blue Badge", "Planning permission"), which sends the asker to
    the council; more where it leads with a dataset, a figure the council's homepage does not
    give ("population of Cornwall": the estimates first)."""
    return rules.COUNCIL_AFTER if first.get("resourceType") == "dataset" else rules.COUNCIL_AFTER_SERVICE


def _after_results(ranked: Sequence[Ranked], rows: Mapping[int, Mapping[str, Any]], count: int) -> int:
    """Where the answer's result after its first `count` begins (series.result_leads), or the end."""
    leads = result_leads([rows[item.number] for item in ranked])
    return next(islice(leads, count, None), len(ranked))


def _text(row: Mapping[str, Any]) -> str:
    return f"{row.get('title', '')} {row.get('summary', '')}"


def _names(title: str) -> set[str]:
    """A council's name and the places it names, as name keys: "City of Edinburgh Council",
    "City of Edinburgh", "Edinburgh" (nearby.council_place, read again while it finds one),
    its area's key ("rhondda cynon taf" of "Rhondda Cynon Taf County Borough Council"), and
    each place a name of several joins ("epsom" and "ewell" of "Epsom and Ewell Borough
    Council", "blackburn" of "Blackburn with Darwen"): a query naming one of them is the
    council's, as its towns are (GeoNames puts Epsom in Surrey, not in its district)."""
    places = {council_area(title)} - {""}
    place: str | None = title
    while (place := council_place(place)) and name_words(place) not in places:
        places.add(name_words(place))
    return {name_words(title), *places, *(part for name in places for part in joined_places(name))}
