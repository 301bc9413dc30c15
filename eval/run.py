"""`make eval`: run the judged queries through the search tool and score them.

    python eval/run.py                 # full estate when ../shared/data exists, and the curated site
    python eval/run.py --site DIR      # one built site (printed only, unless --write NAME)
    python eval/run.py --save base     # keep this run's per-query scores as "base" (.cache/eval-runs)
    python eval/run.py --against base  # print the paired change since "base" (default: the last run)

Every query is answered by `Catalogue.call("search_government_knowledge", ...)`
with limit 10: the same validation, search and ranking an agent's call gets.
Prints nDCG@10, recall@10, MRR and the zero-result rate (answerable queries
only) for the development and test parts (judgments.Query.part), a table per
intent and tag, the development part's worst queries, and how GOV.UK's own
most searched queries fare (govuk_top.py, a yardstick nobody here wrote); writes
eval/results/<corpus>.json and .md, which are committed. The test part's
queries are scored and summed up, never listed one by one: nobody tuning the
ranking reads them (eval/README.md, "Two parts").
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import change  # noqa: E402
import estate  # noqa: E402  (puts python_pkg on the path)
import govuk_top  # noqa: E402
from judgments import Query, digest, load_all  # noqa: E402
from relevance import RELEVANT, grade_of, ideal_grades, keys, mean, ndcg, normalise_url, recall, reciprocal_rank  # noqa: E402

from govsearch import Catalogue, DirectoryLoader  # noqa: E402

K = 10
RESULTS = Path(__file__).resolve().parent / "results"
WORST = 12


def judge(
    catalogue: Catalogue,
    query: Query,
    reachable: set[str] | None = None,
    linked: list[list[str]] = (),  # type: ignore[assignment]
    series: list[list[str]] = (),  # type: ignore[assignment]
) -> dict[str, Any]:
    """One query's answer and scores. `reachable` limits the ideal list to
    URLs the corpus holds (the curated site is a sample by design); the full
    estate is scored against every judgment, so a missing service counts.
    `linked`: the corpus's records' links (url, documentation page, merged
    records' URLs), whose judged URLs make one ideal result (relevance.ideal_grades);
    `series`: the URLs of each of its series, which an answer shows as one result
    (a lead and its `others`), so they make one ideal result too."""
    answer = catalogue.call("search_government_knowledge", query.arguments(K))
    results = answer.get("results", []) if answer.get("ok") else []
    same = {links[0]: links[1:] for links in linked}
    urls = [_links(item, same) for item in results]
    grades = query.grades
    ideal = ideal_grades(grades, [*linked, *series], reachable)
    scored = {
        "ndcg": ndcg(urls, grades, K, ideal),
        "recall": recall(urls, _only(grades, reachable), K),
        "mrr": reciprocal_rank(urls, grades, K),
    }
    if not any(g >= RELEVANT for g in ideal):
        scored = dict.fromkeys(scored)  # nothing right to find here: not scored
    return {
        "id": query.id,
        "part": query.part,
        "query": query.query,
        "labels": query.labels(),
        "answerable": query.answerable,
        **scored,
        "zeroResults": not results,
        # Results nobody has graded count as 0: the next pooling round's work (eval/README.md).
        "unjudged": sum(not any(key in grades for key in keys(links)) for links in urls),
        "error": None if answer.get("ok") else answer["error"]["code"],
        "matchMode": answer.get("match_mode"),
        "total": answer.get("total"),
        "results": [
            {
                "url": item["url"],
                "title": item["title"],
                "grade": grade_of(links, grades) or None,
            }
            for item, links in zip(results, urls)
        ],
    }


def _links(item: dict[str, Any], same: dict[str, list[str]]) -> list[str]:
    """A result's links to its one resource: its url, then its documentation
    page, then the URLs of records merged into it (`same`: the corpus's links),
    then those of the rest of its series the answer shows behind it (`others`)."""
    own = [item["url"], *([item["documentationUrl"]] if item.get("documentationUrl") else [])]
    merged = [url for url in same.get(item["url"], ()) if url not in own]
    behind = [url for other in item.get("others", ()) for url in [other["url"], *same.get(other["url"], ())]]
    return list(dict.fromkeys([*own, *merged, *behind]))


def _only(grades: dict[str, int], reachable: set[str] | None) -> dict[str, int]:
    return grades if reachable is None else {url: g for url, g in grades.items() if url in reachable}


def evaluate(
    site: Path,
    queries: list[Query],
    *,
    restrict: bool = False,
    urls: list[str] | None = None,
    links: list[list[str]] | None = None,
    catalogue: Catalogue | None = None,
) -> list[dict[str, Any]]:
    """Judge every query on the site (opened as `catalogue`, unless given); `urls` (default: the
    site's urls.json) are the records it holds, `links` (default: its links.json) the records linking two URLs."""
    catalogue = catalogue or Catalogue.open(DirectoryLoader(site))
    urls = estate.corpus_urls(site) if urls is None else urls
    held = None if urls is None else {normalise_url(url) for url in urls}
    linked = estate.corpus_links(site) if links is None else links
    series = estate.corpus_series(site)
    judged = [judge(catalogue, query, held if restrict else None, linked, series) for query in queries]
    for row, query in zip(judged, queries):
        if held is not None and not restrict:  # the curated site is a sample: its gaps are expected
            row["missing"] = sorted(url for url, g in query.grades.items() if g >= RELEVANT and url not in held)
    return judged


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    scored = [row for row in rows if row["ndcg"] is not None]  # answerable in this corpus
    return {
        "queries": len(rows),
        "scored": len(scored),
        "ndcg@10": _round(mean(row["ndcg"] for row in scored)),
        "recall@10": _round(mean(row["recall"] for row in scored)),
        "mrr": _round(mean(row["mrr"] for row in scored)),
        "zeroResultRate": _round(sum(row["zeroResults"] for row in scored) / len(scored)) if scored else None,
        "unjudged": sum(row["unjudged"] for row in scored),
    }


def by_label(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    labels = sorted({label for row in rows for label in row["labels"]})
    return {label: summarise([row for row in rows if label in row["labels"]]) for label in labels}


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


# The subsets every report sums up, for each part: all its queries, the questions, the visitors' set.
SUBSETS = (("all", None), ("questions", "question"), ("visitors", "visitor"))


def parts(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each part's summary, its subsets' and its per-label table (figures only, no query)."""
    result = {}
    for part in ("dev", "test"):
        own = [row for row in rows if row["part"] == part]
        result[part] = {
            "summary": {
                subset: summarise([row for row in own if label is None or label in row["labels"]])
                for subset, label in SUBSETS
            },
            "byLabel": by_label(own),
        }
    return result


def report(name: str, rows: list[dict[str, Any]], records: int | None, site: str) -> dict[str, Any]:
    dev = [row for row in rows if row["part"] == "dev"]
    worst = sorted((row for row in dev if row["ndcg"] is not None), key=lambda row: (row["ndcg"], row["id"]))[:WORST]
    return {
        "corpus": name,
        "site": site,
        "date": datetime.date.today().isoformat(),
        "commit": _git("rev-parse", "--short", "HEAD"),  # the checkout the run started from
        "queriesSha256": digest(),
        "records": records,
        "k": K,
        "summary": summarise(rows),
        "parts": parts(rows),
        "worst": [row["id"] for row in worst],
        "noAnswer": [
            {"id": row["id"], "total": row["total"], "top": [item["title"] for item in row["results"][:3]]}
            for row in dev
            if not row["answerable"]
        ],
        "queries": dev,  # the test part's rows are never written: its queries are not read while tuning
    }


def _built(site: Path) -> int | None:
    """How many records the site holds, from its manifest."""
    try:
        return json.loads((site / "data" / "manifest.json").read_text("utf-8"))["records"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _git(*args: str) -> str | None:
    try:
        return subprocess.run(
            ["git", *args], capture_output=True, text=True, check=True, cwd=RESULTS.parent
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def markdown(result: dict[str, Any]) -> str:
    s = result["summary"]
    lines = [
        f"# Relevance on the {result['corpus']} ({result['date']}, checkout {result['commit']}, judgments {result['queriesSha256']})",
        "",
        f"{s['queries']} judged queries ({s['scored']} scored), {result['records'] or 'unknown'} records (site {result['site']}), limit {result['k']}.",
        "The test part is scored, never listed query by query (eval/README.md).",
        "",
        "| part | queries | nDCG@10 | recall@10 | MRR | zero-result rate |",
        "|---|---:|---:|---:|---:|---:|",
        _row("**all**", s),
        *(
            _row(f"**{part}**" if subset == "all" else f"{part}: {subset}", figures)
            for part, data in result["parts"].items()
            for subset, figures in data["summary"].items()
        ),
    ]
    unjudged = ", ".join(f"{part} {data['summary']['all']['unjudged']}" for part, data in result["parts"].items())
    lines += ["", f"Results in the first ten nobody has graded (scored as 0; pool them, eval/README.md): {unjudged}."]
    for part, data in result["parts"].items():
        lines += [
            "",
            f"## {part} part by intent and tag",
            "",
            "| | queries | nDCG@10 | recall@10 | MRR | zero-result rate |",
        ]
        lines += [
            "|---|---:|---:|---:|---:|---:|",
            *(_row(label, figures) for label, figures in data["byLabel"].items()),
        ]
    lines += [
        "",
        "## Worst queries of the dev part",
        "",
        "| query | nDCG@10 | first result | grade |",
        "|---|---:|---|---:|",
    ]
    rows = {row["id"]: row for row in result["queries"]}
    for qid in result["worst"]:
        row = rows[qid]
        first = row["results"][0] if row["results"] else {"title": "(no results)", "grade": None}
        lines.append(
            f"| `{row['query']}` ({qid}) | {row['ndcg']:.3f} | {_cell(first['title'])} | {first['grade'] if first['grade'] is not None else '-'} |"
        )
    top = result.get("govukTop")
    if top:
        lines += [
            "",
            "## GOV.UK's own most searched queries (eval/govuk_top.py)",
            "",
            f"{top['queries']} of GOV.UK's {top['of']} top queries whose expected page this corpus holds; "
            "where the first expected page stands in the first ten.",
            "",
            "| queries | hit@1 | hit@3 | hit@10 | MRR@10 |",
            "|---:|---:|---:|---:|---:|",
            f"| {top['queries']} | " + " | ".join(_fmt(top[key]) for key in ("hit@1", "hit@3", "hit@10", "mrr")) + " |",
        ]
    gaps = [row for row in result["queries"] if row.get("missing")]
    if gaps:
        lines += ["", "## Judged answers (grade 2-3) the corpus does not hold (dev part)", ""]
        lines += [f"- {row['id']}: {', '.join(row['missing'])}" for row in gaps]
    lines += ["", "## Queries with no right answer in the catalogue (dev part)", ""]
    lines += [
        f"- {item['id']}: {item['total']} results; top: {', '.join(_cell(t) for t in item['top']) or '(none)'}"
        for item in result["noAnswer"]
    ]
    return "\n".join(lines) + "\n"


def _row(label: str, s: dict[str, Any]) -> str:
    cells = [_fmt(s[key]) for key in ("ndcg@10", "recall@10", "mrr", "zeroResultRate")]
    return f"| {label} | {s['queries']} | " + " | ".join(cells) + " |"


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")[:70]


def write(result: dict[str, Any], name: str) -> None:
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{name}.json").write_text(_json(result), "utf-8")
    (RESULTS / f"{name}.md").write_text(markdown(result), "utf-8")


def _json(result: dict[str, Any]) -> str:
    """Indented, but one line per query, so a ranking change diffs query by query."""
    head = json.dumps({k: v for k, v in result.items() if k != "queries"}, indent=1, ensure_ascii=False)
    rows = ",\n".join("  " + json.dumps(row, ensure_ascii=False) for row in result["queries"])
    return head[: -len("\n}")] + ',\n "queries": [\n' + rows + "\n ]\n}\n"


def curated_subset(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The queries the curated site can answer, and their mean nDCG@10: what `make test` guards."""
    subset = [row for row in rows if row["ndcg"] is not None]
    return {"ids": [row["id"] for row in subset], "ndcg@10": _round(mean(row["ndcg"] for row in subset))}


def run(
    name: str,
    site: Path,
    queries: list[Query],
    *,
    restrict: bool,
    save: bool,
    against: str = "last",
    keep_as: str = "last",
) -> dict[str, Any]:
    """Judge, print and (with `save`) write one corpus's results; print the paired change
    since the saved run `against` and keep this run's scores as `keep_as` (eval/change.py)."""
    catalogue = Catalogue.open(DirectoryLoader(site))
    rows = evaluate(site, queries, restrict=restrict, catalogue=catalogue)
    urls = estate.corpus_urls(site)
    label = "built here" if urls is not None else str(site)
    result = report(name, rows, _built(site), label)
    if restrict:
        result["subset"] = curated_subset(rows)
    if urls is not None:
        result["govukTop"] = govuk_top.score(catalogue, urls)
    print(markdown(result))
    if save:
        write(result, name)
    print(change.report(name, against, result, rows) + "\n")
    change.save(name, ["last", keep_as], result, rows)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python eval/run.py", description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, help="evaluate this built site only")
    parser.add_argument("--write", metavar="NAME", help="with --site: write eval/results/NAME.json and .md")
    parser.add_argument(
        "--curated-only", action="store_true", help="skip the full estate even when ../shared/data exists"
    )
    parser.add_argument(
        "--against", default="last", metavar="NAME", help="compare with the scores kept as NAME (default: the last run)"
    )
    parser.add_argument(
        "--save", default="last", metavar="NAME", help="keep this run's scores as NAME too (always as last)"
    )
    options = parser.parse_args(argv)
    queries = load_all()
    runs = {"against": options.against, "keep_as": options.save}
    if options.site:
        run(options.write or "site", options.site, queries, restrict=False, save=bool(options.write), **runs)
        return 0
    if not estate.SHARED_DATA.is_dir():
        print(f"eval: {estate.SHARED_DATA} is absent: the curated site only", file=sys.stderr)
    elif not options.curated_only:
        run("full-estate", estate.full_estate(), queries, restrict=False, save=True, **runs)
    with tempfile.TemporaryDirectory(prefix="govsearch-eval-") as folder:
        run("curated", estate.curated_site(Path(folder)), queries, restrict=True, save=True, **runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
