"""What `make check` leaves to `make test` (the `slow` marker), and the one
build.py site of the fixture corpus and the one full estate the tests share.

`make check` runs the tests marked neither `browser` (tests/browser/, marked
by its conftest), `shared_data` (the real exports) nor `slow`. A test is slow
when it costs seconds of CPU time for a reason of its own: a whole site built
by build.py (the Pyodide runtime, the compiled assets), Python or lunr.js run
under Node, or thousands of generated inputs. Those are listed here rather
than marked in each file, so that one list says what the fast check leaves
out; an entry that names no collected test fails the run, so a rename cannot
quietly put a slow test back into the check or leave a stale name here.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from needs import need

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
SHARED_DATA = REPO.parent / "shared" / "data"

# Whole files: each builds a site with build.py, runs Node, or generates thousands of inputs.
SLOW_FILES = {
    "test_build.py": "builds sites with build.py",
    "test_hostile_build.py": "builds sites with build.py",
    "test_published_site.py": "builds a site with build.py",
    "test_in_pyodide.py": "runs the runtime tests inside Pyodide under Node",
    "test_lunr_parity.py": "runs lunr.js under Node",
    "test_bench_h2server.py": "runs the benchmark's HTTP/2 server under Node",
    "test_tool_fuzz.py": "thousands of generated tool calls",
    "test_validation_oracle.py": "thousands of generated inputs against jsonschema",
    "test_key_order.py": "thousands of generated inputs, and the CLI in subprocesses",
    "test_mcp_server.py": "MCP servers in subprocesses",
}
# Single tests (node id prefixes) in files that are otherwise quick.
SLOW_TESTS = {
    "runtime/test_vocabulary.py::test_typo_expansion_without_lunrs_walk_lists_lunrs_terms_in_lunrs_order": "every typo of a vocabulary",
    "test_record_loaders.py::test_refused_front_matter_is_reported_as_by_the_pure_loader": "the pure-Python YAML loader",
    "test_record_loaders.py::test_curated_corpus_reads_the_same_with_either_loader": "the pure-Python YAML loader",
}


def _stale_entries() -> list[str]:
    """Listed files that do not exist and listed tests their file no longer defines."""
    stale = [name for name in SLOW_FILES if not (TESTS / name).is_file()]
    for prefix in SLOW_TESTS:
        file, test = prefix.split("::")
        path = TESTS / file
        if not path.is_file() or f"def {test}(" not in path.read_text("utf-8"):
            stale.append(prefix)
    return stale


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    stale = _stale_entries()
    if stale:
        raise pytest.UsageError(f"tests/conftest.py lists slow tests that do not exist: {stale}")
    for item in items:
        path = Path(str(item.fspath))
        if not path.is_relative_to(TESTS):
            continue
        relative = path.relative_to(TESTS).as_posix()
        node = f"{relative}::{item.nodeid.split('::', 1)[-1]}"
        if relative in SLOW_FILES or any(node.startswith(prefix) for prefix in SLOW_TESTS):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def fixture_corpus_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/fixtures/corpus built by build.py into a whole site (pages, data, runtime, assets).

    Built once per session and shared: a build costs seconds of CPU time, and
    the tests that use it only read it.
    """
    work = tmp_path_factory.mktemp("fixture-corpus-site")
    config = (
        (REPO / "site" / "site.toml")
        .read_text("utf-8")
        .replace('content_dir = "content"', f'content_dir = "{TESTS / "fixtures" / "corpus"}"')
    )
    (work / "site.toml").write_text(config, "utf-8")
    done = subprocess.run(
        [sys.executable, str(REPO / "build.py"), "--config", str(work / "site.toml"), "--out", str(work / "site")],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    return work / "site"


@pytest.fixture(scope="session")
def full_estate():
    """(config, loaded records) of site/full-estate.toml read from ../shared/data, once per session.

    Reading every export is the costliest step of the suite (minutes of CPU
    time), so the tests that need the estate share one reading and only
    read it.
    """
    from govsearch_build.config import load_config
    from govsearch_build.pipeline import collect_records

    need(SHARED_DATA.is_dir(), "../shared/data (the real exports)")
    config = load_config(REPO / "site" / "full-estate.toml")
    return config, collect_records(config)
