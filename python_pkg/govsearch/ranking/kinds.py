"""The kind of resource a query asks for by name leads its answer.

"is there an api for fcdo travel advice", "how can i check a vehicle's mot
history with an api": the word "api" asks for an API and is never the topic
(as "data" is in "data protection"), yet a service's page holding more of
the other words outscores the API ("Foreign travel advice", "Check the MOT
history of a vehicle"), and the type's boost (rules.INTENT_BOOST) cannot
be raised without lifting APIs above better matches further down
(docs/ranking.md, session 30). So the first window's best-placed record of
that kind comes first, whatever its mode, if its title names the topic:
"met office weather api" (the catalogue holds no such API) is not led by
"ONS Beta API", found by "office". The site's config names the words that
lead ([search] leading_intents).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from .query import Term, has_topic, preference
from .state import Ranked
from .vocabulary import SearchTerms


def kind_first(
    ranked: list[Ranked],
    rows: Sequence[Mapping[str, object]],
    kinds: Collection[str],
    terms: Sequence[Term],
    search_terms: SearchTerms,
) -> None:
    """Put the best-placed record whose resource type is one of `kinds` first
    (after records the query identifies), reason `kind_asked_for`, when its
    title holds a topic word of the query (not an intent word or a place);
    no change when one already leads or none is in the window."""
    start = next((place for place, item in enumerate(ranked) if item.mode != "identifier"), len(ranked))
    found = next((place for place in range(start, len(ranked)) if rows[place].get("resourceType") in kinds), None)
    if found is None or found == start or not _titled_by_topic(rows[found], terms, search_terms):
        return
    item = ranked.pop(found)
    item.reasons.append("kind_asked_for")
    ranked.insert(start, item)


def _titled_by_topic(row: Mapping[str, object], terms: Sequence[Term], search_terms: SearchTerms) -> bool:
    """Whether the title holds a topic word of the query (not an intent word, not a place beside a
    topic). One is enough: two lost "where can i get air quality data through an api" ("UK-AIR
    Sensor Observation Service"), and one lets "api for school holidays" lead with "Bank Holidays"."""
    topical = has_topic(terms)
    topic = {term.indexed for term in terms if not preference(term, topical) and not term.prefix}
    return not topic.isdisjoint(search_terms.collapsed(str(row.get("title", ""))))
