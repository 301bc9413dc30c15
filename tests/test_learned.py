"""The learned last stage (ranking.learned) reorders the first page by its weights,
but only within a match mode, and never moves a lead the query asked for by name."""

from __future__ import annotations

import pytest

from govsearch import Catalogue, DirectoryLoader
from govsearch.ranking import Ranked, learned
from govsearch_build.config import load_config
from govsearch_build.data_writer import write_data
from sitefixture import SITE_TOML, curated_record

PAGE, API, DATA = "r1", "r2", "r3"


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory):
    """Three records holding "mot history"; only the page (r1) also holds "vehicle"."""
    folder = tmp_path_factory.mktemp("learned")
    held = {"publisher": "Department for Transport"}  # no word of the queries below
    records = [
        curated_record(
            1,
            "Check the MOT history of a vehicle",
            summary="Check a vehicle's MOT history: test results, mileage and failures.",
            resourceType="govuk-content",
            **held,
        ),
        curated_record(
            2, "MOT history API", summary="MOT test results and history for software.", resourceType="api", **held
        ),
        curated_record(
            3, "MOT testing data", summary="Anonymised MOT test results and history by make and model.", **held
        ),
    ]
    write_data(load_config(SITE_TOML), records, folder / "data")
    return Catalogue.open(DirectoryLoader(folder))


def _search(catalogue, monkeypatch, weights: dict[str, float], query: str) -> list[dict]:
    monkeypatch.setattr(learned, "WEIGHTS", weights)
    return catalogue.call("search_government_knowledge", {"query": query})["results"]


def _ids(results: list[dict]) -> list[str]:
    return [result["id"] for result in results]


def test_the_weights_decide_the_order_within_a_mode(catalogue, monkeypatch):
    favoured = _search(catalogue, monkeypatch, {"type_dataset": 5.0}, "mot history")
    shunned = _search(catalogue, monkeypatch, {"type_dataset": -5.0}, "mot history")
    assert {result["matchMode"] for result in favoured} == {"all_terms"}
    assert _ids(favoured)[0] == DATA
    assert _ids(shunned)[-1] == DATA
    # A score still orders the records of one mode.
    for results in (favoured, shunned):
        scores = [result["score"] for result in results]
        assert scores == sorted(scores, reverse=True)


def test_no_weight_lifts_a_record_above_a_stricter_mode(catalogue, monkeypatch):
    found = _search(catalogue, monkeypatch, {"type_dataset": 9.0, "type_api": 9.0}, "mot history vehicle")
    assert _ids(found)[0] == PAGE
    assert [result["matchMode"] for result in found] == ["all_terms", "any_term", "any_term"]


def test_a_longer_title_weighs_what_its_weight_says(catalogue, monkeypatch):
    """ "Check the MOT history of a vehicle" is the longest title: a weight on title length moves it."""
    short = _search(catalogue, monkeypatch, {"title_length": -9.0}, "mot history")
    long = _search(catalogue, monkeypatch, {"title_length": 9.0}, "mot history")
    assert _ids(short)[-1] == _ids(long)[0] == PAGE


def test_without_weights_the_rules_order_stands(catalogue, monkeypatch):
    """The stage multiplies scores: with every weight 0 nothing moves and no score changes."""
    for query in ("mot history", "mot history vehicle", "vehicle mot history api"):
        assert _search(catalogue, monkeypatch, {}, query) == _search(catalogue, monkeypatch, {"place": 0.0}, query)


def _page(*records: tuple[int, float, str, list[str]]) -> list[Ranked]:
    return [Ranked(number, score, mode, reasons) for number, score, mode, reasons in records]


def test_a_record_placed_on_purpose_keeps_its_place_and_score():
    """A kind asked for by name leads, whatever its score, in a run of its own mode."""
    head = _page((7, 0.5, "all_terms", ["kind_asked_for"]), (3, 40.0, "all_terms", []), (5, 30.0, "all_terms", []))
    ordered = learned.reweigh(
        head, [{"first_places": 1.0}, {"first_places": 0.1}, {"first_places": 0.9}], {"first_places": 5.0}
    )
    assert [item.number for item in ordered] == [7, 5, 3]
    assert ordered[0].score == 0.5


def test_a_record_the_rules_placed_above_a_higher_score_stays_there_without_weights():
    """A series' newest edition takes its best edition's place with its own lower score (ranking.series):
    the stage gives the run's scores to its records in the order they stand before it weighs them."""
    head = _page((9, 10.0, "all_terms", ["newest_edition"]), (4, 20.0, "all_terms", []), (2, 15.0, "any_term", []))
    learned.scores_in_place(head)
    assert [item.score for item in head] == [20.0, 10.0, 15.0]
    assert [item.number for item in learned.reweigh(head, [{}, {}, {}], {"place": 0.0})] == [9, 4, 2]


def test_a_record_is_described_by_how_like_the_first_two_results_it_is():
    """The first two results say what the query is about: a record from their publisher, whose
    title and summary share their words, is like them; the first is compared with the second alone."""
    shown = [
        {"title": "Register a birth", "publisher": "General Register Office", "summary": "Within 42 days."},
        {"title": "Register a birth abroad", "publisher": "General Register Office", "summary": "Born abroad."},
        {"title": "Births in England and Wales", "publisher": "Office for National Statistics"},
        {"title": "Register a death", "publisher": "General Register Office", "summary": "Within 5 days."},
    ]
    first, second, births, death = learned.likeness(shown)
    assert (
        first
        == second
        == {
            "publisher_of_first": 1.0,
            "title_like_first": pytest.approx(2 / 3),
            "summary_like_first": 0.0,
        }
    )
    # A plural as its singular: "births" is "birth", one of three and four words in all; no summary, no words.
    assert births == {
        "publisher_of_first": 0.0,
        "title_like_first": pytest.approx((1 / 4 + 1 / 5) / 2),
        "summary_like_first": 0.0,
    }
    assert death["publisher_of_first"] == 1.0
    assert death["title_like_first"] == pytest.approx((1 / 3 + 1 / 4) / 2)
    assert death["summary_like_first"] == pytest.approx((2 / 4 + 0) / 2)  # "within", "days" of four words
    assert learned.likeness(shown[:1]) == [{}]  # a page of one has nothing to be like


def test_a_weight_on_likeness_orders_by_it(catalogue, monkeypatch):
    """ "mot history": the API and the page come first, and their titles share "mot history"
    (2 of 5 words); the dataset's shares only "mot" with each. A weight for likeness keeps
    the first two first; one against it puts the dataset first."""
    plain = _ids(_search(catalogue, monkeypatch, {}, "mot history"))
    liked = _ids(_search(catalogue, monkeypatch, {"title_like_first": 9.0}, "mot history"))
    shunned = _ids(_search(catalogue, monkeypatch, {"title_like_first": -9.0}, "mot history"))
    assert plain == liked == [API, PAGE, DATA]
    assert shunned[0] == DATA
