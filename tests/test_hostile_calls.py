"""The command line under hostile input: no traceback, always ASCII JSON text."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sitefixture import build_fixture_site

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return build_fixture_site(tmp_path_factory.mktemp("hostile-cli-site"))


def run(*args: str, stdin: bytes) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "govsearch", *args],
        input=stdin,
        capture_output=True,
        cwd=REPO,
        env={"PYTHONPATH": str(REPO / "python_pkg")},
        timeout=120,
    )


@pytest.mark.parametrize(
    "stdin",
    [
        b'{"query": "\\ud800"}',
        b'{"query": "caf\xc3\xa9 \\udfff"}',
        b'{"query": "x", "\\ud800\\udc00\\ud800": 1}',
        b'{"query": "\xff\xfe"}',
        b"\xed\xa0\x80",
    ],
)
def test_call_never_tracebacks_and_prints_ascii_json(site, stdin):
    done = run("call", "search_government_knowledge", "--site", str(site), stdin=stdin)
    assert done.returncode == 0 and not done.stderr, done.stderr.decode("utf-8", "replace")
    assert done.stdout.isascii()
    json.loads(done.stdout)


def test_search_with_a_lone_surrogate_argument_prints_without_traceback(site):
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from govsearch.cli import main; sys.exit(main(['search', 'vat \\udcff', '--site', sys.argv[1]]))",
            str(site),
        ],
        capture_output=True,
        cwd=REPO,
        env={"PYTHONPATH": str(REPO / "python_pkg")},
        timeout=120,
    )
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    assert b"matching records" in done.stdout


def test_ten_thousand_unknown_keys_answer_small(site):
    done = run(
        "call",
        "search_government_knowledge",
        "--site",
        str(site),
        stdin=json.dumps({f"k{i}": i for i in range(10_000)}).encode(),
    )
    assert done.returncode == 0 and len(done.stdout) < 16 * 1024
    assert "more problems of the same kinds are not listed" in json.loads(done.stdout)["error"]["message"]
