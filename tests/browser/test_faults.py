"""Faults a visitor or an in-page agent can meet, and what they must notice.

- A data file whose bytes differ from the manifest's sha256 is never used:
  tool calls answer site_unavailable and the search page says so.
- Python failing to start (its WebAssembly missing or cut off, the worker
  script missing) gives a clear "Search is unavailable" notice with a
  "Try again" button, and error results, never a hang; trying again after the
  fault is gone works.
- A worker that dies is noticed at once: calls it held get error results and
  the next call starts a new worker.
- Oversized or absurdly nested arguments are refused quickly with
  invalid_arguments and do not harm the runtime.
- A repeat visit starts from the memory snapshot the first visit kept; a
  wheel changed since makes search unavailable, named (the snapshot holds
  the wheels' code); a kept snapshot that is not the one the lock file names
  is never used: the page starts without it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from browserkit import (
    PAGE_BRIDGE,
    RECORD_TOOL,
    SEARCH_TOOL,
    TIMING_MARKS,
    cli_call,
    execute_tools,
    reference_answers,
    runtime_state,
    searched_shards,
    serve_site,
    wait_for_runtime,
)

SETTLED = ("ready", "unavailable", "failed")
NOTICE = "#search-runtime-notice"
RETRY = "#search-retry"


def _error(text: str) -> dict:
    answer = json.loads(text)
    assert answer["ok"] is False, text[:300]
    return answer["error"]


def _call(page: Any, tool: str, arguments: Any) -> tuple[str, float]:
    """One executeTool call: (the result string, seconds it took)."""
    done = execute_tools(page, [(tool, arguments)])
    result = done["results"][0]
    assert "text" in result, result
    return result["text"], result["ms"] / 1000


def _tamper(change):
    """A route handler serving the real file with its bytes changed by `change`."""

    def handler(route: Any) -> None:
        response = route.fetch()
        route.fulfill(response=response, body=change(response.body()))

    return handler


def _flip_a_byte(body: bytes) -> bytes:
    middle = len(body) // 2
    return body[:middle] + bytes([body[middle] ^ 0x01]) + body[middle + 1 :]


# --- Integrity -----------------------------------------------------------------


@pytest.mark.parametrize(
    "pattern, change",
    [
        ("**/data/records.*.json", _flip_a_byte),
        ("**/data/index.*.json", lambda body: body[: len(body) - 100]),
    ],
    ids=["records-one-byte-changed", "index-truncated"],
)
def test_a_tampered_data_file_fails_closed(open_page, pattern, change):
    page, guard = open_page(None)
    page.route(pattern, _tamper(change))
    page.goto(guard.origin + "/")
    assert wait_for_runtime(page, *SETTLED) == "unavailable"

    # Agents: every call answers site_unavailable, naming the broken file.
    for tool, arguments in [(SEARCH_TOOL, {"query": "vat"}), (RECORD_TOOL, {"recordId": "companies-house-api"})]:
        text, seconds = _call(page, tool, arguments)
        error = _error(text)
        assert error["code"] == "site_unavailable", text
        assert "integrity check" in error["message"]
        assert seconds < 5

    # People: the page says search is unavailable, offers a retry, and shows no results.
    notice = page.locator(NOTICE)
    notice.wait_for(state="visible")
    assert "Search is unavailable" in notice.text_content()
    assert "integrity check" in notice.text_content()
    assert page.locator(RETRY).is_visible()
    page.fill("#search-input", "vat")
    page.wait_for_function(
        "() => /unavailable|could not be used/i.test(document.getElementById('search-status').textContent)"
    )
    assert page.locator("#search-results li").count() == 0


def test_a_tampered_precompiled_standard_library_fails_closed(open_page, site_dir: Path):
    # The build's python_stdlib.<hash>.zip.gz holds bytecode Python runs without
    # a source to compare: it is used only if its sha256 matches the lock file.
    lock = json.loads((site_dir / "pyodide" / "pyodide-lock.json").read_text("utf-8"))
    assert lock["govsearch_stdlib"]["file_name"].startswith("python_stdlib.")
    page, guard = open_page(None)
    guard.expect_console_errors(
        r"Failed to fetch", r"integrity", r"standard library", r"digest", r"encodings", r"Aborted"
    )
    page.route(f"**/pyodide/{lock['govsearch_stdlib']['file_name']}", _tamper(_flip_a_byte))
    page.goto(guard.origin + "/")
    assert wait_for_runtime(page, *SETTLED, timeout_ms=60_000) == "failed"
    error = _error(_call(page, SEARCH_TOOL, {"query": "vat"})[0])
    assert error["code"] == "site_unavailable" and "python_stdlib." in error["message"], error
    assert "failed its integrity check" in error["message"], error


def test_a_tampered_postings_shard_fails_only_the_queries_that_need_it(
    open_page, sharded_served, sharded_site_dir: Path
):
    # The shard "vat" is searched in; the terms of "land registry" live in others.
    [shard] = searched_shards(sharded_site_dir, "vat")
    assert shard not in searched_shards(sharded_site_dir, "land registry")
    page, guard = open_page(None, site=sharded_served)
    page.route(f"**/data/{shard['path']}", _tamper(_flip_a_byte))
    page.goto(guard.origin + "/")
    assert wait_for_runtime(page, *SETTLED) == "ready"

    text, _ = _call(page, SEARCH_TOOL, {"query": "vat"})
    error = _error(text)
    assert error["code"] == "site_unavailable" and shard["path"] in error["message"], text
    # Asking again does not use the bad shard either (it is fetched and checked again).
    assert _error(_call(page, SEARCH_TOOL, {"query": "vat", "limit": 3})[0])["code"] == "site_unavailable"

    # Queries that never touch the shard still work, exactly as the CLI answers them.
    for tool, arguments in [
        (SEARCH_TOOL, {"query": "land registry"}),
        (RECORD_TOOL, {"recordId": "companies-house-api"}),
    ]:
        text, _ = _call(page, tool, arguments)
        assert text == cli_call(sharded_site_dir, tool, arguments), (tool, arguments)

    # People see the failure in the search status, not an empty result list.
    page.fill("#search-input", "vat")
    page.wait_for_function(
        "() => /unavailable|could not be used/i.test(document.getElementById('search-status').textContent)"
    )
    assert page.locator("#search-results li").count() == 0
    page.fill("#search-input", "land registry")
    page.wait_for_selector("#search-results li")


# --- Python failing to start -----------------------------------------------------


FAILURES = {
    "wasm-404": ("**/pyodide/pyodide.asm.wasm*", lambda route: route.fulfill(status=404, body="missing")),
    "wasm-aborted": ("**/pyodide/pyodide.asm.wasm*", lambda route: route.abort()),
    "worker-404": ("**/static/js/worker.*.js", lambda route: route.fulfill(status=404, body="missing")),
}
# The fault itself is logged by Chromium or Pyodide inside the worker.
EXPECTED_LOGS = (r"Failed to fetch", r"404", r"wasm", r"Failed to load")


@pytest.mark.parametrize("failure", sorted(FAILURES))
def test_search_that_cannot_start_says_so_and_try_again_recovers(open_page, site_dir: Path, failure):
    pattern, handler = FAILURES[failure]
    page, guard = open_page(None)
    guard.expect_console_errors(*EXPECTED_LOGS)
    page.route(pattern, handler)
    started = time.monotonic()
    page.goto(guard.origin + "/")
    assert wait_for_runtime(page, *SETTLED, timeout_ms=30_000) == "failed"
    assert time.monotonic() - started < 20, "a failed start must be noticed quickly"

    notice = page.locator(NOTICE)
    notice.wait_for(state="visible")
    assert "Search is unavailable" in notice.text_content()
    retry = page.locator(RETRY)
    assert retry.is_visible() and retry.text_content() == "Try again"

    # Agents get an error result at once, not a hang.
    text, seconds = _call(page, SEARCH_TOOL, {"query": "vat"})
    assert _error(text)["code"] == "site_unavailable"
    assert seconds < 2

    # The fault goes away; "Try again" brings search back.
    page.unroute(pattern)
    page.fill("#search-input", "companies house")
    retry.click()
    assert wait_for_runtime(page, *SETTLED) == "ready"
    notice.wait_for(state="hidden")
    page.wait_for_selector("#search-results li")  # the search typed meanwhile is shown
    text, _ = _call(page, SEARCH_TOOL, {"query": "vat"})
    assert text == reference_answers(site_dir, [(SEARCH_TOOL, {"query": "vat"})])[0]


def test_agent_calls_restart_a_failed_runtime_by_themselves(open_page, site_dir: Path):
    # A record page has no search UI: an agent's call starts Python, and a
    # later call (after a short pause) tries again without any button.
    page, guard = open_page(None)
    guard.expect_console_errors(*EXPECTED_LOGS)
    page.route("**/pyodide/pyodide.asm.wasm*", lambda route: route.abort())
    page.goto(guard.origin + "/records/companies-house-api/")
    assert runtime_state(page) == "idle"
    text, seconds = _call(page, RECORD_TOOL, {"recordId": "companies-house-api"})
    assert _error(text)["code"] == "site_unavailable" and seconds < 20
    assert runtime_state(page) == "failed"
    assert _error(_call(page, SEARCH_TOOL, {"query": "vat"})[0])["code"] == "site_unavailable"

    page.unroute("**/pyodide/pyodide.asm.wasm*")
    page.wait_for_timeout(3_100)  # RETRY_AFTER_MS: a failed start is not retried on every call
    arguments = {"recordId": "companies-house-api"}
    text, _ = _call(page, RECORD_TOOL, arguments)
    assert text == cli_call(site_dir, RECORD_TOOL, arguments)
    assert runtime_state(page) == "ready"


# --- A worker that dies ------------------------------------------------------------


# Kill the worker while it holds the calls, as the browser does when it runs
# out of memory. (Arguments nested 100,000 deep used to kill Python itself;
# session.answer_json_text now refuses them before parsing, tested below.)
KILLS = {
    "terminated": "bridge.worker.terminate();",
}
DEEP_STRAIGHT_TO_WORKER = """async () => {
    const bridge = %s;
    const answered = new Promise((resolve) => {
        bridge.worker.addEventListener("message", (event) => {
            if (event.data && event.data.type === "result" && event.data.id === -1) resolve(event.data.result);
        });
    });
    bridge.worker.postMessage({ type: 'call', id: -1, tool: 'search_government_knowledge',
        argumentsJson: '{"query":"x","a":' + '['.repeat(100000) + ']'.repeat(100000) + '}', prefixLast: false });
    return await answered;
}"""


def test_deep_nesting_sent_past_the_bridge_is_refused_not_fatal(open_page, site_dir: Path):
    page, guard = open_page("")
    assert wait_for_runtime(page, *SETTLED) == "ready"
    text = page.evaluate(DEEP_STRAIGHT_TO_WORKER % PAGE_BRIDGE)
    assert _error(text)["code"] == "invalid_arguments" and "nested more than" in _error(text)["message"]
    arguments = {"recordId": "companies-house-api"}
    assert _call(page, RECORD_TOOL, arguments)[0] == cli_call(site_dir, RECORD_TOOL, arguments)
    assert runtime_state(page) == "ready"


def test_a_dead_worker_is_noticed_and_a_new_one_answers(open_page, site_dir: Path):
    page, guard = open_page("")
    guard.expect_console_errors(
        r"Pyodide has suffered a fatal error", r"cause of the fatal error", r"Maximum call stack"
    )
    assert wait_for_runtime(page, *SETTLED) == "ready"
    calls = [(SEARCH_TOOL, {"query": word}) for word in ("vat", "land", "tax", "schools", "water")] * 10
    expected = reference_answers(site_dir, calls)

    for kill, how in KILLS.items():
        # 50 calls are sent, then the worker dies: each call gets an answer at once, none hangs.
        outcome = page.evaluate(
            f"""async (calls) => {{
                const bridge = {PAGE_BRIDGE};
                const start = performance.now();
                {how if kill != "terminated" else ""}
                const answers = calls.map(([tool, input]) => bridge.call(tool, input, {{ timeoutMs: 60000 }}));
                {how if kill == "terminated" else ""}
                const texts = await Promise.all(answers);
                return {{ ms: performance.now() - start, texts }};
            }}""",
            [list(call) for call in calls],
        )
        assert outcome["ms"] < 3_000, (kill, outcome["ms"])
        codes = [json.loads(text).get("error", {}).get("code") for text in outcome["texts"]]
        assert "internal_error" in codes, (kill, codes)
        for text, want in zip(outcome["texts"], expected):
            # An answer sent before the worker died is still the right one.
            assert text == want or json.loads(text)["error"]["code"] == "internal_error", (kill, text[:200])

        # A new worker answers the next call correctly (the search page starts
        # one at once; elsewhere the next call does), and people's searches work.
        arguments = {"recordId": "companies-house-api"}
        text, _ = _call(page, RECORD_TOOL, arguments)
        assert text == cli_call(site_dir, RECORD_TOOL, arguments), kill
        assert runtime_state(page) == "ready"
        query = {"terminated": "companies house", "fatal-python-error": "land registry"}[kill]
        page.fill("#search-input", query)
        page.wait_for_function(
            "(query) => document.getElementById('search-status').textContent.includes(query)", arg=query
        )
        assert page.locator("#search-results li").count() > 0
        assert page.locator(NOTICE).is_hidden()


# --- Oversized arguments -----------------------------------------------------------

HUGE = {
    "one-megabyte-string": "({ query: 'a'.repeat(1 << 20) })",
    "ten-thousand-keys": "Object.fromEntries(Array.from({ length: 10000 }, (_, i) => ['k' + i, i]))",
    "nested-2000": "(() => { let v = {}; for (let i = 0; i < 2000; i++) v = { a: v }; return { query: 'x', a: v }; })()",
    "nested-arrays-5000": "(() => { let v = []; for (let i = 0; i < 5000; i++) v = [v]; return { query: 'x', collections: v }; })()",
    "nested-10000": "(() => { let v = {}; for (let i = 0; i < 10000; i++) v = { a: v }; return { query: 'x', a: v }; })()",
}


def test_oversized_arguments_are_refused_quickly(open_page, site_dir: Path):
    page, guard = open_page("")
    assert wait_for_runtime(page, *SETTLED) == "ready"
    for name, expression in HUGE.items():
        done = page.evaluate(
            f"""async () => {{
                const input = {expression};
                const bridge = {PAGE_BRIDGE};
                const tool = (await document.modelContext.getTools()).find((t) => t.name === '{SEARCH_TOOL}');
                let start = performance.now();
                let viaTool;
                try {{
                    viaTool = {{ text: await document.modelContext.executeTool(tool, input) }};
                }} catch (error) {{
                    viaTool = {{ thrown: String(error) }};
                }}
                viaTool.ms = performance.now() - start;
                start = performance.now();
                const viaBridge = {{ text: await bridge.call('{SEARCH_TOOL}', input), ms: performance.now() - start }};
                return {{ viaTool, viaBridge }};
            }}"""
        )
        for route, result in done.items():
            assert result["ms"] < 3_000, (name, route, result["ms"])
            if "thrown" in result:
                # Chromium's own executeTool refuses input it cannot copy (10,000
                # levels overflow its stack) before the tool runs: still quick.
                assert route == "viaTool" and "RangeError" in result["thrown"], (name, result)
                continue
            error = _error(result["text"])
            assert error["code"] == "invalid_arguments", (name, route, result["text"][:300])
        # The runtime survived: no worker restart, and a normal call still works.
        assert runtime_state(page) == "ready", name
        text, _ = _call(page, SEARCH_TOOL, {"query": "vat"})
        assert text == reference_answers(site_dir, [(SEARCH_TOOL, {"query": "vat"})])[0], name
    # Where Python decides, the words are the CLI's, byte for byte.
    big = {"query": "a" * (1 << 20)}
    assert _call(page, SEARCH_TOOL, big)[0] == cli_call(site_dir, SEARCH_TOOL, big)
    keys = {f"k{i}": i for i in range(10_000)}
    assert _call(page, SEARCH_TOOL, keys)[0] == cli_call(site_dir, SEARCH_TOOL, keys)


def test_the_size_limit_counts_utf8_bytes_as_the_cli_does(open_page, site_dir: Path):
    """1 MiB means bytes of UTF-8 on every surface: 400,000 euro signs are
    1.2 MB though 400,000 characters, and the page refuses them before
    parsing with the CLI's words; 340,000 (1.02 MB) are under the limit
    there too, and get the schema's answer."""
    page, guard = open_page("")
    assert wait_for_runtime(page, *SETTLED) == "ready"
    for count, refused_for_size in ((400_000, True), (340_000, False)):
        arguments = {"query": "\u20ac" * count}
        text, _ = _call(page, SEARCH_TOOL, arguments)
        assert text == cli_call(site_dir, SEARCH_TOOL, arguments), (count, text[:300])
        assert ("larger than 1048576 bytes" in _error(text)["message"]) is refused_for_size, (count, text[:300])


