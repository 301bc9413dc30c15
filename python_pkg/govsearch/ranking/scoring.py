"""A tier's records in order: lunr's score x the record prior (x its share
in any_term), then the index's evidence (rules.evidence_score), keeping only
the records that can still reach the `room` best."""

from __future__ import annotations

from . import rules
from .coverage import Coverage
from .index_evidence import in_title, intent_profiles, naming_intent, placed, titled_by_words
from .prior import RankingData
from .query import has_topic, preference
from .related import with_alternatives
from .series import names_date
from .state import QueryState, Ranked, Tier


def rank_tier(state: QueryState, tier: Tier, room: int) -> list[Ranked]:
    """The `room` best of a tier's records by lunr score x prior x title and intent evidence."""
    if tier.best is not None:
        return tier.best[:room]
    numbers = tier.numbers
    if not numbers:
        return []
    if tier.mode == "identifier":
        return [Ranked(number, 1.0, tier.mode, ["identifier"]) for number in numbers[:room]]
    engine = state.engine
    # What the query's intent words ask for, before the work budget left any out (as its notices say).
    kinds = {kind for term in state.terms for kind in term.intent}
    visits = state.ranking.visits_apply(kinds)
    scores, priors = tier.matches.scores, state.ranking.priors_for(kinds)
    base = [scores[number] * priors[number] for number in numbers] if priors else [scores[number] for number in numbers]
    # A place beside the topic is a preference (index_evidence.placed), not information a record must hold.
    topic = has_topic(tier.terms)
    words = [(term, clause) for term, clause in zip(tier.terms, tier.clauses) if not preference(term, topic)]
    coverage, titled_by = None, set()
    if tier.mode == "any_term" and len(words) > 1:
        # A record scores the share of the query's information it holds, each word as typed
        # or as one of the related words the tier searched (its clauses after the terms').
        related = {clause.term for clause in tier.clauses[len(tier.terms) :]}
        common = state.ranking.search_terms.common_word
        coverage = Coverage(
            engine,
            with_alternatives(engine, words, related),
            [common(term) for term, _ in words],
            [names_date(term) for term, _ in words],
        )
        # A title holding several of the words says what the record is about: before the share,
        # so the share's pruning (Coverage.scored) sees the scores the tier ranks by.
        titled_by = titled_by_words(engine, [clause for _, clause in words])
        base = [
            score * rules.TITLE_WORDS_BOOST if number in titled_by else score for number, score in zip(numbers, base)
        ]
    titled = in_title(engine, tier.terms, tier.clauses)
    wanted = intent_profiles(engine, tier.terms)
    located = placed(engine, tier.terms, tier.clauses, topic)
    boost = rules.largest_boost(bool(wanted), bool(located))
    if coverage:
        numbers, base = coverage.scored(numbers, base, room, boost)
    if len(numbers) > room:
        # Only records that the largest boost could lift to the room-th best base score can make it.
        numbers, base = rules.near_top(numbers, base, room, boost)
    profile_of = engine.facets.profiles[0]
    named = naming_intent(engine, tier.terms, tier.clauses) if wanted else set()
    asked = {number for number in numbers if profile_of[number] in wanted or number in named} if wanted else set()
    boosted = [
        rules.evidence_score(score, number in titled, number in asked, number in located)
        for number, score in zip(numbers, base)
    ]
    if len(numbers) > room:
        numbers, boosted = rules.near_top(numbers, boosted, room, 1)
    best = sorted(zip(numbers, boosted), key=lambda item: rules.rank_key(item[1], item[0]))[:room]
    return [
        Ranked(
            number,
            score,
            tier.mode,
            reasons(
                state.ranking,
                tier.mode,
                number,
                number in titled,
                number in asked,
                number in located,
                number in titled_by,
                visits,
            ),
        )
        for number, score in best
    ]


def reasons(
    ranking: RankingData,
    mode: str,
    number: int,
    in_title: bool,
    intended: bool,
    placed: bool = False,
    titled_by: bool = False,
    visits: bool = True,
) -> list[str]:
    """The rules that applied to a record: its flags, then its evidence."""
    found = ranking.prior_names(number, visits)
    if in_title:
        found.append("all_words_in_title")
    elif titled_by:
        found.append("words_in_title")
    if intended:
        found.append("type_matches_intent")
    if placed:
        found.append("place_matches")
    if mode == "fuzzy":
        found.append("typo_corrected")
    return found
