"""The last stage: the first page's records re-weighed by what the rules found of each.

Every rule before this one multiplies a record's score by a factor someone chose,
each measured alone against the rules before it; what each is worth beside all
the others was never measured together. This stage measures it. Each of the
answer's first POOL records is described by what a reader of the tool's output
sees of it: its place on the page, its score, the rules that applied to it (its
reasons), its resource type, its title's length, and how like the page's first
results it is (`likeness`). Its score is multiplied by
exp(weights . features), with weights fitted by `eval/learn.py` on the judged
queries' development part only (docs/ranking.md, "The learned last stage"), and
the page is ordered again within each run of one match mode: the strictest mode
still comes first, and a score still orders the records of one mode.

A record the query identifies, of a kind it asked for by name, or a place's
council put in after the page that sends you to it keeps its place and its
score: those rules put it there on purpose.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import Any

from lunr.stop_word_filter import WORDS as STOP_WORDS

from . import rules
from .analysis import singular
from .learned_weights import WEIGHTS
from .state import Ranked, Rows

MIN_SCORE = 1e-12  # a score of 0 (none is negative) still has a logarithm
# Placed on purpose (with the identifier mode): a kind asked for by name, a place's council.
PINNED = frozenset({"kind_asked_for", "place_council"})
# The page's first this many results, as the rules ordered them, say what the query is about
# (`likeness`).
LIKE_FIRST = 2
_WORD = re.compile(r"[^\W_]+")


def features(place: int, item: Ranked, row: dict[str, Any]) -> dict[str, float]:
    """What the stage knows of the record at `place` (from 0) on the first page.
    Its place says how sure the rules were: the top of their order is right more
    often than its score's lead over the next says."""
    found = {
        "first_places": 1 / (place + 1),
        "place": place / rules.POOL,
        "log_score": math.log(max(item.score, MIN_SCORE)),
        "title_length": len(str(row.get("title", "")).split()) / 10,
        f"type_{row.get('resourceType', '')}": 1.0,
    }
    found.update(dict.fromkeys((f"reason_{reason}" for reason in item.reasons), 1.0))
    return found


def describe(head: list[Ranked], rows: Rows) -> list[dict[str, float]]:
    """The features of each record of the first page (eval/learn.py reads them too)."""
    shown = rows([item.number for item in head])
    found = [features(place, item, row) for place, (item, row) in enumerate(zip(head, shown))]
    for item, described, alike in zip(head, found, likeness(shown)):
        # A council's catalogue rows are alike across councils by title (each council's
        # "Libraries") and share their publisher on every topic of its place: likeness says
        # nothing of theirs ("Cornwall Council Brownfield Register" is no population figure).
        if "local_authority_row" not in item.reasons:
            described.update(alike)
    return found


def likeness(shown: Sequence[Mapping[str, Any]]) -> list[dict[str, float]]:
    """How like the page's first LIKE_FIRST results (other than itself) each record is: the
    share of them from its publisher, and the mean share of title words, and of summary
    words, it has in common with each (`_words`: common over all of the two texts'). The
    rules put a right answer first for most queries, and a query's other answers are often
    its neighbours: the same body's pages, the same thing's dataset and guide ("Register a
    birth" and "Register a birth abroad"), where a record holding the query's words for
    another reason is not."""
    titles = [_words(row, "title") for row in shown]
    summaries = [_words(row, "summary") for row in shown]
    first = range(min(LIKE_FIRST, len(shown)))
    found = []
    for place, row in enumerate(shown):
        others = [other for other in first if other != place]
        if not others:
            found.append({})
            continue
        found.append(
            {
                "publisher_of_first": fmean(shown[other].get("publisher") == row.get("publisher") for other in others),
                "title_like_first": fmean(_common_share(titles[other], titles[place]) for other in others),
                "summary_like_first": fmean(_common_share(summaries[other], summaries[place]) for other in others),
            }
        )
    return found


def _words(row: Mapping[str, Any], field: str) -> frozenset[str]:
    """A field's words, lower-cased, without lunr's stop words, each plural as its singular
    ("births" is "birth"). Not the index's stems: they fitted no better, and stemming each
    new row's words is slow in Pyodide (docs/ranking.md, "Likeness to the first results")."""
    return frozenset(map(singular, set(_WORD.findall(str(row.get(field, "")).lower())) - STOP_WORDS))


def _common_share(one: frozenset[str], other: frozenset[str]) -> float:
    """The words two texts share over all of theirs (0 for two empty texts)."""
    return len(one & other) / len(one | other) if one or other else 0.0


def reorder(ranked: list[Ranked], rows: Rows) -> list[Ranked]:
    """`ranked` with its first POOL records re-weighed and reordered within each run
    of one mode, pinned records where they were; the rest as they were. The records
    are the call's own copies (ranking.stages.answer): their scores may change."""
    head = ranked[: rules.POOL]
    if not WEIGHTS or len(head) < 2:
        return ranked
    scores_in_place(head)
    return [*reweigh(head, describe(head, rows), WEIGHTS), *ranked[rules.POOL :]]


def reweigh(head: list[Ranked], described: list[dict[str, float]], weights: dict[str, float]) -> list[Ranked]:
    """Each record's score times exp(weights . features), but a pinned record's; then in order."""
    for item, found in zip(head, described):
        if not pinned(item):
            item.score *= math.exp(math.fsum(weights.get(name, 0.0) * value for name, value in found.items()))
    return in_mode_order(head)


def pinned(item: Ranked) -> bool:
    """Whether a rule put the record where it is on purpose (PINNED)."""
    return item.mode == "identifier" or not PINNED.isdisjoint(item.reasons)


def scores_in_place(head: list[Ranked]) -> None:
    """Give each run's scores to its records in the order they stand. Rules before
    this one place some records by position, not score: a series' newest edition
    takes its best edition's place (ranking.series), and a second window's records
    follow the first's. With every weight 0 the stage then moves nothing."""
    for run in _runs(head):
        for item, score in zip(run, sorted((item.score for item in run), reverse=True)):
            item.score = score


def in_mode_order(head: list[Ranked]) -> list[Ranked]:
    """Pinned records where they were; between them, each run of one mode by score."""
    ordered: list[Ranked] = []
    for run in _runs(head):
        # A stable sort on the rounded score: records scored alike keep the order the rules gave them.
        ordered += sorted(run, key=lambda item: rules.rank_key(item.score, item.number)[0])
    return ordered


def _runs(head: list[Ranked]) -> list[list[Ranked]]:
    """The page cut into runs of one mode, each pinned record a run of its own."""
    runs: list[list[Ranked]] = []
    for item in head:
        if runs and not pinned(item) and not pinned(runs[-1][-1]) and runs[-1][-1].mode == item.mode:
            runs[-1].append(item)
        else:
            runs.append([item])
    return runs
