"""Bytes of data files the first answer and later queries read, in CPython.

A quick, load-independent stand-in for the Chromium benchmark's byte count
(bench/scale.py, bench/run.py), for any built site or data-only build: the
worker first downloads manifest.json and every file the manifest lists
(`files`), then what each call asks for. Each file is counted once, as the
gzip (level 6) the bench server sends. The queries are bench/queries.py's,
drawn from the site's own stored records.

    .venv/bin/python bench/data_bytes.py SITE [--per-kind 12]

Prints JSON: the start files, the first answer (the first "plain" query, as
the page's `#q=` search asks it), the same for every plain query from a fresh
start (median and largest), and the bytes read by the warm queries that
follow in one session.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import statistics
import sys
from pathlib import Path
from types import SimpleNamespace

BENCH = Path(__file__).resolve().parent
# GOVSEARCH_PKG: another checkout's package, to measure a site built by it (before and after a change)
sys.path[:0] = [str(BENCH), os.environ.get("GOVSEARCH_PKG", str(BENCH.parent / "python_pkg"))]

from queries import make_queries, warmup_queries  # noqa: E402

from govsearch.catalogue import Catalogue  # noqa: E402
from govsearch.loaders import DirectoryLoader  # noqa: E402

SEARCH = "search_government_knowledge"
LIMIT = 20  # as bench/run.py's engine_args asks (not imported: its corpus module imports this checkout's package)
SAMPLE_FILES = 400  # record files read to draw queries from


class CountingLoader(DirectoryLoader):
    """Reads from disk and remembers each file's gzip size, once per file."""

    def __init__(self, site: Path):
        super().__init__(site)
        self.sizes: dict[str, int] = {}

    def read(self, name: str) -> bytes:
        data = super().read(name)
        if name not in self.sizes:
            self.sizes[name] = len(gzip.compress(data, compresslevel=6, mtime=0))
        return data

    def total(self) -> int:
        return sum(self.sizes.values())


def sample_records(site: Path, seed: int) -> list[SimpleNamespace]:
    """Stored records (as bench/queries.py reads them) from a sample of the record files."""
    data = site / "data"
    files = sorted((data / "records").glob("*.json")) or sorted(data.glob("records.*.json"))
    files = random.Random(seed).sample(files, min(SAMPLE_FILES, len(files)))
    stored = [record for path in files for record in json.loads(path.read_text("utf-8"))["records"]]
    return [SimpleNamespace(data=record, body=record.get("body", "")) for record in stored]


def started(site: Path) -> tuple[CountingLoader, Catalogue]:
    """A catalogue opened after the worker's start-up downloads."""
    loader = CountingLoader(site)
    manifest = json.loads(loader.read("manifest.json"))
    for entry in manifest["files"].values():
        loader.read(entry["path"])
    return loader, Catalogue.open(loader)


def first_answer(site: Path, query: dict) -> dict:
    loader, catalogue = started(site)
    start = loader.total()
    answer = catalogue.call(SEARCH, engine_args(query))
    return {
        "query": query["query"],
        "total": answer.get("total"),
        "start_bytes": start,
        "query_bytes": loader.total() - start,
        "bytes": loader.total(),
        "files": len(loader.sizes),
        "by_folder": _by_folder(loader.sizes),
    }


def _by_folder(sizes: dict[str, int]) -> dict[str, int]:
    folders: dict[str, int] = {}
    for name, size in sizes.items():
        folder = name.rsplit("/", 1)[0] if "/" in name else name.split(".", 1)[0]
        folders[folder] = folders.get(folder, 0) + size
    return folders


def warm(site: Path, queries: list[dict], warmup: list[dict]) -> dict:
    """One session: the warm-up queries, then the measured ones (as the bench asks them)."""
    loader, catalogue = started(site)
    for query in warmup:
        catalogue.call(SEARCH, engine_args(query))
    before = loader.total()
    for query in queries:
        catalogue.call(SEARCH, engine_args(query))
    return {"warmup_bytes": before, "queries": len(queries), "warm_bytes": loader.total() - before}


def engine_args(query: dict) -> dict:
    return {"query": query["query"], "limit": LIMIT, **query["filters"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("site")
    parser.add_argument("--per-kind", type=int, default=12)
    parser.add_argument("--seed", type=int, default=18)
    options = parser.parse_args(argv)
    site = Path(options.site)
    records = sample_records(site, options.seed)
    queries = make_queries(records, options.per_kind, seed=options.seed + 1)
    plain = [query for query in queries if query["kind"] == "plain"]
    each = [first_answer(site, query) for query in plain]
    result = {
        "site": str(site),
        "records": json.loads((site / "data" / "manifest.json").read_text("utf-8"))["records"],
        "first": each[0],
        "plain_median_bytes": statistics.median(entry["bytes"] for entry in each),
        "plain_max_bytes": max(entry["bytes"] for entry in each),
        "plain": [{k: entry[k] for k in ("query", "total", "bytes")} for entry in each],
        "warm": warm(site, queries, warmup_queries(records)),
    }
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
