"""What a ranking change moved, by part, against a saved run: aggregates only.

A mean over 200-odd queries moves by 0.003 when one query moves by 0.7, so
a figure alone cannot tell a rule that serves a class from a rule that
fits a query. `make eval` keeps each corpus's per-query scores in
`.cache/eval-runs/` (ids and numbers, never committed) and prints, per
part, the paired change against the last run: the mean change in
nDCG@10, a 95 % bootstrap interval around it, how many queries rose and
fell, and a sign test over those (with few queries moving, the interval
alone claims too much). Like the rest of `make eval` it never names a test
query (eval/README.md, "Two parts").

    .venv/bin/python eval/run.py --save base        # keep a baseline
    .venv/bin/python eval/run.py --against base     # compare with it (default: the last run)
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

RUNS = Path(__file__).resolve().parent.parent / ".cache" / "eval-runs"
MOVED = 0.005  # a query whose nDCG@10 changes by less counts as unmoved
RESAMPLES = 2000
PARTS = ("dev", "test")


def scores(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Each part's scored queries: id -> nDCG@10."""
    kept: dict[str, dict[str, float]] = {part: {} for part in PARTS}
    for row in rows:
        if row["ndcg"] is not None:
            kept[row["part"]][row["id"]] = row["ndcg"]
    return kept


def paired(before: Mapping[str, float], after: Mapping[str, float]) -> dict[str, Any] | None:
    """The change from `before` to `after` over the queries both scored: its
    mean, a 95 % interval from resampling the queries (seeded, so the same
    runs print the same interval), and the queries that rose and fell."""
    shared = sorted(before.keys() & after.keys())
    if not shared:
        return None
    deltas = [after[key] - before[key] for key in shared]
    draw = random.Random(0)
    means = sorted(sum(draw.choices(deltas, k=len(deltas))) / len(deltas) for _ in range(RESAMPLES))
    up, down = sum(delta >= MOVED for delta in deltas), sum(delta <= -MOVED for delta in deltas)
    return {
        "queries": len(shared),
        "unpaired": len(before.keys() ^ after.keys()),  # scored in one run only: left out
        "mean": sum(deltas) / len(deltas),
        "low": means[int(0.025 * RESAMPLES)],
        "high": means[int(0.975 * RESAMPLES) - 1],
        "up": up,
        "down": down,
        "sign": sign_test(up, down),
    }


def sign_test(up: int, down: int) -> float:
    """Two-sided exact sign test: how likely a split at least this lopsided is when
    rising and falling are equally likely (1.0 when nothing moved)."""
    moved = up + down
    tail = sum(math.comb(moved, k) for k in range(min(up, down) + 1)) / 2**moved
    return min(1.0, 2 * tail)


def save(corpus: str, names: list[str], run: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    """Keep this run's per-query scores under each of `names` for `corpus`."""
    RUNS.mkdir(parents=True, exist_ok=True)
    kept = json.dumps({"commit": run["commit"], "judgments": run["queriesSha256"], "scores": scores(rows)})
    for name in dict.fromkeys(names):
        (RUNS / f"{corpus}.{name}.json").write_text(kept, "utf-8")


def report(corpus: str, name: str, run: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    """The change since the saved run `name`, per part, as markdown (or why there is none)."""
    path = RUNS / f"{corpus}.{name}.json"
    if not path.is_file():
        return f"No saved run '{name}' of the {corpus} to compare with."
    try:
        saved = json.loads(path.read_text("utf-8"))
        saved["judgments"], saved["scores"], saved["commit"]
    except (OSError, ValueError, KeyError, TypeError):
        return f"The saved run '{name}' ({path}) could not be read: no paired comparison."
    if saved["judgments"] != run["queriesSha256"]:
        return f"The judgments changed since the saved run '{name}': no paired comparison."
    now = scores(rows)
    lines = [
        f"## Change since the saved run '{name}' (checkout {saved['commit']})",
        "",
        "| part | queries | mean change in nDCG@10 | 95 % interval | up | down | sign test p |",
        "|---|---:|---:|---|---:|---:|---:|",
    ]
    for part in PARTS:
        change = paired(saved["scores"].get(part, {}), now[part])
        if not change:
            lines.append(f"| {part} | 0 | - | - | - | - | - |")
            continue
        unpaired = f" ({change['unpaired']} scored in one run only, left out)" if change["unpaired"] else ""
        lines.append(
            f"| {part} | {change['queries']}{unpaired} | {change['mean']:+.4f} | "
            f"{change['low']:+.4f} to {change['high']:+.4f} | {change['up']} | {change['down']} | {change['sign']:.2f} |"
        )
    return "\n".join(lines)
