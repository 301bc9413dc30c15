"""Hostile arguments: every error answer stays small, and every answer is
ASCII JSON text whatever characters the call held (CPython and Pyodide)."""

import json

import pytest

from govsearch.session import answer_json_text
from govsearch.validation import ECHO_LIMIT, MAX_PROBLEMS

SEARCH = "search_government_knowledge"
ERROR_BYTES = 16 * 1024  # SECURITY.md: every error answer is under 16 KB

HOSTILE = {
    "10,000 unknown keys": lambda: json.dumps({f"k{i}": i for i in range(10_000)}),
    "60,000 unknown keys": lambda: json.dumps({f"k{i}": i for i in range(60_000)}),
    "five 190,000-character keys": lambda: json.dumps({f"k{i}" + "x" * 190_000: 1 for i in range(5)}),
    "a long key holding / and ~": lambda: json.dumps({"query": "x", "/~" * 50_000: 1}),
    "50,000 bad publisher items": lambda: json.dumps({"query": "x", "publishers": list(range(50_000))}),
    "long bad tokens in every list": lambda: json.dumps(
        {
            "query": "x" * 200_000,
            "resourceTypes": ["y" * 100_000],
            "collections": ["z" * 100_000],
            "accessStatuses": ["w" * 100_000],
            "limit": "9" * 100_000,
        }
    ),
    "unknown tool arguments of every type": lambda: json.dumps([{"a" * 1000: ["b" * 1000] * 100}] * 100),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_every_error_answer_is_small_and_names_what_it_left_out(catalogue, output_checks, name):
    text = answer_json_text(catalogue, SEARCH, HOSTILE[name]())
    assert len(text.encode("utf-8")) < ERROR_BYTES, (name, len(text))
    result = json.loads(text)
    output_checks[SEARCH](result)
    error = result["error"]
    assert error["code"] == "invalid_arguments"
    problems = error.get("problems", [])
    assert len(problems) <= MAX_PROBLEMS
    for problem in problems:
        # No key or value is echoed whole: a pointer segment and an echo are cut at ECHO_LIMIT.
        assert all(len(part) <= ECHO_LIMIT for part in problem["path"].split("/")), problem["path"][:100]
        assert "x" * (ECHO_LIMIT + 1) not in problem["message"] and "y" * (ECHO_LIMIT + 1) not in problem["message"]


def test_unlisted_problems_are_counted(catalogue):
    result = json.loads(
        answer_json_text(catalogue, SEARCH, json.dumps({"query": "vat", **{f"k{i}": i for i in range(1000)}}))
    )
    assert len(result["error"]["problems"]) == MAX_PROBLEMS
    assert f"{1000 - MAX_PROBLEMS} more problems" in result["error"]["message"]
    # Below the cap every problem is listed and nothing is said to be missing.
    few = json.loads(answer_json_text(catalogue, SEARCH, json.dumps({"query": "vat", "a": 1, "b": 2})))
    assert len(few["error"]["problems"]) == 2 and "not listed" not in few["error"]["message"]


LONE_SURROGATES = [
    '{"query": "\\ud800"}',
    '{"query": "caf\\u00e9 \\udfff tax"}',
    '{"query": "vat", "publishers": ["\\ud83d"]}',
    '{"recordId": "\\udc00"}',
    '{"query": "x", "\\ud800": 1}',
]


@pytest.mark.parametrize("arguments", LONE_SURROGATES)
def test_lone_surrogates_give_ascii_json_text(catalogue, output_checks, arguments):
    tool = "get_resource_record" if "recordId" in arguments else SEARCH
    text = answer_json_text(catalogue, tool, arguments)
    assert text.isascii()
    text.encode("utf-8")  # what the CLI writes and the worker hands to JavaScript
    output_checks[tool](json.loads(text))


def test_non_ascii_text_is_escaped_not_raw(catalogue):
    text = answer_json_text(catalogue, SEARCH, '{"query": "caf\u00e9 \u0130stanbul \U0001f600"}')
    assert text.isascii() and "\\u00e9" in text
    assert json.loads(text)["query"] == "caf\u00e9 \u0130stanbul \U0001f600"
