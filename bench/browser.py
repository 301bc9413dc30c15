"""Drive headless Chromium over one engine's page and measure it.

Every figure is taken in the page: marks are `performance.now()` values
(milliseconds since navigation start) set by INIT_JS, which Playwright runs
before any page script, and by the bench pages. Bytes come from the bench
server's log. Memory comes from the DevTools protocol on the page and on every
worker: `Runtime.getHeapUsage` (JS heap) and the sum of the byteLength of all
live `WebAssembly.Memory` objects (found with `Runtime.queryObjects`).
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import sync_playwright

from govsearch_build.chromium import CHROMIUM, FLAGS

ARGS = [
    *FLAGS,
    # measureUserAgentSpecificMemory() answers at once instead of at the next GC (up to 20 s)
    "--enable-blink-features=ForceEagerMeasureMemory",
]
TIMEOUT_MS = 300_000

# Runs before the page's own scripts in every engine's page.
INIT_JS = r"""
(() => {
  const B = window.__bench = { marks: {}, errors: [], workers: [], method: null };
  const mark = (name) => { if (!(name in B.marks)) B.marks[name] = performance.now(); };
  B.mark = mark;
  // First result on screen: the first item in #search-results (all three pages use that id).
  const check = () => {
    const list = document.getElementById("search-results");
    if (list && list.querySelector("li")) mark("first_result");
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true });
  // govsearch: watch the worker protocol (progress phases, ready) without touching the page's code.
  const NativeWorker = window.Worker;
  if (NativeWorker) {
    window.Worker = class extends NativeWorker {
      constructor(...args) {
        super(...args);
        B.workers.push(this);
        mark("worker_created");
        this.addEventListener("message", (event) => {
          const data = event.data;
          if (!data || typeof data !== "object") return;
          if (data.type === "progress") mark("phase_" + data.phase);
          // The worker's start-up steps, sent as wall-clock times: as time since this page's navigation.
          else if (data.type === "timing" && !(data.mark in B.marks)) B.marks[data.mark] = data.at - performance.timeOrigin;
          else if (data.type === "ready" || data.type === "unavailable" || data.type === "failed") {
            mark("engine_" + data.type);
            if (data.message) B.errors.push(data.type + ": " + data.message);
          }
          else if (data.type === "result" && B.pending && B.pending.has(data.id)) {
            const done = B.pending.get(data.id);
            B.pending.delete(data.id);
            done(data.result);
          }
        });
      }
    };
  }
  // govsearch: the worker reports the size of Pyodide's wasm memory on request.
  B.workerWasm = () => new Promise((resolve) => {
    const worker = B.workers[B.workers.length - 1];
    if (!worker) return resolve(null);
    const listen = (event) => {
      if (event.data && event.data.type === "stats") {
        worker.removeEventListener("message", listen);
        resolve(event.data.wasmHeapBytes);
      }
    };
    worker.addEventListener("message", listen);
    worker.postMessage({ type: "stats" });
    setTimeout(() => resolve(null), 5000);
  });
  // govsearch: WebMCP (Chromium with --enable-features=WebMCP exposes document.modelContext).
  const context = document.modelContext;
  let tool = null;
  B.webmcpSearch = async (args) => {
    if (!tool) {
      tool = (await document.modelContext.getTools()).find((t) => t.name === "search_government_knowledge");
    }
    return JSON.parse(await document.modelContext.executeTool(tool, args));
  };
  // Fallback: the page's worker protocol, with ids the page never uses.
  B.workerSearch = (args) => new Promise((resolve) => {
    B.pending = B.pending || new Map();
    B.nextId = (B.nextId || 0) + 1;
    const id = 1e9 + B.nextId;
    B.pending.set(id, (text) => resolve(JSON.parse(text)));
    B.workers[0].postMessage({ type: "call", id, tool: "search_government_knowledge", argumentsJson: JSON.stringify(args), prefixLast: false });
  });
  if (context && typeof context.registerTool === "function") {
    const register = context.registerTool.bind(context);
    context.registerTool = function (definition, options) {
      const promise = register(definition, options);
      Promise.resolve(promise).then(() => {
        mark("tool_" + definition.name);
        if (definition.name === "search_government_knowledge" && B.agentFirst) {
          const args = B.agentFirst;
          B.agentFirst = null;
          B.webmcpSearch(args).then((result) => { mark("agent_first_result"); B.agentFirstTotal = result.total; },
                                    (error) => B.errors.push("agent: " + error));
        }
      }, (error) => B.errors.push("register: " + error));
      return promise;
    };
    const q = new URLSearchParams(location.hash.slice(1)).get("q");
    if (q) B.agentFirst = { query: q, limit: 20 };
  }
})();
"""

RUN_QUERIES_JS = """
async (queries) => {
  const out = [];
  for (const args of queries) {
    const started = performance.now();
    let result;
    try {
      result = await window.__bench.search(args);
    } catch (error) {
      out.push({ ms: null, error: String(error) });
      continue;
    }
    out.push({ ms: performance.now() - started, ok: result.ok !== false, total: result.total ?? null,
               returned: result.returned ?? null, mode: result.match_mode ?? null,
               error: result.ok === false ? JSON.stringify(result.error).slice(0, 200) : null });
  }
  return out;
}
"""


# The adversarial set (bench/adversarial.py): WebMCP for plain calls, the
# worker protocol for the search box's prefix-while-typing calls.
RUN_ADVERSARIAL_JS = """
async (calls) => {
  const B = window.__bench;
  const viaWorker = (args, prefixLast) => new Promise((resolve) => {
    B.pending = B.pending || new Map();
    B.nextId = (B.nextId || 0) + 1;
    const id = 1e9 + B.nextId;
    B.pending.set(id, (text) => resolve(JSON.parse(text)));
    B.workers[B.workers.length - 1].postMessage({ type: "call", id, tool: "search_government_knowledge", argumentsJson: JSON.stringify(args), prefixLast, lane: "agent" });
  });
  const out = [];
  for (const [args, prefixLast] of calls) {
    const started = performance.now();
    const result = prefixLast ? await viaWorker(args, true) : await B.search(args);
    out.push({ ms: performance.now() - started, ok: result.ok !== false, total: result.total ?? null,
               notices: (result.notices || []).map((n) => n.code), error: result.ok === false ? JSON.stringify(result.error).slice(0, 200) : null });
  }
  return out;
}
"""


def launch(playwright):
    """A browser whose contexts are private windows (off the record: no code cache)."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)


