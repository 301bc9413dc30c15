"""Smoke test entry point for CI: a --quick benchmark run.

    from bench.smoke import run_quick   # or: sys.path.insert(0, "bench"); from smoke import run_quick
    result = run_quick(tmp_path)        # dict, as written to tmp_path/quick.json

Runs 1,000 records (real exports when ../shared/data exists, otherwise the
synthetic corpus), 2 queries of each kind and one cold load per engine, and
raises AssertionError when an engine produced no figure. About 1-3 minutes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))


def run_quick(out_dir, *, synthetic: bool = False) -> dict:
    import run as bench_run

    options = argparse.Namespace(
        quick=True,
        sizes="1000",
        name="quick",
        seed=20261130,
        per_kind=2,
        cold_runs=1,
        engines=list(bench_run.ENGINES),
        synthetic=synthetic,
        out=str(out_dir),
    )
    result = bench_run.run(options)
    size = result["sizes"][0]
    for engine in bench_run.ENGINES:
        figures = size["engines"][engine]["figures"]
        for key in ("cold_first_result_ms", "warm_p50_ms", "first_search_mb", "renderer_rss_mb"):
            assert figures[key] is not None and figures[key] > 0, f"{engine}: {key} missing"
        answers = size["engines"][engine]["browser"]["warm"]
        assert all(a.get("ms") is not None and not a.get("error") for a in answers), (
            f"{engine}: a query failed: {answers}"
        )
    startup = size["engines"]["ours"]["startup"]
    assert (
        startup["ratio_first_answer_to_bare"]
        and startup["ratio_repeat_to_cold"]
        and startup["ratio_private_repeat_to_cold"]
    ), f"start-up timeline incomplete: {startup['medians_ms']}"
    # Both repeat visits started from the snapshot the first visit kept.
    for kind in ("repeat", "repeat_private"):
        assert all("snapshot_unpacked" in visit["marks"] for visit in startup["visits"][kind]), (
            f"a {kind} visit bootstrapped instead of starting from the snapshot"
        )
    return result


if __name__ == "__main__":
    run_quick(Path(sys.argv[1]) if len(sys.argv) > 1 else BENCH / "results")
