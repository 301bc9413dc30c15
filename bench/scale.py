#!/usr/bin/env python3
"""Issue 18 item 4: the site built and searched at estates far larger than ours.

    .venv/bin/python bench/scale.py [--sizes 100000,300000] [--estate DIR] [--name NAME]

For each size, bench/simulate_estate.py writes that many records shaped like
the full estate (learnt at run time from a full-estate build, made first when
--estate does not hold one) as the Markdown the build reads; the real build
(`build.py --keep-going`, the publishing path: validate -> data files ->
pages) runs under `/usr/bin/time -v` for wall time and peak memory; the tree
is measured against GitHub Pages' limits (govsearch_build/pages_limits.py);
then the site is served and loaded in Chromium as `make bench` does
(bench/browser.py): bytes to the first answer and warm query p50/p95.
Writes bench/results/NAME.json and NAME.md; work goes to bench/work/scale/.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))

import run as bench_run  # noqa: E402
import simulate_estate as simulate  # noqa: E402
from queries import make_queries, warmup_queries  # noqa: E402

from govsearch_build.pages_limits import FILE_BYTES, FILE_COUNT, SITE_BYTES, measure  # noqa: E402

MB = 1e6
QUERY_SAMPLE = 20_000  # records the queries are drawn from (a seeded sample: the words of all 300,000 are not needed)
TARGETS = {"build_peak_mb": 4000, "first_answer_beyond_runtime_mb": 1.0, "warm_p95_ms": 60}


def log(message: str) -> None:
    print(f"[scale {time.strftime('%H:%M:%S')}] {message}", flush=True)


def full_estate(estate: Path, sources: str | None = None) -> Path:
    """A built full estate to learn from: `estate` if it holds one, else built there now (from `sources` when given)."""
    if (estate / "data" / "manifest.json").exists():
        return estate
    log(f"building the full estate into {estate} to learn from (about 90 s)")
    subprocess.run(
        [
            sys.executable,
            "build.py",
            "--config",
            "site/full-estate.toml",
            "--out",
            str(estate),
            "--keep-going",
            *(["--sources", sources] if sources else []),
        ],
        cwd=ROOT,
        check=True,
    )
    return estate


def generate(
    model: simulate.Model, count: int, work: Path, seed: int, title_kept: float | None = None
) -> tuple[dict, list]:
    """Write `count` simulated records and the site.toml over them; returns (detail, a seeded sample for the queries)."""
    shutil.rmtree(work, ignore_errors=True)
    simulator = simulate.Simulator(model, seed, title_kept)
    keep = set(random.Random(seed + 1).sample(range(count), min(count, QUERY_SAMPLE)))
    sample = []

    def kept(records):
        for number, record in enumerate(records):
            if number in keep:
                sample.append(record)
            yield record

    started = time.perf_counter()
    written = simulate.write_markdown(kept(simulator.records(count)), work / "content")
    simulate.site_config(work / "content", work / "site.toml")
    return {"records": written, "new_words": simulator.new_words, "generate_s": time.perf_counter() - started}, sample


def timed_build(config: Path, out: Path) -> dict:
    """The real build under /usr/bin/time -v, its memory sampled each second to find which step grows.

    A tree that crosses a Pages limit is still complete: the check runs last."""
    shutil.rmtree(out, ignore_errors=True)
    started = time.monotonic()
    process = subprocess.Popen(
        ["/usr/bin/time", "-v", sys.executable, "build.py", "--config", str(config), "--out", str(out), "--keep-going"],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    samples: list[tuple[float, int]] = []
    sampler = threading.Thread(target=_sample_rss, args=(process, started, samples), daemon=True)
    sampler.start()
    lines = [(time.monotonic() - started, line) for line in process.stderr]
    process.wait()
    sampler.join()
    err = "".join(line for _, line in lines)
    stat = lambda label: re.search(rf"^\s*{re.escape(label)}: (.+)$", err, re.M)  # noqa: E731
    wall = stat("Elapsed (wall clock) time (h:mm:ss or m:ss)").group(1)
    seconds = sum(float(part) * 60**power for power, part in enumerate(reversed(wall.split(":"))))
    over_limit = "cannot be published on GitHub Pages" in err
    if process.returncode != 0 and not over_limit:
        raise RuntimeError(f"build failed:\n{err[-3000:]}")
    rejected = re.search(r"; (\d+) rejected", err)
    return {
        "wall_s": seconds,
        "peak_rss_mb": int(stat("Maximum resident set size (kbytes)").group(1)) * 1024 / MB,
        "user_s": float(stat("User time (seconds)").group(1)),
        "system_s": float(stat("System time (seconds)").group(1)),
        "exit_code": process.returncode,
        "pages_limit_message": _limit_message(err) if over_limit else None,
        "steps": _steps(lines, samples),
        "rejected": int(rejected.group(1)) if rejected else None,
        "rss_samples_mb": [(t, round(rss / MB)) for t, rss in samples[::5]],
    }


def _sample_rss(process: subprocess.Popen, started: float, samples: list) -> None:
    while process.poll() is None:
        samples.append((round(time.monotonic() - started, 1), _tree_rss(process.pid)))
        time.sleep(1)


def _tree_rss(pid: int) -> int:
    """Resident bytes of a process and all its descendants (the build under time, and sass under the build)."""
    total = 0
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        total += int(re.search(r"^VmRSS:\s+(\d+)", status, re.M).group(1)) * 1024 if "VmRSS" in status else 0
        for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
            total += _tree_rss(int(child))
    except (OSError, AttributeError):
        pass
    return total


def _steps(lines: list[tuple[float, str]], samples: list[tuple[float, int]]) -> list[dict]:
    """Each build step ("  Indexing N records: 12.3 s", printed when it ends) with the peak memory sampled during it."""
    steps = []
    for at, line in lines:
        found = re.match(r"^\s+([A-Z][^:\n]+): ([0-9.]+) s$", line)
        if not found:
            continue
        during = [rss for t, rss in samples if at - float(found.group(2)) - 1 <= t <= at]
        steps.append(
            {"step": found.group(1), "s": float(found.group(2)), "peak_rss_mb": round(max(during, default=0) / MB)}
        )
    return steps


def _limit_message(err: str) -> str:
    found = re.search(r"cannot be published on GitHub Pages: (.+)", err)
    return " ".join(found.group(1).split()) if found else ""


def published(site: Path) -> dict:
    """The tree against Pages' limits, and where its bytes and files are."""
    size, _links = measure(site)
    parts = {}
    for part in ("records", "data", "pyodide", "static", "publishers"):
        files = [p for p in (site / part).rglob("*") if p.is_file()] if (site / part).exists() else []
        parts[part] = {"files": len(files), "mb": sum(p.stat().st_size for p in files) / MB}
    return {
        "archive_mb": size.archive / MB,
        "files_mb": size.bytes / MB,
        "files": size.files,
        "largest_mb": size.largest / MB,
        "largest_path": size.largest_path,
        "limit_site_mb": SITE_BYTES / MB,
        "limit_file_mb": FILE_BYTES / MB,
        "limit_files": FILE_COUNT,
        "within_site_limit": size.archive <= SITE_BYTES,
        "within_file_count": size.files <= FILE_COUNT,
        "by_folder": parts,
    }


