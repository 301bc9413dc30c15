"""The relevance harness in eval/: its metrics on hand-made lists with known
answers, the checks on the judged query file, and the curated-corpus guard:
the judged queries the curated site can answer must not lose more than 0.02
of the nDCG@10 committed in eval/results/curated.json.
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "eval"))

from judgments import JudgmentError, Query, load_all, load_queries  # noqa: E402
from relevance import gains, ideal_grades, ndcg, normalise_url, recall, reciprocal_rank  # noqa: E402

A, B, C, X = "https://a.gov.uk/one", "https://b.gov.uk/two", "https://c.gov.uk/three", "https://x.gov.uk/unjudged"
GRADES = {normalise_url(A): 3, normalise_url(B): 2, normalise_url(C): 1}


def test_url_normalisation_merges_the_importers_seams():
    assert normalise_url("HTTP://WWW.Gov.UK/vehicle-tax/") == normalise_url("https://www.gov.uk/vehicle-tax")
    assert normalise_url("https://x.gov.uk/service.asmx?wsdl=") == normalise_url("https://x.gov.uk/service.asmx?wsdl")
    assert normalise_url("https://x.gov.uk/Path") != normalise_url("https://x.gov.uk/path")  # paths keep their case
    assert normalise_url("https://x.gov.uk/a?b=1") != normalise_url("https://x.gov.uk/a")


def test_ndcg_of_the_ideal_order_is_one():
    assert ndcg([A, B, C], GRADES) == pytest.approx(1.0)


def test_ndcg_of_the_reversed_order():
    # gains 2^g - 1 = 1, 3, 7 at ranks 1-3 against the ideal 7, 3, 1
    expected = (1 + 3 / math.log2(3) + 7 / 2) / (7 + 3 / math.log2(3) + 1 / 2)
    assert ndcg([C, B, A], GRADES) == pytest.approx(expected)
    assert expected == pytest.approx(0.6806, abs=1e-4)


def test_unjudged_results_count_as_zero():
    assert ndcg([X, A, B, C], GRADES) == pytest.approx(
        (7 / math.log2(3) + 3 / 2 + 1 / math.log2(5)) / (7 + 3 / math.log2(3) + 1 / 2)
    )
    assert ndcg([X], GRADES) == 0.0


def test_a_repeated_url_earns_nothing_the_second_time():
    http_copy = A.replace("https://", "http://") + "/"
    assert gains([A, http_copy, B], GRADES) == [3, 0, 2]
    assert ndcg([A, A, B], GRADES) < ndcg([A, B], GRADES)


def test_a_resource_with_two_links_earns_its_best_link_once():
    # An API record carrying its documentation page is one result: it earns the
    # better grade of its links, and a later result repeating either earns 0.
    assert gains([(X, B), A, (B, C)], GRADES) == [2, 3, 1]
    assert recall([(X, A)], GRADES) == 0.5
    assert reciprocal_rank([(X, C), (X, B)], GRADES) == pytest.approx(1 / 2)


def test_only_the_top_k_count():
    assert ndcg([X] * 10 + [A], GRADES, k=10) == 0.0
    assert ndcg([X, A], GRADES, k=1) == 0.0


def test_a_query_without_relevant_grades_has_no_score():
    assert ndcg([A], {}) is None
    assert recall([A], {normalise_url(A): 1}) is None
    assert reciprocal_rank([A], {normalise_url(A): 1}) is None


def test_ideal_can_be_limited_to_what_the_corpus_holds():
    assert ndcg([A], GRADES, ideal=[3]) == pytest.approx(1.0)
    assert ndcg([A], GRADES) < 1.0


def test_one_records_links_are_one_ideal_result():
    # An API and its documentation page, both graded 3, held by one record: a
    # perfect list shows that record once (gains credits one link), so the
    # ideal counts it once; a URL no record links counts alone.
    grades = {normalise_url(A): 3, normalise_url(B): 3, normalise_url(C): 1}
    assert sorted(ideal_grades(grades, [[A, B]])) == [1, 3]
    assert sorted(ideal_grades(grades)) == [1, 3, 3]
    assert ideal_grades(grades, [[A, B]], reachable={normalise_url(C)}) == [1]
    assert ndcg([(A, B), C], grades, ideal=ideal_grades(grades, [[A, B]])) == pytest.approx(1.0)


def test_records_sharing_a_link_are_each_an_ideal_result():
    # Two operations of one API both link its documentation page (B): a list
    # can show both records, each earning its own grade, so the ideal holds
    # both; a URL held by a record and also linked by another is not counted twice.
    grades = {normalise_url(A): 3, normalise_url(B): 2, normalise_url(C): 3}
    ideal = ideal_grades(grades, [[A, B], [C, B]])
    assert sorted(ideal) == [3, 3]
    assert ndcg([(A, B), (C, B)], grades, ideal=ideal) == pytest.approx(1.0)
    assert sorted(ideal_grades(grades, [[A, B, C]])) == [3]  # one record merged from three: one result


def test_a_list_earning_more_than_the_greedy_ideal_scores_one():
    # One record holds only B, another links A and B: shown in that order
    # they earn 3 and 3, where the ideal, taking the record of two links
    # first, holds one 3. The answer is the better ideal: 1.0, never above
    # (it was 1.56); a list earning less than the ideal still scores below 1.
    grades = {normalise_url(A): 3, normalise_url(B): 3, normalise_url(C): 1}
    ideal = ideal_grades(grades, [[A, B], [B, B]])
    assert sorted(ideal) == [1, 3]
    assert ndcg([B, (A, B), C], grades, ideal=ideal) == pytest.approx(1.0)
    assert ndcg([C, (A, B)], grades, ideal=ideal) == pytest.approx((1 + 7 / math.log2(3)) / (7 + 1 / math.log2(3)))


def test_recall_counts_grade_two_and_up_out_of_at_most_k():
    assert recall([C, A], GRADES) == 0.5
    many = {normalise_url(f"https://m.gov.uk/{n}"): 2 for n in range(15)}
    assert recall([f"https://m.gov.uk/{n}" for n in range(10)], many, k=10) == 1.0
    # A resource listed under two relevant addresses is one result found, never more than all.
    pairs = [(f"https://m.gov.uk/{n}", f"https://m.gov.uk/{n + 5}") for n in range(10)]
    assert recall(pairs, many, k=10) == 1.0
    assert recall(pairs[:2], many, k=10) == 0.2


def test_reciprocal_rank_of_the_first_relevant_result():
    assert reciprocal_rank([X, C, B], GRADES) == pytest.approx(1 / 3)
    assert reciprocal_rank([X, C], GRADES) == 0.0


# ---- the judged query file --------------------------------------------------


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "queries.toml"
    path.write_text(body, "utf-8")
    return path


GOOD = """
[[query]]
id = "q1"
query = "renew passport"
intent = "citizen"
need = "renew a passport"
{extra}
[query.grades]
"https://www.gov.uk/renew-adult-passport" = {grade}
"""


def test_a_well_formed_query_loads(tmp_path):
    (query,) = load_queries(_write(tmp_path, GOOD.format(extra='filters = {collections = ["uk-living"]}', grade=3)))
    assert query.arguments() == {"query": "renew passport", "collections": ["uk-living"], "limit": 10}
    assert query.labels() == ["citizen", "filter"]


@pytest.mark.parametrize(
    "extra, grade, complaint",
    [
        ("", 4, "every grade must be an integer 0-3"),
        ('filters = {collection = ["uk-living"]}', 3, "unknown filter `collection`"),
        ('filters = {resourceTypes = ["API"]}', 3, "values the tool does not accept"),
        ('tags = ["no-answer"]', 3, "tagged no-answer exactly when"),
        ("", 1, "tagged no-answer exactly when"),
        ('tags = ["typos"]', 3, "`tags` may only hold"),
    ],
)
def test_mistakes_name_the_query_and_field(tmp_path, extra, grade, complaint):
    with pytest.raises(JudgmentError, match="'q1'") as error:
        load_queries(_write(tmp_path, GOOD.format(extra=extra, grade=grade)))
    assert complaint in str(error.value)


def test_one_url_graded_twice_under_two_spellings_is_refused(tmp_path):
    body = GOOD.format(extra="", grade=3) + '"http://www.gov.uk/renew-adult-passport/" = 1\n'
    with pytest.raises(JudgmentError, match="graded twice"):
        load_queries(_write(tmp_path, body))


def test_the_project_set_covers_what_the_issue_asks():
    queries = load_queries()
    assert len(queries) >= 150
    # The judged set as a whole (visitors' queries too): pooling found answers for some no-answer queries.
    labels = [label for q in load_all() for label in q.labels()]
    counts = {label: labels.count(label) for label in ("typo", "acronym", "filter", "ambiguous", "no-answer")}
    assert counts["typo"] >= 15 and counts["acronym"] >= 15 and counts["filter"] >= 20, counts
    assert counts["ambiguous"] >= 10 and counts["no-answer"] >= 5, counts
    assert all(q.need.strip() and q.id for q in queries)


def test_a_test_part_of_at_least_40_percent_is_drawn_by_id_not_by_hand():
    queries = load_all()
    test = [q for q in queries if q.part == "test"]
    assert len(test) >= 0.4 * len(queries)
    # The part is a function of the id alone: renaming a query is the only way to move it.
    again = {q.id: q.part for q in load_all()}
    assert all(again[q.id] == q.part for q in queries)
    assert {q.part for q in queries if q.visitor} == {"dev", "test"} or not any(q.visitor for q in queries)


def test_reports_never_list_a_test_query(tmp_path):
    spec = importlib.util.spec_from_file_location("eval_run_report", REPO / "eval" / "run.py")
    eval_run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(eval_run)
    queries = load_all()
    rows = [
        {
            "id": q.id,
            "part": q.part,
            "query": q.query,
            "labels": q.labels(),
            "answerable": q.answerable,
            "ndcg": 0.5,
            "recall": 0.5,
            "mrr": 1.0,
            "zeroResults": False,
            "unjudged": 1,
            "total": 1,
            "results": [{"url": "https://x.gov.uk/a", "title": "A", "grade": None}],
        }
        for q in queries
    ]
    result = eval_run.report("t", rows, 1, "here")
    test_ids = {q.id for q in queries if q.part == "test"}
    written = eval_run._json(result) + eval_run.markdown(result)
    assert test_ids and not any(f'"{qid}"' in written or f"({qid})" in written for qid in test_ids)
    assert result["parts"]["test"]["summary"]["all"]["queries"] == len(test_ids)


def test_a_result_nobody_graded_is_counted_for_the_next_pooling_round():
    """A result with no grade scores 0 like one graded 0; the report counts the
    first kind, so the team knows when the judgments need another round."""
    spec = importlib.util.spec_from_file_location("eval_run_unjudged", REPO / "eval" / "run.py")
    eval_run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(eval_run)

    class Answers:  # the three results a search returned: graded 3, graded 0 and never graded
        def call(self, tool, arguments):
            return {"ok": True, "results": [{"url": url, "title": url} for url in (A, B, X)]}

    query = Query("q", "q", "citizen", "n", grades={normalise_url(A): 3, normalise_url(B): 0})
    row = eval_run.judge(Answers(), query)
    assert row["unjudged"] == 1
    assert eval_run.summarise([row, row])["unjudged"] == 2


def test_the_change_since_a_saved_run_is_paired_and_names_no_query(tmp_path, monkeypatch):
    """`make eval` prints, per part, how far a change moved the queries both
    runs scored, and how many rose and fell (eval/change.py), never which."""
    import change

    monkeypatch.setattr(change, "RUNS", tmp_path)
    queries = load_all()
    dev = [q.id for q in queries if q.part == "dev"]
    test = [q.id for q in queries if q.part == "test"]
    run = {"commit": "abc1234", "queriesSha256": "judged"}

    def rows(moved, left_out=()):
        return [
            {"id": q.id, "part": q.part, "ndcg": 0.5 + moved.get(q.id, 0.0)} for q in queries if q.id not in left_out
        ]

    change.save("estate", ["last", "base"], run, rows({}))
    text = change.report("estate", "base", run, rows({dev[0]: 0.3, dev[1]: 0.3, test[0]: -0.2}, left_out=[dev[2]]))
    lines = {line.split(" | ")[0]: line.split(" | ") for line in text.splitlines() if line.startswith(("| d", "| t"))}
    assert lines["| dev"][1:3] == [
        f"{len(dev) - 1} (1 scored in one run only, left out)",
        f"{0.6 / (len(dev) - 1):+.4f}",
    ]
    assert lines["| dev"][4:] == ["2", "0", "0.50 |"] and lines["| test"][4:] == ["0", "1", "1.00 |"]
    low, high = (float(x) for x in lines["| dev"][3].split(" to "))
    assert low <= 0.6 / (len(dev) - 1) <= high and low < high
    assert not any(qid in text for qid in test)
    assert "no paired comparison" in change.report("estate", "base", {**run, "queriesSha256": "rejudged"}, rows({}))
    assert "No saved run" in change.report("estate", "other", run, rows({}))
    (tmp_path / "estate.last.json").write_text("{truncated", "utf-8")
    assert "could not be read" in change.report("estate", "last", run, rows({}))


def test_the_sign_test_says_how_likely_a_split_is_by_chance():
    import change

    assert change.sign_test(4, 0) == pytest.approx(0.125)  # four of four up: one chance in eight, either way
    assert change.sign_test(0, 0) == 1.0 and change.sign_test(3, 2) == 1.0
    assert change.sign_test(10, 0) < 0.01


# ---- the curated-corpus guard ---------------------------------------------


@pytest.fixture(scope="module")
def curated_results(tmp_path_factory):
    from estate import record_links

    from govsearch_build.records import load_content
    from sitefixture import build_fixture_site

    # By path: bench/ (put on sys.path by other test modules) has a run.py too.
    spec = importlib.util.spec_from_file_location("eval_run", REPO / "eval" / "run.py")
    eval_run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(eval_run)
    evaluate = eval_run.evaluate

    content = REPO / "site" / "content"
    committed = json.loads((REPO / "eval" / "results" / "curated.json").read_text("utf-8"))["subset"]
    wanted = set(committed["ids"])
    queries = [q for q in load_all() if q.id in wanted]
    site = build_fixture_site(tmp_path_factory.mktemp("eval-curated"), content)
    records = load_content(content).records
    urls = [record.data["url"] for record in records]
    return committed, evaluate(site, queries, restrict=True, urls=urls, links=record_links(records))


def test_curated_subset_keeps_its_ndcg(curated_results):
    committed, rows = curated_results
    assert {row["id"] for row in rows} == set(committed["ids"]), (
        "a query of the committed subset is gone: run `make eval`"
    )
    scored = [row["ndcg"] for row in rows if row["ndcg"] is not None]
    figure = sum(scored) / len(scored)
    worst = sorted(rows, key=lambda row: row["ndcg"] or 0)[:5]
    assert figure >= committed["ndcg@10"] - 0.02, (
        f"nDCG@10 on the curated subset fell to {figure:.3f} (committed {committed['ndcg@10']:.3f}); "
        f"worst: {[(row['id'], round(row['ndcg'] or 0, 3)) for row in worst]}"
    )


def test_the_full_estate_cache_is_rebuilt_when_an_input_changes(tmp_path):
    from types import SimpleNamespace

    from estate import fingerprint

    (tmp_path / "content").mkdir()
    (tmp_path / "annotations").mkdir()
    (tmp_path / "source").mkdir()
    (tmp_path / "site.toml").write_text("title = 'x'\n")
    (tmp_path / "source" / "rows.csv").write_text("a,b\n")
    config = SimpleNamespace(
        file=tmp_path / "site.toml",
        content_dir=tmp_path / "content",
        annotations_dir=tmp_path / "annotations",
        sources=[SimpleNamespace(path=tmp_path / "source")],
    )
    first = fingerprint(config)
    assert fingerprint(config) == first
    (tmp_path / "content" / "new-record.md").write_text("---\n")
    second = fingerprint(config)
    assert second != first
    (tmp_path / "annotations" / "new-annotation.md").write_text("---\n")
    third = fingerprint(config)
    assert third != second
    (tmp_path / "source" / "rows.csv").write_text("a,b\n1,2\n")
    assert fingerprint(config) != third


def test_govuk_top_queries_score_where_the_expected_page_stands(tmp_path):
    """GOV.UK's own top queries (eval/govuk_top.py) count only the queries whose page the corpus
    holds, and find where that page stands: "universal credit" and "uc" both expect the sign-in page."""
    import govuk_top

    from govsearch import Catalogue, DirectoryLoader
    from govsearch_build.config import load_config
    from govsearch_build.data_writer import write_data
    from sitefixture import curated_record

    sign_in = "https://www.gov.uk/sign-in-universal-credit"
    assert normalise_url(sign_in) in govuk_top.expected()["uc"]
    records = [
        curated_record(1, "Universal Credit", summary="What it is.", url="https://www.gov.uk/universal-credit-x"),
        curated_record(2, "Sign in to your Universal Credit account", summary="Your UC account.", url=sign_in),
    ]
    write_data(load_config(REPO / "site" / "site.toml"), records, tmp_path / "data")
    figures = govuk_top.score(Catalogue.open(DirectoryLoader(tmp_path)), [record.data["url"] for record in records])
    assert figures["queries"] == 2 and figures["of"] == len(govuk_top.expected()) > 100
    # Both queries find first the page titled by them, then the sign-in page: second of two.
    assert (figures["hit@1"], figures["hit@3"], figures["mrr"]) == (0.0, 1.0, 0.5)
