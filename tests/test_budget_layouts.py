"""Budgets decide the same way wherever a call runs: a fresh CLI process, a
long warmed session, and the page's deferred-download path give the same
bytes for every adversarial call, even with budgets small enough to cut
(the sharded layout reads its shard sizes from the directory, never from
what happens to be cached)."""

import json
import sys
from pathlib import Path

import pytest

from govsearch import Catalogue, DirectoryLoader
from govsearch.ranking import rules
from govsearch.session import Session
from test_sharded_layout import browser_rounds, layouts  # noqa: F401 - the fixture

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from adversarial import adversarial_calls  # noqa: E402

SEARCH = "search_government_knowledge"
CUT = {
    "query_terms_limited",
    "common_terms_left_out",
    "work_budget_reached",
    "expansions_limited",
    "filters_match_nothing",
}


@pytest.mark.parametrize("budgets", ["shipped", "tight"])
def test_every_path_gives_the_same_bytes(layouts, tmp_path, monkeypatch, budgets):  # noqa: F811
    sites, _ = layouts
    if budgets == "tight":
        monkeypatch.setattr(rules, "MAX_POSTINGS", 600)
        monkeypatch.setattr(rules, "MAX_SHARD_BYTES", 60_000)
    calls = adversarial_calls(Catalogue.open(DirectoryLoader(sites["sharded"])))
    long_lived = Session(DirectoryLoader(sites["sharded"]))
    while long_lived.warm():
        pass
    codes = set()
    for label, arguments, prefix_last in calls:
        text = json.dumps(arguments)
        fresh = Session(DirectoryLoader(sites["sharded"])).answer_sync(SEARCH, text, prefix_last)
        assert long_lived.answer_sync(SEARCH, text, prefix_last) == fresh, label
        assert browser_rounds(sites["sharded"], tmp_path, SEARCH, arguments, prefix_last)[1] == fresh, label
        codes |= {notice["code"] for notice in json.loads(fresh)["notices"]}
    assert codes & CUT >= (
        {"common_terms_left_out", "query_terms_limited"} if budgets == "tight" else {"query_terms_limited"}
    ), codes
