"""The tool entry point under generated input: it never raises, and every
answer, accepted or refused, matches the tool's output schema."""

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from govsearch import TOOL_NAMES, Catalogue, DirectoryLoader, load_schema
from sitefixture import build_fixture_site
from test_validation_oracle import all_inputs, filter_inputs, junk

OUTPUT = {tool: jsonschema.Draft202012Validator(load_schema(tool, "output")) for tool in TOOL_NAMES}


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory):
    return Catalogue.open(DirectoryLoader(build_fixture_site(tmp_path_factory.mktemp("fuzz-site"))))


@settings(max_examples=10_000, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_search_tool_always_answers_within_its_output_schema(catalogue, data):
    arguments = data.draw(all_inputs)
    prefix_last = data.draw(st.booleans())
    result = catalogue.call("search_government_knowledge", arguments, prefix_last=prefix_last)
    OUTPUT["search_government_knowledge"].validate(result)
    if result["ok"]:
        assert result["returned"] == len(result["results"]) <= result["filters"]["limit"]
        assert result["total"] >= result["returned"]


@settings(max_examples=2_000, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.one_of(st.fixed_dictionaries({"recordId": st.sampled_from(["vat-api", "hostile", "nope", "x" * 121, ""])}), junk)
)
def test_record_tool_always_answers_within_its_output_schema(catalogue, arguments):
    OUTPUT["get_resource_record"].validate(catalogue.call("get_resource_record", arguments))


# Three properties: a thousand examples reach every edge of the schema.
@settings(max_examples=1_000, deadline=None, suppress_health_check=list(HealthCheck))
@given(filter_inputs)
def test_filter_tool_always_answers_within_its_output_schema(catalogue, arguments):
    result = catalogue.call("list_filter_values", arguments)
    OUTPUT["list_filter_values"].validate(result)
    if result["ok"]:
        assert result["returned"] == len(result["values"]) <= result["limit"]
        assert result["total"] >= result["returned"]
