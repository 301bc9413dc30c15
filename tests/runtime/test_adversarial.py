"""The adversarial call set (bench/adversarial.py), made from this
catalogue's own vocabulary and publishers, answered correctly in CPython and
Pyodide: within the output schema, as ASCII JSON, the same every time, and
saying so wherever a work budget cut the search. `make bench` times it."""

import json
import sys
from pathlib import Path

import pytest

from govsearch.ranking.query import query_terms
from govsearch.session import answer_json_text
from govsearch.terms import MAX_QUERY_TERMS

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from adversarial import SYNTAX, adversarial_calls  # noqa: E402

SEARCH = "search_government_knowledge"
BUDGET_NOTICES = {
    "query_terms_limited",
    "expansions_limited",
    "common_terms_left_out",
    "work_budget_reached",
    "filters_match_nothing",
}


@pytest.fixture(scope="module")
def calls(catalogue):
    return adversarial_calls(catalogue)


def test_the_set_covers_every_shape(calls):
    labels = " ".join(label for label, _, _ in calls)
    for shape in (
        "commonest",
        "longest",
        "near-miss",
        "every filter",
        "typos",
        "surrogate",
        "dotted capital",
        "wildcard",
        *(repr(c) for c in SYNTAX),
    ):
        assert shape in labels, shape
    assert all(len(arguments["query"]) <= 160 for _, arguments, _ in calls)


def test_every_adversarial_call_is_answered_correctly(catalogue, output_checks, calls):
    for label, arguments, prefix_last in calls:
        text = answer_json_text(catalogue, SEARCH, json.dumps(arguments), prefix_last=prefix_last)
        assert text.isascii(), label
        result = json.loads(text)
        output_checks[SEARCH](result)
        assert result["ok"], (label, result)
        assert (
            result["returned"] == len(result["results"]) <= result["filters"]["limit"]
            and result["total"] >= result["returned"]
        ), label
        for item in result["results"]:
            for name, field in (
                ("collections", "collection"),
                ("resourceTypes", "resourceType"),
                ("accessStatuses", "accessStatus"),
                ("publishers", "publisher"),
            ):
                assert name not in result["filters"] or item[field] in result["filters"][name], (label, name)
        catalogue.engine.forget()
        assert answer_json_text(catalogue, SEARCH, json.dumps(arguments), prefix_last=prefix_last) == text, (
            label
        )  # deterministic


def test_heavy_shapes_say_which_budget_cut_them(catalogue, calls):
    shapes = {label: (arguments, prefix_last) for label, arguments, prefix_last in calls}
    arguments, _ = shapes["commonest long words, a publisher that exists nowhere"]
    codes = {n["code"] for n in json.loads(answer_json_text(catalogue, SEARCH, json.dumps(arguments)))["notices"]}
    assert {"filters_match_nothing", "unknown_publisher"} <= codes
    arguments, _ = shapes["commonest long words"]
    if len(query_terms(arguments["query"])) > MAX_QUERY_TERMS:
        codes = {n["code"] for n in json.loads(answer_json_text(catalogue, SEARCH, json.dumps(arguments)))["notices"]}
        assert "query_terms_limited" in codes
