"""Where a warm query's time goes in Chromium, query by query, and A/B of builds.

    .venv/bin/python bench/breakdown.py SITE [SITE ...] [--passes N] [--json OUT]

For each built site (give two or more for an A/B: their passes interleave,
each pass a fresh browser, so load on this shared machine falls on all
alike), loads the page, runs the bench's warm-up queries and then the
bench's 60 timed queries (from a `make bench` results file) through native
WebMCP executeTool, as `make bench` does. Per query it reports the total
time, the worker's rounds (bench reads the worker's `govsearchTrace` over
the DevTools protocol): ms inside Python per round, the files each round
then fetched and the wait for them, with their bytes from the bench
server's log. It also keeps every answer's text, so two builds can be
checked for identical answers (`--json` writes them).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from server import BenchServer, H2BenchServer  # noqa: E402

from browser import INIT_JS, Probe, cold_load, settle  # noqa: E402

WANT = ["engine_ready", "tool_search_government_knowledge"]
ONE_CALL_JS = """
async (args) => {
  const tools = await document.modelContext.getTools();
  const tool = tools.find((t) => t.name === "search_government_knowledge");
  const started = performance.now();
  const text = await document.modelContext.executeTool(tool, args);
  return { ms: performance.now() - started, text };
}
"""
assert "webmcpSearch" in INIT_JS  # the bench's own page hooks (cold_load adds them)


def bench_queries(results: Path) -> tuple[list[dict], list[dict]]:
    """The timed and warm-up queries of a `make bench` run, as tool arguments."""
    size = next(s for s in json.loads(results.read_text("utf-8"))["sizes"] if s["label"] == "full")
    timed = [{"kind": q["kind"], "args": {"query": q["query"], "limit": 20, **q["filters"]}} for q in size["queries"]]
    warmup = [{"kind": "warmup", "args": {"query": q, "limit": 20}} for q in size["warmup_queries"]]
    return timed, warmup


def worker_trace(probe: Probe) -> dict:
    reply = probe._worker_send(
        probe.workers[-1],
        "Runtime.evaluate",
        {"expression": "JSON.stringify(self.govsearchTrace.at(-1) || null)", "returnByValue": True},
    )
    return json.loads(reply["result"]["value"]) or {}


def one_pass(playwright, server: BenchServer, timed: list[dict], warmup: list[dict]) -> list[dict]:
    browser, page, _marks, _log = cold_load(playwright, server, server.url, WANT)
    try:
        probe = Probe(page)
        for query in warmup:
            page.evaluate(ONE_CALL_JS, query["args"])
        settle(page)
        out = []
        for query in timed:
            server.take_log()
            answer = page.evaluate(ONE_CALL_JS, query["args"])
            sent = {entry["path"].rsplit("/data/", 1)[-1]: entry["sent"] for entry in server.take_log()}
            rounds = worker_trace(probe).get("rounds", [])
            for one in rounds:
                one["bytes"] = sum(sent.get(name, 0) for name in one["files"])
            out.append({**query, "ms": answer["ms"], "text": answer["text"], "rounds": rounds})
        return out
    finally:
        browser.close()


def summary(label: str, passes: list[list[dict]]) -> dict:
    """Per query: the median over passes of the total, Python and fetch ms."""
    rows = []
    for index, query in enumerate(passes[0]):
        runs = [p[index] for p in passes]
        rows.append(
            {
                "query": query["args"]["query"],
                "kind": query["kind"],
                "ms": statistics.median(r["ms"] for r in runs),
                "python": statistics.median(sum(x["python"] for x in r["rounds"]) for r in runs),
                "fetch": statistics.median(sum(x["fetch"] for x in r["rounds"]) for r in runs),
                "rounds": len(query["rounds"]),
                "files": sum(len(x["files"]) for x in query["rounds"]),
                "bytes": sum(x["bytes"] for x in query["rounds"]),
                "python_rounds": [round(x["python"], 1) for x in query["rounds"]],
                "files_rounds": [len(x["files"]) for x in query["rounds"]],
            }
        )
    every = sorted(r["ms"] for p in passes for r in p)
    return {"label": label, "rows": rows, "p50": percentile(every, 0.5), "p95": percentile(every, 0.95)}


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile (bench/run.py's definition)."""
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def print_table(result: dict) -> None:
    print(f"\n## {result['label']}: p50 {result['p50']:.1f} ms, p95 {result['p95']:.1f} ms")
    print(f"{'query':34} {'kind':8} {'ms':>6} {'py':>6} {'fetch':>6} rnd files   bytes  py per round / files per round")
    for row in sorted(result["rows"], key=lambda r: -r["ms"]):
        print(
            f"{row['query'][:34]:34} {row['kind']:8} {row['ms']:6.1f} {row['python']:6.1f} {row['fetch']:6.1f}"
            f" {row['rounds']:3} {row['files']:5} {row['bytes']:7} {row['python_rounds']} {row['files_rounds']}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sites", nargs="+", type=Path, help="built sites (the folder holding index.html)")
    parser.add_argument("--results", type=Path, default=BENCH / "results" / "2026-12-01.json")
    parser.add_argument("--passes", type=int, default=1, help="fresh-browser passes per site, interleaved")
    parser.add_argument("--json", type=Path, help="write every pass (answers included) here")
    parser.add_argument(
        "--protocols",
        default="http1",
        help="http1, http2 (TLS, as GitHub Pages serves) or http1,http2 (each site over both, interleaved)",
    )
    parser.add_argument("--queries-out", type=Path, help="only write the queries (for pyodide_profile.mjs) here")
    options = parser.parse_args(argv)
    timed, warmup = bench_queries(options.results)
    if options.queries_out:
        queries = {"warmup": [q["args"] for q in warmup], "timed": [q["args"] for q in timed]}
        options.queries_out.write_text(json.dumps(queries), "utf-8")
        return 0
    protocols = {"http1": BenchServer, "http2": H2BenchServer}
    servers = []  # (label, server): each site over each protocol asked for
    for site in options.sites:
        for protocol in options.protocols.split(","):
            server = protocols[protocol](site).start()
            server.precompress("index.html", "data", "pyodide", "static")
            label = str(site) if options.protocols == "http1" else f"{site} ({protocol})"
            servers.append((label, server))
    passes: dict[str, list] = {label: [] for label, _ in servers}
    loads = []
    try:
        with sync_playwright() as playwright:
            for _ in range(options.passes):
                for label, server in servers:
                    loads.append(os.getloadavg()[0])
                    passes[label].append(one_pass(playwright, server, timed, warmup))
    finally:
        for _, server in servers:
            server.stop()
    results = [summary(label, runs) for label, runs in passes.items()]
    for result in results:
        print_table(result)
    print(f"\n1-minute load average at each pass: {', '.join(f'{x:.1f}' for x in loads)}")
    if len(results) > 1:
        base = results[0]
        for other in results[1:]:
            print(
                f"{other['label']} / {base['label']}: p50 {other['p50'] / base['p50']:.2f}x, p95 {other['p95'] / base['p95']:.2f}x"
            )
            same = all(
                a["text"] == b["text"]
                for pa, pb in zip(passes[base["label"]], passes[other["label"]])
                for a, b in zip(pa, pb)
            )
            print(f"answers identical to {base['label']}: {same}")
    if options.json:
        options.json.write_text(json.dumps({"passes": passes, "results": results, "loads": loads}), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
