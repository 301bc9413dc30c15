#!/usr/bin/env python3
"""The first search on a phone network: a built site under DevTools network emulation.

    .venv/bin/python bench/phone.py --site _site-full [--runs 3] [--name NAME] [--quick]
    .venv/bin/python bench/phone.py --site OLD --label before --site _site-full --label after


For each profile (10 Mbit/s down with 40 ms latency, and 1.6 Mbit/s with
150 ms), each run opens a shared link (`/#q=land registry`) in a fresh,
normal browser profile with a phone's viewport (375 x 812), throttled with
`Network.emulateNetworkConditions` (the DevTools protocol, as DevTools'
own throttling does; a dedicated worker's requests go through its page's
conditions); then the same link again in a new tab of that browser (the
repeat visit, HTTP cache warm), throttled the same way. The server
(`server.BenchServer`) compresses as GitHub Pages' CDN does: text only
(bench/README.md), and sends Pages' caching headers.

Measured per visit: time to the first result on screen (`first_result`),
to the first WebMCP answer (`agent_first_result`), both in ms since
navigation; the bytes of the responses to requests made before each (the
server's log: body bytes as sent, gzip where the server compressed); and
the bytes fetched after the first answer until the page is quiet (the
snapshot kept for the next visit, files read ahead). With several sites
(`--site`, each with a `--label`), each run visits them in turn, profile by
profile, so they share the machine's load (compare them that way, never
across runs). `--quick`: one run of the 10 Mbit/s profile. Writes
bench/results/NAME.json, NAME.md and NAME-*.svg (the plots, `figures`);
`--render NAME` rewrites NAME.md and the plots from NAME.json.
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
from urllib.parse import quote

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import plots  # noqa: E402
from server import BenchServer  # noqa: E402

from browser import INIT_JS, TIMEOUT_MS, visitor_profile  # noqa: E402

# name -> (download bits per second, latency ms): a good phone network and a poor one.
PROFILES = {"10 Mbit/s, 40 ms": (10e6, 40), "1.6 Mbit/s, 150 ms": (1.6e6, 150)}
# Issue 34's targets, (profile, visit) -> {figure: most allowed}: the plots draw them.
TARGETS = {
    ("10 Mbit/s, 40 ms", "cold"): {"first_result_ms": 6000, "bytes_before_first_result": 5e6},
    ("1.6 Mbit/s, 150 ms", "cold"): {"first_result_ms": 30000},
    ("10 Mbit/s, 40 ms", "repeat"): {"first_result_ms": 1500},
    ("1.6 Mbit/s, 150 ms", "repeat"): {"first_result_ms": 1500},
}
VIEWPORT = {"width": 375, "height": 812}
QUERY = "land registry"
PAGES_MAX_AGE = 600  # seconds: GitHub Pages' Cache-Control max-age
WANT = ["first_result", "agent_first_result"]
QUIET_S = 1.0  # after the first answer, the visit ends once idle-time work is done and no request came for this long
AFTER_MAX_S = 120.0  # ... or after this long
SETTLED = (
    "(names) => window.__bench && (names.every((n) => n in window.__bench.marks)"
    " || 'engine_failed' in window.__bench.marks || 'engine_unavailable' in window.__bench.marks)"
)


def throttle(context, page, bits_per_second: float, latency_ms: float) -> None:
    """DevTools network emulation for this tab (and the workers it starts)."""
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": latency_ms,
            "downloadThroughput": bits_per_second / 8,
            "uploadThroughput": bits_per_second / 8 / 4,
        },
    )


def requested(entry: dict) -> float:
    """When the browser asked for it (the server's log; H2BenchServer logs only when it answered)."""
    return entry.get("requested", entry["t"])


def bytes_before(log: list[dict], wall_time: float) -> int:
    """Body bytes of the responses to requests made before wall_time."""
    return sum(entry["sent"] for entry in log if requested(entry) <= wall_time)


def largest(entries: list[dict], count: int = 12) -> list[tuple[str, int]]:
    """The largest responses: (path, bytes sent)."""
    return sorted({(entry["path"], entry["sent"]) for entry in entries if entry["sent"]}, key=lambda item: -item[1])[
        :count
    ]


# The worker's idle-time work has ended: it kept the snapshot for the next visit, or chose not to.
IDLE_DONE = "() => ['snapshot_cached', 'snapshot_skipped'].some((name) => name in window.__bench.marks)"


def wait_quiet(server: BenchServer, page, log: list[dict], quiet_s: float, max_s: float) -> None:
    """Collect the server's log into `log` until the worker's idle-time work is done
    and no request has come for quiet_s (at most max_s)."""
    started = last = time.time()
    while time.time() - started < max_s:
        page.wait_for_timeout(250)
        entries = server.take_log()
        if entries:
            log.extend(entries)
            last = time.time()
        elif time.time() - last >= quiet_s and page.evaluate(IDLE_DONE):
            return


def visit(context, server: BenchServer, url: str, profile: tuple[float, float], stay: bool) -> dict:
    """One throttled visit in a new tab: marks, bytes before the first result and answer, bytes after."""
    page = context.new_page()
    page.set_viewport_size(VIEWPORT)
    throttle(context, page, *profile)
    server.take_log()
    page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
    page.wait_for_function(SETTLED, arg=WANT, timeout=TIMEOUT_MS, polling=20)
    marks = page.evaluate("() => window.__bench.marks")
    errors = page.evaluate("() => window.__bench.errors")
    if not all(name in marks for name in WANT):
        raise RuntimeError(f"{url}: the page failed before {WANT}: {marks} {errors}")
    origin = page.evaluate("() => performance.timeOrigin") / 1000
    log = server.take_log()
    if stay:
        wait_quiet(server, page, log, QUIET_S, AFTER_MAX_S)
    else:
        page.wait_for_timeout(500)  # requests still in flight land in this visit's log
        log.extend(server.take_log())
    marks = page.evaluate("() => window.__bench.marks")
    progress = page.evaluate("() => window.__bench.progressLabels || []")
    page.close()
    answered = origin + marks["agent_first_result"] / 1000
    shown = origin + marks["first_result"] / 1000
    before = [entry for entry in log if requested(entry) <= answered]
    after = [entry for entry in log if requested(entry) > answered]
    return {
        "marks": marks,
        "bytes_before_first_result": bytes_before(log, shown),
        "bytes_before_first_answer": bytes_before(log, answered),
        "bytes_after_first_answer": sum(entry["sent"] for entry in after),
        "requests_before_first_answer": len(before),
        "files_before_first_answer": largest(before),
        "files_after_first_answer": largest(after),
        "progress_labels": progress,
    }


# The page's loading label, as a visitor reads it, sampled whenever it changes.
LABELS_JS = r"""
(() => {
  const B = window.__bench;
  B.progressLabels = [];
  const seen = () => {
    const label = document.getElementById("loading-label");
    const text = label && !label.closest("[hidden]") ? label.textContent : null;
    if (text && B.progressLabels[B.progressLabels.length - 1] !== text && B.progressLabels.length < 400) {
      B.progressLabels.push(text);
    }
  };
  new MutationObserver(seen).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
})();
"""


def run(sites: dict[str, Path], profiles: dict, runs: int) -> dict:
    """Each run: for each profile, a cold and a repeat visit to each site in turn (interleaved)."""
    from playwright.sync_api import sync_playwright

    servers = {label: BenchServer(site, cache_max_age=PAGES_MAX_AGE).start() for label, site in sites.items()}
    for server in servers.values():
        server.precompress("index.html", "data", "pyodide", "static")
    found = {label: {name: {"cold": [], "repeat": []} for name in profiles} for label in sites}
    load = [os.getloadavg()[0]]
    try:
        with sync_playwright() as playwright:
            for _ in range(runs):
                for name, profile in profiles.items():
                    for label, server in servers.items():
                        url = server.url + "#q=" + quote(QUERY)
                        with visitor_profile(playwright) as context:
                            context.add_init_script(INIT_JS)
                            context.add_init_script(LABELS_JS)
                            found[label][name]["cold"].append(visit(context, server, url, profile, stay=True))
                            found[label][name]["repeat"].append(visit(context, server, url, profile, stay=False))
                        load.append(os.getloadavg()[0])
                        line = summary_line(found[label][name])
                        print(f"[phone] {label}, {name}: {line} (load {load[-1]:.1f})", flush=True)
    finally:
        for server in servers.values():
            server.stop()
    return {
        "load_average": {"min": min(load), "max": max(load), "samples": load},
        "sites": {label: {"site": str(sites[label]), "profiles": summarise(found[label])} for label in sites},
    }


FIGURES = (
    ("first_result_ms", lambda v: v["marks"]["first_result"]),
    ("agent_first_result_ms", lambda v: v["marks"]["agent_first_result"]),
    ("bytes_before_first_result", lambda v: v["bytes_before_first_result"]),
    ("bytes_before_first_answer", lambda v: v["bytes_before_first_answer"]),
    ("bytes_after_first_answer", lambda v: v["bytes_after_first_answer"]),
)


def summarise(found: dict) -> dict:
    out = {}
    for name, kinds in found.items():
        out[name] = {}
        for kind, visits in kinds.items():
            medians = {key: statistics.median([get(v) for v in visits]) for key, get in FIGURES}
            out[name][kind] = {"median": medians, "visits": visits}
    return out


def summary_line(kinds: dict) -> str:
    cold, repeat = kinds["cold"][-1], kinds["repeat"][-1]
    return (
        f"cold first result {cold['marks']['first_result']:,.0f} ms after {cold['bytes_before_first_result'] / 1e6:.2f} MB,"
        f" answer {cold['marks']['agent_first_result']:,.0f} ms, after it {cold['bytes_after_first_answer'] / 1e6:.2f} MB;"
        f" repeat {repeat['marks']['first_result']:,.0f} ms after {repeat['bytes_before_first_result'] / 1e6:.2f} MB"
    )


# Start-up steps shown beside the figures (ms since navigation, medians): where a visit's time went.
STEPS = ("worker_started", "runtime_ready", "wheels_loaded", "catalogue_open", "first_result")


def markdown(result: dict) -> str:
    lines = [
        "| site | profile | visit | first result on screen | first WebMCP answer | MB before first result |"
        " MB before first answer | MB after it |",
        "|---|---|---|--:|--:|--:|--:|--:|",
    ]
    steps = ["| site | profile | visit | " + " | ".join(STEPS) + " |", "|---|---|---|" + "--:|" * len(STEPS)]
    for label, data in result["sites"].items():
        for name, kinds in data["profiles"].items():
            for kind, found in kinds.items():
                m = found["median"]
                lines.append(
                    f"| {label} | {name} | {kind} | {m['first_result_ms'] / 1000:.2f} s"
                    f" | {m['agent_first_result_ms'] / 1000:.2f} s"
                    f" | {m['bytes_before_first_result'] / 1e6:.2f} | {m['bytes_before_first_answer'] / 1e6:.2f}"
                    f" | {m['bytes_after_first_answer'] / 1e6:.2f} |"
                )
                medians = [step_median(found, step) for step in STEPS]
                shown = ["–" if ms is None else f"{ms:,.0f}" for ms in medians]
                steps.append(f"| {label} | {name} | {kind} | " + " | ".join(shown) + " |")
    return "\n".join(lines) + "\n\nStart-up steps (ms since navigation, medians):\n\n" + "\n".join(steps) + "\n"


def step_median(found: dict, step: str) -> float | None:
    times = [visit["marks"][step] for visit in found["visits"] if step in visit["marks"]]
    return statistics.median(times) if times else None


# The time between one start-up step and the next, as the plot's segments name it.
STEP_SPANS = (
    "page, worker",
    "runtime (download, compile, Python)",
    "import govsearch",
    "open catalogue",
    "first search",
)


def panel_groups(result: dict) -> list[tuple[str, list[tuple[str, str]]]]:
    """The plots' panels: each profile's cold visits, then every repeat visit together."""
    names = list(next(iter(result["sites"].values()))["profiles"])
    return [(f"{name}, cold visit", [(name, "cold")]) for name in names] + [
        ("repeat visit (a new tab, cache warm)", [(name, "repeat") for name in names])
    ]


def panels(result: dict, values, figure: str | None, scale: float) -> list[dict]:
    """Bars from `values(found)` (a list of segments) per site and visit; the target of `figure`."""
    out = []
    several = len(result["sites"]) > 1
    for title, keys in panel_groups(result):
        bars = []
        for label, data in result["sites"].items():
            for name, kind in keys:
                shown = ", ".join(([label] if several else []) + ([name] if len(keys) > 1 else [])) or label
                bars.append((shown, [v / scale for v in values(data["profiles"][name][kind])]))
        targets = {TARGETS.get(key, {}).get(figure) for key in keys}
        target = targets.pop() if len(targets) == 1 else None
        out.append({"title": title, "bars": bars, "target": None if target is None else target / scale})
    return out


def spans(found: dict) -> list[float]:
    """The median start-up steps as the time each took after the one before (ms)."""
    times = [step_median(found, step) for step in STEPS]
    known = [0.0] + [t for t in times if t is not None]
    return [max(b - a, 0.0) for a, b in zip(known, known[1:])] + [0.0] * (len(STEPS) + 1 - len(known))


def figures(report: dict) -> dict[str, str]:
    """The plots, as SVG text by name: what `page` links as NAME-<name>.svg."""
    result = report["result"]
    median = lambda key: lambda found: [found["median"][key]]  # noqa: E731
    return {
        "first_result": plots.bar_panels(
            "First result on screen (median)", panels(result, median("first_result_ms"), "first_result_ms", 1000), "s"
        ),
        "bytes_before_first_result": plots.bar_panels(
            "On the wire before the first result (median)",
            panels(result, median("bytes_before_first_result"), "bytes_before_first_result", 1e6),
            "MB",
        ),
        "steps": plots.bar_panels(
            "Start-up steps, from navigation to the first result (medians)",
            panels(result, spans, None, 1000),
            "s",
            list(STEP_SPANS),
        ),
    }


def write(out: Path, name: str, report: dict) -> None:
    """NAME.json's companions: NAME.md and the plots."""
    (out / f"{name}.md").write_text(page(name, report), "utf-8")
    for figure, svg in figures(report).items():
        (out / f"{name}-{figure}.svg").write_text(svg, "utf-8")


def page(name: str, report: dict) -> str:
    result, machine = report["result"], report["machine"]
    load = result["load_average"]
    files = ""
    for label, data in result["sites"].items():
        first = next(iter(data["profiles"].values()))["cold"]["visits"][0]
        listed = "\n".join(f"- `{path}`: {sent / 1e6:.2f} MB" for path, sent in first["files_before_first_answer"])
        files += (
            f"\nLargest files before the first answer, {label} (first cold visit of the first profile):\n\n{listed}\n"
        )
    sites = ", ".join(f"{label} `{data['site']}`" for label, data in result["sites"].items())
    return (
        f"# The first search on a phone network ({name})\n\n"
        f"`{report['command']}`: {report['runs']} run(s) per profile, medians; sites {sites}, interleaved; "
        f"query `{QUERY}` from the link's fragment; viewport {VIEWPORT['width']}x{VIEWPORT['height']}; "
        "DevTools network emulation; server compressing text only, as GitHub Pages' CDN (bench/README.md). "
        f"Machine: {machine['nproc']} CPUs, {machine['platform']}; 1-minute load average "
        f"{load['min']:.1f} to {load['max']:.1f}.\n\n"
        + markdown(result)
        + files
        + "\nPlots (targets dashed):\n\n"
        + "".join(f"![{figure}]({name}-{figure}.svg)\n" for figure in figures(report))
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--site", action="append", default=[], help="a built site folder (make build-full: _site-full); repeatable"
    )
    parser.add_argument("--label", action="append", default=[], help="a name for each --site, in order")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="one run of the 10 Mbit/s profile")
    parser.add_argument("--name", default=f"{time.strftime('%Y-%m-%d')}-phone")
    parser.add_argument("--out", default=str(BENCH / "results"))
    parser.add_argument("--render", metavar="NAME", help="only rewrite NAME.md and the plots from NAME.json")
    options = parser.parse_args(argv)
    out = Path(options.out)
    if options.render:
        write(out, options.render, json.loads((out / f"{options.render}.json").read_text("utf-8")))
        return 0
    if not options.site:
        parser.error("give a --site (or --render NAME)")
    profiles = dict(list(PROFILES.items())[:1]) if options.quick else PROFILES
    runs = 1 if options.quick else options.runs
    labels = options.label + [Path(site).name for site in options.site[len(options.label) :]]
    if len(set(labels)) != len(options.site):
        parser.error("give each --site its own --label")
    result = run(dict(zip(labels, map(Path, options.site))), profiles, runs)
    machine = {"nproc": os.cpu_count(), "platform": platform.platform(), "chromium": "/usr/bin/chromium"}
    report = {"command": " ".join(sys.argv), "runs": runs, "machine": machine, "result": result}
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{options.name}.json").write_text(json.dumps(report, indent=1) + "\n", "utf-8")
    write(out, options.name, report)
    print(markdown(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
