"""In-page agents: the WebMCP tools, seen and called through Chromium's DevTools protocol."""

from __future__ import annotations

import json
import time
import zipfile
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from browserkit import CHROMIUM, CHROMIUM_ARGS, READY_TIMEOUT_MS, RECORD_TOOL, REPO, SEARCH_TOOL, cli_call

from govsearch import load_schema, tool_definitions

SEED_SCHEMA = json.loads(
    (REPO / "python_pkg" / "govsearch" / "schemas" / "search_government_knowledge.input.json").read_text("utf-8")
)
FILTER_TOOL = "list_filter_values"
TOOLS = (SEARCH_TOOL, RECORD_TOOL, FILTER_TOOL)
OUTPUT = {tool: jsonschema.Draft202012Validator(load_schema(tool, "output")) for tool in TOOLS}

# Valid and invalid calls; each answer must equal what the CLI prints.
CALLS = [
    (SEARCH_TOOL, {"query": "vat"}),
    (SEARCH_TOOL, {"query": "companies house", "limit": 3}),
    (SEARCH_TOOL, {"query": "land", "collections": ["land-registry"], "accessStatuses": ["public"]}),
    (SEARCH_TOOL, {"query": "statistics", "publishers": ["Office for National Statistics"], "limit": 20}),
    (SEARCH_TOOL, {"query": "houzing"}),
    (SEARCH_TOOL, {"query": "the and of"}),
    (SEARCH_TOOL, {"query": "vat", "publishers": ["HM Revenue and Customs"]}),
    (SEARCH_TOOL, {"query": "<script>alert(1)</script> ~ ^ : + -"}),
    (SEARCH_TOOL, {"query": "vat", "collections": []}),
    (SEARCH_TOOL, {"query": ""}),
    (SEARCH_TOOL, {"query": "vat", "limit": 50}),
    (SEARCH_TOOL, {"query": "vat", "resourceTypes": ["API"]}),
    (SEARCH_TOOL, {"query": "vat", "extra": True}),
    (SEARCH_TOOL, {}),
    (RECORD_TOOL, {"recordId": "companies-house-api"}),
    (RECORD_TOOL, {"recordId": "no-such-record"}),
    (RECORD_TOOL, {"recordId": 7}),
]
FILTER_CALLS = [
    (FILTER_TOOL, {"dimension": "publishers", "prefix": "hm"}),
    (FILTER_TOOL, {"dimension": "collections"}),
    (FILTER_TOOL, {"dimension": "publishers", "prefix": "OFFICE", "limit": 1}),
    (FILTER_TOOL, {"dimension": "resourceTypes", "limit": 100}),
    (FILTER_TOOL, {"dimension": "publishers", "prefix": "registry"}),
    (FILTER_TOOL, {"dimension": "Publishers", "limit": 0}),
    (FILTER_TOOL, {}),
]


class WebMCP:
    """A CDP session with WebMCP enabled, collecting tools and responses."""

    def __init__(self, context: Any, page: Any):
        self.page = page
        self.session = context.new_cdp_session(page)
        self.tools: dict[str, dict] = {}
        self.responses: dict[str, dict] = {}
        self.session.on("WebMCP.toolsAdded", self._added)
        self.session.on("WebMCP.toolResponded", lambda event: self.responses.__setitem__(event["invocationId"], event))
        self.session.send("WebMCP.enable")

    def _added(self, event: dict) -> None:
        for tool in event["tools"]:
            self.tools[tool["name"]] = tool

    def wait_for_tools(self, names=TOOLS, timeout_s: float = 20) -> None:
        deadline = time.monotonic() + timeout_s
        while not all(name in self.tools for name in names):
            assert time.monotonic() < deadline, f"tools never registered; have {sorted(self.tools)}"
            self.page.wait_for_timeout(50)

    def invoke(self, tool: str, arguments: Any) -> str:
        answer = self.session.send(
            "WebMCP.invokeTool", {"frameId": self.tools[tool]["frameId"], "toolName": tool, "input": arguments}
        )
        return answer["invocationId"]

    def response(self, invocation: str, timeout_s: float = READY_TIMEOUT_MS / 1000) -> dict:
        deadline = time.monotonic() + timeout_s
        while invocation not in self.responses:
            assert time.monotonic() < deadline, "the tool never responded"
            self.page.wait_for_timeout(50)
        return self.responses[invocation]


