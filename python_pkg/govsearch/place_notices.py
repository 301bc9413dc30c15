"""What a search answer says of the place its query asks about (ranking.nearby
reads the query; this module words the notices and finds their example).

Before the search: a full postcode the catalogue cannot place
(`postcode_not_searched`), and a question about the asker's own place that
names none (`place_not_named`). After it: that notice's example, the query
naming the place of a council whose records answer it, and a place named
beside the topic that no result is about (`place_not_matched`)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from .ranking.nearby import (
    as_written,
    local_example,
    names_a_postcode,
    titled_as_typed,
    unmatched_places,
)

if TYPE_CHECKING:
    from . import ranking
    from .catalogue import Catalogue
    from .ranking.query import Term

PLACE_NOT_NAMED = (
    "The search does not know where you are, so these results are not local to you. "
    "Add a town or council to put its records first"
)
POSTCODE_NOT_SEARCHED = (
    "The catalogue cannot tell which town or council a postcode is in, so it searched the postcode as words. "
    "Search with the town or council's name instead."
)
# The example names a council that publishes records of the answer (ranking.nearby.local_example).
PLACE_EXAMPLE = " (for example ‘{example}’)"
PLACE_NOT_MATCHED = (
    "None of these results is about {places}: they are national or for other places "
    "(the catalogue may hold nothing local on this)."
)
# ... where the answer holds the place's own council (ranking.councils) for the service.
PLACE_COUNCIL_ONLY = (
    "The catalogue holds nothing about {places} on this but the council's own website: "
    "the other results are national or for other places."
)


def before_search(text: str, here: bool) -> list[dict[str, Any]]:
    """The notices the query alone decides: a postcode, and the asker's own place (`here`:
    nearby.asks_for_here, which the ranking reads too)."""
    notices = []
    if names_a_postcode(text):
        notices.append({"code": "postcode_not_searched", "message": POSTCODE_NOT_SEARCHED})
    if here:
        notices.append({"code": "place_not_named", "message": PLACE_NOT_NAMED})
    return notices


def after_search(
    catalogue: Catalogue,
    text: str,
    terms: list[Term],
    found: ranking.Answer,
    before: list[dict[str, Any]],
    offset: int,
) -> list[dict[str, Any]]:
    """Finish `before`'s place_not_named with its example (a link on the search page: its
    `suggestions`), and the place_not_matched notice (over the whole first window, so
    every limit says the same; not on later pages)."""
    for here in (notice for notice in before if notice["code"] == "place_not_named"):
        # Spelt as the suggestion spells it: "recyling centre near me" -> "recycling centre in Barrow".
        asked = found.suggestion or text
        places = catalogue.ranking.search_terms.places
        example = local_example(asked, _publishers_titled_by_every_word(catalogue, terms, found), places)
        here["message"] += (PLACE_EXAMPLE.format(example=example) if example else "") + "."
        if example:
            here["suggestions"] = [example]
    unmatched = [] if offset else unmatched_places(terms, [(item.reasons, item.score) for item in found.ranked])
    if not unmatched:
        return []
    # A town's council area says why that council's website is the answer ("Skegness (in Lincolnshire)").
    areas = {term.place: term.area for term in terms if term.area}
    places = " or ".join(
        as_written(place) + (f" (in {as_written(areas[place])})" if place in areas else "") for place in unmatched
    )
    council = any("place_council" in item.reasons for item in found.ranked)
    message = (PLACE_COUNCIL_ONLY if council else PLACE_NOT_MATCHED).format(places=places)
    return [{"code": "place_not_matched", "message": message}]


def _publishers_titled_by_every_word(catalogue: Catalogue, terms: list[Term], found: ranking.Answer) -> Counter[str]:
    """How many of the first window's records titled by every word (all_terms, or
    fuzzy's reading) each publisher has, with their series: a council's records
    of these put first by naming its place answer the query, where one holding a
    word or two ("area" of "crime in my area") would not, nor one titled by a word
    of the same stem ("parking near me" once offered "parking in Brecon Beacons",
    whose National Park's records are titled "Park")."""
    engine = catalogue.engine
    typed = [term.typed for term in terms if not (term.intent or term.place or term.synonym or term.prefix)]
    leads = [
        item for item in found.ranked if item.mode in ("all_terms", "fuzzy") and "all_words_in_title" in item.reasons
    ]
    exact = [item.number for item in leads if item.mode == "all_terms"]  # fuzzy's words are not as typed
    catalogue.store.require(exact)
    titles = {number: catalogue.store.row(number)["title"] for number in exact}
    numbers = [
        number
        for item in leads
        if item.number not in titles or titled_as_typed(titles[item.number], typed)
        for number in (item.number, *item.others)
    ]
    # A newest edition placed from beyond the windows read may have no profile read yet (sharded).
    published = engine.facets.publishers(numbers)
    return Counter(publisher for number in numbers for publisher in published[number])
