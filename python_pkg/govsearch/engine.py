"""Ranked matching and exact filtering, whatever the index layout.

Scoring is lunr's own (BM25 with the field boosts the build chose). This
module adds only what lunr lacks: exact filters applied to every match before
the limit, facet counts, and a deterministic order.

Records are numbered by the build in (title, id) order, so "score, then
title, then id" is simply "score, then record number", in every layout.
"""

from __future__ import annotations

import bisect
import math
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .facets import DIMENSIONS as DIMENSIONS
from .facets import FacetTable as FacetTable
from .names import name_index
from .terms import MAX_POSTINGS, MAX_SHARD_BYTES, Clause

SCORE_PLACES = 6
# Rounding to SCORE_PLACES moves a score by at most half a step, so a record
# more than two steps below the limit-th best raw score cannot be among the
# best after rounding.
_ROUNDING_MARGIN = 2 * 10**-SCORE_PLACES
RECENT_QUERIES = 4  # match sets kept, so a call retried after its shards arrive does not match again


def idf(holding: int, records: int) -> float:
    """lunr's inverse document frequency (lunr.idf) of a word that `holding` of
    `records` hold: the one formula the build's weights and the re-ranker's shares use."""
    return math.log(1 + abs((records - holding + 0.5) / (holding + 0.5)))


def holds(numbers: Sequence[int], number: int) -> bool:
    """Whether ascending record numbers (a matcher's members, a decoded posting) hold `number`."""
    at = bisect.bisect_left(numbers, number)
    return at < len(numbers) and numbers[at] == number


class Matcher(Protocol):
    def match(self, clauses: list[Clause]) -> dict[int, float]:
        """Record number -> lunr score, for every record the clauses match."""

    def postings(self, clauses: list[Clause], budget: Budget) -> list[int]:
        """How many postings (record and field pairs) each clause reaches, reading
        to find out no more index than `budget.shard_bytes` affords (each shard
        charged once a call: `budget.shards_read`)."""

    def warm(self) -> None:
        """Prepare what later queries will need, while nobody is waiting."""

    def summary(self, clause: Clause) -> Summary | None:
        """A common word's one-word search as the build worked it out, if it did."""

    def known_fields(self, clause: Clause, number: int) -> list[str] | None:
        """The fields holding the clause's word in the record, if known without decoding postings."""

    def related(self, term: str) -> tuple[str, ...]:
        """Index terms that mean nearly what the term does (the build's related words), nearest first."""

    def has_term(self, term: str) -> bool:
        """Whether the index holds the term (a word with no `*`)."""

    def has_prefix(self, prefix: str) -> bool:
        """Whether an index term begins with `prefix` (no `*`)."""


@dataclass(frozen=True)
class Summary:
    """What a one-word search for a common word shows, worked out by the build
    (govsearch.format: POSTING_SUMMARY), so it need not score every record."""

    tally: Counter[int]  # the word's records per profile
    best: list[tuple[int, float, int]]  # (number, score before row evidence, mask of `fields` holding it), best first
    fields: list[str]
    general: int  # `best` begins with the word's best records, this many
    by_value: tuple[str, ...]  # and holds the best `value_best` records holding each value of these fields
    value_best: int

    def trusted(self, filters: Mapping[str, frozenset[str]], depth: int) -> int:
        """How many of `best` hold, with each record, every record ranked above
        it that the filters pass: those a search with these filters can take
        its first `depth` records from. Filters on one of the `by_value`
        fields: a record passing them holds one of their values, so it is
        among that value's best unless `depth` records passing them rank above it."""
        fields = {DIMENSIONS[name] for name in filters}
        if len(fields) == 1 and fields <= set(self.by_value) and depth <= self.value_best:
            return len(self.best)
        return self.general


@dataclass(frozen=True)
class Hit:
    number: int  # the record's position in (title, id) order
    score: float  # rounded to SCORE_PLACES, so order is stable across platforms


class Matches:
    """A query's matches (record number -> lunr score), and what has been
    worked out from them: in the browser a call is asked again once its
    shards have arrived, and should not redo any of it.

    A common word's matches may come with their tally (Summary) and their
    scores only worked out (`score`) if something asks for them."""

    __slots__ = ("_scores", "_score", "limited", "_tally", "_worked")

    def __init__(
        self,
        scores: dict[int, float] | None = None,
        limited: tuple[str, ...] = (),
        *,
        tally: Counter[int] | None = None,
        score: Callable[[], dict[int, float]] | None = None,
    ):
        self._scores = {} if scores is None and score is None else scores
        self._score = score
        self.limited = limited  # terms whose prefix or typo expansions the work budget cut
        self._tally = tally
        self._worked: dict[tuple[Any, ...], Any] = {}

    @property
    def scores(self) -> dict[int, float]:
        if self._scores is None:
            self._scores = self._score()  # type: ignore[misc]
        return self._scores

    def tally(self, facets: FacetTable) -> Counter[int]:
        if self._tally is None:
            self._tally = facets.tally(self.scores)
        return self._tally

    def worked(self, key: tuple[Any, ...], work: Callable[[], Any]) -> Any:
        if key not in self._worked:
            self._worked[key] = work()
        return self._worked[key]


