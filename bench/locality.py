"""How many row shards a query's results fall in: the site's numbering against random numbers.

A search downloads the rows its results show in one round, a file per row
shard (16 records by number), and in Chromium the round costs about as much
per file as a small search's Python (docs/startup.md). So how closely a
query's results sit in the numbering sets its slowest step. Records are
numbered by title: in the real estate the results of a multi-word query share
shards; in a simulated estate whose words are drawn one by one they cannot.

For each query (limit 20, CPython, the site's own data) this prints row shards
per result, for the results as numbered and for as many random record
numbers (mean of 20 draws), as a mean over the queries of each kind with at
least 10 results.

    .venv/bin/python bench/locality.py SITE (--results FILE | --eval) [--kinds multi,plain]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tomllib
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python_pkg"))

from govsearch.loaders import DirectoryLoader  # noqa: E402
from govsearch.session import Session  # noqa: E402

DRAWS = 20
LIMIT = 20


def bench_queries(results: Path) -> list[tuple[str, str]]:
    """(kind, query) of a `make bench` or `bench/scale.py` results file (its full estate, or its first size)."""
    sizes = json.loads(results.read_text("utf-8"))["sizes"]
    size = next((s for s in sizes if s.get("label") == "full"), sizes[0])
    queries = size.get("queries") or size["chromium"]["queries"]
    return [(q["kind"], q["query"]) for q in queries]


def eval_queries() -> list[tuple[str, str]]:
    """The judged queries (eval/queries.toml) of two words or more."""
    judged = tomllib.loads((ROOT / "eval" / "queries.toml").read_text("utf-8"))["query"]
    return [("judged", q["query"]) for q in judged if len(q["query"].split()) >= 2]


def shards_per_result(session: Session, query: str) -> tuple[int, int]:
    """(row shards, records): the row shards holding the records the answer shows (its results
    and the rest of their series behind them), and how many it shows."""
    store = session.catalogue.store
    asked: set[int] = set()
    require = store.require
    store.require = lambda numbers: (asked.update(numbers), require(numbers))[1]
    try:
        session.answer_sync("search_government_knowledge", json.dumps({"query": query, "limit": LIMIT}))
    finally:
        store.require = require
    return len({number // store.per_row_shard for number in asked}), len(asked)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("site", type=Path, help="a built sharded site")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--results", type=Path, help="the queries of a make bench or bench/scale.py results file")
    source.add_argument("--eval", action="store_true", help="the judged queries of two words or more")
    parser.add_argument("--kinds", default="", help="only these kinds (comma-separated)")
    options = parser.parse_args(argv)
    session = Session(DirectoryLoader(options.site))
    if session.catalogue is None or not hasattr(session.catalogue.store, "per_row_shard"):
        raise SystemExit(f"{options.site} holds no sharded site: {session.failure or 'one-file layout'}")
    queries = eval_queries() if options.eval else bench_queries(options.results)
    kinds = set(filter(None, options.kinds.split(",")))
    per_row_shard = session.catalogue.store.per_row_shard
    rng = random.Random(18)
    numbered, scattered = defaultdict(list), defaultdict(list)
    for kind, query in queries:
        if kinds and kind not in kinds:
            continue
        shards, results = shards_per_result(session, query)
        if results < 10:
            continue
        numbered[kind].append(shards / results)
        draws = (rng.sample(range(session.records), results) for _ in range(DRAWS))
        scattered[kind].append(statistics.mean(len({n // per_row_shard for n in draw}) / results for draw in draws))
    print(f"{session.records:,} records, {per_row_shard} per row shard; row shards per result (limit {LIMIT})")
    print(f"{'kind':10} {'queries':>7} {'numbered':>9} {'random':>7}")
    for kind in sorted(numbered):
        print(
            f"{kind:10} {len(numbered[kind]):7} {statistics.mean(numbered[kind]):9.2f} {statistics.mean(scattered[kind]):7.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
