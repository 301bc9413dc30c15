"""The last stage: the first page's records re-weighed by what the rules found of each.

Every rule before this one multiplies a record's score by a factor someone chose,
each measured alone against the rules before it; what each is worth beside all
the others was never measured together. This stage measures it. Each of the
answer's first POOL records is described by what a reader of the tool's output
sees of it: its place on the page, its score, the rules that applied to it (its
reasons), its resource type and its title's length. Its score is multiplied by
exp(weights . features), with weights fitted by `eval/learn.py` on the judged
queries' development part only (docs/ranking.md, "The learned last stage"), and
the page is ordered again within each run of one match mode: the strictest mode
still comes first, and a score still orders the records of one mode.

A record the query identifies, whose URL is the query, of a kind it asked for by
name, or a place's council put in after the page that sends you to it keeps its
place: those rules put it there on purpose.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from . import rules
from .learned_weights import WEIGHTS
from .state import Ranked

Rows = Callable[[list[int]], list[dict[str, Any]]]

MIN_SCORE = 1e-12  # a score of 0 (none is negative) still has a logarithm
# Placed on purpose (with the identifier mode): by the URL, a kind asked for, a place's council.
PINNED = frozenset({"url_is_query", "kind_asked_for", "place_council"})


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


def describe(head: Sequence[Ranked], rows: Rows) -> list[dict[str, float]]:
    """The features of each record of the first page (eval/learn.py reads them too)."""
    return [features(place, item, row) for place, (item, row) in enumerate(zip(head, rows([i.number for i in head])))]


def reorder(ranked: list[Ranked], rows: Rows) -> list[Ranked]:
    """`ranked` with its first POOL records re-weighed and reordered within each run
    of one mode, pinned records where they were; the rest as they were."""
    head = ranked[: rules.POOL]
    if not WEIGHTS or len(head) < 2:
        return ranked
    for item, found in zip(head, describe(head, rows)):
        item.score *= math.exp(sum(WEIGHTS.get(name, 0.0) * value for name, value in found.items()))
    return [*in_mode_order(head), *ranked[rules.POOL :]]


def pinned(item: Ranked) -> bool:
    """Whether a rule put the record where it is on purpose (PINNED)."""
    return item.mode == "identifier" or not PINNED.isdisjoint(item.reasons)


def in_mode_order(head: list[Ranked]) -> list[Ranked]:
    """Pinned records where they were; between them, each run of one mode by score."""
    ordered: list[Ranked] = []
    start = 0
    while start < len(head):
        end = start + 1
        if not pinned(head[start]):
            while end < len(head) and not pinned(head[end]) and head[end].mode == head[start].mode:
                end += 1
        ordered += sorted(head[start:end], key=lambda item: rules.rank_key(item.score, item.number))
        start = end
    return ordered
