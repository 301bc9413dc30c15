"""Fit the learned last stage's weights on the development part (ranking.learned).

    .venv/bin/pip install -e '.[learn]'   # numpy: only this script needs it
    .venv/bin/python eval/learn.py     # prints the fit, writes python_pkg/govsearch/ranking/learned_weights.py

Each development query is asked of the full estate with the stage switched
off. The features of its first POOL results (ranking.learned.describe, the
runtime's own) and their judged grades (unjudged: 0) are kept.

The weights are fitted as a pairwise ranker. For each pair of one query's
results, neither pinned, where one is graded above the other, the loss is
log(1 + exp(-(s_better - s_worse))), with s = log(score) + weights . features.
Each pair is weighted by what swapping the two costs in nDCG@10 at today's
places (LambdaRank's weighting, held fixed). L2 on the weights; full-batch
gradient descent from zero for a fixed number of steps, so the same judgments
give the same weights.

The fit never reads the test part. The script prints the development part's
nDCG@10 before and after, and a 5-fold cross-validated estimate (fitted on
four fifths of the development queries, scored on the fifth): that is what
tells a fit from a fit to noise. Run `make eval` afterwards, for both parts.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import estate  # noqa: E402  (puts python_pkg on the path)
import numpy as np  # noqa: E402
from judgments import load_all  # noqa: E402
from relevance import RELEVANT, grade_of, ideal_grades, ndcg  # noqa: E402
from run import _links  # noqa: E402

from govsearch import Catalogue, DirectoryLoader  # noqa: E402
from govsearch.ranking import Ranked, learned, rules  # noqa: E402

L2 = 1e-3
STEPS = 1000
RATE = 0.5
FOLDS = 5
TARGET = Path(learned.__file__).with_name("learned_weights.py")


@dataclass
class Page:
    """One development query's first page as the stage sees it."""

    head: list[Ranked]  # as the stage found them (copies)
    features: list[dict[str, float]]
    links: list[list[str]]  # each record's URLs, in head's order
    grades: dict[str, int]
    ideal: list[int]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--site", help="a built site (default: the full estate `make eval` builds)")
    parser.add_argument("--dry-run", action="store_true", help="print the fit, write nothing")
    options = parser.parse_args()
    site = Path(options.site) if options.site else estate.full_estate()
    pages = read_pages(site)
    names = sorted({name for page in pages for found in page.features for name in found})
    matrices = [_matrix(page, names) for page in pages]
    weights = fit(pages, matrices)
    print(f"development queries: {len(pages)}; features: {len(names)}")
    print(
        f"dev nDCG@10 without the stage {_mean(pages, matrices, None):.4f}, with it (in sample) {_mean(pages, matrices, weights):.4f}"
    )
    print(f"dev nDCG@10, {FOLDS}-fold cross-validated: {cross_validated(pages, matrices):.4f}")
    fitted = {name: round(float(value), 3) for name, value in zip(names, weights) if round(float(value), 3)}
    for name, value in sorted(fitted.items(), key=lambda item: -abs(item[1])):
        print(f"  {name:40} {value:+.3f}")
    if not options.dry_run:
        TARGET.write_text(_module(fitted), "utf-8")
        print(f"wrote {TARGET}")
    return 0


def read_pages(site: Path) -> list[Page]:
    """Every scored development query's first page, asked with the stage switched off."""
    catalogue = Catalogue.open(DirectoryLoader(site))
    linked, series = estate.corpus_links(site), estate.corpus_series(site)
    same = {links[0]: links[1:] for links in linked}
    seen: list[Any] = []

    def recorder(ranked: list[Ranked], rows: Any) -> list[Ranked]:
        head = [item.fresh() for item in ranked[: rules.POOL]]
        seen.append((head, learned.describe(head, rows)))
        return ranked

    pages = []
    real = learned.reorder
    learned.reorder = recorder
    try:
        for query in load_all():
            ideal = ideal_grades(query.grades, [*linked, *series], None)
            if query.part != "dev" or not any(g >= RELEVANT for g in ideal):
                continue
            seen.clear()
            answer = catalogue.call("search_government_knowledge", query.arguments(rules.POOL))
            if not seen or not answer.get("ok"):
                continue
            head, described = seen[-1]
            results = answer["results"]
            pages.append(
                Page(head, described, [_links(result, same) for result in results[: len(head)]], query.grades, ideal)
            )
    finally:
        learned.reorder = real
    return pages