def execute_tool(page: Any, tool: str, arguments: Any) -> str:
    """document.modelContext.executeTool: the very string execute() resolved with."""
    return page.evaluate(
        """async ([name, input]) => {
            for (let tries = 0; tries < 400; tries++) {
                const tool = (await document.modelContext.getTools()).find((t) => t.name === name);
                if (tool) {
                    return await document.modelContext.executeTool(tool, input);
                }
                await new Promise((resolve) => setTimeout(resolve, 50));
            }
            throw new Error("the tool was never registered: " + name);
        }""",
        [tool, arguments],
    )


def _output(event: dict) -> Any:
    assert event["status"] == "Completed", event
    output = event["output"]
    return json.loads(output) if isinstance(output, str) else output


def _checked(tool: str, answer: Any) -> Any:
    """The answer, once it is valid against the tool's output schema."""
    OUTPUT[tool].validate(json.loads(answer) if isinstance(answer, str) else answer)
    return answer


def _mcp_page(open_page, path: str):
    page, guard = open_page(None)
    mcp = WebMCP(page.context, page)
    page.goto(guard.origin + "/" + path)
    mcp.wait_for_tools()
    return page, mcp


def test_the_tools_are_registered_with_their_schemas(open_page):
    page, mcp = _mcp_page(open_page, "")
    search = mcp.tools[SEARCH_TOOL]
    assert search["inputSchema"] == SEED_SCHEMA
    assert search["description"].startswith(SEED_SCHEMA["description"] + " ")
    record = mcp.tools[RECORD_TOOL]
    assert record["inputSchema"]["required"] == ["recordId"]
    definitions = {definition["name"]: definition for definition in tool_definitions()}
    values = mcp.tools[FILTER_TOOL]
    assert values["inputSchema"] == load_schema(FILTER_TOOL) and values["inputSchema"]["additionalProperties"] is False
    assert values["description"] == definitions[FILTER_TOOL]["description"]
    for tool in (search, record, values):
        assert tool["annotations"]["readOnly"] is True
        assert tool["annotations"]["untrustedContent"] is True
    assert "search_government_knowledge" in page.text_content("#agent-status")
    assert FILTER_TOOL in page.text_content("#agent-status")


def test_tools_registered_before_python_is_ready_and_early_calls_are_answered(open_page, site_dir: Path):
    # A record page only starts Python when an agent calls a tool: this call
    # is made before the runtime exists and must be answered once it is ready.
    page, mcp = _mcp_page(open_page, "records/companies-house-api/")
    arguments = {"query": "vat", "limit": 2}
    first = mcp.invoke(SEARCH_TOOL, arguments)
    second = mcp.invoke(RECORD_TOOL, {"recordId": "companies-house-api"})
    assert _output(mcp.response(first)) == json.loads(cli_call(site_dir, SEARCH_TOOL, arguments))
    assert _output(mcp.response(second)) == json.loads(
        cli_call(site_dir, RECORD_TOOL, {"recordId": "companies-house-api"})
    )


def test_tool_answers_equal_the_cli(open_page, site_dir: Path):
    page, mcp = _mcp_page(open_page, "")
    invocations = [(tool, arguments, mcp.invoke(tool, arguments)) for tool, arguments in CALLS + FILTER_CALLS]
    for tool, arguments, invocation in invocations:
        expected = cli_call(site_dir, tool, arguments)
        assert _checked(tool, _output(mcp.response(invocation))) == json.loads(expected), (tool, arguments)


