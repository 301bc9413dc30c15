"""Load: many tool calls at once, before and after Python is ready.

Each of 200 concurrent calls must get its own answer (the one the CLI gives
for its arguments); calls made before the runtime is ready wait in a
bounded queue, beyond which they are refused at once with "busy", and time
out with "timeout" if the runtime never becomes ready.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from browserkit import (
    ARTIFACTS,
    PAGE_BRIDGE,
    RECORD_TOOL,
    SEARCH_TOOL,
    cli_call,
    execute_tools,
    reference_answers,
    runtime_state,
    wait_for_runtime,
)

MAX_QUEUE = 256  # bridge.js


def _calls(site: Path, count: int = 200) -> list[tuple[str, Any]]:
    """Distinct calls: searches for record titles (with varied limits and filters) and record lookups."""
    records = json.loads(next((site / "data").glob("records.*.json")).read_bytes())["records"]
    searches: list[tuple[str, Any]] = []
    seen = set()
    for number, record in enumerate(records):
        query = " ".join(record["title"].lower().split()[:4])[:60]
        if query in seen:
            continue
        seen.add(query)
        arguments: dict[str, Any] = {"query": query, "limit": 1 + number % 10}
        if number % 7 == 0:
            arguments["collections"] = [record["collection"]]
        searches.append((SEARCH_TOOL, arguments))
    lookups = [(RECORD_TOOL, {"recordId": record["id"]}) for record in records[::11]][:35]
    lookups += [(RECORD_TOOL, {"recordId": f"no-such-record-{n}"}) for n in range(5)]
    calls = searches[: count - len(lookups)] + lookups
    assert len(calls) == count
    # Interleave the two tools so answers could not line up by accident.
    return calls[::2] + calls[1::2]


def _record(name: str, data: dict) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / "load-timings.json"
    timings = json.loads(path.read_text("utf-8")) if path.exists() else {}
    timings[name] = data
    path.write_text(json.dumps(timings, indent=2) + "\n", "utf-8")


@pytest.mark.parametrize("when", ["ready", "before-ready"])
def test_200_concurrent_calls_each_get_their_own_answer(open_page, site_dir: Path, when):
    calls = _calls(site_dir)
    expected = reference_answers(site_dir, calls)
    if when == "ready":
        page, guard = open_page("")
        assert wait_for_runtime(page, "ready", "unavailable", "failed") == "ready"
    else:
        # A record page starts Python only when an agent calls: all 200 calls
        # are made while it is starting, and wait in the queue.
        page, guard = open_page("records/companies-house-api/")
        assert runtime_state(page) == "idle"
    started = time.monotonic()
    done = execute_tools(page, calls)
    wall = time.monotonic() - started
    assert runtime_state(page) == "ready"

    texts = []
    for (tool, arguments), result, want in zip(calls, done["results"], expected):
        assert "text" in result, result
        text = result["text"]
        answer = json.loads(text)
        # One to one: each answer is about its own call ...
        if tool == SEARCH_TOOL:
            assert answer["ok"] and answer["query"] == arguments["query"], (arguments, text[:200])
            assert answer["returned"] <= arguments["limit"]
        elif arguments["recordId"].startswith("no-such-record"):
            assert answer["error"]["code"] == "not_found" and arguments["recordId"] in answer["error"]["message"]
        else:
            assert answer["ok"] and answer["record"]["id"] == arguments["recordId"]
        # ... and is exactly what the CLI's code prints for it.
        assert text == want, (tool, arguments)
        texts.append(text)
    assert len(set(texts)) == len(texts), "two different calls got the same answer"
    # A sample through the real command line, as a separate process.
    for index in (0, 1, 57, 120, 199):
        tool, arguments = calls[index]
        assert texts[index] == cli_call(site_dir, tool, arguments), (tool, arguments)

    latencies = sorted(result["ms"] for result in done["results"])
    _record(
        f"200 concurrent calls, {when}",
        {
            "all answered after ms": round(done["ms"]),
            "median answer ms": round(latencies[len(latencies) // 2]),
            "wall seconds (Playwright round trip)": round(wall, 2),
        },
    )
    if when == "ready":
        assert done["ms"] < 30_000, f"200 calls took {done['ms']:.0f} ms"


def test_calls_before_ready_wait_in_a_bounded_queue_and_time_out(open_page):
    held: list[Any] = []  # Python's WebAssembly never arrives: the runtime never becomes ready
    page, guard = open_page(None)
    guard.expect_console_errors(r"Failed to fetch", r"wasm")
    page.route("**/pyodide/pyodide.asm.wasm*", lambda route: held.append(route))
    page.goto(guard.origin + "/")
    page.wait_for_function("() => document.documentElement.dataset.searchRuntime === 'loading'")
    # The tools are registered once the page has checked their definitions, which does not
    # wait for the runtime; on a busy machine that can come after 'loading'.
    page.evaluate(
        """async (tool) => {
            for (let i = 0; i < 600; i++) {
                if ((await document.modelContext.getTools()).some((t) => t.name === tool)) return;
                await new Promise((resolve) => setTimeout(resolve, 50));
            }
            throw new Error(`${tool} was never registered while the runtime loaded`);
        }""",
        SEARCH_TOOL,
    )

    # Fill the queue through the bridge (with a short timeout), then call as agents do.
    outcome = page.evaluate(
        f"""async ([size, tool]) => {{
            const bridge = {PAGE_BRIDGE};
            const queued = [];
            for (let i = 0; i < size; i++) {{
                queued.push(bridge.call(tool, {{ query: 'queued ' + i }}, {{ timeoutMs: 10000 }}));
            }}
            const tools = await document.modelContext.getTools();
            const search = tools.find((t) => t.name === tool);
            let start = performance.now();
            const refused = await Promise.all(Array.from({{ length: 20 }}, (_, i) => document.modelContext.executeTool(search, {{ query: 'extra ' + i }})));
            const refusedMs = performance.now() - start;
            start = performance.now();
            const timedOut = await Promise.all(queued);
            const timedOutMs = performance.now() - start;
            // The queue has room again once those calls have timed out.
            const again = await bridge.call(tool, {{ query: 'again' }}, {{ timeoutMs: 500 }});
            return {{ refused, refusedMs, timedOut, timedOutMs, again, state: bridge.state, queue: bridge.queue.length, pending: bridge.pending.size }};
        }}""",
        [MAX_QUEUE, SEARCH_TOOL],
    )
    # "At once" rather than after waiting for the runtime: far below the queued
    # calls' 10 s timeout even on a loaded machine.
    assert outcome["refusedMs"] < 5_000
    for text in outcome["refused"]:
        error = json.loads(text)["error"]
        assert error["code"] == "busy" and "Wait" in error["message"], text
    assert len(outcome["timedOut"]) == MAX_QUEUE
    for text in outcome["timedOut"]:
        error = json.loads(text)["error"]
        assert error["code"] == "timeout" and "did not start" in error["message"], text
    assert outcome["timedOutMs"] < 15_000
    assert json.loads(outcome["again"])["error"]["code"] == "timeout"
    assert outcome["state"] == "loading" and outcome["queue"] == 0 and outcome["pending"] == 0

    # The held download finally fails: the page says so instead of loading forever.
    for route in held:
        route.abort()
    assert wait_for_runtime(page, "failed", timeout_ms=20_000) == "failed"
    page.locator("#search-runtime-notice").wait_for(state="visible")