def fit(pages: list[Page], matrices: list[np.ndarray]) -> np.ndarray:
    """The weights minimising the weighted pairwise loss (module docstring)."""
    differences, costs = [], []
    for page, matrix in zip(pages, matrices):
        grades = np.array([grade_of(links, page.grades) for links in page.links], dtype=float)
        discount = 1 / np.log2(np.arange(len(grades)) + 2)
        ideal = _dcg(sorted(page.ideal, reverse=True)) or 1.0
        better, worse = np.where(grades[:, None] > grades[None, :])
        # Pairs across modes too: the stage never reorders them, but they tell what each feature is worth.
        pinned = [learned.pinned(item) for item in page.head]
        keep = [not pinned[b] and not pinned[w] for b, w in zip(better, worse)]
        better, worse = better[keep], worse[keep]
        if not len(better):
            continue
        logs = np.array([math.log(max(item.score, learned.MIN_SCORE)) for item in page.head])
        differences.append(np.column_stack([matrix[better] - matrix[worse], logs[better] - logs[worse]]))
        swap = np.abs((2 ** grades[better] - 2 ** grades[worse]) * (discount[better] - discount[worse])) / ideal
        costs.append(swap / len(pages))
    pairs = np.vstack(differences)
    cost = np.concatenate(costs)
    weights = np.zeros(pairs.shape[1] - 1)
    for _ in range(STEPS):
        margin = pairs[:, :-1] @ weights + pairs[:, -1]
        slope = cost / (1 + np.exp(np.clip(margin, -50, 50)))
        weights -= RATE * (-(pairs[:, :-1] * slope[:, None]).sum(0) + L2 * weights)
    return weights


def cross_validated(pages: list[Page], matrices: list[np.ndarray]) -> float:
    """The development part's nDCG@10, each fold scored with weights fitted on the others."""
    order = list(range(len(pages)))
    random.Random(1).shuffle(order)
    scores = []
    for fold in range(FOLDS):
        held = set(order[fold::FOLDS])
        train = [i for i in order if i not in held]
        weights = fit([pages[i] for i in train], [matrices[i] for i in train])
        scores += [_ndcg(pages[i], matrices[i], weights) for i in sorted(held)]
    return sum(scores) / len(scores)


def _mean(pages: list[Page], matrices: list[np.ndarray], weights: np.ndarray | None) -> float:
    return sum(_ndcg(page, matrix, weights) for page, matrix in zip(pages, matrices)) / len(pages)


def _ndcg(page: Page, matrix: np.ndarray, weights: np.ndarray | None) -> float:
    """nDCG@10 of the page reordered as ranking.learned reorders it (or as it was, without weights)."""
    head = [item.fresh() for item in page.head]
    if weights is not None:
        for item, value in zip(head, matrix @ weights):
            item.score *= math.exp(value)
        head = learned.in_mode_order(head)
    links = {item.number: page.links[index] for index, item in enumerate(page.head)}
    return ndcg([links[item.number] for item in head], page.grades, 10, page.ideal) or 0.0


def _matrix(page: Page, names: list[str]) -> np.ndarray:
    return np.array([[found.get(name, 0.0) for name in names] for found in page.features]).reshape(-1, len(names))


def _dcg(grades: list[int]) -> float:
    return sum((2**grade - 1) / math.log2(place + 2) for place, grade in enumerate(grades[:10]))


def _module(weights: dict[str, float]) -> str:
    lines = ",\n".join(f'    "{name}": {value}' for name, value in sorted(weights.items()))
    return (
        '"""Written by eval/learn.py from the judged queries\' development part: do not edit by hand\n'
        '(docs/ranking.md, "The learned last stage")."""\n\nWEIGHTS: dict[str, float] = {\n' + lines + ",\n}\n"
    )


if __name__ == "__main__":
    raise SystemExit(main())