@dataclass(frozen=True)
class Ranked:
    total: int  # matches passing the filters
    shown: list[Hit]  # the best of them, up to the limit


@dataclass
class Budget:
    """What one call may still spend (see terms.py): postings scored, shard
    bytes read; and what it left out (ranking.budget spends it over the tiers)."""

    postings: int = MAX_POSTINGS
    shard_bytes: int = MAX_SHARD_BYTES
    dropped: list[Clause] = field(default_factory=list)  # clauses the budget left out
    dropped_words: list[str] = field(default_factory=list)  # the words of the dropped clauses, as typed
    later: list[Clause] = field(default_factory=list)  # clauses of `within_budget(after=)` it could not pay for
    later_words: list[str] = field(default_factory=list)  # their words, as typed
    skipped: list[str] = field(default_factory=list)  # looser match modes left untried
    # Shards charged already: a later tier reads them again from the parsed-shard cache, no work.
    shards_read: set[str] = field(default_factory=set)

    @property
    def spent(self) -> bool:
        return self.postings <= 0 or self.shard_bytes <= 0


class SearchEngine:
    def __init__(self, matcher: Matcher, facets: FacetTable):
        self.matcher = matcher
        self.facets = facets
        self._recent: OrderedDict[tuple[Clause, ...], Matches] = OrderedDict()
        self._remembered: OrderedDict[tuple[Any, ...], Any] = OrderedDict()

    def preparations(self) -> list[Callable[[], object]]:
        """What can be worked out before the first query needs it, in pieces."""
        return [lambda: self.facets.profiles, self.matcher.warm]

    def warm(self) -> None:
        for prepare in self.preparations():
            prepare()

    def match(self, clauses: list[Clause]) -> Matches:
        """Every record the clauses match, with its lunr score.

        The last few match sets are kept: in the browser a call is asked
        again once its shards have arrived, and people repeat queries.
        """
        key = tuple(clauses)
        if key in self._recent:
            self._recent.move_to_end(key)
            return self._recent[key]
        matches = Matches(self.matcher.match(clauses), getattr(self.matcher, "limited", ())) if clauses else Matches({})
        self._recent[key] = matches
        while len(self._recent) > RECENT_QUERIES:
            self._recent.popitem(last=False)
        return matches

    def remembered(self, key: tuple[Any, ...], work: Callable[[], Any]) -> Any:
        """What `work` gave for `key`, kept for the last few keys: in the
        browser a call is asked again once its shards have arrived, and
        should not redo what it finished before they came. `work` must
        depend only on the key and the site (then keeping it changes nothing)."""
        if key in self._remembered:
            self._remembered.move_to_end(key)
            return self._remembered[key]
        value = self._remembered[key] = work()
        while len(self._remembered) > RECENT_QUERIES:
            self._remembered.popitem(last=False)
        return value

    def forget(self) -> None:
        """Drop what is kept from recent calls (a test that changes a budget between calls)."""
        self._recent.clear()
        self._remembered.clear()

    def within_budget(self, clauses: list[Clause], budget: Budget, after: Sequence[Clause] = ()) -> list[Clause]:
        """The clauses to match within the call's budget (which they use up);
        those left out are added to `budget.dropped`.

        Clauses reaching no postings cost nothing and stay; of the others the
        ones reaching most go first, but one always stays. A required clause
        reaching nothing means no record can match: nothing is kept, so
        nothing is scored (the cheap decision lunr would reach the long way).
        `after`: clauses that only what `clauses` leave of the budget may pay
        for, each in turn at what it adds to the work (a sentence's words past
        the first few, ranking.budget); those it cannot are added to `budget.later`.
        """
        if not clauses:
            return []
        counts = self.matcher.postings(clauses, budget)
        reach = dict(zip(clauses, counts))
        if any(clause.presence == "required" and not reach[clause] for clause in clauses):
            return []  # before the later clauses' shards are read: a looser tier may need those bytes
        later = [clause for clause in dict.fromkeys(after) if clause not in reach]
        if later:
            reach.update(zip(later, self.matcher.postings(later, budget)))
        if any(clause.presence == "required" and not reach[clause] for clause in later):
            return []
        kept = sorted(clauses, key=lambda clause: (reach[clause], clauses.index(clause)))
        while sum(1 for clause in kept if reach[clause]) > 1 and _work(kept, reach) > budget.postings:
            budget.dropped.append(kept.pop())
        for clause in later:
            if _work([*kept, clause], reach) <= budget.postings:
                kept.append(clause)
            else:
                budget.later.append(clause)
        budget.postings -= _work(kept, reach)
        return [clause for clause in [*clauses, *later] if clause in kept]

    def rank(self, matches: Matches, filters: Mapping[str, frozenset[str]], limit: int) -> Ranked:
        """How many matches pass the filters, and the `limit` best of them."""

        def work() -> Ranked:
            filtered = self.filter(matches, filters)
            return Ranked(len(filtered), self.best(matches, filtered, limit))

        return matches.worked(("rank", filters_key(filters), limit), work)

    def filters_pass_nothing(self, filters: Mapping[str, frozenset[str]]) -> bool:
        """True when no record at all passes the filters: decided from the
        facet table's profiles (a few thousand) before any query runs, and
        first from the publisher names alone: names none of the catalogue's
        pass nothing, known without reading every profile (eight such names
        made that the call's dearest step)."""
        publishers = filters.get("publishers")
        if publishers is not None and publishers.isdisjoint(name_index(self.facets.values("publisher")).exact):
            return True
        return bool(filters) and all(self._failing(profile, filters) for profile in range(len(self.facets.profiles[1])))

    def filter(self, matches: Matches, filters: Mapping[str, frozenset[str]]) -> list[int]:
        """The matching record numbers that pass every filter (in no particular order)."""
        numbers = list(matches.scores)
        if not filters or not numbers:
            return numbers
        tally = matches.tally(self.facets)
        passing = self.passing(tally, filters)
        if len(passing) == len(tally):
            return numbers
        profile_of = self.facets.profiles[0]
        return [number for number in numbers if profile_of[number] in passing]

    def passing(self, profiles: Iterable[int], filters: Mapping[str, frozenset[str]]) -> set[int]:
        """The profiles that pass every filter."""
        return {profile for profile in profiles if not self._failing(profile, filters)}

    def best(self, matches: Matches, numbers: list[int], limit: int) -> list[Hit]:
        """The `limit` best of `numbers`: score (rounded), then title, then id.

        Records are numbered in (title, id) order, so that is "score, then
        record number". Only records near the limit-th best raw score are
        rounded and sorted, not all of a common word's matches.
        """
        scores = matches.scores
        if len(numbers) > limit:
            threshold = sorted([scores[number] for number in numbers])[-limit] - _ROUNDING_MARGIN
            numbers = [number for number in numbers if scores[number] >= threshold]
        ranked = sorted((-round(scores[number], SCORE_PLACES), number) for number in numbers)
        return [Hit(number, -negated) for negated, number in ranked[:limit]]

    def facet_counts(self, matches: Matches, filters: Mapping[str, frozenset[str]]) -> dict[str, dict[str, int]]:
        """Counts per value of each dimension over the query's matches.

        Each dimension is counted with the other dimensions' filters applied
        but not its own, so its counts show what choosing another value of
        that dimension would give.
        """
        return matches.worked(("facets", filters_key(filters)), lambda: self._facet_counts(matches, filters))

    def _facet_counts(self, matches: Matches, filters: Mapping[str, frozenset[str]]) -> dict[str, dict[str, int]]:
        counts: dict[str, Counter[str]] = {name: Counter() for name in DIMENSIONS}
        profile_values = self.facets.profile_values
        for profile, count in matches.tally(self.facets).items():
            failing = self._failing(profile, filters) if filters else []
            if len(failing) > 1:
                continue  # counted in no dimension: another filter than its own excludes it
            for name, values in zip(DIMENSIONS, profile_values[profile]):
                if not failing or failing == [name]:
                    for value in values:
                        counts[name][value] += count
        return {
            name: dict(sorted(tally.items(), key=lambda item: (-item[1], item[0]))) for name, tally in counts.items()
        }

    def _failing(self, profile: int, filters: Mapping[str, frozenset[str]]) -> list[str]:
        """The filters a profile does not pass."""
        values = self.facets.profiles[1][profile]
        return [
            name
            for position, name in enumerate(DIMENSIONS)
            if name in filters and filters[name].isdisjoint(values[position])
        ]

    def values(self, field: str) -> set[str]:
        return self.facets.values(field)


def _work(clauses: list[Clause], reach: Mapping[Clause, int]) -> int:
    """The work of scoring these clauses, in postings: scores are merged term
    by term, so beyond two terms each costs a third more (ten terms of the
    same postings measured about three times one term's time). Where a word
    is required, every posting is first narrowed to the records holding all
    the required words (their record sets intersected), so only what is left,
    at most the rarest required word's postings for each word, is merged.
    Charged as if every posting were merged, a sentence's all-terms tier,
    which few records or none can match, spent the budget its any-term tier,
    which answers it, needed."""
    postings = sum(map(reach.__getitem__, clauses))
    reached = [clause for clause in clauses if reach[clause]]
    merge = max(1, (len(reached) + 1) / 3) - 1  # what merging adds, per posting merged
    required = [reach[clause] for clause in reached if clause.presence == "required"]
    if not required:
        return int(postings * (1 + merge))
    narrowed = min(required)
    return int(postings + sum(min(reach[clause], narrowed) for clause in reached) * merge)


def filters_key(filters: Mapping[str, frozenset[str]]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple(sorted((name, tuple(sorted(values))) for name, values in filters.items()))