def browse(site: Path, sample: list, options) -> dict:
    """Cold loads and warm queries in Chromium, as `make bench` measures ours."""
    from server import BenchServer

    from browser import run_engine

    queries = make_queries(sample, options.per_kind, seed=options.seed + 1)
    warmup = warmup_queries(sample)
    for query in queries + warmup:
        query["args"] = bench_run.engine_args(query)
    first = next(q for q in queries if q["kind"] == "plain")
    server = BenchServer(site).start()
    try:
        server.precompress("index.html", "data", "pyodide", "static")
        load = os.getloadavg()
        result = run_engine(
            server,
            server.url + "#" + urlencode({"q": first["query"]}),
            ["first_result", "engine_ready", "tool_search_government_knowledge", "agent_first_result"],
            options.cold_runs,
            warmup,
            queries,
            bench_run.CHOOSE_OURS_SEARCH,
        )
    finally:
        server.stop()
    return {
        "queries": [{k: q[k] for k in ("kind", "query", "filters")} for q in queries],
        "first_query": first["query"],
        "load_average_before": load,
        "load_average_after": os.getloadavg(),
        "browser": result,
        "figures": browser_figures(result),
    }


def browser_figures(result: dict) -> dict:
    runs = result["cold_runs"]
    cats = [bench_run.bytes_by_category("ours", run["requests"]) for run in runs]
    warm = [q["ms"] for q in result["warm"]]
    repeat = [q["ms"] for q in result["repeat"]]
    first_data = [
        [(e["path"], e["sent"]) for e in run["requests"] if bench_run.category("ours", e["path"]) in ("data", "engine")]
        for run in runs
    ]
    return {
        "cold_ready_ms": bench_run.median([r["marks"].get("engine_ready") for r in runs]),
        "cold_agent_first_result_ms": bench_run.median([r["marks"].get("agent_first_result") for r in runs]),
        "cold_first_result_ms": bench_run.median([r["marks"].get("first_result") for r in runs]),
        "first_answer_all_mb": bench_run.median([sum(c.values()) for c in cats]) / MB,
        "first_answer_beyond_runtime_mb": bench_run.median([sum(c.values()) - c["runtime"] for c in cats]) / MB,
        "first_answer_data_mb": bench_run.median([c["data"] for c in cats]) / MB,
        "first_answer_engine_mb": bench_run.median([c["engine"] for c in cats]) / MB,
        "first_answer_requests": bench_run.median([len(r["requests"]) for r in runs]),
        "first_answer_worker_files": first_data[-1],
        "warm_p50_ms": bench_run.percentile(warm, 0.5),
        "warm_p95_ms": bench_run.percentile(warm, 0.95),
        "repeat_p50_ms": bench_run.percentile(repeat, 0.5),
        "repeat_p95_ms": bench_run.percentile(repeat, 0.95),
        "warm_mb": sum(e["sent"] for e in result["warm_requests"]) / MB,
        "warm_with_hits": sum(1 for q in result["warm"] if (q.get("total") or 0) > 0),
        "warm_errors": sum(1 for q in result["warm"] if q.get("error")),
        "renderer_rss_mb": (result.get("renderer_rss_after_queries") or 0) / MB or None,
    }


