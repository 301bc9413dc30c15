#!/usr/bin/env python3
"""govsearch benchmark: our site (Pyodide + lunr.py) against lunr.js 2.3.9 and Pagefind.

    .venv/bin/python bench/run.py [--quick] [--sizes 1000,10000,full] [--name NAME]

See bench/README.md for what is measured and how. Writes
bench/results/NAME.json, NAME.md and NAME-*.svg; work files go to
bench/work/<size>/ (gitignored).
"""

from __future__ import annotations

import argparse
import datetime as dt
import gzip
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))

import corpus  # noqa: E402
import plots  # noqa: E402
from queries import make_queries, warmup_queries  # noqa: E402

ENGINES = ("ours", "lunr", "pagefind")
ENGINE_TITLES = {"ours": "govsearch (Pyodide + lunr.py)", "lunr": "lunr.js 2.3.9", "pagefind": "Pagefind"}
PYODIDE_CORE = {
    "pyodide.mjs",
    "pyodide.js",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "pyodide.asm.wasm.gz",
    "python_stdlib.zip",
}
CHOOSE_OURS_SEARCH = """
async () => {
  const B = window.__bench;
  try {
    const probe = await B.webmcpSearch({ query: "benchmark", limit: 1 });
    if (probe && typeof probe === "object" && "ok" in probe) { B.search = B.webmcpSearch; return "webmcp-executeTool"; }
  } catch (error) { B.errors.push("webmcp: " + error); }
  B.search = B.workerSearch;
  return "worker-protocol";
}
"""
MB = 1e6

# (key, label, unit, lower is better) in table order.
FIGURES = [
    ("site_build_s", "Site build wall time (whole site)", "s"),
    ("site_build_peak_mb", "Site build peak memory (process + children)", "MB"),
    ("index_build_s", "Index build wall time", "s"),
    ("index_build_peak_mb", "Index build peak memory (process + children)", "MB"),
    ("index_mb", "Search data on disk (raw)", "MB"),
    ("index_gzip_mb", "Search data on disk (gzip)", "MB"),
    ("cold_tools_registered_ms", "Cold: WebMCP tools registered", "ms"),
    ("cold_ready_ms", "Cold: search engine ready", "ms"),
    ("cold_first_result_ms", "Cold: first result on screen", "ms"),
    ("cold_agent_first_result_ms", "Cold: first WebMCP tool result", "ms"),
    ("first_search_mb", "Bytes to first result (all)", "MB"),
    ("first_search_no_runtime_mb", "Bytes to first result, without Pyodide runtime", "MB"),
    ("first_search_search_only_mb", "Bytes to first result, engine + data only", "MB"),
    ("first_search_requests", "Requests to first result", "n"),
    ("warm_p50_ms", "Warm query p50", "ms"),
    ("warm_p95_ms", "Warm query p95", "ms"),
    ("repeat_p50_ms", "Repeated query p50", "ms"),
    ("repeat_p95_ms", "Repeated query p95", "ms"),
    ("warm_mb", "Bytes fetched during warm queries", "MB"),
    ("renderer_rss_mb", "Renderer process RSS after load (all memory: JS, wasm, DOM)", "MB"),
    ("renderer_rss_after_queries_mb", "Renderer process RSS after the queries", "MB"),
    ("memory_after_load_mb", "JS memory after load (measureUserAgentSpecificMemory, page + workers, no wasm)", "MB"),
    ("js_heap_after_load_mb", "JS heap used after load (CDP getHeapUsage, page + workers)", "MB"),
    ("wasm_after_load_mb", "wasm linear memory after load (page + Pyodide worker)", "MB"),
    ("wasm_after_queries_mb", "wasm linear memory after the queries (page + Pyodide worker)", "MB"),
    ("memory_after_queries_mb", "JS memory after queries (measureUserAgentSpecificMemory)", "MB"),
]
PLOTTED = [
    "site_build_s",
    "index_build_s",
    "index_build_peak_mb",
    "index_gzip_mb",
    "cold_ready_ms",
    "cold_first_result_ms",
    "first_search_mb",
    "first_search_no_runtime_mb",
    "warm_p50_ms",
    "warm_p95_ms",
    "renderer_rss_mb",
    "memory_after_load_mb",
    "wasm_after_queries_mb",
]


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", flush=True)


