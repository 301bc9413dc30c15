"""How calls are accepted or refused, seen from the caller's side."""

import json

from govsearch import load_schema, tool_definitions


def call(catalogue, output_checks, tool, arguments):
    result = catalogue.call(tool, arguments)
    output_checks[tool](result)
    return result


def problems(result):
    assert result["ok"] is False and result["error"]["code"] == "invalid_arguments"
    return {problem["path"]: problem for problem in result["error"]["problems"]}


def test_every_broken_property_is_reported_with_rule_and_advice(catalogue, output_checks):
    result = call(
        catalogue,
        output_checks,
        "search_government_knowledge",
        {"query": "", "resourceTypes": ["dataset", "GOV.UK content"], "limit": 0, "collection": ["ons"]},
    )
    found = problems(result)
    assert set(found) == {"/query", "/resourceTypes/1", "/limit", "/collection"}
    assert found["/query"]["rule"] == "minLength"
    enum = found["/resourceTypes/1"]
    assert (
        enum["rule"] == "enum"
        and "govuk-content" in enum["message"]
        and 'Did you mean "govuk-content"' in enum["message"]
    )
    assert found["/limit"]["rule"] == "minimum" and "1" in found["/limit"]["message"]
    unknown = found["/collection"]
    assert unknown["rule"] == "additionalProperties" and "collections" in unknown["message"]


def test_missing_query_and_wrong_top_level_type(catalogue, output_checks):
    assert problems(call(catalogue, output_checks, "search_government_knowledge", {}))["/query"]["rule"] == "required"
    for arguments in ([], "vat", None, 3):
        assert problems(call(catalogue, output_checks, "search_government_knowledge", arguments))[""]["rule"] == "type"


def test_booleans_are_not_integers(catalogue, output_checks):
    assert (
        problems(call(catalogue, output_checks, "search_government_knowledge", {"query": "vat", "limit": True}))[
            "/limit"
        ]["rule"]
        == "type"
    )


def test_empty_collections_is_refused_with_advice_to_omit(catalogue, output_checks):
    problem = problems(
        call(catalogue, output_checks, "search_government_knowledge", {"query": "vat", "collections": []})
    )["/collections"]
    assert problem["rule"] == "minItems" and "Omit" in problem["message"]


def test_duplicates_are_refused(catalogue, output_checks):
    problem = problems(
        call(
            catalogue,
            output_checks,
            "search_government_knowledge",
            {"query": "vat", "accessStatuses": ["public", "public"]},
        )
    )["/accessStatuses"]
    assert problem["rule"] == "uniqueItems"


def test_offending_values_are_echoed_short_and_escaped(catalogue, output_checks):
    huge = "<script>" + "x" * 5000 + "\U0001f600"
    result = call(
        catalogue,
        output_checks,
        "search_government_knowledge",
        {"query": huge, "publishers": [huge], "resourceTypes": [huge]},
    )
    text = json.dumps(result)
    assert "x" * 50 not in text
    message = problems(result)["/resourceTypes/0"]["message"]
    echoed = message.split(" is ", 1)[1].split(", which", 1)[0]
    assert len(echoed) <= 40
    assert problems(result)["/query"]["rule"] == "maxLength"


def test_odd_keys_are_unknown_properties(catalogue, output_checks):
    found = problems(
        call(
            catalogue,
            output_checks,
            "search_government_knowledge",
            {"query": "vat", "__proto__": {}, "constructor": 1, "a/b~c": 2},
        )
    )
    assert set(found) == {"/__proto__", "/constructor", "/a~1b~0c"}


def test_lengths_count_code_points(catalogue, output_checks):
    accepted = call(catalogue, output_checks, "search_government_knowledge", {"query": "\U0001f600" * 160})
    assert accepted["ok"] is True
    refused = problems(call(catalogue, output_checks, "search_government_knowledge", {"query": "\U0001f600" * 161}))
    assert refused["/query"]["rule"] == "maxLength"


def test_arguments_are_never_changed(catalogue, output_checks):
    arguments = {"query": "vat", "resourceTypes": []}
    call(catalogue, output_checks, "search_government_knowledge", arguments)
    assert arguments == {"query": "vat", "resourceTypes": []}


def test_record_tool_returns_provenance(catalogue, output_checks):
    result = call(catalogue, output_checks, "get_resource_record", {"recordId": "business-gateway"})
    record = result["record"]
    assert record["accessStatus"] == "restricted"
    assert record["provenance"]["accessNote"] == record["accessNote"]
    assert record["provenance"]["source"] == {"kind": "curated"}
    assert "Open Government Licence" in record["provenance"]["attribution"]


def test_record_tool_errors(catalogue, output_checks):
    missing = call(catalogue, output_checks, "get_resource_record", {"recordId": "no-such-record"})
    assert missing["error"]["code"] == "not_found" and "search_government_knowledge" in missing["error"]["message"]
    found = problems(call(catalogue, output_checks, "get_resource_record", {"recordId": "Bad Id", "extra": 1}))
    assert found["/recordId"]["rule"] == "pattern" and found["/extra"]["rule"] == "additionalProperties"


def test_unknown_tool(catalogue):
    result = catalogue.call("drop_tables", {})
    assert result["error"]["code"] == "unknown_tool" and "search_government_knowledge" in result["error"]["message"]


def test_deep_nesting_is_refused_not_crashed(catalogue, output_checks):
    nested = "vat"
    for _ in range(5000):
        nested = [nested]
    assert (
        problems(call(catalogue, output_checks, "search_government_knowledge", {"query": nested}))["/query"]["rule"]
        == "type"
    )


def test_tool_definitions_ship_the_schema_and_hints():
    tools = {tool["name"]: tool for tool in tool_definitions()}
    search = tools["search_government_knowledge"]
    assert search["inputSchema"] == load_schema("search_government_knowledge")
    assert search["description"].startswith(load_schema("search_government_knowledge")["description"] + " ")
    assert "not a trust" in search["description"]
    assert all(tool["annotations"] == {"readOnlyHint": True, "untrustedContentHint": True} for tool in tools.values())


def test_text_protocol_refuses_deep_nesting_and_bad_json_before_parsing(catalogue):
    from govsearch.session import MAX_DEPTH, answer_json_text, nesting_depth

    assert nesting_depth('{"query": "[[{{"}') == 1
    assert nesting_depth('{"a": [[{"b": "\\"]"}]]}') == 4
    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    refused = json.loads(answer_json_text(catalogue, "search_government_knowledge", '{"query": ' + deep + "}"))
    assert refused["error"]["code"] == "invalid_arguments" and "nested more than" in refused["error"]["message"]
    shallow = json.loads(answer_json_text(catalogue, "search_government_knowledge", '{"query": [[["vat"]]]}'))
    assert shallow["error"]["problems"][0]["rule"] == "type"
    broken = json.loads(answer_json_text(catalogue, "search_government_knowledge", "{nope"))
    assert "not valid JSON" in broken["error"]["message"]