def test_a_tampered_tool_list_registers_no_tools_and_says_why(open_page):
    page, guard = open_page(None)
    page.route("**/data/tools.*.json", _tamper(_flip_a_byte))
    page.goto(guard.origin + "/about/")
    status = page.locator("#agent-status")
    page.wait_for_function("() => /could not be offered/.test(document.getElementById('agent-status').textContent)")
    assert status.is_visible()
    assert "integrity check" in status.text_content() and "tools." in status.text_content()
    assert page.evaluate("async () => (await document.modelContext.getTools()).length") == 0


# --- Repeat visits ---------------------------------------------------------------


REPEAT_CALLS = [(SEARCH_TOOL, {"query": "vat"}), (RECORD_TOOL, {"recordId": "companies-house-api"})]


@contextmanager
def _after_a_first_visit(browser, site_dir: Path, tmp_path: Path):
    """A served copy of the site and a browser context whose first visit
    bootstrapped and kept the memory snapshot; yields (site folder, served,
    change) where change(path, bytes) rewrites a file so the next visit
    fetches it again.

    No request interception here: Playwright turns the HTTP cache off while
    it intercepts, and the snapshot is only used from the cache. Files are
    changed on the server instead, between the visits."""
    site = shutil.copytree(site_dir, tmp_path / "site")
    now = time.time()
    for path in site.rglob("*"):
        os.utime(path, (now, now))  # just modified: the browser revalidates each file on the next visit

    def change(path: Path, data: bytes) -> None:
        path.write_bytes(data)
        os.utime(path, (now + 60, now + 60))

    served = serve_site(site)
    context = browser.new_context(service_workers="block")
    context.add_init_script(TIMING_MARKS)
    try:
        first = context.new_page()
        first.goto(served.url("/"))
        assert wait_for_runtime(first, *SETTLED) == "ready"
        first.wait_for_function("() => window.__marks.snapshot_cached", timeout=120_000)
        assert "snapshot_restored" not in first.evaluate("() => window.__marks")
        first.close()
        yield site, served, change, context
    finally:
        context.close()
        served.server.shutdown()


