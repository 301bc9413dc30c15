"""The same arguments in any key order give byte-identical answers.

Chromium's DevTools hands `invokeTool` input over with its keys sorted, and an
agent may send them in any order: problems follow the schema's property order
(then unknown keys by name), never the caller's. Inputs are the differential
test's own generators (test_validation_oracle), their keys shuffled.
"""

import json
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from govsearch import Catalogue, DirectoryLoader
from govsearch.session import answer_json_text
from sitefixture import REPO, build_fixture_site
from test_validation_oracle import FILTER, SEARCH, filter_inputs, search_arguments, valid_arguments, with_odd_keys

search_inputs = st.one_of(with_odd_keys(search_arguments), with_odd_keys(valid_arguments))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return build_fixture_site(tmp_path_factory.mktemp("key-order"))


@pytest.fixture(scope="module")
def catalogue(site):
    return Catalogue.open(DirectoryLoader(site))


def reordered(arguments, rng: random.Random):
    if not isinstance(arguments, dict):
        return arguments
    keys = list(arguments)
    rng.shuffle(keys)
    return {key: arguments[key] for key in keys}


def same_answer_in_any_order(catalogue, tool, arguments, rng):
    as_given = answer_json_text(catalogue, tool, json.dumps(arguments))
    for order in (
        reordered(arguments, rng),
        dict(sorted(arguments.items())) if isinstance(arguments, dict) else arguments,
    ):
        assert answer_json_text(catalogue, tool, json.dumps(order)) == as_given, (arguments, order)


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(search_inputs, st.randoms(use_true_random=False))
def test_search_answers_do_not_follow_key_order(catalogue, arguments, rng):
    same_answer_in_any_order(catalogue, SEARCH, arguments, rng)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(filter_inputs, st.randoms(use_true_random=False))
def test_filter_answers_do_not_follow_key_order(catalogue, arguments, rng):
    same_answer_in_any_order(catalogue, FILTER, arguments, rng)


def test_the_cli_prints_the_same_bytes_for_sorted_and_reversed_keys(site):
    """Through `python -m govsearch call`, several broken properties and unknown keys at once."""
    arguments = {
        "query": "",
        "limit": 0,
        "Query": 1,
        "collections": ["ONS", 3],
        "aaa": True,
        "accessStatuses": "public",
    }
    printed = []
    for order in (sorted(arguments), sorted(arguments, reverse=True)):
        stdin = json.dumps({key: arguments[key] for key in order}).encode("utf-8")
        run = subprocess.run(
            [sys.executable, "-m", "govsearch", "call", SEARCH, "--site", str(site)],
            input=stdin,
            capture_output=True,
            cwd=REPO,
            check=True,
        )
        printed.append(run.stdout)
    problems = json.loads(printed[0])["error"]["problems"]
    assert [p["path"] for p in problems] == [
        "/query",
        "/accessStatuses",
        "/collections/0",
        "/collections/1",
        "/limit",
        "/Query",
        "/aaa",
    ]
    assert printed[0] == printed[1]
