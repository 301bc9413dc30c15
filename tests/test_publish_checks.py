"""What the build refuses before a site could be published wrongly: missing
sources (a --keep-going build would otherwise publish the curated records
alone) and a tree over GitHub Pages' limits."""

import subprocess
import sys
from pathlib import Path

import pytest

from govsearch_build import pages_limits
from govsearch_build.pages_limits import LimitExceeded, check_pages_limits

REPO = Path(__file__).resolve().parents[1]


def test_a_full_estate_build_without_its_sources_stops_before_reading(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "build.py"),
            "--config",
            str(REPO / "site" / "full-estate.toml"),
            "--sources",
            str(tmp_path / "empty"),
            "--out",
            str(tmp_path / "out"),
            "--keep-going",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert done.returncode == 1
    assert f"{tmp_path / 'empty' / 'api-catalogue'} does not exist" in done.stderr and "make fetch" in done.stderr
    assert not (tmp_path / "out").exists()


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "index.html").write_bytes(b"x" * 300)
    (tmp_path / "data" / "big.json").write_bytes(b"y" * 700)
    return tmp_path


def test_a_site_within_the_limits_is_measured(tree):
    size = check_pages_limits(tree)
    assert (size.bytes, size.files, size.largest, size.largest_path) == (1000, 2, 700, "data/big.json")
    # two folders and two files, each with a 512-byte header, the files in whole blocks, and the end marker
    assert size.archive == 2 * 512 + (512 + 512) + (512 + 1024) + 1024


@pytest.mark.parametrize(
    "limit, value, words",
    [
        ("SITE_BYTES", 4095, "the site is 0 MB as the archive"),
        ("FILE_BYTES", 600, "data/big.json is"),
        ("FILE_COUNT", 1, "the site has 2 files"),
    ],
)
def test_each_limit_fails_with_what_crossed_it(tree, monkeypatch, limit, value, words):
    monkeypatch.setattr(pages_limits, limit, value)
    with pytest.raises(LimitExceeded, match="cannot be published on GitHub Pages") as crossed:
        check_pages_limits(tree)
    assert words in str(crossed.value)


def test_symbolic_links_are_refused(tree):
    (tree / "link").symlink_to(tree / "index.html")
    with pytest.raises(LimitExceeded, match="symbolic links cannot be deployed: link"):
        check_pages_limits(tree)
