"""list_filter_values: the exact values an agent may filter on, with counts it can trust."""

import json
from collections import Counter

import pytest

from govsearch.engine import DIMENSIONS

FILTER = "list_filter_values"


@pytest.fixture(scope="module")
def records(site_dir):
    """The fixture site's records, read straight from its data file (single layout)."""
    manifest = json.loads((site_dir / "data" / "manifest.json").read_text("utf-8"))
    return json.loads((site_dir / "data" / manifest["files"]["records"]["path"]).read_text("utf-8"))["records"]


@pytest.fixture
def values(catalogue, output_checks):
    def run(arguments):
        result = catalogue.call(FILTER, arguments)
        output_checks[FILTER](result)
        return result

    return run


@pytest.mark.parametrize("dimension", list(DIMENSIONS))
def test_every_value_with_its_record_count_most_first_then_by_name(values, records, dimension):
    expected = Counter(record[DIMENSIONS[dimension]] for record in records)
    result = values({"dimension": dimension, "limit": 100})
    assert result["ok"] and result["dimension"] == dimension and result["notices"] == []
    assert {item["value"]: item["count"] for item in result["values"]} == expected
    assert result["values"] == sorted(result["values"], key=lambda item: (-item["count"], item["value"]))
    assert result["total"] == result["returned"] == len(expected)


def test_publisher_prefixes_ignore_case(values, records):
    names = {record["publisher"] for record in records}
    wanted = sorted(name for name in names if name.lower().startswith("hm "))
    assert len(wanted) >= 2  # the fixture has HM Land Registry and HM Revenue & Customs
    for prefix in ("hm ", "HM ", "Hm "):
        result = values({"dimension": "publishers", "prefix": prefix})
        assert sorted(item["value"] for item in result["values"]) == wanted
        assert result["prefix"] == prefix
    assert [item["value"] for item in values({"dimension": "publishers", "prefix": "OFFICE FOR NAT"})["values"]] == [
        "Office for National Statistics"
    ]


def test_limit_cuts_the_list_but_total_counts_every_match(values):
    everything = values({"dimension": "publishers"})
    assert everything["limit"] == 20
    first = values({"dimension": "publishers", "limit": 2})
    assert first["values"] == everything["values"][:2]
    assert first["returned"] == 2 and first["total"] == everything["total"] > 2


def test_a_prefix_nothing_starts_with_points_at_names_that_contain_it(values):
    result = values({"dimension": "publishers", "prefix": "land registry"})
    assert result["ok"] and result["values"] == [] and result["total"] == 0
    [notice] = result["notices"]
    assert notice["code"] == "no_prefix_match" and notice["path"] == "/prefix"
    assert notice["suggestions"] == ["HM Land Registry"]
    assert values({"dimension": "collections", "prefix": "zz"})["notices"][0]["suggestions"] == []


def test_listed_names_filter_search_exactly(values, search):
    name = values({"dimension": "publishers", "prefix": "companies"})["values"][0]
    result = search({"query": "companies", "publishers": [name["value"]]})
    assert result["notices"] == [] and 1 <= result["total"] <= name["count"]


def test_bad_arguments_are_refused_with_the_rule_and_what_to_send(values):
    result = values({"dimension": "Publishers", "prefix": "", "limit": 101, "query": "vat"})
    problems = {problem["path"]: problem for problem in result["error"]["problems"]}
    assert result["ok"] is False and result["error"]["code"] == "invalid_arguments"
    assert {path: problem["rule"] for path, problem in problems.items()} == {
        "/dimension": "enum",
        "/prefix": "minLength",
        "/limit": "maximum",
        "/query": "additionalProperties",
    }
    assert "publishers" in problems["/dimension"]["message"] and "omit" not in problems["/dimension"]["message"].lower()
    assert values({})["error"]["problems"][0]["rule"] == "required"
