"""A warm query's work in CPython as the browser's worker does it: in rounds.

    .venv/bin/python bench/rounds_cpu.py SITE --results bench/results/NAME.json [--code DIR] [--passes N]

The worker asks a call (Session.attempt) and, while the call names data files
it lacks, downloads them and asks again, so a call's Python runs once per
round. This replays that on a built site's data folder with no browser:
after the session's idle preparation and read-ahead, the warm-up queries,
then the timed queries of a `make bench` results file (the full size, at the
bench's limit of 20), each once. Per query it reports the rounds, the files
fetched and the CPU time of all its attempts (CPU time: the machine is
shared, and CPU time is what load disturbs least); with `--passes N` each
query's least of N fresh runs. `--code DIR` measures another checkout's
python_pkg (an older runtime) on the same site. Everything runs in one
process per pass, as the worker does, so caches between calls count.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
LIMIT = 20  # the bench's warm queries ask for the largest limit


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("site", help="a built site (its data folder is read)")
    parser.add_argument("--results", required=True, help="a bench/run.py results file (its full size's queries)")
    parser.add_argument("--code", default=str(BENCH.parent), help="the checkout whose python_pkg answers")
    parser.add_argument("--passes", type=int, default=1, help="fresh runs; each query's least CPU time is kept")
    parser.add_argument("--one-pass", action="store_true", help=argparse.SUPPRESS)  # a pass, in its own process
    options = parser.parse_args()
    if options.one_pass:
        print(json.dumps(one_pass(Path(options.site), Path(options.results), Path(options.code))))
        return 0
    passes = [_pass_in_process(options) for _ in range(options.passes)]
    report(passes)
    return 0


def _pass_in_process(options: argparse.Namespace) -> list[dict[str, Any]]:
    """One pass in a fresh interpreter: the code under test is imported from `--code`."""
    command = [sys.executable, __file__, options.site, "--results", options.results, "--code", options.code]
    done = subprocess.run([*command, "--one-pass"], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def one_pass(site: Path, results: Path, code: Path) -> list[dict[str, Any]]:
    """Every timed query's rounds, files and CPU milliseconds, after the warm-up."""
    sys.path.insert(0, str(code / "python_pkg"))
    from govsearch.session import Session

    size = next(size for size in json.loads(results.read_text("utf-8"))["sizes"] if size["label"] == "full")
    loader = _DeferringLoader(site / "data")
    session = Session(loader)
    _prepare(session, loader)
    for query in size["warmup_queries"]:
        _call(session, loader, {"query": query, "limit": LIMIT})
    return [
        {"kind": query["kind"], "query": query["query"], **_call(session, loader, _arguments(query))}
        for query in size["queries"]
    ]


def _arguments(query: dict[str, Any]) -> dict[str, Any]:
    return {"query": query["query"], "limit": LIMIT, **query["filters"]}


class _DeferringLoader:
    """The worker's loader on disk: a file not downloaded yet is named (MissingFiles), not read."""

    def __init__(self, data: Path):
        self.data = data
        self.deferring = False
        self.downloaded = {path.name for path in data.glob("*.json")}  # what the worker fetches at start

    def read(self, name: str) -> bytes:
        from govsearch.loaders import MissingFiles

        if self.deferring and name not in self.downloaded:
            raise MissingFiles([name])
        return (self.data / name).read_bytes()


def _prepare(session: Any, loader: _DeferringLoader) -> None:
    """What the worker does while nobody waits: the preparations, then reading ahead."""
    while more := session.warm():
        if isinstance(more, list):
            loader.downloaded.update(more)
    loader.downloaded.update(session.later_files())
    while session.read_ahead():
        pass


def _call(session: Any, loader: _DeferringLoader, arguments: dict[str, Any]) -> dict[str, Any]:
    """Ask the call until it answers; its rounds, files and CPU time (all attempts)."""
    text, rounds, files, cpu = json.dumps(arguments), 0, 0, 0.0
    while True:
        started = time.process_time()
        answer = session.attempt("search_government_knowledge", text)
        cpu += time.process_time() - started
        if isinstance(answer, str):
            return {"rounds": rounds, "files": files, "cpu_ms": cpu * 1000}
        rounds, files = rounds + 1, files + len(answer)
        loader.downloaded.update(answer)


def report(passes: list[list[dict[str, Any]]]) -> None:
    """Per kind and over all queries: median and p95 of each query's least CPU time; rounds and files."""
    first = passes[0]
    least = [min(run[at]["cpu_ms"] for run in passes) for at in range(len(first))]
    by_kind: dict[str, list[float]] = {}
    for query, ms in zip(first, least):
        by_kind.setdefault(query["kind"], []).append(ms)
    for kind, values in [*by_kind.items(), ("all", least)]:
        print(f"{kind:9} median {statistics.median(values):6.2f} ms  p95 {_p95(values):6.2f} ms")
    print(f"rounds {sum(q['rounds'] for q in first)}, files {sum(q['files'] for q in first)}, queries {len(first)}")


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


if __name__ == "__main__":
    sys.exit(main())
