"""The second ranking stage: lunr finds and scores, this orders what it found.

lunr stays the first stage (its scores are lunr.js's, to the last bit). Over
its candidates this module adds, deterministically and in every layout alike
(docs/ranking.md):

- match modes that keep good answers: every word (`all_terms`), then every
  word with misspelt ones corrected (`fuzzy`), then any word (`any_term`);
  a looser mode's records come below the stricter ones', and looser modes
  are tried while the answer has fewer than TIER_TARGET records;
- a record prior from the build (reviewed, official and national records
  above bulk local catalogue rows and format-named rows);
- title evidence (every word in the title), phrase evidence (words adjacent
  as typed) and intent words (`api`, `dataset` ...) preferring resource types;
- which fields matched which words, and the rules that applied, per result.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import chain, compress
from operator import mul, not_, or_
from typing import Any

from .engine import CODE_ALPHABET, SCORE_PLACES, Budget, Matches, SearchEngine, filters_key, holds
from .engine import idf as lunr_idf
from .terms import (
    GROUP_MARK,
    MAX_POSTINGS,
    MAX_SHARD_BYTES,
    NO_SEARCH_TERMS,
    Clause,
    SearchTerms,
    Term,
    analysed,
    clauses_for,
    has_topic,
    index_terms_near,
    preference,
)

TIER_TARGET = 20  # looser modes are added until the answer holds this many (the largest limit)
POOL = 20  # records whose rows are read for phrase evidence (the same for every limit)
RARE = 3  # a word in fewer records than this (in its commonest field) may be a typo
# A misspelt word of this many letters (its stem) may differ by two edits when no
# term is one edit from it; shorter words would reach too many others that way.
TWO_EDITS_FROM, TWO_EDITS_TO = 6, 16
# Two-edit matching builds a large automaton per word (about 20 ms in CPython for
# 16 letters): the work budget allows it for this many words of a call, letters only.
MAX_TWO_EDIT_WORDS = 2
FIELDS = ("title", "publisher", "keywords", "summary", "body")

# Build-time record flags (govsearch_build.data_writer.record_flags) and what
# each does to a record's lunr score. Reasons name the flags that applied.
FLAG_WEIGHTS = (
    ("reviewed", 1.6),  # curated or deep-evidence: facts checked by us
    ("official_page", 1.3),  # a GOV.UK page or an official service on service.gov.uk
    ("national_api_catalogue", 1.3),  # listed in the government's API catalogue
    ("local_authority_row", 0.6),  # a local council's catalogue row
    ("format_only_title", 0.5),  # titled only by its file format ("CSV", "GeoJSON")
    ("restricted_access", 0.7),  # only eligible people or organisations may use it (accessStatus "restricted")
)
TITLE_BOOST = 1.3  # every (non-intent) query word is in the title
PHRASE_BOOST = 1.25  # all adjacent pairs of the query's words adjacent in the title or summary
EXACT_TITLE_BOOST = 2.0  # the title is the query: its words and no others ("HMLR" and "HM Land Registry")
INTENT_BOOST = 1.5  # the record's type is one an intent word asks for
PLACE_BOOST = 2.0  # the record holds the place the query names beside its topic (any mode)
# any_term: each word of the query a record lacks divides its share by this (coordination):
# a record holding more of the words comes first, its words' idf orders records holding as many.
COVERAGE = 2.0
_CODES = {char: number for number, char in enumerate(CODE_ALPHABET)}
_IDENTIFIER = re.compile(r"[a-z0-9][a-z0-9._:-]{2,119}")
_TIER_ORDER = {"identifier": 0, "all_terms": 1, "fuzzy": 2, "any_term": 3}


def identifier_key(text: str) -> str | None:
    """The lookup key of something that may be an identifier: one run of
    letters, digits and `._:-` holding a digit or a separator (a plain word
    is searched as a word, not looked up)."""
    key = text.strip().lower()
    if not _IDENTIFIER.fullmatch(key) or key.isalpha():
        return None
    return key


def identifier_keys(record: Mapping[str, Any]) -> set[str]:
    """Every key a record is found by: its id, the ids of records merged into
    it (`formerIds`), its source's native id, and the last part of its URL's
    path (an ONS dataset id such as cpih01, a data.gov.uk dataset slug)."""
    url_path = str(record.get("url", "")).split("?", 1)[0].split("#", 1)[0].rstrip("/")
    candidates = [
        record["id"],
        *record.get("formerIds", ()),
        str(record.get("source", {}).get("nativeId", "")),
        url_path.rsplit("/", 1)[-1],
    ]
    return {key for key in map(identifier_key, candidates) if key}


class RankingData:
    """What the build worked out for the re-ranker: each record's flags, and
    the site's synonym groups and intent words."""

    def __init__(self, data: Mapping[str, Any], records: int = 0):
        codes = data.get("flags", "")
        self.flags = [_CODES[char] for char in codes] or [0] * records
        self._weights = [self._weight(mask) for mask in range(64)]
        self.priors = [self._weights[mask] for mask in self.flags]
        search = data.get("search", {})
        self.search_terms = SearchTerms.from_lists(
            search.get("synonyms", []),
            search.get("intents", {}),
            fillers=search.get("fillers", ()),
            places=search.get("places", ()),
        )

    @staticmethod
    def _weight(mask: int) -> float:
        weight = 1.0
        for bit, (_, factor) in enumerate(FLAG_WEIGHTS):
            if mask >> bit & 1:
                weight *= factor
        return weight

    def set_flags(self, start: int, masks: list[int]) -> None:
        """Records' flags from their facet profiles (govsearch.facets), read on first need."""
        self.flags[start : start + len(masks)] = masks
        self.priors[start : start + len(masks)] = map(self._weights.__getitem__, masks)

    def prior(self, number: int) -> float:
        return self.priors[number] if number < len(self.priors) else 1.0

    def flag_names(self, number: int) -> list[str]:
        mask = self.flags[number] if number < len(self.flags) else 0
        return [name for bit, (name, _) in enumerate(FLAG_WEIGHTS) if mask >> bit & 1]


