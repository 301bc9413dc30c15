"""Numbers the docs state about the code equal the code's constants.

Prose that restates a setting (a chunk size, a budget, a limit) goes stale
the day the setting changes; each such sentence is listed here with the
constant it restates, so a change to either side fails until both agree.
Measured figures (milliseconds, bytes of a given run) are dated results,
not settings, and are not listed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from govsearch import sharded, terms
from govsearch.ranking import learned_weights, query, rules
from govsearch_build import data_writer, postings_writer, shard_writer
from govsearch_build.importers import cleaning

REPO = Path(__file__).resolve().parents[1]
KB = 1024
MB = 1024 * 1024

# (document, a pattern whose group is the number as written, the value the code has)
STATED = [
    ("docs/architecture.md", r"no more than (\d+) KB together", data_writer.UP_FRONT_BYTES // KB),
    ("docs/architecture.md", r"chunks of ([\d,]+) records", data_writer.PROFILES_PER_CHUNK),
    ("docs/architecture.md", r"shards below in pages of (\d+)", shard_writer.PAGE),
    ("docs/architecture.md", r"shards of about (\d+) KB by term range", postings_writer.POSTINGS_SHARD_BYTES // KB),
    ("docs/architecture.md", r"a term in at\s+least (\d+) records", postings_writer.TOP_ROWS_FROM),
    ("docs/architecture.md", r"Rows are carried from (\d+) records", postings_writer.TOP_ROWS_FROM),
    ("docs/architecture.md", r"of its (\d+) best records", postings_writer.TOP_ROWS),
    ("docs/architecture.md", r"([\d,]+) records or more \(`SUMMARY_FROM`", postings_writer.SUMMARY_FROM),
    ("docs/architecture.md", r"kept up to (\d+) MB of JSON", sharded.CACHE_BYTES // MB),
    ("docs/architecture.md", r"rows from postings up to ([\d,]+)", sharded.KNOWN_ROWS),
    ("docs/record-format.md", r"up to (\d+) short terms", cleaning.MAX_KEYWORDS),
    ("docs/ranking.md", r"the first POOL = (\d+) results", rules.POOL),
    ("docs/ranking.md", r"the file lists all (\d+)\)", len(learned_weights.WEIGHTS)),
    ("README.md", r"at most (\d+) distinct terms", terms.MAX_QUERY_TERMS),
    ("README.md", r"(\d+) expansions per\s+prefix or typo", terms.MAX_EXPANSIONS),
    ("README.md", r"([\d,]+) postings scored", terms.MAX_POSTINGS),
    ("README.md", r"(\d+) KB of shards read", terms.MAX_SHARD_BYTES // 1000),
    ("docs/architecture.md", r"`MAX_QUERY_TERMS` = (\d+)", terms.MAX_QUERY_TERMS),
    ("docs/architecture.md", r"`LEADING_TERMS` = (\d+)", terms.LEADING_TERMS),
    # The page's fair turns (worker/turns.js) weigh a call by the terms Python searches.
    ("site/static/js/worker/turns.js", r"const MAX_QUERY_TERMS = (\d+);", terms.MAX_QUERY_TERMS),
    ("docs/architecture.md", r"`MAX_EXPANSIONS` = (\d+)", terms.MAX_EXPANSIONS),
    ("docs/architecture.md", r"`FUZZY_MAX_LENGTH` = (\d+)", query.FUZZY_MAX_LENGTH),
    ("docs/architecture.md", r"`MAX_POSTINGS` = ([\d,]+)", terms.MAX_POSTINGS),
    ("docs/architecture.md", r"`MAX_SHARD_BYTES` = ([\d,]+)", terms.MAX_SHARD_BYTES),
    ("docs/architecture.md", r"`ALTERNATIVE_POSTINGS` = ([\d,]+)", rules.ALTERNATIVE_POSTINGS),
    ("docs/architecture.md", r"`ALTERNATIVES` = ([\d,]+)", rules.ALTERNATIVES),
]


def stated_numbers(document: str, pattern: str, root: Path = REPO) -> list[int]:
    text = (root / document).read_text("utf-8")
    return [int(found.replace(",", "")) for found in re.findall(pattern, text)]


@pytest.mark.parametrize("document, pattern, value", STATED, ids=[f"{d}:{p}" for d, p, _ in STATED])
def test_the_docs_state_the_codes_value(document, pattern, value):
    stated = stated_numbers(document, pattern)
    assert stated, f"{document} no longer says /{pattern}/: drop or update its entry here"
    assert set(stated) == {value}, f"{document} says {stated} where the code has {value} (/{pattern}/)"


def test_a_number_left_behind_reads_as_written(tmp_path):
    """What the profile chunks once said in prose, read the way the check reads it."""
    (tmp_path / "notes.md").write_text("in chunks of 2,048 records; later, chunks of 8192 records\n", "utf-8")
    assert stated_numbers("notes.md", r"chunks of ([\d,]+) records", tmp_path) == [2048, 8192]
