"""What the CLI takes as arguments and what its errors show (issue 38).

The page and the MCP server take UTF-8 JSON text; the CLI takes the same,
and says in its own words what is wrong with anything else. No error shows
the absolute path of a site's files.
"""

from __future__ import annotations

import codecs
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from govsearch_build.config import load_config
from govsearch_build.data_writer import write_data
from govsearch_build.records import load_content
from sitefixture import FIXTURE_CORPUS, SITE_TOML

REPO = Path(__file__).resolve().parents[1]
SEARCH = "search_government_knowledge"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The fixture corpus in the sharded layout (its postings are files read mid-query)."""
    loaded = load_content(FIXTURE_CORPUS)
    assert loaded.records and not loaded.rejected
    site = tmp_path_factory.mktemp("cli-input") / "site"
    write_data(load_config(SITE_TOML), loaded.records, site / "data", layout="sharded")
    return site


def call(site: Path, stdin: bytes, cwd: Path = REPO) -> tuple[dict, str]:
    done = subprocess.run(
        [sys.executable, "-m", "govsearch", "call", SEARCH, "--site", str(site)],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        env={"PYTHONPATH": str(REPO / "python_pkg")},
        timeout=120,
    )
    assert b"Traceback" not in done.stderr, done.stderr
    return (json.loads(done.stdout) if done.returncode == 0 else {}), done.stderr.decode("utf-8")


@pytest.mark.parametrize(
    "stdin",
    [
        codecs.BOM_UTF8 + b'{"query": "vat"}',
        '{"query": "vat"}'.encode("utf-16"),
        '{"query": "vat"}'.encode("utf-16-be"),
        '{"query": "vat"}'.encode("utf-32"),
        b'{"query": "vat \xed\xa0\x80"}',  # a surrogate encoded as if it were a character
        b'{"query": "vat \xc0\xaf"}',  # an overlong encoding of "/"
    ],
)
def test_only_utf8_json_without_a_byte_order_mark_is_read(site, stdin):
    answer, _ = call(site, stdin)
    error = answer["error"]
    assert error["code"] == "invalid_arguments", error
    assert "UTF-8 JSON text" in error["message"], error
    # The same words as UTF-8 are answered.
    assert call(site, b'{"query": "vat"}')[0]["ok"] is True


def test_a_number_too_long_for_python_gets_our_own_words(site):
    answer, _ = call(site, b'{"query": "vat", "limit": ' + b"9" * 5000 + b"}")
    message = answer["error"]["message"]
    assert answer["error"]["code"] == "invalid_arguments"
    assert message.startswith("The arguments hold a whole number 5000 digits long"), message
    assert "not valid JSON" not in message and "set_int_max_str_digits" not in message, message
    # Long but readable numbers are still read, and meet the schema.
    answer, _ = call(site, b'{"query": "vat", "limit": ' + b"9" * 400 + b"}")
    assert answer["error"]["problems"][0]["path"] == "/limit", answer


def test_a_missing_data_file_is_named_without_the_sites_absolute_path(site, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(site, copy)
    postings = sorted((copy / "data").rglob("postings/*"))
    assert postings, "the sharded layout writes postings shards"
    for shard in postings:
        shard.unlink()
    # Mid-query: the tool's answer names the file inside the data folder.
    answer, _ = call(copy, b'{"query": "vat"}', cwd=tmp_path)
    error = answer["error"]
    assert error["code"] == "site_unavailable" and "postings/" in error["message"], error
    assert str(tmp_path) not in json.dumps(error) and "Errno" not in error["message"], error
    # At opening: the site as it was given (relative here) and the file's name.
    (copy / "data" / "manifest.json").unlink()
    answer, stderr = call(Path("copy"), b'{"query": "vat"}', cwd=tmp_path)
    assert "cannot read manifest.json: No such file or directory" in stderr, stderr
    assert str(tmp_path) not in stderr, stderr
