"""The benchmark's --quick mode runs end to end (a smoke test, no timing asserted).

Speed is reported by `bench/run.py` as ratios against lunr.js and Pagefind,
never asserted here; this only proves every engine loads, answers every
query, and yields every figure. It runs in its own process: the browser
tests keep a Playwright session open in this one.
"""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from needs import need

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.mark.browser
def test_quick_benchmark_measures_every_engine(tmp_path):
    need(importlib.util.find_spec("pagefind") is not None, "pagefind (pip)")
    done = subprocess.run(
        [sys.executable, str(BENCH / "smoke.py"), str(tmp_path)], capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads((tmp_path / "quick.json").read_text("utf-8"))
    engines = result["sizes"][0]["engines"]
    assert set(engines) == {"ours", "lunr", "pagefind"}
    # Ours and lunr.js answer from the same lunr index: ours finds every query lunr.js
    # finds, and may find more (the re-ranker reads a typo two edits away; lunr.js one).
    hits = {
        name: [(a.get("total") or 0) > 0 for a in engine["browser"]["warm"]]
        for name, engine in engines.items()
        if name != "pagefind"
    }
    assert len(hits["ours"]) == len(hits["lunr"]) > 0
    assert [ours or not lunr for ours, lunr in zip(hits["ours"], hits["lunr"])] == [True] * len(hits["lunr"])
    assert engines["ours"]["figures"]["wasm_after_load_mb"] > 0