def flag_code(names: Sequence[str]) -> str:
    """The one-character code of a record's flags (used by the build)."""
    known = [name for name, _ in FLAG_WEIGHTS]
    return CODE_ALPHABET[sum(1 << known.index(name) for name in names)]


@dataclass
class Ranked:
    """One answer's records in order, and how they were found."""

    number: int
    score: float
    mode: str
    reasons: list[str] = field(default_factory=list)


@dataclass
class Answer:
    total: int  # records, after filters, matched by the modes the answer used
    mode: str  # the strictest mode that matched anything (the first result's)
    ranked: list[Ranked]  # the best POOL (or fewer), in order
    tiers: list[tuple[str, list[Term], list[Clause]]]  # each mode used, its terms and clauses
    matches: Matches  # every record the modes matched (for facet counts)
    suggestion: str | None = None
    skipped: list[str] = field(default_factory=list)  # looser modes the work budget left untried
    dropped: list[str] = field(default_factory=list)  # words left out for the work budget, as typed
    limited: tuple[str, ...] = ()  # terms whose expansions the budget cut


@dataclass
class _Tier:
    mode: str
    terms: list[Term]
    clauses: list[Clause]
    matches: Matches
    numbers: list[int]  # passing the filters, not in a stricter tier
    best: list[Ranked] | None = None  # its best records as the build ranked them (then `numbers` is unused)
    count: int = -1  # how many records pass the filters (len(numbers) unless `best` is given)

    def __post_init__(self) -> None:
        if self.best is None:
            self.count = len(self.numbers)


def answer(
    engine: SearchEngine,
    ranking: RankingData,
    terms: list[Term],
    filters: Mapping[str, frozenset[str]],
    rows: Callable[[list[int]], list[dict[str, Any]]],
    identified: list[int] = (),  # type: ignore[assignment]
    strict_only: bool = False,
    start: int = 0,
) -> Answer:
    """The query's records in order: records the query identifies, then tier
    by tier, each tier ordered by its re-ranked score. `strict_only`: no
    looser mode (the filters pass nothing, so none could find more).

    `start` (only the search page's "show more" moves it; agents always get
    0): the POOL records from there. Row evidence reorders each window of
    POOL alone, so the window from 0 is exactly the tool's answer and pages
    the search page asks for in steps of POOL never overlap or skip a record.
    """
    # Ranked once per call: the browser asks again once the rows it needs have arrived.
    key = ("answer", _settings(), tuple(terms), filters_key(filters), tuple(sorted(identified)), strict_only, start)
    first, misspelt = engine.remembered(
        key, lambda: _first_stage(engine, ranking, terms, filters, sorted(identified), strict_only, start)
    )
    ranked = [Ranked(item.number, item.score, item.mode, list(item.reasons)) for item in first.ranked]
    if ranked and (len(_phrase_words(terms)) > 1 or _exact_words(terms)):
        _row_evidence(terms, ranked, rows([item.number for item in ranked]), ranking.search_terms, misspelt)
    return Answer(
        first.total, first.mode, ranked, first.tiers, first.matches, None, first.skipped, first.dropped, first.limited
    )


def _settings() -> tuple[float, ...]:
    """The rules' settings the first stage reads (a test may change them between calls)."""
    return (
        MAX_POSTINGS,
        MAX_SHARD_BYTES,
        RARE,
        TWO_EDITS_FROM,
        TWO_EDITS_TO,
        MAX_TWO_EDIT_WORDS,
        TIER_TARGET,
        POOL,
        COVERAGE,
        PLACE_BOOST,
    )


