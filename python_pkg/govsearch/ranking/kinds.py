"""The kind of resource a query asks for leads its answer.

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

A question asking which body does something ("who runs companies house",
"which department is responsible for bus services": search.openings read
"which department" as "who") asks for an organisation, yet the pages of the
body that does it hold its words, and the body's own record, titled by its
name, holds few of them (UK Visas and Immigration stood sixth below its own
services for "which government department deals with immigration"). The
first results say which body it is: they come from it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from itertools import islice

from . import rules
from .identifiers import name_words
from .query import Term, has_topic, preference, unneeded_optional
from .series import result_leads
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
    title holds a topic word of the query (not an intent word, a place or an
    optional word beside a required one); no change when one already leads or
    none is in the window."""
    start = _first_word_match(ranked)
    found = next((place for place in range(start, len(ranked)) if rows[place].get("resourceType") in kinds), None)
    if found is None or found == start or not _titled_by_topic(rows[found], terms, search_terms):
        return
    item = ranked.pop(found)
    item.reasons.append("kind_asked_for")
    ranked.insert(start, item)


def _titled_by_topic(row: Mapping[str, object], terms: Sequence[Term], search_terms: SearchTerms) -> bool:
    """Whether the title holds a topic word of the query (not an intent word, not a place beside a
    topic, not an optional word beside a required one: "Official Search of Whole" is no API that
    "find the official api for flood warnings" asks for). One is enough: two lost "where can i
    get air quality data through an api" ("UK-AIR Sensor Observation Service"), and one lets "api
    for school holidays" lead with "Bank Holidays"."""
    topical = has_topic(terms)
    topic = {
        term.indexed
        for term, unneeded in zip(terms, unneeded_optional(terms))
        if not preference(term, topical) and not term.prefix and not unneeded
    }
    return not topic.isdisjoint(search_terms.collapsed(str(row.get("title", ""))))


def body_first(ranked: list[Ranked], rows: Sequence[Mapping[str, object]], terms: Sequence[Term]) -> None:
    """For a question asking which body (a "who" intent: organisations), put first the
    organisation that publishes most, two or more, of the answer's first
    rules.BODY_FROM results (a series counted once, as the answer shows it; organisations
    left out of the count; a tie goes to the body placed first), reason `kind_asked_for`,
    where the window holds its record. No change when an organisation leads already; and
    none where the query asks for a kind by name (stages: kind_first's lead, "who provides
    the mot history api", is what it asks for)."""
    if not any("organisation" in term.intent for term in terms):
        return
    start = _first_word_match(ranked)
    if start == len(ranked) or rows[start].get("resourceType") == "organisation":
        return
    body = _leading_publisher(rows[start:])
    found = next((place for place in range(start, len(ranked)) if _is_body(rows[place], body)), None)
    if body is None or found is None:
        return
    item = ranked.pop(found)
    item.reasons.append("kind_asked_for")
    ranked.insert(start, item)


def _first_word_match(ranked: Sequence[Ranked]) -> int:
    """Where the answer's word matches begin: after the records the query identifies."""
    return next((place for place, item in enumerate(ranked) if item.mode != "identifier"), len(ranked))


def _leading_publisher(rows: Sequence[Mapping[str, object]]) -> str | None:
    """The publisher of most (two or more) of the first rules.BODY_FROM results that are no
    organisations, a series counted once (series.group_of), as a name key; None for none."""
    first = [rows[at] for at in islice(result_leads(rows), rules.BODY_FROM)]
    publishers = Counter(
        name_words(str(row["publisher"]))
        for row in first
        if row.get("resourceType") != "organisation" and row.get("publisher")
    )
    if not publishers:
        return None
    body, count = publishers.most_common(1)[0]
    return body if count >= 2 else None


def _is_body(row: Mapping[str, object], body: str | None) -> bool:
    """Whether a row is the organisation record of the body (a name key)."""
    return row.get("resourceType") == "organisation" and name_words(str(row.get("title", ""))) == body
