"""bench/simulate_estate.py: simulated records the real build accepts, learnt at run time.

The records are learnt here from our own curated corpus (site/content), so
the test needs no exports; the scale benchmark learns from the full estate.
The last test reads the real exports, when they are beside the checkout, to
check that no text of theirs found its way into the generator's source.
"""

from __future__ import annotations

import csv
import gzip
import json
import sys
from pathlib import Path

import pytest

from govsearch_build.config import load_config
from govsearch_build.data_writer import write_data
from govsearch_build.records import load_content, record_to_markdown

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data"
sys.path.insert(0, str(REPO / "bench"))

import simulate_estate as simulate  # noqa: E402

SOURCES = [REPO / "bench" / "simulate_estate.py", REPO / "bench" / "scale.py"]


@pytest.fixture(scope="module")
def model() -> simulate.Model:
    curated = load_content(REPO / "site" / "content").records
    return simulate.learn(dict(record.data, body=record.body) for record in curated)


def test_two_hundred_simulated_records_all_validate_and_index(model, tmp_path):
    records = list(simulate.Simulator(model, seed=3).records(200))
    assert all(
        simulate.to_markdown(r) == record_to_markdown(r.data, r.body) for r in records[:20]
    )  # the fast writer writes the same files
    assert simulate.write_markdown(records, tmp_path / "content") == 200
    config = load_config(simulate.site_config(tmp_path / "content", tmp_path / "site.toml"))
    loaded = load_content(config.content_dir, http_allowed_hosts=config.http_allowed_hosts)
    assert [problem.as_dict() for problem in loaded.rejected] == []
    assert len(loaded.records) == 200
    manifest = write_data(config, loaded.records, tmp_path / "data")
    assert manifest["records"] == 200
    # the shapes follow the learnt estate: every collection and resource type used is one the curated records use
    assert {r.data["collection"] for r in records} <= {s.fields["collection"] for s in model.shapes}
    assert {r.data["resourceType"] for r in records} <= {s.fields["resourceType"] for s in model.shapes}
    assert len({r.data["title"] for r in records}) > 150  # made, not copied: titles differ


def test_same_seed_same_records_other_seed_others(model):
    first = [(r.data, r.body) for r in simulate.Simulator(model, seed=5).records(30)]
    again = [(r.data, r.body) for r in simulate.Simulator(model, seed=5).records(30)]
    other = [(r.data, r.body) for r in simulate.Simulator(model, seed=6).records(30)]
    assert first == again
    assert first != other


def test_titles_in_series_vary_the_real_titles_by_the_chance_asked(model):
    """--title-kept: each word of the real title a record is shaped on is kept
    with that chance; without it, titles are drawn word by word."""
    # Compared without case: a simulated title starts with a capital ("e-Document ..." is written "E-Document ...").
    real = {tuple(word.lower() for word in shape.title) for shape in model.shapes}
    words = lambda record: tuple(word.lower() for word in simulate.words(record.data["title"]))  # noqa: E731
    copied = list(simulate.Simulator(model, seed=4, title_kept=1.0).records(100))
    assert all(words(record) in real for record in copied if words(record))
    varied = list(simulate.Simulator(model, seed=4, title_kept=0.5).records(100))
    assert 0 < sum(words(record) in real for record in varied) < 60
    drawn = list(simulate.Simulator(model, seed=4).records(100))
    assert sum(words(record) in real for record in drawn) < 10


def test_vocabulary_grows_past_the_learnt_estate(model):
    """Heaps' law: once more words are written than the estate holds, new words appear."""
    simulator = simulate.Simulator(model, seed=1)
    simulator.tokens = model.real_tokens * 10
    list(simulator.records(200))
    assert simulator.new_words > 0
    assert 0 < model.heaps_b < 1


def _export_strings() -> set[str]:
    """Every longer text value of the real exports (CSV cells, JSON strings, Markdown lines)."""
    found: set[str] = set()

    def walk(value) -> None:
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for path in DATA.rglob("*"):
        if path.suffix == ".csv":
            with path.open(encoding="utf-8", errors="replace", newline="") as handle:
                for row in csv.reader(handle):
                    found.update(row)
        elif path.name.endswith((".json", ".json.gz")):
            raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
            walk(json.loads(raw))
        elif path.suffix == ".md":
            found.update(path.read_text("utf-8", errors="replace").splitlines())
    return {text.strip() for text in found if 16 <= len(text.strip()) <= 300}


@pytest.mark.shared_data
def test_no_text_of_the_exports_in_the_generator_source():
    if not DATA.is_dir():
        pytest.skip("../shared/data is not beside the checkout")
    strings = _export_strings()
    assert len(strings) > 1000  # the exports were read
    for source in SOURCES:
        text = source.read_text("utf-8")
        copied = sorted(s for s in strings if s in text)
        assert copied == [], f"{source.name} holds text of the exports: {copied[:5]}"


def test_scale_results_run_side_by_side_merge_into_one_table(tmp_path):
    import scale

    def run(records, started, wall):
        size = {
            "records": records,
            "build": {"wall_s": wall, "peak_rss_mb": records / 100, "steps": [], "pages_limit_message": None},
            "published": {
                "archive_mb": records / 50,
                "files": records,
                "by_folder": {"records": {"mb": 1}, "data": {"mb": 2}},
            },
            "chromium": None,
        }
        return {
            "name": f"r{records}",
            "command": f"scale {records}",
            "started": started,
            "finished": started,
            "seed": 18,
            "machine": {
                "nproc": 2,
                "cpu": "x",
                "memory_gb": 1,
                "mem_available_gb_at_start": 1,
                "uptime_at_start": "load",
                "chromium": "c",
            },
            "model": {"learnt_from_records": 1, "heaps_k": 1, "heaps_b": 0.5},
            "sizes": [size],
        }

    for records, started in ((300000, "2026-12-01T02:00"), (100000, "2026-12-01T01:40")):
        (tmp_path / f"r{records}.json").write_text(json.dumps(run(records, started, records / 10)))
    result = scale.merged(tmp_path, ["r300000", "r100000"], "both")
    assert [size["records"] for size in result["sizes"]] == [100000, 300000]
    assert result["started"] == "2026-12-01T01:40" and "scale 100000" in result["command"]
    scale._finish(result, [1000000], tmp_path)
    table = (tmp_path / "both.md").read_text("utf-8")
    assert "| 100,000 | 300,000 |" in table
    # projected through the two: peak 1,000 MB at 100,000 and 3,000 at 300,000 -> 10,000 at 1,000,000
    assert (
        json.loads((tmp_path / "both.json").read_text())["extrapolated"]["figures"]["Build peak RSS (MB)"]["1000000"]
        == 10000
    )
