"""The benchmark's --quick mode runs end to end (a smoke test, no timing asserted).

Speed is reported by `bench/run.py` as ratios against lunr.js and Pagefind,
never asserted here; this only proves every engine loads, answers every
query, and yields every figure.
"""

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.mark.browser
def test_quick_benchmark_measures_every_engine(tmp_path):
    pytest.importorskip("pagefind", reason="pip install -r bench/requirements.txt")
    sys.path.insert(0, str(BENCH))
    from smoke import run_quick

    result = run_quick(tmp_path)
    engines = result["sizes"][0]["engines"]
    assert set(engines) == {"ours", "lunr", "pagefind"}
    # Ours and lunr.js answer from the same lunr index: they find hits for the same queries.
    hits = {name: [(a.get("total") or 0) > 0 for a in engine["browser"]["warm"]] for name, engine in engines.items() if name != "pagefind"}
    assert hits["ours"] == hits["lunr"]
    assert (tmp_path / "quick.json").exists()
