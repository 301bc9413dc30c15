"""bench/answers_diff.py says whether a refactor left answers and data
files byte-identical: it dumps a built site's answers, names the calls whose
answers differ, and sets aside only what changes with the code's own bytes
(the manifest's runtime entry and the manifest digest a record cites)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from sitefixture import build_fixture_site

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import answers_diff  # noqa: E402


def test_a_dump_compares_equal_to_itself_and_names_a_changed_answer(tmp_path: Path, capsys):
    site = build_fixture_site(tmp_path / "site")
    before, after = tmp_path / "before.jsonl", tmp_path / "after.jsonl"
    assert answers_diff.dump(str(site), before) == 0
    lines = before.read_text("utf-8").splitlines()
    calls = [json.loads(line) for line in lines[0::2]]
    assert {call["tool"] for call in calls} == {
        "search_government_knowledge",
        "list_filter_values",
        "get_resource_record",
    }
    assert any(call.get("offset") for call in calls) and any(call.get("prefix") for call in calls)
    assert answers_diff.MANIFEST_DIGEST in before.read_text("utf-8")  # a record's citation, set aside
    after.write_text(before.read_text("utf-8"), "utf-8")
    assert answers_diff.compare(before, after) == 0
    lines[1] = lines[1].replace('"ok":true', '"ok":false', 1)
    after.write_text("\n".join(lines) + "\n", "utf-8")
    capsys.readouterr()
    assert answers_diff.compare(before, after) == 1
    assert f"differs: {lines[0]}" in capsys.readouterr().out  # the call whose answer changed


def test_data_folders_differ_by_any_file_but_the_manifests_runtime_entry(tmp_path: Path):
    before, after = tmp_path / "before", tmp_path / "after"
    for folder, runtime in ((before, "old"), (after, "new")):
        (folder / "postings").mkdir(parents=True)
        (folder / "postings" / "00000.abc.json").write_text('{"terms":{}}', "utf-8")
        (folder / "manifest.json").write_text(json.dumps({"format": "f", "runtime": {"path": runtime}}), "utf-8")
    assert answers_diff.compare_data(before, after) == 0
    (after / "postings" / "00000.abc.json").write_text('{"terms":{"a":1}}', "utf-8")
    assert answers_diff.compare_data(before, after) == 1
    (after / "postings" / "00000.abc.json").write_text('{"terms":{}}', "utf-8")
    (after / "manifest.json").write_text(json.dumps({"format": "g", "runtime": {"path": "new"}}), "utf-8")
    assert answers_diff.compare_data(before, after) == 1
