"""`python build.py`: every input accounted for, every data file verifiable."""

import hashlib
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def build(*args, cwd=REPO):
    return subprocess.run([sys.executable, str(REPO / "build.py"), *args], capture_output=True, text=True, cwd=cwd)


def config_for(tmp_path, content):
    """A copy of site.toml whose content folder is `content`."""
    text = (
        (REPO / "site" / "site.toml")
        .read_text("utf-8")
        .replace('content_dir = "content"', f'content_dir = "{content}"')
    )
    path = tmp_path / "site.toml"
    path.write_text(text, "utf-8")
    return path


@pytest.fixture(scope="module")
def fixture_build(fixture_corpus_site):
    return fixture_corpus_site  # tests/conftest.py: built once per session


def test_report_accounts_for_every_record(fixture_build):
    report = json.loads((fixture_build / "build-report.json").read_text("utf-8"))
    inputs = len(list((REPO / "tests" / "fixtures" / "corpus").glob("*.md")))
    assert report["records"] == {"built": inputs, "rejected": 0, "merged_same_resource": 0}
    assert sum(report["by_collection"].values()) == inputs
    assert report["by_resource_type"]["api"] == 5
    assert report["publishers"]["HM Land Registry"] == 3


def test_data_quality_page_reports_the_build(fixture_build):
    report = json.loads((fixture_build / "build-report.json").read_text("utf-8"))
    page = (fixture_build / "data-quality" / "index.html").read_text("utf-8")
    assert f"{report['records']['built']} records built; 0 inputs rejected" in page
    # the curated fixture is clean: no rule changed anything, and the page says so
    assert report["quality"] == {} and 'id="quality-none"' in page


def test_manifest_describes_every_data_file(fixture_build):
    data = fixture_build / "data"
    manifest = json.loads((data / "manifest.json").read_text("utf-8"))
    for entry in manifest["files"].values():
        payload = (data / entry["path"]).read_bytes()
        assert hashlib.sha256(payload).hexdigest() == entry["sha256"] and len(payload) == entry["size"]
        # a file of records says how many it holds; the ranking file (synonyms, intent words) holds none
        assert entry.get("count", "none") == (
            "none"
            if entry is manifest["files"]["ranking"]
            else len(list((REPO / "tests" / "fixtures" / "corpus").glob("*.md")))
        )
    index = json.loads((data / manifest["files"]["index"]["path"]).read_text("utf-8"))
    assert index["version"] == "2.3.9" and [f for f in index["fields"]] == [
        "title",
        "publisher",
        "keywords",
        "summary",
        "body",
    ]


def test_runtime_lock_lists_our_wheels_with_their_hashes(fixture_build):
    runtime = fixture_build / "pyodide"
    lock = json.loads((runtime / "pyodide-lock.json").read_text("utf-8"))
    assert set(lock["packages"]) == {"govsearch", "lunr", "fastjsonschema"}
    assert lock["packages"]["govsearch"]["depends"] == sorted(["lunr", "fastjsonschema"]) or set(
        lock["packages"]["govsearch"]["depends"]
    ) == {"lunr", "fastjsonschema"}
    for package in lock["packages"].values():
        assert hashlib.sha256((runtime / package["file_name"]).read_bytes()).hexdigest() == package["sha256"]
    names = zipfile.ZipFile(runtime / lock["packages"]["govsearch"]["file_name"]).namelist()
    assert "govsearch/schemas/search_government_knowledge.input.json" in names
    assert not any(name.startswith("govsearch_build") for name in names)
    for name in ("pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip"):
        assert (runtime / name).stat().st_size > 0


def test_runtime_files_are_packed_as_plain_gzip_and_the_manifest_vouches_for_the_lock(tmp_path):
    """What the browser expands with DecompressionStream("gzip") is the file
    itself, whichever packer the build had (zopfli or gzip -9); the lock's entry in the
    manifest is written as the data writer writes the manifest."""
    import gzip

    from govsearch_build.data_writer import dump
    from govsearch_build.runtime import packed_gzip, vouch_for_lock

    data = (REPO / "python_pkg" / "govsearch" / "tools.py").read_bytes() * 3
    packed = packed_gzip(data, tmp_path / "cache")
    assert gzip.decompress(packed) == data and packed[:2] == b"\x1f\x8b"
    assert packed_gzip(data, tmp_path / "cache") == packed == packed_gzip(data)
    manifest = tmp_path / "manifest.json"
    manifest.write_bytes(dump({"format": 1, "files": {"index": {"path": "index.x.json", "title": "Prix – é"}}}))
    vouch_for_lock(manifest, b'{"packages": {}}')
    written = json.loads(manifest.read_bytes())
    assert written["runtime"] == {
        "path": "pyodide-lock.json",
        "sha256": hashlib.sha256(b'{"packages": {}}').hexdigest(),
        "size": 16,
    }
    assert manifest.read_bytes() == dump(written)


def bad_corpus(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(REPO / "tests" / "fixtures" / "corpus", content)
    (content / "broken.md").write_text("---\nid: broken\ntitle: [unclosed\n---\n", "utf-8")
    text = (content / "vat-api.md").read_text("utf-8").replace("resourceType: api", "resourceType: API")
    (content / "bad-type.md").write_text(text.replace("id: vat-api", "id: bad-type"), "utf-8")
    (content / "dup.md").write_text((content / "vat-guide.md").read_text("utf-8"), "utf-8")
    return content


def test_invalid_records_fail_the_build_naming_file_and_field(tmp_path):
    out = tmp_path / "site"
    done = build("--config", str(config_for(tmp_path, bad_corpus(tmp_path))), "--out", str(out))
    assert done.returncode == 1
    assert "broken.md: (front matter): malformed YAML" in done.stderr
    assert "bad-type.md: resourceType: enum" in done.stderr
    assert "3 input(s) rejected" in done.stderr
    assert not (out / "index.html").exists()


def test_keep_going_builds_the_rest_and_reports_each_rejection(tmp_path):
    out = tmp_path / "site"
    done = build("--config", str(config_for(tmp_path, bad_corpus(tmp_path))), "--out", str(out), "--keep-going")
    assert done.returncode == 0, done.stderr
    report = json.loads((out / "build-report.json").read_text("utf-8"))
    assert report["records"] == {
        "built": len(list((REPO / "tests" / "fixtures" / "corpus").glob("*.md"))),
        "rejected": 3,
        "merged_same_resource": 0,
    }
    rejected = {(item["file"], item["field"]) for item in report["rejected_records"]}
    assert ("bad-type.md", "resourceType") in rejected
    # Of two files with one id, the first in path order is kept; the other names it.
    duplicate = next(item for item in report["rejected_records"] if item["field"] == "id")
    assert duplicate["file"] == "vat-guide.md" and "dup.md" in duplicate["reason"]
    assert any(file == "broken.md" for file, _ in rejected)


def test_refuses_to_wipe_a_folder_that_is_not_a_build(tmp_path):
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "notes.txt").write_text("keep me", "utf-8")
    done = build("--out", str(precious))
    assert done.returncode == 1 and "not empty" in done.stderr
    assert (precious / "notes.txt").read_text("utf-8") == "keep me"
