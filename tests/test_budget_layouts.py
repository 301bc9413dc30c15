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
from govsearch.engine import Budget
from govsearch.ranking import rules
from govsearch.ranking.query import clauses_for, query_terms
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


def test_a_budget_that_affords_the_words_shards_once_affords_them_in_every_tier(layouts, monkeypatch):  # noqa: F811
    """No record holds both words, so the answer comes from the any_term tier,
    after the all_terms tier read the same shards: a looser tier reads them
    from the parsed-shard cache, so it is not charged for them again, and
    both words are searched (as the single layout, which reads no shards, does)."""
    sites, _ = layouts
    query = {"query": "passport flood", "limit": 10}
    # Only the words: their related words' shards are optional extras the budget may leave out
    # (the single layout, charged for no shard, never does).
    monkeypatch.setattr(rules, "ALTERNATIVES", 0)
    sharded = Catalogue.open(DirectoryLoader(sites["sharded"]))
    clauses = clauses_for(query_terms(query["query"]), "any_term")
    roomy = Budget(shard_bytes=10**9)
    sharded.engine.matcher.postings(clauses, roomy)
    monkeypatch.setattr(rules, "MAX_SHARD_BYTES", 10**9 - roomy.shard_bytes + 1)  # the words' shards, once
    answer = Catalogue.open(DirectoryLoader(sites["sharded"])).call(SEARCH, query)
    assert answer["match_mode"] == "any_term"
    assert not {notice["code"] for notice in answer["notices"]} & CUT, answer["notices"]
    single = Catalogue.open(DirectoryLoader(sites["single"])).call(SEARCH, query)
    assert [hit["id"] for hit in answer["results"]] == [hit["id"] for hit in single["results"]]
