"""Smoke checks of a built site that need no browser.

The Pages workflow runs these on the full estate it is about to deploy
(GOVSEARCH_SITE=_site); anywhere else they run on a site built from the test
fixture corpus. A failure means the site would answer visitors and agents
wrongly, so nothing is deployed.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from govsearch import Catalogue, DirectoryLoader
from govsearch_build.pages_limits import check_pages_limits

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(request) -> Path:
    if os.environ.get("GOVSEARCH_SITE"):
        return Path(os.environ["GOVSEARCH_SITE"])
    return request.getfixturevalue("fixture_corpus_site")  # tests/conftest.py: built once per session


@pytest.fixture(scope="module")
def catalogue(site) -> Catalogue:
    return Catalogue.open(DirectoryLoader(site))  # refuses data files whose sha256 does not match


def test_every_built_record_is_in_the_index(site):
    report = json.loads((site / "build-report.json").read_text("utf-8"))
    manifest = json.loads((site / "data" / "manifest.json").read_text("utf-8"))
    assert manifest["records"] == report["records"]["built"] > 0
    # One folder per record (records/index.html is the section's own index page).
    assert len([path for path in (site / "records").iterdir() if path.is_dir()]) == report["records"]["built"]


def test_each_collection_answers_a_search_and_its_records_open(site, catalogue):
    collections = _collections(catalogue)
    assert collections
    for collection in collections:
        listed = catalogue.call(
            "search_government_knowledge", {"query": "data", "collections": [collection], "limit": 3}
        )
        if not listed["ok"] or not listed["results"]:
            listed = catalogue.call(
                "search_government_knowledge", {"query": "service", "collections": [collection], "limit": 3}
            )
        if not listed["results"]:
            continue
        first = listed["results"][0]
        words = re.findall(r"[A-Za-z]{5,}", first["title"])
        if words:  # a word of its own title finds the record again
            again = catalogue.call(
                "search_government_knowledge", {"query": words[0], "collections": [collection], "limit": 20}
            )
            assert again["ok"] and again["total"] > 0, (collection, words[0])
        record = catalogue.call("get_resource_record", {"recordId": first["id"]})
        assert record["ok"] and record["record"]["title"] == first["title"], record
        assert (site / "records" / first["id"] / "index.html").is_file()


def test_the_site_fits_github_pages(site):
    size = check_pages_limits(site)
    assert size.files > 0 and (site / "index.html").is_file() and (site / "404.html").is_file()
    lock = json.loads((site / "pyodide" / "pyodide-lock.json").read_text("utf-8"))
    assert "govsearch" in lock["packages"]


def _collections(catalogue: Catalogue) -> list[str]:
    """Collections that hold records, from the facet counts of everyday queries."""
    found: set[str] = set()
    for query in ("information", "data", "service"):
        result = catalogue.call("search_government_knowledge", {"query": query, "limit": 1})
        found.update(name for name, count in result.get("facets", {}).get("collections", {}).items() if count)
    return sorted(found)


def test_repeat_visits_have_a_memory_snapshot_of_the_modules_the_worker_imports(site):
    """The snapshot (docs/startup.md) is what makes a repeat visit fast; a build that
    could not make it still works, so only this check notices it went missing."""
    import hashlib
    import importlib.util

    from govsearch_build.runtime import SNAPSHOT_MODULES
    from govsearch_build.snapshot_layout import SNAPSHOT_LAYOUT
    from snapshots import read_snapshot

    missing = [name for name in SNAPSHOT_MODULES if importlib.util.find_spec(name) is None]
    assert not missing, f"SNAPSHOT_MODULES names modules that do not exist: {missing}"
    entry = json.loads((site / "pyodide" / "pyodide-lock.json").read_text("utf-8")).get("govsearch_snapshot")
    assert entry, "pyodide-lock.json lists no memory snapshot"
    data = (site / "pyodide" / entry["file_name"]).read_bytes()
    assert hashlib.sha256(data).hexdigest() == entry["sha256"] and len(data) == entry["size"]
    # The layout the worker unpacks, read where the worker reads it: the lock file's entry.
    layout = entry["layout"]
    assert layout == SNAPSHOT_LAYOUT.describe()
    stored = gzip.decompress(data)
    header, runs, memory = read_snapshot(stored, layout)
    assert all(run["first_page"] + run["pages"] < later["first_page"] for run, later in zip(runs, runs[1:])), "apart"
    assert len(stored) < header["memory_bytes"] == len(memory) and any(memory)  # zero pages left out


def test_the_python_the_worker_imports_is_published_as_bytecode(site):
    """Compiling the modules it imports from source was most of the page's start-up
    (docs/startup.md); a build without node still works, so only this check notices
    the bytecode went missing. The standard library holds only what the page
    imports; every other module is listed for the fallback, which fetches the
    whole npm archive (named, with its sha256, in the lock file)."""
    import hashlib
    import io
    import zipfile

    lock = json.loads((site / "pyodide" / "pyodide-lock.json").read_text("utf-8"))
    entry = lock.get("govsearch_stdlib")
    assert entry, "pyodide-lock.json lists no precompiled standard library"
    path = site / "pyodide" / entry["file_name"]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == entry["sha256"]
    # One gzip stream over a zip of stored entries (runtime.py `_publish_stdlib`).
    archive = zipfile.ZipFile(io.BytesIO(gzip.decompress(path.read_bytes())))
    assert {info.compress_type for info in archive.infolist()} == {zipfile.ZIP_STORED}
    names = set(archive.namelist())
    whole = site / "pyodide" / lock["govsearch_stdlib_rest"]["file_name"]
    assert hashlib.sha256(whole.read_bytes()).hexdigest() == lock["govsearch_stdlib_rest"]["sha256"]
    original = {name for name in zipfile.ZipFile(whole).namelist() if name.endswith(".py")}
    assert whole.read_bytes() == (REPO / "node_modules" / "pyodide" / "python_stdlib.zip").read_bytes()
    # Every module is here as bytecode or listed for the fallback; what govsearch imports is bytecode.
    rest = re.search(r"REST = frozenset\((\[.*?\])\)", archive.read("sitecustomize.py").decode()).group(1)
    listed = {name.replace(".", "/") for name in json.loads(rest.replace("'", '"'))}
    here = {name.removesuffix(".pyc").removesuffix("/__init__") for name in names if name.endswith(".pyc")}
    expected = {name.removesuffix(".py").removesuffix("/__init__") for name in original}
    assert here | listed == expected and not here & listed
    assert {"json/decoder.pyc", "re/_compiler.pyc", "difflib.pyc", "dataclasses.pyc"} <= names
    assert archive.read("difflib.pyc") and len(names) < len(original) / 2
    [wheel] = (site / "pyodide").glob("govsearch-*.whl")
    wheel_names = set(zipfile.ZipFile(wheel).namelist())
    # What the worker imports ships as bytecode alone (no source to download); what it never imports stays source.
    assert {"govsearch/__init__.pyc", "govsearch/session.pyc", "govsearch/cli.py"} <= wheel_names
    assert not {"govsearch/session.py", "govsearch/cli.pyc"} & wheel_names


# The fallback of the cut standard library (precompile.mjs's sitecustomize.py),
# run in Pyodide under node with a synchronous XMLHttpRequest that reads the
# published files: a module the archive left out imports, from the whole
# archive once it passed its sha256; a whole archive that differs is refused.
FALLBACK_JS = r"""
const [indexURL, stdlib, whole, sha256] = process.argv.slice(1);
const { readFileSync } = await import("node:fs");
const { loadPyodide } = await import(indexURL + "pyodide.mjs");
globalThis.XMLHttpRequest = class {
  open(method, url) { this.url = url; }
  send() { const bytes = readFileSync(this.url); this.status = 200; this.response = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length); }
};
const pyodide = await loadPyodide({ indexURL, stdLibURL: stdlib, stdout: () => {}, stderr: () => {} });
const before = pyodide.runPython("import sys; 'colorsys' in sys.modules");
globalThis.govsearchStdlibRest = { url: whole, sha256, file_name: "python_stdlib.zip" };
let outcome;
try {
  outcome = pyodide.runPython("import colorsys, sys; colorsys.rgb_to_hsv(1, 0, 0) and sys.path[-1]");
} catch (error) {
  outcome = String(error.message).split("\n").filter(Boolean).pop();
}
console.log(JSON.stringify({ before, outcome }));
"""


@pytest.mark.parametrize("honest", [True, False], ids=["whole-archive", "changed-archive"])
def test_a_module_the_cut_standard_library_left_out_still_imports(site, honest, tmp_path):

    lock = json.loads((site / "pyodide" / "pyodide-lock.json").read_text("utf-8"))
    runtime = (site / "pyodide").resolve()
    sha256 = lock["govsearch_stdlib_rest"]["sha256"] if honest else "0" * 64
    stdlib = tmp_path / "python_stdlib.zip"  # expanded, as the worker hands it to Pyodide
    stdlib.write_bytes(gzip.decompress((runtime / lock["govsearch_stdlib"]["file_name"]).read_bytes()))
    done = subprocess.run(
        [shutil.which("node") or "node", "--input-type=module", "-e", FALLBACK_JS, "--",
         f"{runtime}/", str(stdlib), str(runtime / "python_stdlib.zip"), sha256],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["before"] is False  # colorsys is not in the cut archive: only the fallback can find it
    if honest:
        assert result["outcome"] == "/lib/python_stdlib_rest.zip", result
    else:
        assert "python_stdlib.zip failed its integrity check" in result["outcome"], result
