"""GOV.UK's own most searched queries, as a yardstick nobody here wrote.

`govuk_top_queries.csv` holds the query -> page pairs GOV.UK checks its own
search against (alphagov/search-api-v2): the words real visitors type most
("universal credit", "passport", "share code", "tax") and the page each must
find on the first page of results. The judged set is mostly the long tail
(questions, places, sentences); this is the head of real traffic, judged by
GOV.UK, not by us. Scored per query, over the queries whose expected page
the corpus holds: where the first of them stands in the first ten results.
Only the figures are printed: like the test part, it is not read query by
query while tuning, so that no rule is written for it. It is no independent
test of the ranking's use of GOV.UK's most visited pages (docs/ranking.md):
the pages these queries expect are nearly all on that list.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from relevance import normalise_url

PAIRS = Path(__file__).resolve().parent / "govuk_top_queries.csv"
GOV_UK = "https://www.gov.uk"
LIMIT = 10


def expected(path: Path = PAIRS) -> dict[str, set[str]]:
    """Each query (as GOV.UK lists it) and the normalised URLs of the pages it must find."""
    lines = (line for line in path.read_text("utf-8").splitlines() if not line.startswith("#"))
    pages: dict[str, set[str]] = {}
    for row in csv.DictReader(lines):
        link = row["link"].strip()
        pages.setdefault(row["query"].strip(), set()).add(
            normalise_url(GOV_UK + link if link.startswith("/") else link)
        )
    return pages


def score(catalogue: Any, held: Iterable[str]) -> dict[str, Any]:
    """hit@1, hit@3, hit@10 and MRR@10 over the queries with an expected page among `held` (URLs)."""
    held = {normalise_url(url) for url in held}
    listed = expected()
    ranks = []
    for query, pages in listed.items():
        wanted = pages & held
        if not wanted:
            continue
        answer = catalogue.call("search_government_knowledge", {"query": query, "limit": LIMIT})
        urls = [normalise_url(result["url"]) for result in answer.get("results", [])]
        ranks.append(next((place for place, url in enumerate(urls, 1) if url in wanted), None))
    count = len(ranks)
    hits = {f"hit@{k}": sum(1 for rank in ranks if rank and rank <= k) / count if count else None for k in (1, 3, 10)}
    reciprocal = sum(1 / rank for rank in ranks if rank) / count if count else None
    return {"queries": count, "of": len(listed), **hits, "mrr": reciprocal}


def markdown(figures: dict[str, Any]) -> list[str]:
    """The yardstick's lines for a results page."""
    cells = " | ".join(
        "-" if figures[key] is None else f"{figures[key]:.3f}" for key in ("hit@1", "hit@3", "hit@10", "mrr")
    )
    return [
        "",
        "## GOV.UK's own most searched queries (eval/govuk_top.py)",
        "",
        f"{figures['queries']} of GOV.UK's {figures['of']} top queries whose expected page this corpus holds; "
        "where the first expected page stands in the first ten.",
        "",
        "| queries | hit@1 | hit@3 | hit@10 | MRR@10 |",
        "|---:|---:|---:|---:|---:|",
        f"| {figures['queries']} | {cells} |",
    ]