def _first_stage(
    engine: SearchEngine,
    ranking: RankingData,
    terms: list[Term],
    filters: Mapping[str, frozenset[str]],
    identified: list[int],
    strict_only: bool,
    start: int,
) -> tuple[Answer, frozenset[str]]:
    """The answer before row evidence (its records ordered by what the index
    holds), and the words the fuzzy tier read as misspelt."""
    budget = _Budget()
    depth = start + POOL
    tiers = _tiers(engine, ranking, terms, filters, identified, budget, strict_only, depth)
    # Every tier's profiles and flags, in one round of downloads: the facet counts read them all
    # (a summarised tier's tally came with it).
    engine.facets.require(chain.from_iterable(tier.matches.scores for tier in tiers if tier.best is None))
    ranked: list[Ranked] = []
    for tier in tiers:
        if len(ranked) >= depth:
            break
        ranked += _rank_tier(engine, ranking, tier, depth - len(ranked))
    mode = ranked[0].mode if ranked else "all_terms"
    misspelt = frozenset(
        clause.term for tier in tiers if tier.mode == "fuzzy" for clause in tier.clauses if clause.edit_distance
    )
    answer = Answer(
        sum(tier.count for tier in tiers),
        mode,
        ranked[start:],
        [(tier.mode, tier.terms, tier.clauses) for tier in tiers],
        _union([tier.matches for tier in tiers]),
        None,
        budget.skipped,
        budget.dropped,
        tuple(dict.fromkeys(term for tier in tiers for term in tier.matches.limited)),
    )
    return answer, misspelt


class _Budget:
    """The call's work budget (engine.Budget: postings scored, shard bytes
    read) over its tiers, and the words it left out."""

    def __init__(self) -> None:
        self.spend = Budget(MAX_POSTINGS, MAX_SHARD_BYTES)
        self.skipped: list[str] = []
        self.dropped: list[str] = []

    @property
    def spent(self) -> bool:
        return self.spend.postings <= 0 or self.spend.shard_bytes <= 0

    def fit(self, engine: SearchEngine, terms: list[Term], clauses: list[Clause]) -> tuple[list[Term], list[Clause]]:
        """The terms and clauses a tier matches within what is left of the
        budget: required words first, then optional (intent) words while it lasts."""
        required = [clause for clause in clauses if clause.presence == "required"]
        optional = [clause for clause in clauses if clause.presence != "required"]
        self.spend.dropped = []
        kept = engine.within_budget(required or optional, self.spend)
        dropped = list(self.spend.dropped)
        if required and optional and kept:
            counts, read = engine.matcher.postings(optional, max(self.spend.shard_bytes, 0))
            self.spend.shard_bytes -= read
            for clause, reach in zip(optional, counts):
                if reach <= self.spend.postings:
                    kept.append(clause)
                    self.spend.postings -= reach
                else:
                    dropped.append(clause)
        typed = {clause: term.typed for term, clause in zip(terms, clauses)}
        self.dropped += [typed[clause] for clause in dropped if typed[clause] not in self.dropped]
        pairs = [(term, clause) for term, clause in zip(terms, clauses) if clause in kept]
        return [term for term, _ in pairs], [clause for _, clause in pairs]


def _tiers(
    engine: SearchEngine,
    ranking: RankingData,
    terms: list[Term],
    filters: Mapping[str, frozenset[str]],
    identified: list[int],
    budget: _Budget,
    strict_only: bool,
    depth: int,
) -> list[_Tier]:
    """The modes the answer uses: stricter first, looser ones while it holds
    fewer than TIER_TARGET records and the work budget lasts. A common word
    alone is answered from its summary when that holds the `depth` best."""
    tiers: list[_Tier] = []
    seen: set[int] = set()
    if identified:
        found = Matches(dict.fromkeys(identified, 0.0))
        seen.update(engine.filter(found, filters))
        tiers.append(_Tier("identifier", terms, clauses_for(terms, "all_terms"), found, sorted(seen)))
    tried: set[tuple[Clause, ...]] = set()
    modes = ["all_terms"] if strict_only else ["all_terms", "fuzzy", "any_term"]
    for position, mode in enumerate(modes):
        if mode != "all_terms" and budget.spent:
            budget.skipped = [later for later in modes[position:] if later != "any_term" or len(terms) > 1]
            break
        tier_terms = terms
        if mode == "fuzzy":
            tier_terms, misspelt, wider = _typo_terms(engine, terms)
            clauses = clauses_for(tier_terms, mode, misspelt) if misspelt or tier_terms != terms else []
            clauses = [
                Clause(clause.term, clause.presence, 2, clause.wildcard)
                if clause.edit_distance and clause.term in wider
                else clause
                for clause in clauses
            ]
        else:
            clauses = clauses_for(terms, mode) if mode == "all_terms" or len(terms) > 1 else []
        if not clauses or tuple(clauses) in tried:
            continue
        tried.add(tuple(clauses))
        tier_terms, clauses = budget.fit(engine, tier_terms, clauses)
        summarised = (
            None if seen or mode != "all_terms" else _summarised(engine, ranking, tier_terms, clauses, filters, depth)
        )
        if summarised:
            return [summarised]
        matches = engine.match(clauses)
        fresh = engine.filter(matches, filters)
        if seen:
            fresh = [number for number in fresh if number not in seen]
        tiers.append(_Tier(mode, tier_terms, clauses, matches, fresh))
        if len(seen) + len(fresh) >= TIER_TARGET:
            break
        seen.update(fresh)  # fewer than TIER_TARGET: a common word's matches never make a set here
    return tiers


