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
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import estate  # noqa: E402  (puts python_pkg on the path)
import numpy as np  # noqa: E402
from judgments import load_all  # noqa: E402
from relevance import RELEVANT, dcg, grade_of, ideal_grades, ndcg  # noqa: E402
from run import _links  # noqa: E402

from govsearch import Catalogue, DirectoryLoader  # noqa: E402
from govsearch.ranking import Ranked, learned, rules  # noqa: E402

L2 = 1e-3
STEPS = 1000
RATE = 0.5  # a step this large still lowers the loss at every step here; the loss is summed per query
FOLDS = 5
K = 10  # nDCG@K: what the pairs' weights measure
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
    weights = dict(zip(names, fit(pages, matrices).tolist()))
    print(f"development queries: {len(pages)}; features: {len(names)}")
    print(f"dev nDCG@{K} without the stage {_mean(pages, None):.4f}, with it (in sample) {_mean(pages, weights):.4f}")
    print(f"dev nDCG@{K}, {FOLDS}-fold cross-validated: {cross_validated(pages, matrices, names):.4f}")
    fitted = {name: round(value, 3) for name, value in weights.items() if round(value, 3)}
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
    seen: list[tuple[list[Ranked], list[dict[str, float]]]] = []

    def recorder(ranked: list[Ranked], rows: Any) -> list[Ranked]:
        head = [item.fresh() for item in ranked[: rules.POOL]]
        learned.scores_in_place(head)  # as reorder does, before it describes them
        seen.append((head, learned.describe(head, rows)))
        return ranked

    pages = []
    # ranking.stages calls the stage as `learned.reorder`, read at call time: so it is switched off here.
    real = learned.reorder
    learned.reorder = recorder
    try:
        for query in load_all():
            if query.part != "dev":
                continue
            ideal = ideal_grades(query.grades, [*linked, *series], None)
            if not any(g >= RELEVANT for g in ideal):
                continue
            seen.clear()
            answer = catalogue.call("search_government_knowledge", query.arguments(rules.POOL))
            if not seen or not answer.get("ok"):
                continue
            head, described = seen[-1]
            links = [_links(result, same) for result in answer["results"][: len(head)]]
            pages.append(Page(head, described, links, query.grades, ideal))
    finally:
        learned.reorder = real
    return pages


def fit(pages: list[Page], matrices: list[np.ndarray]) -> np.ndarray:
    """The weights minimising the weighted pairwise loss (module docstring)."""
    differences, costs = [], []
    for page, matrix in zip(pages, matrices):
        grades = np.array([grade_of(links, page.grades) for links in page.links], dtype=float)
        discount = 1 / np.log2(np.arange(len(grades)) + 2)
        discount[K:] = 0  # below place K a swap costs nDCG@K nothing
        ideal = dcg(sorted(page.ideal, reverse=True), K) or 1.0
        better, worse = np.where(grades[:, None] > grades[None, :])
        # Pairs across modes too: the stage never reorders them, but they tell what each feature is worth.
        pinned = [learned.pinned(item) for item in page.head]
        keep = [not pinned[b] and not pinned[w] for b, w in zip(better, worse)]
        better, worse = better[keep], worse[keep]
        if not len(better):
            continue
        logs = np.array([found["log_score"] for found in page.features])
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


def cross_validated(pages: list[Page], matrices: list[np.ndarray], names: list[str]) -> float:
    """The development part's nDCG@K, each fold scored with weights fitted on the others."""
    order = list(range(len(pages)))
    random.Random(1).shuffle(order)
    scores = []
    for fold in range(FOLDS):
        held = set(order[fold::FOLDS])
        train = [i for i in order if i not in held]
        weights = dict(zip(names, fit([pages[i] for i in train], [matrices[i] for i in train]).tolist()))
        scores += [_ndcg(pages[i], weights) for i in sorted(held)]
    return sum(scores) / len(scores)


def _mean(pages: list[Page], weights: dict[str, float] | None) -> float:
    return sum(_ndcg(page, weights) for page in pages) / len(pages)


def _ndcg(page: Page, weights: dict[str, float] | None) -> float:
    """nDCG@K of the page reordered as ranking.learned reorders it (as it was, without weights)."""
    head = [item.fresh() for item in page.head]
    if weights is not None:
        head = learned.reweigh(head, page.features, weights)
    links = {item.number: page.links[index] for index, item in enumerate(page.head)}
    return ndcg([links[item.number] for item in head], page.grades, K, page.ideal) or 0.0


def _matrix(page: Page, names: list[str]) -> np.ndarray:
    return np.array([[found.get(name, 0.0) for name in names] for found in page.features]).reshape(-1, len(names))


def _module(weights: dict[str, float]) -> str:
    lines = "".join(f'    "{name}": {value},\n' for name, value in sorted(weights.items()))
    return (
        '"""Written by eval/learn.py from the judged queries\' development part: do not edit by hand\n'
        '(docs/ranking.md, "The learned last stage")."""\n\nWEIGHTS: dict[str, float] = '
        + ("{\n" + lines + "}\n" if lines else "{}\n")
    )


if __name__ == "__main__":
    raise SystemExit(main())