def _visit_again(context, served) -> Any:
    again = context.new_page()
    again.goto(served.url("/"))
    assert wait_for_runtime(again, *SETTLED) == "ready"
    return again


def test_a_repeat_visit_starts_from_the_snapshot(browser, site_dir: Path, tmp_path):
    with _after_a_first_visit(browser, site_dir, tmp_path) as (site, served, change, context):
        again = _visit_again(context, served)
        assert again.evaluate("() => window.__marks.snapshot_restored"), "the repeat visit bootstrapped instead"
        expected = reference_answers(site_dir, REPEAT_CALLS)
        assert [result["text"] for result in execute_tools(again, REPEAT_CALLS)["results"]] == expected
        # Once idle, the worker installs the wheels' files (checked again) for anything that reads them.
        again.wait_for_function("() => window.__marks.wheels_installed", timeout=60_000)


def test_a_changed_wheel_is_never_used_even_with_a_kept_snapshot(browser, site_dir: Path, tmp_path):
    # The snapshot holds the wheels' code, so the wheels must pass their
    # checks before it runs: a changed one makes search unavailable, named.
    with _after_a_first_visit(browser, site_dir, tmp_path) as (site, served, change, context):
        [wheel] = (site / "pyodide").glob("govsearch-*.whl")
        change(wheel, _flip_a_byte(wheel.read_bytes()))
        again = context.new_page()
        again.goto(served.url("/"))
        assert wait_for_runtime(again, *SETTLED) == "failed"
        marks = again.evaluate("() => window.__marks")
        assert not marks.get("snapshot_restored"), marks
        notice = again.locator(NOTICE)
        notice.wait_for(state="visible")
        assert wheel.name in notice.text_content() and "integrity check" in notice.text_content()
        error = _error(execute_tools(again, REPEAT_CALLS[:1])["results"][0]["text"])
        assert error["code"] == "site_unavailable" and wheel.name in error["message"], error