@contextmanager
def visitor_profile(playwright):
    """A browser context in a fresh, normal (on-disk) profile: a first-time visitor.

    Unlike a private window, a normal profile keeps the compiled code of scripts
    and WebAssembly beside the HTTP cache, as most visitors' browsers do; a
    repeat visit in a new tab of this context is what such a visitor meets."""
    folder = tempfile.mkdtemp(prefix="govsearch-bench-profile-")
    try:
        context = playwright.chromium.launch_persistent_context(
            folder, executable_path=CHROMIUM, args=ARGS, headless=True
        )
        try:
            yield context
        finally:
            context.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class Probe:
    """DevTools-protocol memory figures for the page and its workers."""

    def __init__(self, page):
        self.page = page
        self.cdp = page.context.new_cdp_session(page)
        self.replies: dict[int, dict] = {}
        self.workers: list[str] = []
        self.next_id = 1000
        self.cdp.on("Target.receivedMessageFromTarget", self._received)
        self.cdp.on("Target.attachedToTarget", self._attached)
        self.cdp.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": False, "flatten": False})
        self.page.wait_for_timeout(300)

    def _attached(self, event):
        if event["targetInfo"]["type"] in ("worker", "shared_worker", "service_worker"):
            self.workers.append(event["sessionId"])

    def _received(self, event):
        message = json.loads(event["message"])
        if "id" in message:
            self.replies[message["id"]] = message

    def _worker_send(self, session: str, method: str, params: dict | None = None, timeout_s: float = 60) -> dict:
        self.next_id += 1
        ident = self.next_id
        self.cdp.send(
            "Target.sendMessageToTarget",
            {"sessionId": session, "message": json.dumps({"id": ident, "method": method, "params": params or {}})},
        )
        deadline = time.monotonic() + timeout_s
        while ident not in self.replies:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{method} on worker did not answer")
            self.page.wait_for_timeout(20)  # lets Playwright deliver the protocol events
        reply = self.replies.pop(ident)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply["result"]

    def _measure(self, send) -> dict:
        send("HeapProfiler.collectGarbage")
        heap = send("Runtime.getHeapUsage")
        proto = send("Runtime.evaluate", {"expression": "WebAssembly.Memory.prototype"})["result"]["objectId"]
        found = send("Runtime.queryObjects", {"prototypeObjectId": proto})["objects"]["objectId"]
        wasm = send(
            "Runtime.callFunctionOn",
            {
                "objectId": found,
                "returnByValue": True,
                "functionDeclaration": "function () { return this.reduce((sum, m) => sum + m.buffer.byteLength, 0); }",
            },
        )
        return {
            "js_heap_used": heap["usedSize"],
            "js_heap_total": heap["totalSize"],
            "backing_storage": heap.get("backingStorageSize"),
            "wasm_memory": wasm["result"]["value"],
        }

    def measure(self) -> dict:
        """JS heap of page and workers; wasm memory of the page (see below); the UA's own measurement.

        Runtime.queryObjects crashes a worker's renderer (Chromium 156), so a
        worker's wasm linear memory comes from the worker itself (ours answers
        a "stats" message with its Pyodide heap); workers otherwise report
        Runtime.getHeapUsage only. measureUserAgentSpecificMemory() (the page
        is cross-origin isolated by the bench server) covers page and workers
        but not wasm memory; the renderer's RSS covers everything.
        """
        targets = {"page": self._measure(lambda method, params=None: self.cdp.send(method, params or {}))}
        for number, session in enumerate(self.workers):
            try:
                self._worker_send(session, "HeapProfiler.collectGarbage")
                heap = self._worker_send(session, "Runtime.getHeapUsage")
                targets[f"worker{number}"] = {
                    "js_heap_used": heap["usedSize"],
                    "js_heap_total": heap["totalSize"],
                    "backing_storage": heap.get("backingStorageSize"),
                    "wasm_memory": None,
                }
            except (TimeoutError, RuntimeError) as error:
                targets[f"worker{number}"] = {"error": str(error)}
        good = [t for t in targets.values() if "error" not in t]
        # A worker's wasm memory cannot be found through CDP (queryObjects
        # crashes its renderer); ours reports its Pyodide heap when asked.
        worker_wasm = self.page.evaluate("() => window.__bench.workerWasm()") if self.workers else None
        try:
            ua = self.page.evaluate(
                "async () => { const m = await performance.measureUserAgentSpecificMemory();"
                " return {bytes: m.bytes, breakdown: m.breakdown.filter((b) => b.bytes > 0)}; }"
            )
        except Exception as error:  # noqa: BLE001 - optional figure
            ua = {"bytes": None, "error": str(error)}
        return {
            "targets": targets,
            "workers": len(self.workers),
            "js_heap_used": sum(t["js_heap_used"] for t in good),
            "wasm_memory": (targets["page"]["wasm_memory"] or 0) + worker_wasm
            if worker_wasm is not None
            else (targets["page"]["wasm_memory"] if not self.workers else None),
            "page_wasm_memory": targets["page"]["wasm_memory"],
            "worker_wasm_memory": worker_wasm,
            "ua_memory": ua.get("bytes"),
            "ua_breakdown": ua.get("breakdown"),
        }