def command_output(*command: str) -> str:
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unavailable"


def machine() -> dict:
    meminfo = Path("/proc/meminfo").read_text().splitlines() if Path("/proc/meminfo").exists() else []
    total_kb = next((int(line.split()[1]) for line in meminfo if line.startswith("MemTotal:")), 0)
    cpu = "unknown"
    if Path("/proc/cpuinfo").exists():
        cpu = next(
            (
                line.split(":", 1)[1].strip()
                for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")
            ),
            cpu,
        )
    versions = {}
    for package in ("playwright", "pagefind", "lunr"):
        try:
            from importlib.metadata import version

            versions[f"python {package}"] = version(package)
        except Exception:  # noqa: BLE001
            versions[f"python {package}"] = "missing"
    for package in ("lunr", "pyodide"):
        try:
            versions[f"npm {package}"] = json.loads((ROOT / "node_modules" / package / "package.json").read_text())[
                "version"
            ]
        except OSError:
            versions[f"npm {package}"] = "missing"
    return {
        "nproc": os.cpu_count(),
        "load_average_at_end": os.getloadavg(),
        "memory_gb": round(total_kb / 1024 / 1024, 1),
        "cpu": cpu,
        "os": platform.platform(),
        "chromium": command_output("/usr/bin/chromium", "--version"),
        "python": sys.version.split()[0],
        "node": command_output("node", "--version"),
        "versions": versions,
    }


def measure_build(mode: str, source: Path, out: Path) -> dict:
    """Run bench/measure_build.py in a fresh interpreter; its last line holds the figures."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(BENCH / "measure_build.py"), mode, str(source), str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{mode} build failed:\n{done.stderr[-3000:]}")
    line = next(line for line in reversed(done.stdout.splitlines()) if line.startswith("BENCH-RESULT "))
    result = json.loads(line.removeprefix("BENCH-RESULT "))
    result["process_wall_s"] = time.perf_counter() - started
    result["load_average_after"] = os.getloadavg()
    result["peak_mb"] = (result["maxrss_self_kb"] + result["maxrss_children_kb"]) * 1024 / MB
    return result


def link_or_copy(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():
        target.unlink()
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def folder_bytes(files: list[Path]) -> tuple[int, int]:
    raw = sum(p.stat().st_size for p in files)
    packed = sum(
        len(gzip.compress(p.read_bytes(), 6, mtime=0)) if p.suffix in (".json", ".js", ".wasm") else p.stat().st_size
        for p in files
    )
    return raw, packed


def prepare_lunr(work: Path, toml: Path, builds: dict) -> Path:
    """The lunr.js page with our one-file lunr index (layout "single") and record store.

    Our site uses the same file below data_writer.SHARDED_FROM records; above it the
    site ships shards, which lunr.js cannot read, so the one-file index is written
    here (and its build measured) whatever the site's layout."""
    site = work / "lunr"
    if site.exists():
        shutil.rmtree(site)
    site.mkdir(parents=True)
    builds["ours-index-single"] = measure_build("ours-index-single", toml, site / "data")
    shutil.copy2(BENCH / "pages" / "lunr.html", site / "index.html")
    shutil.copy2(BENCH / "pages" / "lunr-bench.js", site / "lunr-bench.js")
    shutil.copy2(BENCH / "pages" / "results-list.js", site / "results-list.js")
    shutil.copy2(ROOT / "node_modules" / "lunr" / "lunr.min.js", site / "lunr.min.js")
    return site


def prepare_pagefind_page(work: Path) -> Path:
    site = work / "pagefind"
    shutil.copy2(BENCH / "pages" / "pagefind.html", site / "index.html")
    shutil.copy2(BENCH / "pages" / "pagefind-bench.js", site / "pagefind-bench.js")
    shutil.copy2(BENCH / "pages" / "results-list.js", site / "results-list.js")
    return site


