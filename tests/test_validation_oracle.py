"""The runtime validator accepts exactly what JSON Schema 2020-12 accepts.

`jsonschema` (the reference implementation; it cannot load in Pyodide) is
the oracle. Inputs are generated to sit on every edge the schema has.
"""

import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from govsearch import load_schema
from govsearch.tools import validator

SEED = Path(__file__).resolve().parents[1].parent / "shared" / "seeds" / "000_08b076291a63d3f0.txt"
SEARCH = "search_government_knowledge"
RECORD = "get_resource_record"
SCHEMA = load_schema(SEARCH)
TOKENS = {name: SCHEMA["$defs"][name]["enum"] for name in SCHEMA["$defs"]}
LABELS = [
    "GOV.UK content",
    "Dataset",
    "API documentation",
    "Public",
    "ONS",
    "Land Registry",
    "DATASET",
    "Api",
    "govuk_content",
    " dataset",
    "dataset ",
]


def test_shipped_schema_is_the_seed():
    if not SEED.exists():
        pytest.skip("../shared/seeds is not beside this checkout")
    lines = SEED.read_text("utf-8").split("\n", 1)
    assert lines[0].strip() == "chris-page-gov.github.io"
    assert load_schema(SEARCH) == json.loads(lines[1])


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 1, 8, 19, 20, 21, -1, 0.0, 1.0, 8.0, 20.0, 20.5, 0.5, 1e308, -0.0, 2**53 + 1.0]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=5),
)
edge_text = st.one_of(
    st.just(""),
    st.sampled_from(
        [
            "a",
            "x" * 160,
            "x" * 161,
            "\U0001f600" * 160,
            "\U0001f600" * 161,
            "é" * 160,
            "e\u0301" * 80,
            "e\u0301" * 81,
            " ",
            "\x00",
        ]
    ),
    st.text(min_size=0, max_size=170),
    st.text(alphabet=st.characters(min_codepoint=0x10000, max_codepoint=0x1FFFF), min_size=155, max_size=165),
    st.text(min_size=95, max_size=105),
)
junk = st.recursive(
    scalars | edge_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


def token_lists(tokens):
    item = st.one_of(
        st.sampled_from(tokens), st.sampled_from(LABELS), st.sampled_from([t.upper() for t in tokens]), junk
    )
    return st.one_of(
        st.lists(st.sampled_from(tokens), max_size=len(tokens) + 2),
        st.lists(st.sampled_from(tokens), unique=True, max_size=len(tokens)),
        st.lists(item, max_size=len(tokens) + 2),
        junk,
    )


publisher_lists = st.one_of(
    st.lists(edge_text, max_size=10),
    st.lists(
        st.sampled_from(["HM Land Registry", "Office for National Statistics", "", " ", "x" * 100, "x" * 101]),
        max_size=9,
    ),
    st.lists(st.sampled_from(["A", "B", "C", "D", "E", "F", "G", "H", "I"]), unique=True, max_size=9),
    junk,
)
limits = st.one_of(
    st.integers(min_value=-3, max_value=25),
    st.sampled_from([8.0, 1.0, 20.0, 20.000001, 0.999, True, False, "8", None, [8]]),
    scalars,
)
odd_keys = st.sampled_from(
    [
        "__proto__",
        "constructor",
        "prototype",
        "Query",
        "QUERY",
        "query ",
        "limit\u200b",
        "collection",
        "resourcetypes",
        "",
        "$ref",
        "a/b",
        "~",
    ]
)

search_arguments = st.fixed_dictionaries(
    {},
    optional={
        "query": st.one_of(edge_text, junk),
        "resourceTypes": token_lists(TOKENS["resourceType"]),
        "accessStatuses": token_lists(TOKENS["accessStatus"]),
        "collections": token_lists(TOKENS["knowledgeCollection"]),
        "publishers": publisher_lists,
        "limit": limits,
    },
)


@st.composite
def with_odd_keys(draw, base):
    arguments = draw(base)
    if draw(st.booleans()) and draw(st.booleans()):
        arguments[draw(odd_keys)] = draw(junk)
    return arguments


# Mostly valid calls, so acceptance is exercised as hard as refusal.
valid_arguments = st.fixed_dictionaries(
    {"query": st.text(min_size=1, max_size=160)},
    optional={
        "resourceTypes": st.lists(st.sampled_from(TOKENS["resourceType"]), unique=True, max_size=7),
        "accessStatuses": st.lists(st.sampled_from(TOKENS["accessStatus"]), unique=True, max_size=5),
        "collections": st.lists(st.sampled_from(TOKENS["knowledgeCollection"]), unique=True, min_size=1, max_size=5),
        "publishers": st.lists(st.text(min_size=1, max_size=100), unique=True, max_size=8),
        "limit": st.one_of(st.integers(min_value=1, max_value=20), st.sampled_from([1.0, 8.0, 20.0])),
    },
)

all_inputs = st.one_of(valid_arguments, with_odd_keys(valid_arguments), with_odd_keys(search_arguments), junk)


FILTER = "list_filter_values"
DIMENSION_NAMES = load_schema(FILTER)["properties"]["dimension"]["enum"]
filter_arguments = st.fixed_dictionaries(
    {},
    optional={
        "dimension": st.one_of(
            st.sampled_from(DIMENSION_NAMES),
            st.sampled_from(["Publishers", "publisher", "collection", "", " publishers", "resourcetypes"]),
            junk,
        ),
        "prefix": st.one_of(edge_text, junk),
        "limit": st.one_of(
            st.integers(min_value=-3, max_value=105),
            st.sampled_from([1.0, 100.0, 100.5, 0.999, True, "20", None, [20]]),
            scalars,
        ),
    },
)
valid_filter_arguments = st.fixed_dictionaries(
    {"dimension": st.sampled_from(DIMENSION_NAMES)},
    optional={
        "prefix": st.text(min_size=1, max_size=100),
        "limit": st.one_of(st.integers(min_value=1, max_value=100), st.sampled_from([1.0, 100.0])),
    },
)
filter_inputs = st.one_of(
    valid_filter_arguments, with_odd_keys(valid_filter_arguments), with_odd_keys(filter_arguments), junk
)


def agree(tool, arguments):
    oracle = jsonschema.Draft202012Validator(load_schema(tool)).is_valid(arguments)
    problems = validator(tool).problems(arguments)
    assert validator(tool).is_valid(arguments) is oracle, arguments
    assert (problems == []) is oracle, (arguments, problems)
    for problem in problems:
        assert problem.message and problem.rule and (problem.path == "" or problem.path.startswith("/"))
    return oracle


@settings(max_examples=10_000, deadline=None, suppress_health_check=list(HealthCheck))
@given(all_inputs)
def test_search_validation_matches_jsonschema(arguments):
    agree(SEARCH, arguments)


@settings(max_examples=2_000, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.one_of(
        st.fixed_dictionaries(
            {},
            optional={
                "recordId": st.one_of(edge_text, st.from_regex(r"[a-z0-9][a-z0-9-]{0,130}", fullmatch=True), junk)
            },
        ),
        junk,
    )
)
def test_record_validation_matches_jsonschema(arguments):
    agree(RECORD, arguments)


# Three properties: a thousand examples reach every edge of the schema.
@settings(max_examples=1_000, deadline=None, suppress_health_check=list(HealthCheck))
@given(filter_inputs)
def test_filter_validation_matches_jsonschema(arguments):
    agree(FILTER, arguments)


def test_generated_inputs_cover_both_outcomes():
    """The differential test only means something if both answers occur often."""
    outcomes = {True: 0, False: 0}

    @settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(all_inputs)
    def sample(arguments):
        outcomes[agree(SEARCH, arguments)] += 1

    sample()
    assert outcomes[True] >= 30 and outcomes[False] >= 200, outcomes
    filter_outcomes = {True: 0, False: 0}

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(filter_inputs)
    def sample_filters(arguments):
        filter_outcomes[agree(FILTER, arguments)] += 1

    sample_filters()
    assert filter_outcomes[True] >= 30 and filter_outcomes[False] >= 100, filter_outcomes
