"""What a ranking change moved, by part, against a saved run: aggregates only.

A mean over 200-odd queries moves by 0.003 when one query moves by 0.7, so
a figure alone cannot tell a rule that serves a class from a rule that
fits a query. `make eval` keeps each corpus's per-query scores in
`.cache/eval-runs/` (ids and numbers, never committed) and prints, per
part, the paired change against the last run: the mean change in
nDCG@10, a 95 % bootstrap interval around it, and how many queries rose
and fell. Like the rest of `make eval` it never names a test query
(eval/README.md, "Two parts").

    .venv/bin/python eval/run.py --save base        # keep a baseline
    .venv/bin/python eval/run.py --against base     # compare with it (default: the last run)
"""

from __future__ import annotations

import json
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
    return {
        "queries": len(shared),
        "mean": sum(deltas) / len(deltas),
        "low": means[int(0.025 * RESAMPLES)],
        "high": means[int(0.975 * RESAMPLES) - 1],
        "up": sum(delta >= MOVED for delta in deltas),
        "down": sum(delta <= -MOVED for delta in deltas),
    }


def save(corpus: str, name: str, run: dict[str, Any], rows: list[dict[str, Any]]) -> Path:
    """Keep this run's per-query scores as `name` for `corpus`."""
    RUNS.mkdir(parents=True, exist_ok=True)
    path = RUNS / f"{corpus}.{name}.json"
    kept = {"commit": run["commit"], "judgments": run["queriesSha256"], "scores": scores(rows)}
    path.write_text(json.dumps(kept), "utf-8")
    return path


def report(corpus: str, name: str, run: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    """The change since the saved run `name`, per part, as markdown (or why there is none)."""
    path = RUNS / f"{corpus}.{name}.json"
    if not path.is_file():
        return f"No saved run '{name}' of the {corpus} to compare with."
    saved = json.loads(path.read_text("utf-8"))
    if saved["judgments"] != run["queriesSha256"]:
        return f"The judgments changed since the saved run '{name}': no paired comparison."
    now = scores(rows)
    lines = [
        f"## Change since the saved run '{name}' (checkout {saved['commit']})",
        "",
        "| part | queries | mean change in nDCG@10 | 95 % interval | up | down |",
        "|---|---:|---:|---|---:|---:|",
    ]
    for part in PARTS:
        change = paired(saved["scores"].get(part, {}), now[part])
        if change:
            lines.append(
                f"| {part} | {change['queries']} | {change['mean']:+.4f} | "
                f"{change['low']:+.4f} to {change['high']:+.4f} | {change['up']} | {change['down']} |"
            )
    return "\n".join(lines)
