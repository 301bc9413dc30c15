"""How much of the judged set's loss is order, by part: aggregates only.

    .venv/bin/python eval/ceiling.py [--site DIR]

For every scored query it asks the tool for its first 40 results (two
calls of 20, as the search page pages) and prints, per part and for its
visitor and keyword queries, the mean nDCG@10 of today's first ten and of
a perfect re-ordering of the first 10, 20 and 40 results (each result at
its judged grade, unjudged at 0). A ranking rule can at most re-order what
the tool finds, so the gap between today and "first 20" is what ordering
rules can win; beyond it only finding other records can. Like `make eval`
it never prints a test query: both parts are summed up only.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import estate  # noqa: E402  (puts python_pkg on the path)
from judgments import load_all  # noqa: E402
from relevance import RELEVANT, grade_of, ideal_grades, ndcg  # noqa: E402
from run import _links  # noqa: E402

from govsearch import Catalogue, DirectoryLoader  # noqa: E402

PAGE = 20
DEPTHS = (10, 20, 40)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--site", help="a built site (default: the full estate `make eval` builds)")
    options = parser.parse_args()
    site = Path(options.site) if options.site else estate.full_estate()
    catalogue = Catalogue.open(DirectoryLoader(site))
    linked, series = estate.corpus_links(site), estate.corpus_series(site)
    same = {links[0]: links[1:] for links in linked}
    sums: dict[str, list[list[float]]] = {}
    for query in load_all():
        ideal = ideal_grades(query.grades, [*linked, *series], None)
        if not any(grade >= RELEVANT for grade in ideal):
            continue
        shown = [_links(item, same) for item in _first(catalogue, query.arguments(PAGE), max(DEPTHS))]
        row = [ndcg(shown[:10], query.grades, 10, ideal) or 0.0]
        for depth in DEPTHS:
            reordered = sorted(shown[:depth], key=lambda links: -grade_of(links, query.grades))
            row.append(ndcg(reordered[:10], query.grades, 10, ideal) or 0.0)
        for group in (query.part, f"{query.part}: {'visitors' if query.visitor else 'keywords'}"):
            sums.setdefault(group, []).append(row)
    print("| part | queries | today | first 10 re-ordered | first 20 re-ordered | first 40 re-ordered |")
    print("|---|--:|--:|--:|--:|--:|")
    for group, rows in sorted(sums.items()):
        means = [sum(column) / len(rows) for column in zip(*rows)]
        print(f"| {group} | {len(rows)} | " + " | ".join(f"{value:.3f}" for value in means) + " |")
    return 0


def _first(catalogue: Catalogue, arguments: dict, count: int) -> list[dict]:
    """The answer's first `count` results, read a page of PAGE at a time."""
    results: list[dict] = []
    while len(results) < count:
        answer = catalogue.call("search_government_knowledge", arguments, offset=len(results))
        page = answer.get("results", []) if answer.get("ok") else []
        results += page
        if len(page) < PAGE:
            break
    return results[:count]


if __name__ == "__main__":
    sys.exit(main())