def index_only(
    model: simulate.Model, count: int, seed: int, work: Path, keep: bool = False, title_kept: float | None = None
) -> dict:
    """The build's indexing step alone (write_data) over records generated in memory, in this process:
    its memory without the hours of Markdown reading. Run in a fresh process (--index-only) so VmHWM is its own.
    With `keep`, the data stays in work/data for bench/data_bytes.py to read (`data_bytes.py WORK`)."""
    from govsearch_build.config import load_config
    from govsearch_build.data_writer import write_data

    peak = lambda: int(re.search(r"VmHWM:\s+(\d+)", Path("/proc/self/status").read_text()).group(1)) * 1024 / MB  # noqa: E731
    records = list(simulate.Simulator(model, seed, title_kept).records(count))
    held = peak()
    shutil.rmtree(work, ignore_errors=True)
    config = load_config(simulate.site_config(work / "content", _made(work) / "site.toml"))
    started = time.perf_counter()
    write_data(config, records, work / "data")
    result = {
        "records": count,
        "records_held_peak_mb": held,
        "write_data_s": time.perf_counter() - started,
        "peak_mb": peak(),
    }
    if keep:
        result["data"] = str(work / "data")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return result


def _made(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def machine() -> dict:
    """bench/run.py's machine record, with the load and free memory when the run starts."""
    info = bench_run.machine()
    meminfo = dict(line.split(":", 1) for line in Path("/proc/meminfo").read_text().splitlines())
    info["mem_available_gb_at_start"] = round(int(meminfo["MemAvailable"].split()[0]) / 1024 / 1024, 1)
    info["uptime_at_start"] = bench_run.command_output("uptime")
    return info


def run_size(count: int, model: simulate.Model, options) -> dict:
    work = BENCH / "work" / "scale" / str(count)
    log(f"{count:,}: generating records (load {os.getloadavg()[0]:.1f})")
    detail, sample = generate(model, count, work, options.seed, options.title_kept)
    log(
        f"{count:,}: {detail['records']:,} records written in {detail['generate_s']:.0f} s ({detail['new_words']:,} new words); building"
    )
    build = timed_build(work / "site.toml", work / "site")
    log(f"{count:,}: built in {build['wall_s']:.0f} s, peak RSS {build['peak_rss_mb']:,.0f} MB; measuring the tree")
    size = published(work / "site")
    log(f"{count:,}: {size['archive_mb']:,.0f} MB as an archive, {size['files']:,} files; Chromium")
    browser = browse(work / "site", sample, options) if not options.no_browser else None
    if browser:
        f = browser["figures"]
        log(
            f"{count:,}: first answer {f['cold_agent_first_result_ms']:.0f} ms, {f['first_answer_beyond_runtime_mb']:.2f} MB beyond the runtime; "
            f"warm p50 {f['warm_p50_ms']:.1f} ms p95 {f['warm_p95_ms']:.1f} ms"
        )
    shutil.rmtree(
        work / "content", ignore_errors=True
    )  # the site is kept until the next run; the Markdown is not needed
    return {"records": count, "generated": detail, "build": build, "published": size, "chromium": browser}


def markdown(result: dict) -> str:
    m = result["machine"]
    sizes = sorted(result["sizes"], key=lambda s: s["records"])
    lines = [
        f"# govsearch at scale: {result['name']}",
        "",
        f"Run {result['started']} – {result['finished']} with `{result['command']}`. Simulated records (bench/simulate_estate.py, seed {result['seed']}) "
        f"learnt from the full estate ({result['model']['learnt_from_records']:,} records; Heaps' law V = {result['model']['heaps_k']} n^{result['model']['heaps_b']}).",
        "",
        f"Machine: {m['nproc']} CPUs ({m['cpu']}), {m['memory_gb']} GB RAM, {m['mem_available_gb_at_start']} GB available at the start; "
        f"`uptime` at the start: {m['uptime_at_start']}; {m['chromium']}. Shared with other sessions: times vary with load.",
        "",
        "| figure | target at 300,000 | " + " | ".join(f"{s['records']:,}" for s in sizes) + " |",
        "|---|--:|" + "--:|" * len(sizes),
    ]
    rows = [
        ("Build wall time (s)", None, lambda s: s["build"]["wall_s"]),
        ("Build peak RSS (MB, /usr/bin/time -v)", TARGETS["build_peak_mb"], lambda s: s["build"]["peak_rss_mb"]),
        ("... reading records (s)", None, lambda s: _step(s, "Reading", "s")),
        ("... indexing (s)", None, lambda s: _step(s, "Indexing", "s")),
        ("... rendering pages (s)", None, lambda s: _step(s, "Rendering", "s")),
        (
            "Peak RSS while reading records (MB, sampled each second)",
            None,
            lambda s: _step(s, "Reading", "peak_rss_mb"),
        ),
        ("Peak RSS while indexing (MB, sampled)", None, lambda s: _step(s, "Indexing", "peak_rss_mb")),
        ("Peak RSS while rendering pages (MB, sampled)", None, lambda s: _step(s, "Rendering", "peak_rss_mb")),
        (
            "Published size as the Pages archive (MB; limit 1,000)",
            SITE_BYTES / MB,
            lambda s: s["published"]["archive_mb"],
        ),
        ("Files (project bound 200,000)", None, lambda s: s["published"]["files"]),
        ("Record pages (MB)", None, lambda s: s["published"]["by_folder"]["records"]["mb"]),
        ("Search data (MB)", None, lambda s: s["published"]["by_folder"]["data"]["mb"]),
        (
            "Bytes to first answer beyond the runtime (MB)",
            TARGETS["first_answer_beyond_runtime_mb"],
            lambda s: _fig(s, "first_answer_beyond_runtime_mb"),
        ),
        ("... of which data files (MB)", None, lambda s: _fig(s, "first_answer_data_mb")),
        ("Cold first WebMCP answer (ms)", None, lambda s: _fig(s, "cold_agent_first_result_ms")),
        ("Warm query p50 (ms)", None, lambda s: _fig(s, "warm_p50_ms")),
        ("Warm query p95 (ms)", TARGETS["warm_p95_ms"], lambda s: _fig(s, "warm_p95_ms")),
        ("Bytes fetched during warm queries (MB)", None, lambda s: _fig(s, "warm_mb")),
    ]
    for label, target, get in rows:
        lines.append(
            f"| {label} | {bench_run.fmt(target, '') if target else ''} | "
            + " | ".join(bench_run.fmt(get(s), "") for s in sizes)
            + " |"
        )
    lines.append("")
    for size in sizes:
        message = size["build"]["pages_limit_message"]
        if message:
            lines += [f"At {size['records']:,} records the build's Pages check refused the tree: {message}", ""]
    if result.get("extrapolated"):
        lines += extrapolation_table(result["extrapolated"])
    if result.get("notes"):
        lines += [result["notes"], ""]
    return "\n".join(lines)


# What is projected to sizes not built: (label, figure of a measured size).
PROJECTED = [
    ("Build wall time (s)", lambda s: s["build"]["wall_s"]),
    ("Build peak RSS (MB)", lambda s: s["build"]["peak_rss_mb"]),
    ("Reading records step (s)", lambda s: _step(s, "Reading", "s")),
    ("Indexing step (s)", lambda s: _step(s, "Indexing", "s")),
    ("Indexing step peak RSS (MB)", lambda s: _step(s, "Indexing", "peak_rss_mb")),
    ("Rendering pages step (s)", lambda s: _step(s, "Rendering", "s")),
    ("Rendering pages step peak RSS (MB)", lambda s: _step(s, "Rendering", "peak_rss_mb")),
    ("Published size as the Pages archive (MB)", lambda s: s["published"]["archive_mb"]),
    ("Files", lambda s: s["published"]["files"]),
    ("Search data (MB)", lambda s: s["published"]["by_folder"]["data"]["mb"]),
    ("Bytes to first answer beyond the runtime (MB)", lambda s: _fig(s, "first_answer_beyond_runtime_mb")),
    ("... of which data files (MB)", lambda s: _fig(s, "first_answer_data_mb")),
]


def extrapolate(sizes: list[dict], targets: list[int]) -> dict:
    """Each figure as y = a + b N through the two largest measured sizes, at each target size.

    Linear because what grows is per record (a page, postings, a facet code,
    a shard hash) on top of a fixed part (runtime, wheels, interpreter); a
    power law through two points would bend the fixed part into the growth
    and under-project. Two points say nothing about curvature: this is the
    measured trend carried on, not a measurement. Query times are not
    projected: measured on a shared CPU they mostly show its load."""
    small, large = sorted(sizes, key=lambda s: s["records"])[-2:]
    out = {"from": [small["records"], large["records"]], "model": "linear", "figures": {}}
    for label, get in PROJECTED:
        a, b = get(small), get(large)
        if a is None or b is None:
            continue
        per_record = (b - a) / (large["records"] - small["records"])
        out["figures"][label] = {
            "per_record": per_record,
            **{str(n): b + per_record * (n - large["records"]) for n in targets},
        }
    return out


def extrapolation_table(projection: dict) -> list[str]:
    targets = [key for key in next(iter(projection["figures"].values())) if key != "per_record"]
    lines = [
        f"Projected from the measured {projection['from'][0]:,} and {projection['from'][1]:,} records (a + b N through the two; not measured):",
        "",
        "| figure | per 1,000 records | " + " | ".join(f"{int(n):,}" for n in targets) + " |",
        "|---|--:|" + "--:|" * len(targets),
    ]
    for label, row in projection["figures"].items():
        lines.append(
            f"| {label} | {bench_run.fmt(row['per_record'] * 1000, '')} | "
            + " | ".join(bench_run.fmt(row[n], "") for n in targets)
            + " |"
        )
    return lines + [""]


def _step(size: dict, name: str, key: str):
    return next((step[key] for step in size["build"].get("steps", []) if step["step"].startswith(name)), None)


def _fig(size: dict, key: str):
    return size["chromium"]["figures"][key] if size.get("chromium") else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100000,300000")
    parser.add_argument(
        "--estate", default="/tmp/govsearch-full-estate", help="a built full estate, or where to build one"
    )
    parser.add_argument(
        "--sources", help="where the full estate's exports are (build.py --sources), when it must be built"
    )
    parser.add_argument("--name", default=f"scale-{dt.date.today().isoformat()}")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--per-kind", type=int, default=12)
    parser.add_argument("--cold-runs", type=int, default=3)
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--out", default=str(BENCH / "results"))
    parser.add_argument(
        "--extrapolate", default="300000,1000000", help="sizes to project to from the two largest measured"
    )
    parser.add_argument(
        "--index-only",
        type=int,
        metavar="N",
        help="only the indexing step's memory and time for N records made in memory (prints JSON)",
    )
    parser.add_argument(
        "--keep", action="store_true", help="with --index-only: keep the data files (bench/data_bytes.py reads them)"
    )
    parser.add_argument("--render", metavar="NAME", help="only rewrite NAME.md (and the projection) from NAME.json")
    parser.add_argument(
        "--merge", metavar="NAMES", help="combine results NAME1,NAME2,... (sizes run side by side) into --name"
    )
    parser.add_argument(
        "--title-kept",
        type=float,
        metavar="P",
        help="titles in series: each word of a real title kept with probability P (Simulator.series_title); default word by word",
    )
    parser.add_argument("--notes", metavar="FILE", help="with --merge or --render: Markdown added under the tables")
    options = parser.parse_args(argv)
    targets = [int(n) for n in options.extrapolate.split(",") if n]
    if options.index_only:
        model = simulate.learn(simulate.read_estate(full_estate(Path(options.estate), options.sources)))
        print(
            json.dumps(
                index_only(
                    model,
                    options.index_only,
                    options.seed,
                    BENCH / "work" / "scale" / f"index-{options.index_only}",
                    options.keep,
                    options.title_kept,
                )
            )
        )
        return 0
    if options.merge or options.render:
        out = Path(options.out)
        result = merged(out, options.merge.split(","), options.name) if options.merge else None
        result = result or json.loads((out / f"{options.render}.json").read_text("utf-8"))
        if options.notes:
            result["notes"] = Path(options.notes).read_text("utf-8").strip()
        _finish(result, targets, out)
        return 0
    started = time.time()
    result = {
        "name": options.name,
        "command": " ".join(["bench/scale.py", *(argv if argv is not None else sys.argv[1:])]),
        "started": dt.datetime.now().isoformat(timespec="seconds"),
        "seed": options.seed,
        "machine": machine(),
        "sizes": [],
    }
    model = simulate.learn(simulate.read_estate(full_estate(Path(options.estate), options.sources)))
    result["model"] = model.summary()
    out = Path(options.out)
    out.mkdir(parents=True, exist_ok=True)
    for count in (int(size) for size in options.sizes.split(",")):
        result["sizes"].append(run_size(count, model, options))
        result["finished"] = dt.datetime.now().isoformat(timespec="seconds")
        result["wall_s"] = time.time() - started
        _finish(result, targets, out)
    return 0


def merged(folder: Path, names: list[str], name: str) -> dict:
    """One result from several runs made side by side (each slowed the others: their times say so)."""
    runs = [json.loads((folder / f"{run}.json").read_text("utf-8")) for run in names]
    result = dict(runs[0], name=name)
    result["command"] = "; ".join(run["command"] for run in runs) + " (run side by side, merged)"
    result["started"] = min(run["started"] for run in runs)
    result["finished"] = max(run.get("finished", run["started"]) for run in runs)
    result["sizes"] = sorted((size for run in runs for size in run["sizes"]), key=lambda size: size["records"])
    return result


def _finish(result: dict, targets: list[int], out: Path) -> None:
    """Project past the measured sizes (when two are measured) and write NAME.json and NAME.md."""
    result.pop("extrapolated", None)
    measured = {s["records"] for s in result["sizes"]}
    wanted = [n for n in targets if n not in measured]
    if len(measured) >= 2 and wanted:
        result["extrapolated"] = extrapolate(result["sizes"], wanted)
    (out / f"{result['name']}.json").write_text(json.dumps(result, indent=1, default=str) + "\n", "utf-8")
    (out / f"{result['name']}.md").write_text(markdown(result), "utf-8")


if __name__ == "__main__":
    sys.exit(main())
