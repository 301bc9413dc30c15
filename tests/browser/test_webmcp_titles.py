"""Each WebMCP tool is registered with its title, the one tools.json and MCP give it (issue 36)."""

from __future__ import annotations

from test_webmcp import TOOLS, _mcp_page

from govsearch import tool_definitions


def test_each_tool_is_registered_with_its_title(open_page):
    page, _ = _mcp_page(open_page, "")
    # document.modelContext.getTools() reports the title; the DevTools protocol's tool events do not carry one.
    titles = {definition["name"]: definition["title"] for definition in tool_definitions()}
    registered = page.evaluate(
        "async () => Object.fromEntries((await document.modelContext.getTools()).map((t) => [t.name, t.title ?? null]))"
    )
    assert {name: registered.get(name) for name in TOOLS} == titles
    assert len(set(titles.values())) == len(TOOLS) and all(titles.values())
