#!/usr/bin/env python3
"""Start-up timeline of a built govsearch site against the bare Pyodide runtime.

    .venv/bin/python bench/timeline.py --site _site --label curated [--runs 5] [--name NAME]

Each run is one cold load of bench/pages/bare.html (a worker that only
starts the site's own Pyodide, with the npm standard library: the issue's
floor), one of the same page with the build's precompiled standard library
(bare.html?precompiled: what govsearch adds beyond that runtime) and one cold
load of the site, alternating, each in a fresh browser with a fresh normal
profile (a first-time visitor); then a second visit to the site in a new tab
of the same browser (HTTP cache warm, and the compiled code Chromium keeps
beside it). The same pair of visits is also made in a private window, where
Chromium keeps no compiled code: reported beside, not as the target. The
server sends GitHub Pages' caching headers (max-age=600, ETag, 304s). Every
mark is milliseconds since the page's navigation: the worker posts its steps
(`timing` messages) and the page marks the first WebMCP answer. Reported:
each mark's median, and the ratios first answer / bare runtime ready and
repeat visit / cold visit. Given several sites (an A/B of two builds:
`--site OLD --label before --site NEW --label after`), each run visits them
in turn, each with its own bare pages, so both meet the same machine load.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from server import BenchServer  # noqa: E402

from browser import INIT_JS, TIMEOUT_MS, launch, visitor_profile  # noqa: E402

# In order of arrival; `agent_first_result` is the first WebMCP answer.
MARKS = [
    "worker_started",
    "snapshot_unpacked",
    "runtime_ready",
    "wheels_loaded",
    "data_downloaded",
    "catalogue_open",
    "engine_ready",
    "agent_first_result",
    "first_result",
    "snapshot_cached",
]
STAY_MS = 60_000
PAGES_MAX_AGE = 600  # seconds: what GitHub Pages sends for every file
QUERY = "companies house"
SETTLED = (
    "(names) => window.__bench && (names.every((n) => n in window.__bench.marks)"
    " || 'engine_failed' in window.__bench.marks || 'engine_unavailable' in window.__bench.marks)"
)


def visit(context, server: BenchServer, url: str, want: list[str], stay_for: str | None = None) -> dict:
    """Open url in a new tab of context; the marks and the bytes the server sent.

    `stay_for`: a mark to wait a little longer for (a visitor who stays a moment)."""
    page = context.new_page()
    server.take_log()
    page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
    page.wait_for_function(SETTLED, arg=want, timeout=TIMEOUT_MS, polling=20)
    marks = page.evaluate("() => window.__bench.marks")
    if not all(name in marks for name in want):
        raise RuntimeError(
            f"{url}: the page failed before {want}: {marks} {page.evaluate('() => window.__bench.errors')}"
        )
    answered = time.time()
    if stay_for:
        try:
            page.wait_for_function("(name) => name in window.__bench.marks", arg=stay_for, timeout=STAY_MS, polling=50)
        except Exception:  # noqa: BLE001 - a site without a snapshot never sets it
            pass
    page.wait_for_timeout(300)  # requests still in flight land in this visit's log
    marks = page.evaluate("() => window.__bench.marks")
    total = page.evaluate("() => window.__bench.agentFirstTotal ?? null")
    log = server.take_log()
    before = [entry for entry in log if entry["t"] <= answered]
    page.close()
    return {
        "marks": marks,
        "total": total,
        "requests": len(before),
        "bytes": sum(entry["sent"] for entry in before),
        "bytes_after_answer": sum(entry["sent"] for entry in log) - sum(entry["sent"] for entry in before),
        "not_modified": sum(1 for entry in before if entry["status"] == 304),
    }


def run(site: Path, runs: int) -> dict:
    return run_sites([site], runs)[0]


def run_sites(sites: list[Path], runs: int) -> list[dict]:
    """The runs of every site, interleaved: each run visits each site in turn
    (its bare pages, then the site), so an A/B of two builds meets the same
    load on this shared machine, run by run."""
    from playwright.sync_api import sync_playwright

    overlay = {
        "/bench-bare/": BENCH / "pages" / "bare.html",
        "/bench-bare/bare-worker.js": BENCH / "pages" / "bare-worker.js",
    }
    servers = []
    kinds = ("bare", "bare_precompiled", "cold", "repeat", "cold_private", "repeat_private")
    found = [{kind: [] for kind in kinds} for _ in sites]
    load = [[os.getloadavg()[0]] for _ in sites]
    try:
        for site in sites:
            servers.append(BenchServer(site, cache_max_age=PAGES_MAX_AGE, overlay=overlay).start())
            servers[-1].precompress("index.html", "data", "pyodide", "static")
        with sync_playwright() as playwright:
            for _ in range(runs):
                for server, visits, loads in zip(servers, found, load):
                    one_run(playwright, server, visits)
                    loads.append(os.getloadavg()[0])
    finally:
        for server in servers:
            server.stop()
    return [summary(visits, loads) for visits, loads in zip(found, load)]


def one_run(playwright, server: BenchServer, found: dict) -> None:
    """One run for one site: the bare runtime (npm and precompiled standard
    library), then the site cold and repeat, in a normal profile and in a private window."""
    ours = server.url + "#" + urlencode({"q": QUERY})
    for kind in ("bare", "bare_precompiled"):
        with visitor_profile(playwright) as context:
            context.add_init_script(INIT_JS)
            query = "?precompiled" if kind == "bare_precompiled" else ""
            try:
                found[kind].append(visit(context, server, server.url + "bench-bare/" + query, ["runtime_ready"]))
            except RuntimeError:
                if kind == "bare":
                    raise
                # An older build (before the precompiled standard library shipped) has none to start.
                found[kind].append({"marks": {}, "bytes": None, "requests": None, "not_modified": None, "total": None})
    with visitor_profile(playwright) as context:
        visit_twice(context, server, ours, found["cold"], found["repeat"])
    browser = launch(playwright)
    try:
        visit_twice(browser.new_context(), server, ours, found["cold_private"], found["repeat_private"])
    finally:
        browser.close()


def visit_twice(context, server: BenchServer, url: str, cold: list, repeat: list) -> None:
    """A first visit that stays until the snapshot is cached, then a second in a new tab."""
    context.add_init_script(INIT_JS)
    want = ["agent_first_result", "first_result"]
    cold.append(visit(context, server, url, want, "snapshot_cached"))
    repeat.append(visit(context, server, url, want))
    if repeat[-1]["total"] != cold[-1]["total"]:
        raise RuntimeError(
            f"the repeat visit answered differently: {repeat[-1]['total']} vs {cold[-1]['total']} results"
        )


def median(values: list) -> float | None:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def summary(found: dict, load: list[float]) -> dict:
    medians = {
        kind: {mark: median([v["marks"].get(mark) for v in visits]) for mark in MARKS} for kind, visits in found.items()
    }
    bare = medians["bare"]["runtime_ready"]
    precompiled = medians.get("bare_precompiled", {}).get("runtime_ready")
    first, again = medians["cold"]["agent_first_result"], medians["repeat"]["agent_first_result"]
    private = medians["cold_private"]["agent_first_result"], medians["repeat_private"]["agent_first_result"]
    return {
        "runs": len(found["cold"]),
        "load_average": {"min": min(load), "max": max(load), "samples": load},
        "medians_ms": {
            "bare": {"runtime_ready": bare},
            "bare_precompiled": {"runtime_ready": precompiled},
            "cold": medians["cold"],
            "repeat": medians["repeat"],
            "cold_private": medians["cold_private"],
            "repeat_private": medians["repeat_private"],
        },
        "bytes": {kind: median([v["bytes"] for v in visits]) for kind, visits in found.items()},
        "bytes_after_answer": {
            kind: median([v.get("bytes_after_answer") for v in visits]) for kind, visits in found.items()
        },
        "requests": {kind: median([v["requests"] for v in visits]) for kind, visits in found.items()},
        "not_modified": {kind: median([v["not_modified"] for v in visits]) for kind, visits in found.items()},
        "ratio_first_answer_to_bare": first / bare if first and bare else None,
        # The same runtime with the build's precompiled standard library: what govsearch adds beyond it.
        "ratio_first_answer_to_bare_precompiled": first / precompiled if first and precompiled else None,
        "ratio_repeat_to_cold": again / first if again and first else None,
        # A private window keeps no compiled code between visits: a repeat visit there starts colder.
        "ratio_private_repeat_to_cold": private[1] / private[0] if all(private) else None,
        "visits": found,
    }


def markdown(results: dict) -> str:
    lines = [
        "| step (ms since navigation, median) | "
        + " | ".join(f"{label}: cold | {label}: repeat" for label in results)
        + " |",
        "|---|" + "--:|--:|" * len(results),
    ]
    for mark in MARKS:
        cells = []
        for result in results.values():
            cells += [fmt(result["medians_ms"]["cold"][mark]), fmt(result["medians_ms"]["repeat"][mark])]
        lines.append(f"| {mark} | " + " | ".join(cells) + " |")
    lines.append(
        "| bare runtime ready (same run) | "
        + " | ".join(f"{fmt(r['medians_ms']['bare']['runtime_ready'])} | " for r in results.values())
        + "|"
    )
    lines.append(
        "| **first answer / bare runtime** | "
        + " | ".join(f"**{r['ratio_first_answer_to_bare']:.2f}×** | " for r in results.values())
        + "|"
    )
    lines.append(
        "| bare runtime ready, precompiled standard library (same run) | "
        + " | ".join(
            f"{fmt((r['medians_ms'].get('bare_precompiled') or {}).get('runtime_ready'))} | " for r in results.values()
        )
        + "|"
    )
    lines.append(
        "| first answer / bare runtime with precompiled standard library | "
        + " | ".join(f"{ratio(r.get('ratio_first_answer_to_bare_precompiled'))} | " for r in results.values())
        + "|"
    )
    lines.append(
        "| **repeat / cold first answer** | "
        + " | ".join(f" | **{r['ratio_repeat_to_cold']:.2f}×**" for r in results.values())
        + " |"
    )
    lines.append(
        "| in a private window (no compiled code kept): first answer | "
        + " | ".join(
            f"{fmt(r['medians_ms'].get('cold_private', {}).get('agent_first_result'))} | "
            f"{fmt(r['medians_ms'].get('repeat_private', {}).get('agent_first_result'))}"
            for r in results.values()
        )
        + " |"
    )
    lines.append(
        "| repeat / cold first answer, private window | "
        + " | ".join(f" | {ratio(r.get('ratio_private_repeat_to_cold'))}" for r in results.values())
        + " |"
    )
    lines.append(
        "| bytes sent to the first answer (median) | "
        + " | ".join(
            f"{r['bytes']['cold'] / 1e6:.2f} MB | {r['bytes']['repeat'] / 1e6:.2f} MB" for r in results.values()
        )
        + " |"
    )
    lines.append(
        "| bytes sent after it (snapshot kept for the next visit) | "
        + " | ".join(
            f"{(r.get('bytes_after_answer') or {}).get('cold', 0) / 1e6:.2f} MB | {(r.get('bytes_after_answer') or {}).get('repeat', 0) / 1e6:.2f} MB"
            for r in results.values()
        )
        + " |"
    )
    lines.append(
        "| requests (of them 304) | "
        + " | ".join(
            f"{r['requests']['cold']:.0f} | {r['requests']['repeat']:.0f} ({r['not_modified']['repeat']:.0f})"
            for r in results.values()
        )
        + " |"
    )
    return "\n".join(lines) + "\n"


def ratio(value) -> str:
    return "–" if value is None else f"{value:.2f}×"


def fmt(value) -> str:
    return "–" if value is None else f"{value:,.0f}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--site", action="append", required=True, help="a built site folder (repeatable)")
    parser.add_argument("--label", action="append", required=True, help="its label, in the same order")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--name", default=f"{time.strftime('%Y-%m-%d')}-startup")
    parser.add_argument("--out", default=str(BENCH / "results"))
    options = parser.parse_args(argv)
    if len(options.label) != len(options.site):
        parser.error("give one --label for each --site")
    print(
        f"[timeline] {', '.join(options.label)}: {options.runs} runs, interleaved (load {os.getloadavg()[0]:.1f})",
        flush=True,
    )
    results = dict(zip(options.label, run_sites([Path(site) for site in options.site], options.runs)))
    print(markdown(results), flush=True)
    out = Path(options.out)
    machine = {"nproc": os.cpu_count(), "platform": platform.platform(), "chromium": "/usr/bin/chromium"}
    report = {"command": " ".join(sys.argv), "machine": machine, "results": results}
    (out / f"{options.name}.json").write_text(json.dumps(report, indent=1) + "\n", "utf-8")
    (out / f"{options.name}.md").write_text(page(options.name, report), "utf-8")
    return 0


def page(name: str, report: dict) -> str:
    """The Markdown results page: how it was run, on what, under what load, then the table."""
    machine = report["machine"]
    loads = "; ".join(
        f"{label} {result['load_average']['min']:.1f} to {result['load_average']['max']:.1f}"
        for label, result in report["results"].items()
    )
    return (
        f"# Start-up timeline ({name})\n\n"
        f"`{report['command']}`: {next(iter(report['results'].values()))['runs']} runs per site, each visit pair in "
        f"a fresh normal browser profile (see bench/timeline.py). Machine: {machine['nproc']} CPUs, "
        f"{machine['platform']}, {machine['chromium']} (headless). 1-minute load average during the runs: {loads}.\n\n"
        + markdown(report["results"])
    )


if __name__ == "__main__":
    sys.exit(main())