def _summarised(
    engine: SearchEngine,
    ranking: RankingData,
    terms: list[Term],
    clauses: list[Clause],
    filters: Mapping[str, frozenset[str]],
    depth: int,
) -> _Tier | None:
    """The all_terms tier of a one-word search for a common word, from the
    build's summary (engine.Summary): exactly what scoring its records would
    give (the build ranks them by the same rules, and the tally makes totals
    and facet counts exact), or None when the summary cannot tell: another
    kind of query, a page beyond its best, or filters that leave too few of them."""
    if len(terms) != 1 or terms[0].intent or terms[0].prefix or terms[0].synonym:
        return None
    summary = engine.matcher.summary(clauses[0])
    if summary is None:
        return None
    passing = engine.passing(summary.tally, filters) if filters else set(summary.tally)
    count = sum(summary.tally[profile] for profile in passing)
    if count < TIER_TARGET:
        return None  # looser modes would be tried
    candidates = summary.best[: summary.trusted(filters, depth) if filters else min(depth, summary.general)]
    engine.facets.require([number for number, _, _ in candidates])
    profile_of = engine.facets.profiles[0]
    best = [item for item in candidates if profile_of[item[0]] in passing][:depth]
    if len(best) < depth:
        return None
    title = 1 << summary.fields.index("title") if "title" in summary.fields else 0
    ranked = [
        Ranked(number, score, "all_terms", _reasons(ranking, "all_terms", number, bool(mask & title), False))
        for number, score, mask in best
    ]
    matches = Matches(tally=summary.tally, score=lambda: engine.match(clauses).scores)
    return _Tier("all_terms", terms, clauses, matches, [], ranked, count)


def _typo_terms(engine: SearchEngine, terms: list[Term]) -> tuple[list[Term], frozenset[str], frozenset[str]]:
    """The fuzzy tier's terms, the words among them that may differ by one
    edit, and those of them that may differ by two.

    A word of 5+ letters in fewer than RARE records may be misspelt. The index
    holds stems, so a typo that breaks the suffix the stemmer removes
    ("populaton": no stem is one edit from it) is read as the longest index
    term it begins with, if that keeps most of the word ("popul"). When no
    such term exists either ("drivng": the stem "drive" is two edits away),
    a word of TWO_EDITS_FROM letters or more may differ by two edits (letters
    only, and at most MAX_TWO_EDIT_WORDS words of a call: the work budget).
    """
    misspelt: set[str] = set()
    wider: set[str] = set()
    fixed = []
    for term in terms:
        if term.fuzzable and engine.matcher.frequency(term.indexed) < RARE:
            if engine.matcher.expand(Clause(term.indexed, "required", edit_distance=1)):
                misspelt.add(term.indexed)
            else:
                prefix = _known_prefix(engine, term.typed)
                if (
                    prefix is None
                    and len(wider) < MAX_TWO_EDIT_WORDS
                    and term.indexed.isalpha()
                    and TWO_EDITS_FROM <= len(term.indexed) <= TWO_EDITS_TO
                    and engine.matcher.expand(Clause(term.indexed, "required", edit_distance=2))
                ):
                    misspelt.add(term.indexed)
                    wider.add(term.indexed)
                term = replace(term, indexed=prefix or term.indexed)
        fixed.append(term)
    return fixed, frozenset(misspelt), frozenset(wider)


def _known_prefix(engine: SearchEngine, typed: str) -> str | None:
    for length in range(len(typed) - 1, max(4, len(typed) - 4) - 1, -1):
        if engine.matcher.expand(Clause(typed[:length], "required")):
            return typed[:length]
    return None


