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

from relevance import mean, normalise_url, reciprocal_rank

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
    """hit@1, hit@3, hit@10 and MRR@10 over the queries with an expected page among `held`
    (URLs), each expected page the query's answer (relevance.reciprocal_rank)."""
    held = {normalise_url(url) for url in held}
    listed = expected()
    reciprocal = []
    for query, pages in listed.items():
        wanted = pages & held
        if wanted:
            answer = catalogue.call("search_government_knowledge", {"query": query, "limit": LIMIT})
            urls = [result["url"] for result in answer.get("results", [])]
            reciprocal.append(reciprocal_rank(urls, dict.fromkeys(wanted, 3), LIMIT))
    hits = {f"hit@{k}": mean(1.0 if rr >= 1 / k else 0.0 for rr in reciprocal) for k in (1, 3, 10)}
    return {"queries": len(reciprocal), "of": len(listed), **hits, "mrr": mean(reciprocal)}
