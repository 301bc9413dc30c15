"""What the ranking stages pass between them: the call's query (QueryState),
a tier of one match mode, a ranked record, and the answer."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..engine import Matches, SearchEngine
from ..loaders import MissingFiles
from ..terms import Clause
from . import rules
from .prior import RankingData
from .query import Term

Rows = Callable[[list[int]], list[dict[str, Any]]]  # the rows of records (a sharded store may raise MissingFiles)


@dataclass(frozen=True)
class QueryState:
    """One call as the first stage reads it: the site, the query's terms,
    its filters, the records its identifier names, and which page."""

    engine: SearchEngine
    ranking: RankingData
    terms: list[Term]
    filters: Mapping[str, frozenset[str]]
    identified: list[int]  # ascending
    strict_only: bool  # no looser mode: the filters pass nothing, so none could find more
    start: int  # the first record wanted (the search page's "show more")
    here: bool = False  # about the asker's own place, naming none (ranking.nearby.asks_for_here)
    # Each record of a series of two or more: its series, when at hand without a download (the sharded
    # store's table, read while idle): it foretells a second window before the first one's rows arrive.
    series: Mapping[int, int] | None = None
    # The data files records' rows still need once others' are read (the store's RecordStore.rows_missing),
    # so a round of downloads the call makes anyway can bring rows it is certain to read next.
    rows_missing: Callable[[list[int], list[int] | None], list[str]] | None = None
    # The newest edition of a record's series, if the record is an older one (its row at hand);
    # and, when at hand without a download (the series table), every older edition's newest, so
    # the newest's row can come with its window's.
    newest_edition: Callable[[int], int | None] | None = None
    newest: Mapping[int, int] | None = None

    def with_rows(
        self, missing: MissingFiles, numbers: Callable[[], list[int]], after: list[int] | None = None
    ) -> MissingFiles:
        """A round of downloads (`missing`) that also brings the rows of the
        records `numbers` names, asked only now (naming them may need files
        of its own, which come too)."""
        if self.rows_missing is None:
            return missing
        try:
            extra = self.rows_missing(numbers(), after)
        except MissingFiles as more:
            extra = more.names
        return MissingFiles(sorted({*missing.names, *extra}))

    def at(self, start: int) -> QueryState:
        """The same call from another record (a later window of POOL)."""
        return replace(self, start=start)

    @property
    def depth(self) -> int:
        """How many records the answer ranks: the POOL from `start`."""
        return self.start + rules.POOL


@dataclass
class Ranked:
    """One answer's records in order, and how they were found."""

    number: int
    score: float
    mode: str
    reasons: list[str] = field(default_factory=list)
    others: list[int] = field(default_factory=list)  # the rest of its series in this answer (ranking.series)

    def fresh(self) -> Ranked:
        """A copy to reorder, boost and group, its series not yet set: a window's
        records are kept for the call's next round, and must stay as they were."""
        return Ranked(self.number, self.score, self.mode, list(self.reasons))


def in_answer_order(ranked: list[Ranked]) -> None:
    """Order records as an answer shows them: by mode (a boost never crosses modes), then score.
    (Only ranking.kinds then puts a record of a kind asked for first, whatever its mode.)"""
    ranked.sort(key=lambda item: (rules.TIER_ORDER[item.mode], *rules.rank_key(item.score, item.number)))


@dataclass
class Answer:
    total: int  # records, after filters, matched by the modes the answer used
    mode: str  # the strictest mode that matched anything (the first result's, but for ranking.kinds' lead)
    ranked: list[Ranked]  # the best POOL (or fewer), in order
    tiers: list[tuple[str, list[Term], list[Clause]]]  # each mode used, its terms and clauses
    matches: Matches  # every record the modes matched (for facet counts)
    suggestion: str | None = None
    skipped: list[str] = field(default_factory=list)  # looser modes the work budget left untried
    dropped: list[str] = field(default_factory=list)  # words left out for the work budget, as typed
    later: list[str] = field(default_factory=list)  # words past the leading ones the budget could not search
    limited: tuple[str, ...] = ()  # terms whose expansions the budget cut


@dataclass
class Tier:
    """The records one match mode found that no stricter mode did."""

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