def _rank_tier(engine: SearchEngine, ranking: RankingData, tier: _Tier, room: int) -> list[Ranked]:
    """The `room` best of a tier's records by lunr score x prior x title and intent evidence."""
    if tier.best is not None:
        return tier.best[:room]
    numbers = tier.numbers
    if not numbers:
        return []
    if tier.mode == "identifier":
        return [Ranked(number, 1.0, tier.mode, ["identifier"]) for number in numbers[:room]]
    scores, priors = tier.matches.scores, ranking.priors
    base = [scores[number] * priors[number] for number in numbers] if priors else [scores[number] for number in numbers]
    # A place beside the topic is a preference (_placed), not information a record must hold.
    topic = has_topic(tier.terms)
    words = [clause for term, clause in zip(tier.terms, tier.clauses) if not preference(term, topic)]
    # any_term: a record scores the share of the query's information it holds (_Coverage).
    coverage = _Coverage(engine, words) if tier.mode == "any_term" and len(words) > 1 else None
    in_title = _in_title(engine, tier.terms, tier.clauses)
    wanted = _intent_profiles(engine, tier.terms)
    placed = _placed(engine, tier, topic)
    # the most the evidence below multiplies by
    boost = TITLE_BOOST * (INTENT_BOOST if wanted else 1) * (PLACE_BOOST if placed else 1)
    if coverage:
        numbers, base = coverage.scored(numbers, base, room, boost)
    if len(numbers) > room:
        # Only records that the largest boost could lift to the room-th best base score can make it.
        numbers, base = _near_top(numbers, base, room, boost)
    profile_of = engine.facets.profiles[0]
    boosted = []
    for number, score in zip(numbers, base):  # in the order data_writer._best multiplies, so the floats agree
        if number in in_title:
            score *= TITLE_BOOST
        if wanted and profile_of[number] in wanted:
            score *= INTENT_BOOST
        if number in placed:
            score *= PLACE_BOOST
        boosted.append(score)
    if len(numbers) > room:
        numbers, boosted = _near_top(numbers, boosted, room, 1)
    best = sorted(zip((-round(score, SCORE_PLACES) for score in boosted), numbers, boosted))[:room]
    return [
        Ranked(
            number,
            score,
            tier.mode,
            _reasons(
                ranking,
                tier.mode,
                number,
                number in in_title,
                bool(wanted) and profile_of[number] in wanted,
                number in placed,
            ),
        )
        for _, number, score in best
    ]


def _placed(engine: SearchEngine, tier: _Tier, topic: bool) -> set[int]:
    """Records holding a place the query names beside its topic. In any_term a
    record holding the place alone shares none of the topic (_Coverage scores
    it 0), so the boost never brings a place's unrelated records back."""
    places = [clause for term, clause in zip(tier.terms, tier.clauses) if term.place and preference(term, topic)]
    named = ("title", "publisher")  # a record about the place names it there, not in passing
    return set().union(*(_records_holding(engine, clause, named) for clause in places)) if places else set()


def _near_top(numbers: list[int], scores: list[float], room: int, bound: float) -> tuple[list[int], list[float]]:
    """The records whose score times `bound` reaches the room-th best score (before rounding)."""
    threshold = heapq.nlargest(room, scores)[-1] / bound - 2 * 10**-SCORE_PLACES
    keep = [score >= threshold for score in scores]
    return list(compress(numbers, keep)), list(compress(scores, keep))


def _reasons(
    ranking: RankingData, mode: str, number: int, in_title: bool, intended: bool, placed: bool = False
) -> list[str]:
    reasons = ranking.flag_names(number)
    if in_title:
        reasons.append("all_words_in_title")
    if intended:
        reasons.append("type_matches_intent")
    if placed:
        reasons.append("place_matches")
    if mode == "fuzzy":
        reasons.append("typo_corrected")
    return reasons


