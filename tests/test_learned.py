"""The learned last stage (ranking.learned) reorders the first page by its weights,
but only within a match mode, and never moves a lead the query asked for by name."""

from __future__ import annotations

import pytest

from govsearch import Catalogue, DirectoryLoader
from govsearch.ranking import learned
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


def test_a_kind_asked_for_by_name_keeps_its_lead(catalogue, monkeypatch):
    found = _search(catalogue, monkeypatch, {"type_govuk-content": 9.0, "type_api": -9.0}, "vehicle mot history api")
    assert _ids(found)[0] == API
    assert "kind_asked_for" in found[0]["reasons"]


def test_a_longer_title_weighs_what_its_weight_says(catalogue, monkeypatch):
    """ "Check the MOT history of a vehicle" is the longest title: a weight on title length moves it."""
    short = _search(catalogue, monkeypatch, {"title_length": -9.0}, "mot history")
    long = _search(catalogue, monkeypatch, {"title_length": 9.0}, "mot history")
    assert _ids(short)[-1] == _ids(long)[0] == PAGE


def test_without_weights_the_rules_order_stands(catalogue, monkeypatch):
    """The stage multiplies scores: with every weight 0 nothing moves and no score changes."""
    for query in ("mot history", "mot history vehicle", "vehicle mot history api"):
        plain = _search(catalogue, monkeypatch, {}, query)
        zero = _search(catalogue, monkeypatch, dict.fromkeys(learned.WEIGHTS or ["place"], 0.0), query)
        assert plain == zero
