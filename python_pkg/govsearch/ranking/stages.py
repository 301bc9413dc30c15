"""The ranking stages of one call: the tiers' records ranked by what the
index holds (kept per call: the browser asks again once the rows it needs
have arrived), then reordered by row evidence within each mode, each
series put behind its best-placed record, an older edition's place
given to the newest edition of the same thing, and last the first page
re-weighed by weights fitted on judged queries (ranking.learned)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import chain
from typing import Any

from ..engine import Matches, filters_key
from ..loaders import MissingFiles, gather
from ..terms import Clause
from . import councils, learned, rules, series
from .budget import call_budget
from .evidence import exact_words, phrase_words, row_evidence
from .kinds import body_first, kind_first
from .nearby import finders_first, unmatched_places
from .query import Term, clauses_for
from .scoring import rank_tier
from .state import Answer, QueryState, Ranked, Rows
from .suggestions import matched_fields
from .tiers import tiers as tiers_of


def answer(state: QueryState, rows: Rows) -> Answer:
    """The query's records in order: records the query identifies, then tier
    by tier, each tier ordered by its re-ranked score, each series behind its
    best-placed record (ranking.series), led by its newest edition where
    `_newest_leads` says, the first page re-weighed last (ranking.learned);
    `rows` reads the rows of records
    (for row evidence and series). `state.strict_only`: no looser mode (the
    filters pass nothing, so none could find more).

    `state.start` (only the search page's "show more" moves it; agents always
    get 0): the POOL records from there, and while series leave fewer than
    WINDOW_TARGET results, the next POOL (at most WINDOWS windows). Row
    evidence reorders each window alone, so a window is the same whichever
    answer reads it, and pages the search page asks for in steps of POOL
    never skip a record (the page leaves out what an earlier page showed).
    """
    first, pool = _window(state, rows, foretell=rules.WINDOWS > 1)
    ranked = list(first.ranked)
    windows = 1
    while ranked:
        # Grouping sets each lead's `others`: on copies, as the windows' records are kept for later calls.
        grouped = series.grouped_answer(state.terms, [item.fresh() for item in ranked], pool)
        reached = state.start + rules.POOL * windows
        if len(grouped) >= rules.WINDOW_TARGET or windows == rules.WINDOWS or first.total <= reached:
            ranked = grouped
            break
        later, rows_later = _window(state.at(reached), rows)
        # A record put in where no tier reached it (ranking.councils) may be a later window's too.
        shown = {item.number for item in ranked}
        ranked += [item for item in later.ranked if item.number not in shown]
        pool.update(rows_later)
        windows += 1
    leads = _newest_leads(state, replace(first, ranked=ranked), rows)
    if not state.start:  # the first page only: a later window keeps its order, as in _second_stage
        leads = learned.reorder(leads, rows)
    return replace(first, ranked=leads, tiers=_tiers(state, first, ranked))


def _tiers(state: QueryState, first: Answer, ranked: list[Ranked]) -> list[tuple[str, list[Term], list[Clause]]]:
    """The answer's tiers, and any_term's where a record was put in that no tier found
    (ranking.councils: the answer names the words each result matched by its tier)."""
    modes = {mode for mode, _, _ in first.tiers}
    if all(item.mode in modes for item in ranked):
        return first.tiers
    return [*first.tiers, ("any_term", state.terms, clauses_for(state.terms, "any_term"))]


def _newest_leads(state: QueryState, answer: Answer, rows: Rows) -> list[Ranked]:
    """Each group led by an older dated edition is led by the newest edition
    of the same thing (series.newest_editions) instead, in the same place,
    with the rest behind it: whether the answer holds the newest behind the
    lead (a looser mode found it) or not at all (it matched less well, or
    lay beyond the windows read). Only when the newest holds every query
    word the lead holds (so the lead's mode is its mode too) and passes the
    filters; not for a record the query names (identifier), nor when the
    query names a year or a month (series.names_a_date: it asks for those
    editions). A newest edition the answer lacks has its row (and, under
    filters, its profile) read in the round of downloads that checks it,
    or with the window's rows when the series table foretold it (_foretold)."""
    ranked = answer.ranked
    if state.newest_edition is None or not _wants_newest(state):
        return ranked
    shown = {number for item in ranked for number in (item.number, *item.others)}
    newer = {item.number: state.newest_edition(item.number) for item in ranked if item.mode != "identifier"}
    lacking = sorted({number for number in newer.values() if number is not None and number not in shown})
    if lacking:
        lacking = _passing(state, lacking, rows)
    tiers = {mode: (terms, clauses) for mode, terms, clauses in answer.tiers}
    leads = []
    for item in ranked:
        newest = newer.get(item.number)
        if (newest in item.others or newest in lacking) and _holds_as_much(
            state, tiers[item.mode], newest, item.number
        ):
            # Placed by this rule: its prior and evidence never ranked it. One publisher's edition
            # of the same title names the place the lead named (nearby.unmatched_places reads it).
            # Its score is the lead's, and so are the place, finder and kind evidence in it.
            placed = [
                reason for reason in ("place_matches", "finds_any_place", "kind_asked_for") if reason in item.reasons
            ]
            lead = Ranked(newest, item.score, item.mode, ["newest_edition", *placed])
            lead.others = [item.number, *(other for other in item.others if other != newest)]
            lacking = [number for number in lacking if number != newest]
            item = lead
        leads.append(item)
    return leads


def _wants_newest(state: QueryState) -> bool:
    """Whether newest editions may lead: on the first page (a later page of the search
    page's keeps its leads: one the first page showed would be left out of it, with the
    rest of its group), and for a query naming no year or month (series.names_a_date)."""
    return not state.start and not series.names_a_date(state.terms)


def _holds_as_much(state: QueryState, tier: tuple[list[Term], list[Clause]], number: int, lead: int) -> bool:
    """Whether the record holds every query word the lead holds (in any field), as the lead's tier reads them."""

    def held(record: int) -> set[str]:
        matched, _ = matched_fields(state.engine, *tier, record)
        return set().union(*matched.values())

    return held(number) >= held(lead)


def _passing(state: QueryState, numbers: list[int], rows: Rows) -> list[int]:
    """Those of the records that pass the call's filters, their rows read (and, under filters, their profiles)."""
    if not state.filters:
        rows(numbers)
        return numbers
    facets = state.engine.facets
    gather(lambda: facets.require(numbers), lambda: rows(numbers))
    passing = state.engine.passing({facets.profiles[0][number] for number in numbers}, state.filters)
    return [number for number in numbers if facets.profiles[0][number] in passing]


def _window(state: QueryState, rows: Rows, foretell: bool = False) -> tuple[Answer, dict[int, dict[str, Any]]]:
    """The POOL records from `state.start`, reordered by their rows' evidence,
    and those rows by record number. `foretell`: the answer may read the
    next window (_next_window)."""
    kept = _kept(state)
    if kept.second is None or kept.second[0] != rules.evidence_settings():
        kept.second = (rules.evidence_settings(), *_second_stage(state, kept, rows, foretell))
    _, ranked, pool = kept.second
    # Copies of the lists: the answer extends and reorders them (never the records in them, see `answer`).
    return replace(kept.first, ranked=list(ranked)), dict(pool)


def _kept(state: QueryState) -> _Kept:
    """The window's first stage, ranked once per call: the browser asks again once the rows it needs have arrived."""
    key = (
        "answer",
        rules.settings(),
        tuple(state.terms),
        filters_key(state.filters),
        tuple(state.identified),
        state.strict_only,
        state.start,
        state.here,  # "nearest schools" and "schools" search the same words, and order them apart
    )
    return state.engine.remembered(key, lambda: _Kept(*first_stage(state)))


def _foretold(state: QueryState, first: Answer, foretell: bool) -> list[int]:
    """Records whose rows the answer will read next, known from the series
    table before this window's rows arrive: the next window's (when
    `foretell`), and the newest editions of this window's older ones
    (_newest_leads; a few more than it will show, as grouping is not done)."""
    window = {item.number for item in first.ranked}
    newest = (state.newest or {}) if _wants_newest(state) else {}
    later = [newest[number] for number in window if number in newest and newest[number] not in window]
    return [*(_next_window(state, first) if foretell else []), *sorted(set(later))]


def _next_window(state: QueryState, first: Answer) -> list[int]:
    """The next window's records, if the series table (state.series) says
    this window's records group into fewer than WINDOW_TARGET results (as
    `answer` will find once their rows are read): their rows can then come
    in the round that brings this window's, not in a round of their own."""
    reached = state.start + rules.POOL
    held = state.series or {}
    keys = [held.get(item.number) for item in first.ranked]
    if first.total <= reached or len(series.grouped(keys)) >= rules.WINDOW_TARGET:
        return []
    return [item.number for item in _kept(state.at(reached)).first.ranked]


@dataclass
class _Kept:
    """A window as a call keeps it (engine.remembered): its first stage and
    the words the fuzzy tier read as misspelt; once its rows have been read,
    also its second stage (with the settings it read), so that a call asked
    again (a later window's rows arrived) or repeated does not read and
    weigh the rows again."""

    first: Answer
    misspelt: frozenset[str]
    second: tuple[tuple[float, ...], list[Ranked], dict[int, dict[str, Any]]] | None = None


def _second_stage(
    state: QueryState, kept: _Kept, rows: Rows, foretell: bool
) -> tuple[list[Ranked], dict[int, dict[str, Any]]]:
    """The window's records reordered by their rows' evidence, and those rows
    by record number; if reading them takes a round of downloads, the rows
    the series table foretells the answer will read next come in it too
    (_foretold: the next window's, the newest editions')."""
    terms = state.terms
    ranked = [item.fresh() for item in kept.first.ranked]
    nothing_local = bool(ranked) and _nothing_local(state, kept)
    # The place's own council (ranking.councils): its row comes in the window's round.
    bodies = _council_candidates(state, kept) if nothing_local else {}
    numbers = [item.number for item in ranked]
    try:
        pool = dict(zip([*numbers, *bodies], rows([*numbers, *bodies]))) if ranked else {}
    except MissingFiles as missing:
        if state.series is None:  # the series table (and its newest editions) not read yet
            raise
        raise state.with_rows(missing, lambda: _foretold(state, kept.first, foretell), numbers) from None
    if ranked and (len(phrase_words(terms)) > 1 or exact_words(terms)):
        shown = [pool[item.number] for item in ranked]
        row_evidence(terms, ranked, shown, state.ranking.search_terms, kept.misspelt, state.here)
    if nothing_local:
        finders_first(ranked, [pool[item.number] for item in ranked])
    kinds = state.ranking.search_terms.kinds_leading(terms)
    if ranked and kinds and not state.start:  # the answer's first result: a later window keeps its order
        kind_first(ranked, [pool[item.number] for item in ranked], kinds, terms, state.ranking.search_terms)
    elif ranked and not state.start:  # a kind asked for by name ("api") is what leads, not its body
        body_first(ranked, [pool[item.number] for item in ranked], terms)
    if bodies:
        councils.put_council_in(ranked, bodies, pool, councils.asks_for_council(terms))
    return ranked, pool


def _council_candidates(state: QueryState, kept: _Kept) -> dict[int, str]:
    """On the first window of a query naming a place that none of its first results is about
    (_nothing_local; not "near me", which names none): the organisations titled by the place
    (ranking.councils)."""
    # The first tier that searched: where every word found nothing ("homeless tonight in
    # manchester"), its tier holds no terms, and the place is read from the next (any_term, fuzzy).
    searched = next(((terms, clauses) for _, terms, clauses in kept.first.tiers if terms), None)
    if state.here or state.start or searched is None:
        return {}
    return councils.candidates(state.engine, *searched, state.filters)


def _nothing_local(state: QueryState, kept: _Kept) -> bool:
    """Whether the query asks about the asker's place, naming none, or names a place that no
    record among its first window's first rules.LOCAL_AMONG is about (notice place_not_matched
    reads the whole answer: a record further down is no answer to show first, but the catalogue
    holds it): decided on the first window for every window, so "show more" lifts no finder
    above the place's records."""
    if state.here:
        return True
    first = kept.first if not state.start else _kept(state.at(0)).first
    leading = [item for item in first.ranked if item.mode != "identifier"][: rules.LOCAL_AMONG]
    return bool(unmatched_places(state.terms, [(item.reasons, item.score) for item in leading]))


def first_stage(state: QueryState) -> tuple[Answer, frozenset[str]]:
    """The answer before row evidence (its records ordered by what the index
    holds), and the words the fuzzy tier read as misspelt."""
    budget = call_budget()
    depth = state.depth
    found = tiers_of(state, budget)
    # Every tier's profiles and flags, in one round of downloads: the facet counts read them all
    # (a summarised tier's tally came with it).
    state.engine.facets.require(chain.from_iterable(tier.matches.scores for tier in found if tier.best is None))
    ranked: list[Ranked] = []
    for tier in found:
        if len(ranked) >= depth:
            break
        ranked += rank_tier(state, tier, depth - len(ranked))
    misspelt = frozenset(
        clause.term for tier in found if tier.mode == "fuzzy" for clause in tier.clauses if clause.edit_distance
    )
    first = Answer(
        total=sum(tier.count for tier in found),
        mode=ranked[0].mode if ranked else "all_terms",
        ranked=ranked[state.start :],
        tiers=[(tier.mode, tier.terms, tier.clauses) for tier in found],
        matches=_union([tier.matches for tier in found]),
        skipped=budget.skipped,
        dropped=budget.dropped_words,
        later=budget.later_words,
        limited=tuple(dict.fromkeys(term for tier in found for term in tier.matches.limited)),
    )
    return first, misspelt


def _union(all_matches: list[Matches]) -> Matches:
    if len(all_matches) == 1:
        return all_matches[0]
    scores: dict[int, float] = {}
    for matches in reversed(all_matches):
        scores.update(matches.scores)
    return Matches(scores)