class _Coverage:
    """The any_term tier's share: how much of the query's information a
    record holds. Each (non-intent) word weighs its idf as lunr computes it
    (lunr.idf: ln(1 + (N - df + 0.5) / (df + 0.5)), df the records holding
    the word in any field, N all records), and a record scores the idf of
    the words it holds over the idf of all of them. A record holding the rare
    word of `inflation rate` ("inflation": 2 records) then outweighs one
    holding only the common word ("rate": 71), which a title match would
    otherwise carry above it; when the words are equally rare this is k of
    n words, k / n. A record found only by an intent word ("api") holds none
    of the subject's words: 0, after the others."""

    def __init__(self, engine: SearchEngine, words: list[Clause]):
        self.holders = [_records_holding(engine, clause) for clause in words]
        idf = [lunr_idf(len(held), engine.facets.count) for held in self.holders]
        self.weights = [weight / sum(idf) for weight in idf]
        commonest = idf.index(min(idf))
        # Most of a common word's records hold no other word of the query: they
        # share the commonest word's weight, less COVERAGE for each word they lack,
        # and are not counted word by word.
        self.commonest = self.holders[commonest]
        self.alone = {True: self.weights[commonest] * COVERAGE ** (1 - len(words)), False: 0.0}
        self.rarer = set().union(*(held for word, held in enumerate(self.holders) if word != commonest))
        self.subject = self.rarer | self.commonest

    def scored(self, numbers: list[int], base: list[float], room: int, boost: float) -> tuple[list[int], list[float]]:
        """The records that can still reach the room best once the tier's
        other factors (at most `boost`) apply, and their base scores times
        shares. Records found by an intent word alone score 0: they are kept
        only while the others are fewer than `room`. Of the others, the room
        best by base score reach at least the room-th best of their own
        products, and no share exceeds 1: records further down are left out
        before their shares are worked out."""
        holding = list(map(self.subject.__contains__, numbers))
        subject, subject_base = list(compress(numbers, holding)), list(compress(base, holding))
        if len(subject) < room:
            rest = list(compress(numbers, map(not_, holding)))
            return subject + rest, list(map(mul, subject_base, self.shares(subject))) + [0.0] * len(rest)
        top, top_base = _near_top(subject, subject_base, room, 1)
        reached = heapq.nlargest(room, map(mul, top_base, self.shares(top)))[-1]
        needed = reached / boost - 2 * 10**-SCORE_PLACES  # the least base score that could reach it
        keep = list(map(needed.__le__, subject_base))
        subject, subject_base = list(compress(subject, keep)), list(compress(subject_base, keep))
        # A record holding no rarer word shares at most the commonest word's weight.
        needed_alone = needed / self.alone[True]
        keep = list(map(or_, map(needed_alone.__le__, subject_base), map(self.rarer.__contains__, subject)))
        subject, subject_base = list(compress(subject, keep)), list(compress(subject_base, keep))
        return subject, list(map(mul, subject_base, self.shares(subject)))

    def shares(self, numbers: list[int]) -> list[float]:
        """The shares of these records, in order (0: a record found by an
        intent word alone): the idf of the words held over all the words',
        divided by COVERAGE for each word lacking; added up in the query's
        word order, so equal holdings give equal floats."""
        counted = dict.fromkeys(filter(self.rarer.__contains__, numbers), 0.0)
        lacking = dict.fromkeys(counted, len(self.holders))
        for held, weight in zip(self.holders, self.weights):
            for number in filter(held.__contains__, counted):
                counted[number] += weight
                lacking[number] -= 1
        for number, lacks in lacking.items():
            counted[number] *= COVERAGE**-lacks
        return list(map(counted.get, numbers, map(self.alone.__getitem__, map(self.commonest.__contains__, numbers))))


def _records_holding(engine: SearchEngine, clause: Clause, fields: Sequence[str] = FIELDS) -> set[int]:
    """Every record holding the word (any of its expansions) in any of `fields` (all by default).

    One set of the word's records (its lists joined in C) rather than a
    search of every list per record: thousands of records, a few ms in Pyodide."""
    held: set[int] = set()
    for holding in engine.matcher.members(clause, list(fields)).values():
        for found in holding.values():
            held.update(found)
    return held


def _in_title(engine: SearchEngine, terms: list[Term], clauses: list[Clause]) -> set[int]:
    """Records with every non-intent query word (any of its expansions) in the title."""
    words = [clause for term, clause in zip(terms, clauses) if not term.intent] or clauses
    holders: set[int] | None = None
    for clause in words:
        found: set[int] = set()
        for fields in engine.matcher.members(clause, ["title"]).values():
            found.update(fields.get("title", ()))
        holders = found if holders is None else holders & found
        if not holders:
            return set()
    return holders or set()


def _intent_profiles(engine: SearchEngine, terms: list[Term]) -> set[int]:
    """The facet profiles whose resource type an intent word of the query asks for."""
    types = {kind for term in terms for kind in term.intent}
    if not types:
        return set()
    return {profile for profile, values in enumerate(engine.facets.profiles[1]) if not types.isdisjoint(values[0])}