def renderer_rss(browser) -> int | None:
    """Largest resident set (bytes) of the browser's renderer processes, from /proc."""
    try:
        session = browser.new_browser_cdp_session()
        info = session.send("SystemInfo.getProcessInfo")
    except Exception:  # noqa: BLE001 - optional figure
        return None
    sizes = []
    for process in info.get("processInfo", []):
        if process.get("type") != "renderer":
            continue
        try:
            for line in Path(f"/proc/{process['id']}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    sizes.append(int(line.split()[1]) * 1024)
        except OSError:
            continue
    return max(sizes) if sizes else None


def cold_load(playwright, server, url: str, want: list[str]):
    """Fresh browser and context, navigate, wait for the wanted marks; returns (browser, page, marks, log)."""
    browser = launch(playwright)
    context = browser.new_context(ignore_https_errors=True)  # H2BenchServer's certificate is self-signed
    context.add_init_script(INIT_JS)
    page = context.new_page()
    server.take_log()
    page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
    condition = (
        "(names) => window.__bench && (names.every((n) => n in window.__bench.marks)"
        " || 'engine_failed' in window.__bench.marks || 'engine_unavailable' in window.__bench.marks || !!window.__bench.error)"
    )
    try:
        page.wait_for_function(condition, arg=want, timeout=TIMEOUT_MS, polling=20)
    except Exception as error:  # noqa: BLE001 - report what did happen
        state = page.evaluate(
            "() => window.__bench ? {marks: window.__bench.marks, errors: window.__bench.errors, error: window.__bench.error || null} : null"
        )
        browser.close()
        raise RuntimeError(f"{url}: waiting for {want} failed ({error}); state {state}") from None
    log = server.take_log()
    marks = page.evaluate("() => window.__bench.marks")
    if not all(name in marks for name in want):
        state = page.evaluate("() => ({errors: window.__bench.errors, error: window.__bench.error || null})")
        browser.close()
        raise RuntimeError(f"{url}: the page failed before {want}: marks {marks}; {state}")
    return browser, page, marks, log


# A govsearch page's worker does its idle-time work (preparing, fetching and
# reading ahead what later searches need, then keeping the snapshot for the
# next visit) once nobody waits: warm queries are timed after it, as a visitor
# reading results or an agent thinking gives it time. Other engines' pages
# have no worker and are settled at once.
SETTLED_JS = (
    "() => !window.__bench.workers.length || 'snapshot_cached' in window.__bench.marks"
    " || 'snapshot_skipped' in window.__bench.marks"
)
SETTLE_MS = 30_000


def settle(page) -> None:
    """Wait (at most SETTLE_MS) for the page's idle-time work to end."""
    try:
        page.wait_for_function(SETTLED_JS, timeout=SETTLE_MS, polling=50)
    except PlaywrightTimeout:
        pass  # a site without a snapshot: its warm queries are timed anyway


def run_engine(
    server,
    url: str,
    want: list[str],
    cold_runs: int,
    warmup: list[dict],
    queries: list[dict],
    choose_search_js: str | None = None,
    adversarial: list | None = None,
) -> dict:
    """Cold loads, then (on the last load) memory, warm queries and memory again."""
    runs = []
    with sync_playwright() as playwright:
        for number in range(cold_runs):
            browser, page, marks, log = cold_load(playwright, server, url, want)
            runs.append({"marks": marks, "requests": log})
            if number < cold_runs - 1:
                browser.close()
                continue
            try:
                extra = {}
                if choose_search_js:
                    extra["search_method"] = page.evaluate(choose_search_js)
                page.wait_for_timeout(500)  # let late requests (fonts, images) land before measuring memory
                runs[-1]["requests_after_first_result"] = server.take_log()
                probe = Probe(page)
                memory_after_load = probe.measure()
                rss_after_load = renderer_rss(browser)
                page.evaluate(RUN_QUERIES_JS, [dict(q["args"]) for q in warmup])
                settle(page)
                server.take_log()
                first_pass = page.evaluate(RUN_QUERIES_JS, [dict(q["args"]) for q in queries])
                warm_log = server.take_log()
                second_pass = page.evaluate(RUN_QUERIES_JS, [dict(q["args"]) for q in queries])
                repeat_log = server.take_log()
                if adversarial:
                    extra["adversarial"] = page.evaluate(
                        RUN_ADVERSARIAL_JS, [[args, prefix] for _, args, prefix in adversarial]
                    )
                memory_after_queries = probe.measure()
                rss_after_queries = renderer_rss(browser)
                errors = page.evaluate("() => window.__bench.errors")
            finally:
                browser.close()
    return {
        "cold_runs": runs,
        "memory_after_load": memory_after_load,
        "memory_after_queries": memory_after_queries,
        "renderer_rss_after_load": rss_after_load,
        "renderer_rss_after_queries": rss_after_queries,
        "warm": first_pass,
        "repeat": second_pass,
        "warm_requests": warm_log,
        "repeat_requests": repeat_log,
        "page_errors": errors,
        **extra,
    }