def test_tool_answers_are_byte_identical_to_the_cli(open_page, site_dir: Path):
    # executeTool gives the very string execute() resolved with.
    page, mcp = _mcp_page(open_page, "")
    for tool, arguments in CALLS[:4] + CALLS[9:11] + CALLS[14:16] + FILTER_CALLS[:3] + FILTER_CALLS[5:6]:
        text = execute_tool(page, tool, arguments)
        assert isinstance(text, str)
        assert _checked(tool, text) == cli_call(site_dir, tool, arguments), (tool, arguments)


def test_the_browser_wheel_leaves_out_the_mcp_server(site_dir: Path):
    [wheel] = (site_dir / "pyodide").glob("govsearch-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "govsearch/filter_values.pyc" in names and "govsearch/cli.py" in names
    assert not [name for name in names if "mcp" in name.split("/")[-1]]


def test_without_webmcp_the_page_says_so_and_search_still_works(browser, served):
    # A Chromium without the WebMCP feature: no modelContext at all.
    plain = browser.browser_type.launch(
        executable_path=CHROMIUM, args=[a for a in CHROMIUM_ARGS if "WebMCP" not in a], headless=True
    )
    try:
        page = plain.new_page()
        errors: list[str] = []
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(served.url(""))
        assert page.evaluate("!('modelContext' in document) && !('modelContext' in navigator)")
        page.wait_for_function("() => document.getElementById('agent-status').textContent.includes('unavailable')")
        page.fill("#search-input", "vat")
        page.wait_for_selector("#search-results li", timeout=READY_TIMEOUT_MS)
        assert not errors
    finally:
        plain.close()


@pytest.mark.parametrize("path", ["about/", "collections/ons/"])
def test_tools_are_offered_on_every_page(open_page, path):
    page, mcp = _mcp_page(open_page, path)
    assert set(mcp.tools) >= {SEARCH_TOOL, RECORD_TOOL}


def test_sharded_sites_answer_like_the_cli(open_page, sharded_served, sharded_site_dir: Path):
    # Large sites split the index and records into shards the worker fetches on demand.
    page, guard = open_page("", site=sharded_served)
    for tool, arguments in CALLS[:4] + CALLS[14:16] + FILTER_CALLS[:2]:
        text = execute_tool(page, tool, arguments)
        assert _checked(tool, text) == cli_call(sharded_site_dir, tool, arguments), (tool, arguments)
    page.fill("#search-input", "bathing water")
    page.wait_for_selector("#search-results li", timeout=READY_TIMEOUT_MS)


# Several problems or filters at once, so the order of keys could show in the answer.
KEY_ORDER_CALLS = [
    (SEARCH_TOOL, {"query": "", "limit": 0, "resourceTypes": ["nope"], "zzz": 1, "aaa": 2}),
    (SEARCH_TOOL, {"limit": 500, "query": 5, "collections": "ons", "publishers": [1, "x" * 80]}),
    (SEARCH_TOOL, {"accessStatuses": ["public", "nope"], "query": "vat", "limit": 3, "collections": ["ons"]}),
    (
        SEARCH_TOOL,
        {"publishers": ["HM Revenue & Customs"], "resourceTypes": ["api", "dataset"], "query": "vat", "limit": 2},
    ),
    (FILTER_TOOL, {"prefix": 7, "field": "nope", "extra": True}),
]


def test_the_same_arguments_in_any_key_order_give_the_clis_bytes(open_page, site_dir: Path):
    """Agents send keys in any order, and DevTools' invokeTool sorts them: the answer must not follow either."""
    page, mcp = _mcp_page(open_page, "")
    for tool, arguments in KEY_ORDER_CALLS:
        expected = cli_call(site_dir, tool, arguments)
        for order in (list(arguments), sorted(arguments), list(reversed(arguments))):
            text = execute_tool(page, tool, {key: arguments[key] for key in order})
            assert text == expected, (tool, order)
        assert _output(mcp.response(mcp.invoke(tool, arguments))) == json.loads(expected), (tool, arguments)