def category(engine: str, path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    if engine == "ours":
        if path.startswith("/pyodide/"):
            # python_stdlib.<hash>.zip: the runtime's standard library, precompiled by the build.
            return "runtime" if name in PYODIDE_CORE or name.startswith("python_stdlib.") else "engine"
        if path.startswith("/data/"):
            return "data"
        if path.startswith("/static/js/worker"):
            return "engine"
        return "page"
    if engine == "lunr":
        return "engine" if name == "lunr.min.js" else "data" if path.startswith("/data/") else "page"
    if path.startswith("/pagefind/"):
        return "engine" if name.startswith(("pagefind.js", "wasm.", "pagefind-worker")) else "data"
    return "page"


def bytes_by_category(engine: str, requests: list[dict]) -> dict:
    out = {"runtime": 0, "engine": 0, "data": 0, "page": 0}
    for entry in requests:
        out[category(engine, entry["path"])] += entry["sent"]
    return out


def percentile(values: list[float], fraction: float) -> float | None:
    """Nearest-rank percentile."""
    ordered = sorted(v for v in values if v is not None)
    if not ordered:
        return None
    rank = max(1, int(-(-fraction * len(ordered) // 1)))
    return ordered[min(rank, len(ordered)) - 1]


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def engine_files(engine: str, site: Path) -> list[Path]:
    """The files the engine may load to search (index, record store or bundle, not the page)."""
    if engine in ("ours", "lunr"):
        return [p for p in (site / "data").rglob("*") if p.is_file()]
    return [
        p
        for p in (site / "pagefind").rglob("*")
        if p.is_file()
        and not p.name.startswith(
            ("pagefind-ui", "pagefind-modular-ui", "pagefind-component-ui", "pagefind-highlight", "wasm.unknown")
        )
    ]


def figures(engine: str, site: Path, browser: dict, builds: dict) -> dict:
    fig: dict[str, float | None] = {key: None for key, _, _ in FIGURES}
    if engine == "ours":
        fig["site_build_s"] = builds["ours-build"]["wall_s"]
        fig["site_build_peak_mb"] = builds["ours-build"]["peak_mb"]
        fig["index_build_s"] = builds["ours-index"]["wall_s"]
        fig["index_build_peak_mb"] = builds["ours-index"]["peak_mb"]
    elif engine == "lunr":  # lunr.js loads the one-file index lunr.py writes
        fig["index_build_s"] = builds["ours-index-single"]["wall_s"]
        fig["index_build_peak_mb"] = builds["ours-index-single"]["peak_mb"]
    elif engine == "pagefind":
        fig["index_build_s"] = builds["pagefind"]["wall_s"]
        fig["index_build_peak_mb"] = builds["pagefind"]["peak_mb"]
    raw, packed = folder_bytes(engine_files(engine, site))
    fig["index_mb"], fig["index_gzip_mb"] = raw / MB, packed / MB
    runs = browser["cold_runs"]
    ready_mark = {"ours": "engine_ready", "lunr": "ready", "pagefind": "ready"}[engine]
    fig["cold_ready_ms"] = median([r["marks"].get(ready_mark) for r in runs])
    fig["cold_first_result_ms"] = median([r["marks"].get("first_result") for r in runs])
    if engine == "ours":
        fig["cold_tools_registered_ms"] = median([r["marks"].get("tool_search_government_knowledge") for r in runs])
        fig["cold_agent_first_result_ms"] = median([r["marks"].get("agent_first_result") for r in runs])
    cats = [bytes_by_category(engine, r["requests"]) for r in runs]
    fig["first_search_mb"] = median([sum(c.values()) for c in cats]) / MB
    fig["first_search_no_runtime_mb"] = median([sum(c.values()) - c["runtime"] for c in cats]) / MB
    fig["first_search_search_only_mb"] = median([c["engine"] + c["data"] for c in cats]) / MB
    fig["first_search_requests"] = median([len(r["requests"]) for r in runs])
    warm = [q["ms"] for q in browser["warm"]]
    repeat = [q["ms"] for q in browser["repeat"]]
    fig["warm_p50_ms"], fig["warm_p95_ms"] = percentile(warm, 0.5), percentile(warm, 0.95)
    fig["repeat_p50_ms"], fig["repeat_p95_ms"] = percentile(repeat, 0.5), percentile(repeat, 0.95)
    fig["warm_mb"] = sum(e["sent"] for e in browser["warm_requests"]) / MB
    scale = lambda v: v / MB if v is not None else None  # noqa: E731
    fig["memory_after_load_mb"] = scale(browser["memory_after_load"]["ua_memory"])
    fig["wasm_after_load_mb"] = scale(browser["memory_after_load"]["wasm_memory"])
    fig["wasm_after_queries_mb"] = scale(browser["memory_after_queries"]["wasm_memory"])
    fig["js_heap_after_load_mb"] = scale(browser["memory_after_load"]["js_heap_used"])
    fig["memory_after_queries_mb"] = scale(browser["memory_after_queries"]["ua_memory"])
    fig["renderer_rss_mb"] = scale(browser.get("renderer_rss_after_load"))
    fig["renderer_rss_after_queries_mb"] = scale(browser.get("renderer_rss_after_queries"))
    return fig


def ratios(by_engine: dict) -> dict:
    out = {}
    for other in ("lunr", "pagefind"):
        row = {}
        for key, _, _ in FIGURES:
            a, b = by_engine["ours"]["figures"].get(key), by_engine[other]["figures"].get(key)
            row[key] = (a / b) if (a is not None and b not in (None, 0)) else None
        out[f"ours/{other}"] = row
    return out


def per_kind(queries: list[dict], answers: list[dict]) -> dict:
    kinds: dict[str, dict] = {}
    for query, answer in zip(queries, answers):
        entry = kinds.setdefault(query["kind"], {"ms": [], "with_hits": 0, "count": 0, "errors": 0})
        entry["count"] += 1
        entry["ms"].append(answer.get("ms"))
        entry["with_hits"] += 1 if (answer.get("total") or 0) > 0 else 0
        entry["errors"] += 1 if answer.get("error") else 0
    return {
        kind: {
            "count": v["count"],
            "with_hits": v["with_hits"],
            "errors": v["errors"],
            "p50_ms": percentile(v["ms"], 0.5),
            "max_ms": max((m for m in v["ms"] if m is not None), default=None),
        }
        for kind, v in kinds.items()
    }


def engine_args(query: dict) -> dict:
    args = {"query": query["query"], "limit": 20}
    args.update(query["filters"])
    return args


def bench_size(label: str, records, options, pool_source: str) -> dict:
    from server import BenchServer

    from browser import run_engine

    work = BENCH / "work" / label
    work.mkdir(parents=True, exist_ok=True)
    content = work / "content"
    log(f"{label}: writing {len(records)} records")
    sampled = len(records)
    records, dropped = corpus.write_content(records, content)
    if dropped:
        log(
            f"{label}: left out {len(dropped)} record(s) the build would reject after the Markdown round trip, e.g. {dropped[0]}"
        )
    toml = corpus.write_site_toml(content, work / "site.toml")
    jsonl = work / "records.jsonl"
    corpus.write_jsonl(records, jsonl)

    builds = {}
    log(f"{label}: building our site (measured subprocess; load average {os.getloadavg()[0]:.1f})")
    builds["ours-build"] = measure_build("ours-build", toml, work / "ours")
    log(f"{label}: building our index only (measured subprocess)")
    index_only = work / "ours-index-only"
    shutil.rmtree(index_only, ignore_errors=True)
    builds["ours-index"] = measure_build("ours-index", toml, index_only)
    shutil.rmtree(index_only, ignore_errors=True)
    log(f"{label}: building the Pagefind bundle (measured subprocess)")
    shutil.rmtree(work / "pagefind", ignore_errors=True)
    (work / "pagefind").mkdir(parents=True)
    builds["pagefind"] = measure_build("pagefind", jsonl, work / "pagefind" / "pagefind")
    for name, build in builds.items():
        log(f"{label}: {name} {build['wall_s']:.1f} s, peak {build['peak_mb']:.0f} MB")

    log(f"{label}: writing the one-file lunr index for lunr.js (measured subprocess)")
    sites = {"ours": work / "ours", "lunr": prepare_lunr(work, toml, builds), "pagefind": prepare_pagefind_page(work)}
    ours_layout = json.loads((work / "ours" / "data" / "manifest.json").read_text()).get("layout", "single")
    queries = make_queries(records, options.per_kind, seed=options.seed + 1)
    warmup = warmup_queries(records)
    for q in queries + warmup:
        q["args"] = engine_args(q)
    adversarial = adversarial_set(work / "ours")
    first = next(q for q in queries if q["kind"] == "plain")
    fragment = "#" + urlencode({"q": first["query"]})
    wants = {
        "ours": ["first_result", "engine_ready", "tool_search_government_knowledge", "agent_first_result"],
        "lunr": ["first_result", "ready"],
        "pagefind": ["first_result", "ready"],
    }
    by_engine = {}
    for engine in options.engines:
        server = BenchServer(sites[engine]).start()
        try:
            if engine == "ours":
                server.precompress("index.html", "data", "pyodide", "static")
            else:
                server.precompress(".")
            log(
                f"{label}: {engine}: {options.cold_runs} cold load(s), {len(queries)} queries (load average {os.getloadavg()[0]:.1f})"
            )
            load_before = os.getloadavg()
            result = run_engine(
                server,
                server.url + fragment,
                wants[engine],
                options.cold_runs,
                warmup,
                queries,
                CHOOSE_OURS_SEARCH if engine == "ours" else None,
                adversarial if engine == "ours" else None,
            )
        finally:
            server.stop()
        result["load_average_before"], result["load_average_after"] = load_before, os.getloadavg()
        fig = figures(engine, sites[engine], result, builds)
        by_engine[engine] = {"figures": fig, "per_kind": per_kind(queries, result["warm"]), "browser": result}
        log(
            f"{label}: {engine}: ready {fig['cold_ready_ms']:.0f} ms, first result {fig['cold_first_result_ms']:.0f} ms, "
            f"warm p50 {fig['warm_p50_ms']:.2f} ms p95 {fig['warm_p95_ms']:.2f} ms, {fig['first_search_mb']:.2f} MB, "
            f"renderer RSS {fig['renderer_rss_mb'] or 0:.0f} MB"
        )
    if "ours" in by_engine:
        import timeline

        runs = max(options.cold_runs, 1 if options.quick else 5)
        log(
            f"{label}: start-up timeline, {runs} cold run(s) alternating with the bare runtime (load average {os.getloadavg()[0]:.1f})"
        )
        by_engine["ours"]["startup"] = timeline.run(work / "ours", runs)
    worst = worst_case(work / "ours", queries, adversarial, by_engine.get("ours", {}).get("browser", {}))
    if worst:
        log(
            f"{label}: worst case: "
            + "; ".join(
                f"{where} slowest adversarial {w['adversarial_max_ms']:.0f} ms ({w['adversarial_max_label']}) "
                f"vs slowest normal {w['normal_max_ms']:.0f} ms = {w['ratio']:.2f}x"
                for where, w in worst.items()
            )
        )
    present = [e for e in ENGINES if e in by_engine]
    return {
        "worst_case": worst,
        "label": label,
        "records": len(records),
        "sampled": sampled,
        "dropped_by_build_checks": dropped,
        "corpus": pool_source,
        "first_query": first["query"],
        "ours_layout": ours_layout,
        "queries": [{k: q[k] for k in ("kind", "query", "filters")} for q in queries],
        "warmup_queries": [q["query"] for q in warmup],
        "builds": builds,
        "engines": by_engine,
        "ratios": ratios(by_engine) if present == list(ENGINES) else {},
    }


def adversarial_set(site: Path) -> list:
    """bench/adversarial.py's calls, made from the built site's own vocabulary and publishers."""
    sys.path.insert(0, str(ROOT / "python_pkg"))
    from adversarial import adversarial_calls

    from govsearch import Catalogue, DirectoryLoader

    return adversarial_calls(Catalogue.open(DirectoryLoader(site)))


def cpython_times(site: Path, calls: list[tuple[dict, bool]]) -> list[float]:
    """Each call's time in CPython, on a fresh catalogue warmed as the worker warms it (first pass, like the browser's)."""
    from govsearch import DirectoryLoader
    from govsearch.session import Session

    session = Session(DirectoryLoader(site))
    while session.warm():
        pass  # all the preparation the worker does while idle
    times = []
    for args, prefix_last in calls:
        started = time.perf_counter()
        session.answer_sync("search_government_knowledge", json.dumps(args), prefix_last)
        times.append((time.perf_counter() - started) * 1000)
    return times


def worst_case(site: Path, queries: list[dict], adversarial: list, browser: dict) -> dict:
    """The slowest adversarial call beside the normal queries' p50, p95 and slowest, in CPython and Chromium (same run)."""
    labels = [label for label, _, _ in adversarial]
    normal_cpython = cpython_times(site, [(q["args"], False) for q in queries])
    adversarial_cpython = cpython_times(site, [(args, prefix) for _, args, prefix in adversarial])
    measured = {"cpython": (normal_cpython, adversarial_cpython)}
    if browser.get("adversarial"):
        measured["chromium"] = ([q["ms"] for q in browser["warm"]], [a["ms"] for a in browser["adversarial"]])
    out = {}
    for where, (normal, hostile) in measured.items():
        slowest = max(range(len(hostile)), key=hostile.__getitem__)
        out[where] = {
            "normal_p50_ms": percentile(normal, 0.5),
            "normal_p95_ms": percentile(normal, 0.95),
            "normal_max_ms": max(normal),
            "adversarial_p50_ms": percentile(hostile, 0.5),
            "adversarial_max_ms": hostile[slowest],
            "adversarial_max_label": labels[slowest],
            "ratio": hostile[slowest] / max(normal),
            "adversarial_ms": dict(zip(labels, hostile)),
        }
    return out


def fmt(value, unit: str) -> str:
    if value is None:
        return "–"
    if unit == "n":
        return f"{value:.0f}"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def ratio_fmt(value) -> str:
    return "–" if value is None else f"{value:.2f}×"


def markdown(result: dict) -> str:
    m = result["machine"]
    lines = [
        f"# govsearch benchmark: {result['name']}",
        "",
        f"Run {result['started']} – {result['finished']} ({result['wall_s']:.0f} s) with `{result['command']}`.",
        f"Corpus: {result['corpus']['source']} (seed {result['seed']}); {result['queries_per_size']} timed queries per size "
        f"({result['per_kind']} each of {', '.join(result['query_kinds'])}), {result['cold_runs']} cold load(s) per engine (median).",
        "",
        f"Machine: {m['nproc']} CPUs ({m['cpu']}), {m['memory_gb']} GB RAM, {m['os']}; {m['chromium']} (headless); "
        f"Python {m['python']}; Node {m['node']}; " + ", ".join(f"{k} {v}" for k, v in m["versions"].items()) + ".",
        "",
        "Every figure below was measured in this run (see bench/README.md for how). Served from 127.0.0.1 with gzip, no network throttling: "
        "cold times show CPU and parsing cost, not download time; the byte counts show what a network would have to carry.",
        "",
    ]
    for size in result["sizes"]:
        lines.append(f"## {size['records']:,} records ({size['label']})")
        lines.append("")
        ours = size["engines"]["ours"].get("browser", {}).get("search_method")
        lines.append(
            f"First (cold) query: `{size['first_query']}`. Our data layout: {size.get('ours_layout')}; our warm queries went through: {ours}. "
            "lunr.js loads the one-file lunr index lunr.py writes (its build is the lunr.js column's index build)."
        )
        lines.append("")
        loads = ", ".join(
            f"{e} {size['engines'][e]['browser'].get('load_average_before', [0])[0]:.1f}→{size['engines'][e]['browser'].get('load_average_after', [0])[0]:.1f}"
            for e in ENGINES
            if e in size["engines"]
        )
        lines.append(
            f"1-minute load average during the browser runs (this machine has {result['machine']['nproc']} CPUs): {loads}."
        )
        lines.append("")
        lines.append("| figure | unit | ours | lunr.js | Pagefind | ours/lunr.js | ours/Pagefind |")
        lines.append("|---|---|--:|--:|--:|--:|--:|")
        for key, label, unit in FIGURES:
            values = [size["engines"].get(e, {}).get("figures", {}).get(key) for e in ENGINES]
            if all(v is None for v in values):
                continue
            r = size.get("ratios", {})
            lines.append(
                f"| {label} | {unit} | "
                + " | ".join(fmt(v, unit) for v in values)
                + " | "
                + ratio_fmt(r.get("ours/lunr", {}).get(key))
                + " | "
                + ratio_fmt(r.get("ours/pagefind", {}).get(key))
                + " |"
            )
        lines.append("")
        startup = size["engines"].get("ours", {}).get("startup")
        if startup:
            import timeline

            lines.append(
                f"Start-up timeline, ours ({startup['runs']} cold runs alternating with a bare-runtime page, then a second visit in a new tab; bench/timeline.py):"
            )
            lines.append("")
            lines.append(timeline.markdown({size["label"]: startup}))
        if size.get("worst_case"):
            lines.append(
                f"Worst case (bench/adversarial.py, {len(next(iter(size['worst_case'].values()))['adversarial_ms'])} calls from the site's own vocabulary and publishers) beside the normal queries, ours:"
            )
            lines.append("")
            lines.append(
                "| where | normal p50 ms | normal p95 ms | slowest normal ms | slowest adversarial ms | which | ratio |"
            )
            lines.append("|---|--:|--:|--:|--:|---|--:|")
            for where, w in size["worst_case"].items():
                lines.append(
                    f"| {where} | {fmt(w['normal_p50_ms'], 'ms')} | {fmt(w['normal_p95_ms'], 'ms')} | {fmt(w['normal_max_ms'], 'ms')} | "
                    f"{fmt(w['adversarial_max_ms'], 'ms')} | {w['adversarial_max_label']} | {w['ratio']:.2f}× |"
                )
            lines.append("")
        lines.append("Queries with at least one hit, by kind (ours / lunr.js / Pagefind):")
        lines.append("")
        lines.append("| kind | queries | ours | lunr.js | Pagefind | p50 ms ours | p50 ms lunr.js | p50 ms Pagefind |")
        lines.append("|---|--:|--:|--:|--:|--:|--:|--:|")
        kinds = size["engines"]["ours"]["per_kind"]
        for kind in kinds:
            cells = [size["engines"][e]["per_kind"][kind] for e in ENGINES if e in size["engines"]]
            lines.append(
                f"| {kind} | {kinds[kind]['count']} | "
                + " | ".join(str(c["with_hits"]) for c in cells)
                + " | "
                + " | ".join(fmt(c["p50_ms"], "ms") for c in cells)
                + " |"
            )
        lines.append("")
    lines.append("## Plots")
    lines.append("")
    for key in PLOTTED:
        lines.append(f"![{key}]({result['name']}-{key}.svg)")
    lines.append("")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--quick", action="store_true", help="1,000 records, 2 queries of each kind, one cold load: a smoke test"
    )
    parser.add_argument(
        "--sizes", default=None, help="comma-separated record counts and/or 'full' (default 1000,10000,full)"
    )
    parser.add_argument("--name", default=None, help="results name (default: quick or the date)")
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--per-kind", type=int, default=None, help="timed queries of each kind (default 12; quick 2)")
    parser.add_argument("--cold-runs", type=int, default=None, help="cold loads per engine (default 3; quick 1)")
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument(
        "--synthetic", action="store_true", help="use the generated corpus even when ../shared/data exists"
    )
    parser.add_argument("--out", default=str(BENCH / "results"))
    parser.add_argument("--render", metavar="NAME", help="only rewrite NAME.md and the plots from NAME.json")
    options = parser.parse_args(argv)
    if options.render:
        render(json.loads((Path(options.out) / f"{options.render}.json").read_text("utf-8")), Path(options.out))
        return 0
    options.sizes = options.sizes or ("1000" if options.quick else "1000,10000,full")
    options.per_kind = options.per_kind or (2 if options.quick else 12)
    options.cold_runs = options.cold_runs or (1 if options.quick else 3)
    options.engines = [e for e in options.engines.split(",") if e]
    options.name = options.name or ("quick" if options.quick else dt.date.today().isoformat())
    return 0 if run(options) else 1


def run(options) -> dict:
    started = time.time()
    out = Path(options.out)
    out.mkdir(parents=True, exist_ok=True)
    log("loading the corpus pool")
    pool = corpus.load_pool(prefer_real=not options.synthetic)
    log(f"pool: {len(pool.records)} records ({pool.source})")
    sizes = []
    for label in options.sizes.split(","):
        label = label.strip()
        count = None if label == "full" else int(label)
        records = corpus.sample(pool, count, options.seed)
        if count is not None and count > len(records):
            log(f"skipping {label}: the pool has only {len(records)} records")
            continue
        sizes.append(bench_size(label, records, options, pool.source))
        write_results(out, options, started, pool, sizes)  # after every size, so a late failure keeps the rest
    return write_results(out, options, started, pool, sizes, final=True)


def render(result: dict, out: Path) -> None:
    """The Markdown table and the SVG plots, from a result (also: run.py --render NAME)."""
    name = result["name"]
    (out / f"{name}.md").write_text(markdown(result), "utf-8")
    for key in PLOTTED:
        label = next(shown for k, shown, _ in FIGURES if k == key)
        unit = next(u for k, _, u in FIGURES if k == key)
        series = {
            ENGINE_TITLES[e]: [
                (s["records"], s["engines"][e]["figures"].get(key)) for s in result["sizes"] if e in s["engines"]
            ]
            for e in ENGINES
        }
        (out / f"{name}-{key}.svg").write_text(plots.line_chart(f"{label} ({unit})", series), "utf-8")


def write_results(out: Path, options, started: float, pool, sizes: list[dict], final: bool = False) -> dict:
    result = {
        "name": options.name,
        "command": " ".join([".venv/bin/python", "bench/run.py", *sys.argv[1:]])
        if sys.argv[0].endswith("run.py")
        else "bench/smoke.py run_quick",
        "started": dt.datetime.fromtimestamp(started).isoformat(timespec="seconds"),
        "finished": dt.datetime.now().isoformat(timespec="seconds"),
        "wall_s": time.time() - started,
        "seed": options.seed,
        "quick": options.quick,
        "per_kind": options.per_kind,
        "query_kinds": ["plain", "multi", "filtered", "nohit", "typo"],
        "queries_per_size": options.per_kind * 5,
        "cold_runs": options.cold_runs,
        "machine": machine(),
        "corpus": {"source": pool.source, "pool_records": len(pool.records), **pool.detail},
        "figure_units": {key: unit for key, _, unit in FIGURES},
        "sizes": sizes,
    }
    (out / f"{options.name}.json").write_text(json.dumps(result, indent=1, default=str) + "\n", "utf-8")
    render(result, out)
    if final:
        log(f"wrote {out / options.name}.json, .md and {len(PLOTTED)} plots in {time.time() - started:.0f} s")
    return result


if __name__ == "__main__":
    sys.exit(main())