def _row_evidence(
    terms: list[Term],
    ranked: list[Ranked],
    rows: list[dict[str, Any]],
    search_terms: SearchTerms,
    misspelt: frozenset[str] = frozenset(),
) -> None:
    """Boost records whose title is the query (its words, no others) or whose
    title or summary has the query's words adjacent as typed; then reorder
    within each mode (a boost never crosses modes). A `fuzzy` record is
    compared with the query as it corrects it (each misspelt word read as
    the word of its title or summary one edit away). With an intent word in
    the query, only a record of a type it asks for can be the query's title:
    `companies house api` names the API, not the organisation."""
    has_intent = any(term.intent for term in terms)
    for item, row in zip(ranked, rows):
        if item.mode not in ("all_terms", "fuzzy", "any_term"):
            continue  # an identifier needs no evidence
        texts = (row.get("title", ""), row.get("summary", ""))
        words = (
            _corrected(terms, misspelt, texts)
            if item.mode == "fuzzy"
            else [(term.typed, term.indexed) for term in terms]
        )
        plain = [
            indexed
            for (_, indexed), term in zip(words, terms)
            if not term.intent and not term.prefix and not term.synonym
        ]
        pairs = set(zip(plain, plain[1:]))
        query = _exact_words(terms, search_terms, words)
        typed_as_intended = not has_intent or "type_matches_intent" in item.reasons
        if query and item.mode != "any_term" and typed_as_intended and _is_query(texts[0], query, search_terms):
            item.score *= EXACT_TITLE_BOOST
            item.reasons.append("title_is_query")
        elif (
            query
            and typed_as_intended
            and "all_words_in_title" not in item.reasons
            and _is_query(_slug_text(row.get("url", "")), query, search_terms)
        ):
            # The page's short name stands in for a title that does not name it ("Routes a user to ..." at /register-a-death).
            item.score *= EXACT_TITLE_BOOST
            item.reasons.append("url_is_query")
        if pairs:
            found: set[tuple[str, str]] = set()
            for text in texts:
                if found == pairs:
                    break  # the title has them all: no need to analyse the summary
                if not _may_hold(text, pairs - found):
                    continue
                indexed = index_terms_near(text, plain)
                found.update(pair for pair in zip(indexed, indexed[1:]) if pair in pairs)
            if found == pairs:
                item.score *= PHRASE_BOOST
                item.reasons.append("words_adjacent")
    titles = {item.number: row.get("title", "") for item, row in zip(ranked, rows)}
    ranked.sort(key=lambda item: (_TIER_ORDER[item.mode], -round(item.score, SCORE_PLACES), item.number))
    if not any(_YEAR.fullmatch(term.typed) for term in terms):
        _newest_first(ranked, titles)


_YEAR = re.compile(r"(?:19|20)\d\d")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_DATED = re.compile(
    r"\b(?:(" + "|".join(_MONTHS) + r")[a-z]*\.?\s+)?((?:19|20)\d\d)(?:\s*[/-]\s*\d{2,4})?\b", re.IGNORECASE
)


def _newest_first(ranked: list[Ranked], titles: Mapping[int, str]) -> None:
    """Editions of one title (the same words once dates are left out: "Indices of
    Deprivation 2010" and "... 2019") in the places they hold, newest first: a
    query naming no year wants the latest edition. Within one mode, in place."""
    editions: dict[tuple[str, str], list[int]] = {}
    for position, item in enumerate(ranked):
        undated, dates = _DATED.subn(" ", titles.get(item.number, ""))
        if dates:
            editions.setdefault((item.mode, " ".join(undated.lower().split())), []).append(position)
    for positions in editions.values():
        if len(positions) > 1:
            items = sorted((ranked[p] for p in positions), key=lambda item: _edition(titles[item.number]), reverse=True)
            for position, item in zip(positions, items):
                ranked[position] = item


def _edition(title: str) -> tuple[int, int]:
    """The newest (year, month) a title names (month 0 when it names none)."""
    return max(
        (int(found[2]), _MONTHS.index(found[1][:3].lower()) + 1 if found[1] else 0) for found in _DATED.finditer(title)
    )


def _is_query(text: str, query: frozenset[str], search_terms: SearchTerms) -> bool:
    """Whether `text`'s index terms, each group phrase as its group's token,
    are exactly the query's. When the query holds no group token, a word
    that cannot stem to a query term settles it unstemmed (index_terms_near):
    most titles and page names hold one."""
    if not any(term.endswith(GROUP_MARK) for term in query) and "" in index_terms_near(text, query):
        return False
    return search_terms.collapsed(text) == query


def _may_hold(text: str, pairs: set[tuple[str, str]]) -> bool:
    """Whether any of these pairs of index terms could be adjacent words of
    `text`, read without analysing it: Porter's stemmer keeps all but at most
    the last two letters of a stem from its word (its rules swap a suffix for
    one that adds at most two letters; at most one over the 65,000 distinct
    words of the full estate), so a stem's word holds the stem less its last
    two letters. Analysing a summary (stemming its new words) costs several
    ms in Pyodide, and most summaries hold none of a query's pairs."""
    low = text.lower()
    return any(first[:-2] in low and second[:-2] in low for first, second in pairs)


def _slug_text(url: str) -> str:
    """The words of a URL's last path part ("/register-a-death" -> "register a death"):
    a page's own short name, where its title may say something else."""
    path = url.split("?", 1)[0].split("#", 1)[0].rstrip("/")
    return "" if path.count("/") < 3 else re.sub(r"[-_+.]+", " ", path.rsplit("/", 1)[-1])