def test_a_kept_snapshot_the_lock_file_does_not_name_is_never_used(browser, site_dir: Path, tmp_path):
    # The lock file names other bytes than the kept snapshot (a new deploy, or
    # a cache holding what it should not): the repeat visit hashes what its
    # cache holds, refuses it and bootstraps, answering the same.
    with _after_a_first_visit(browser, site_dir, tmp_path) as (site, served, change, context):
        lock_path = site / "pyodide" / "pyodide-lock.json"
        lock = json.loads(lock_path.read_text("utf-8"))
        lock["govsearch_snapshot"]["sha256"] = "0" * 64
        new_lock = json.dumps(lock).encode("utf-8")
        change(lock_path, new_lock)
        # As a new deploy would: the manifest vouches for the new lock file.
        manifest_path = site / "data" / "manifest.json"
        manifest = json.loads(manifest_path.read_text("utf-8"))
        manifest["runtime"].update(sha256=hashlib.sha256(new_lock).hexdigest(), size=len(new_lock))
        change(manifest_path, json.dumps(manifest).encode("utf-8"))
        again = _visit_again(context, served)
        marks = again.evaluate("() => window.__marks")
        assert marks.get("snapshot_refused") and not marks.get("snapshot_restored"), marks
        answers = [result["text"] for result in execute_tools(again, REPEAT_CALLS)["results"]]
        # The CLI on the deployed files: a record's citation names the manifest it was served with.
        assert answers == reference_answers(site, REPEAT_CALLS)