def _corrected(terms: list[Term], misspelt: frozenset[str], texts: Sequence[str]) -> list[tuple[str, str]]:
    """(typed, indexed) of each query word, a misspelt one as the first word
    of the texts one edit from it (the word the fuzzy tier matched here)."""
    held = [pair for text in texts for pair in analysed(text)]
    words = []
    for term in terms:
        near = (
            next((pair for pair in held if pair[1] != term.indexed and _one_edit(term.indexed, pair[1])), None)
            if term.indexed in misspelt
            else None
        )
        words.append(near or (term.typed, term.indexed))
    return words


def _one_edit(first: str, second: str) -> bool:
    """Whether two words differ by one insertion, deletion, substitution or
    swap of neighbours (lunr's edit distance 1)."""
    if abs(len(first) - len(second)) > 1:
        return False
    start = 0
    while start < min(len(first), len(second)) and first[start] == second[start]:
        start += 1
    a, b = first[start:], second[start:]
    return a[1:] == b[1:] or a[1:] == b or a == b[1:] or (len(a) > 1 and a[1] + a[0] + a[2:] == b)


def _exact_words(
    terms: list[Term], search_terms: SearchTerms = NO_SEARCH_TERMS, words: Sequence[tuple[str, str]] = ()
) -> frozenset[str]:
    """The query's words (index terms and group tokens) a title must be
    exactly, if it can be; `words`: the query's (typed, indexed) words as
    corrected, whose phrases of a synonym group become its token again."""
    if any(term.prefix for term in terms):
        return frozenset()  # a word still being typed: no title is it yet
    pairs = list(words) or [(term.typed, term.indexed) for term in terms]
    kept = [pair for pair, term in zip(pairs, terms) if not term.intent] or pairs
    return search_terms.collapsed_pairs(kept)


def _phrase_words(terms: list[Term]) -> list[str]:
    """The query's words whose order the title or summary can show (as index terms)."""
    return [term.indexed for term in terms if not term.intent and not term.prefix and not term.synonym]


def _union(all_matches: list[Matches]) -> Matches:
    if len(all_matches) == 1:
        return all_matches[0]
    scores: dict[int, float] = {}
    for matches in reversed(all_matches):
        scores.update(matches.scores)
    return Matches(scores)


def matched_fields(
    engine: SearchEngine, terms: list[Term], clauses: list[Clause], number: int
) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Which fields hold which query words in one record, and the index term
    each corrected word matched instead of its own, by the word as typed."""
    matched: dict[str, list[str]] = {}
    corrected: dict[str, tuple[int, str]] = {}
    for term, clause in zip(terms, clauses):
        own = analysed(term.typed)
        for indexed, holding in _holding(engine, clause, number):
            for name in holding:
                if term.typed not in matched.setdefault(name, []):
                    matched[name].append(term.typed)
            if holding and not term.synonym and not term.prefix and own and indexed != own[0][1]:
                # The correction the record shows most plainly: in its title before its body.
                found = (FIELDS.index(holding[0]), indexed)
                corrected[term.typed] = min(corrected.get(term.typed, found), found)
    return {name: matched[name] for name in FIELDS if name in matched}, {
        typed: indexed for typed, (_, indexed) in corrected.items()
    }


def _holding(engine: SearchEngine, clause: Clause, number: int) -> list[tuple[str, list[str]]]:
    """Each index term the clause reaches and the fields holding it in the record."""
    known = engine.matcher.known_fields(clause, number)
    if known is not None:
        return [(clause.term, known)]
    return [
        (indexed, [name for name in FIELDS if holds(fields.get(name, ()), number)])
        for indexed, fields in engine.matcher.members(clause, list(FIELDS)).items()
    ]


def suggestion(query: str, corrected: dict[str, str], rows: Sequence[Mapping[str, Any]]) -> str | None:
    """The query with each corrected word as the results spell it ("did you mean").

    The index holds stems ("popul"), which are no words to offer a person: a
    corrected word is spelt as the first result whose title, summary or
    publisher holds it, and with no result spelling it there is no suggestion.
    """
    if not corrected:
        return None
    spelt: dict[str, str] = {}
    for row in rows:
        for text in (row.get("title", ""), row.get("summary", ""), row.get("publisher", "")):
            for typed, indexed in analysed(text):
                spelt.setdefault(indexed, typed.lower())
    words = []
    for word in query.split():
        typed = analysed(word)
        if typed and typed[0][0] in corrected:
            if corrected[typed[0][0]] not in spelt:
                return None
            words.append(spelt[corrected[typed[0][0]]])
        else:
            words.append(word)
    return " ".join(words)
