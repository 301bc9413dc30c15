"""GOV.UK's most visited pages lead where the words cannot tell pages apart
(govsearch_build.most_visited, ranking.rules.visit_factor): of two pages
holding "passport" alike, the one more people use comes first, in either
data layout, and says why."""

from __future__ import annotations

from pathlib import Path

import pytest

from govsearch import Catalogue, DirectoryLoader
from govsearch.ranking import rules
from govsearch_build.config import load_config
from govsearch_build.data_writer import write_data
from govsearch_build.most_visited import page_key, places, visited
from govsearch_build.records import Record
from sitefixture import curated_record

REPO = Path(__file__).resolve().parents[1]
LISTED = "https://www.gov.uk/get-a-passport-urgently"


def _page(id: str, title: str, url: str, kind: str = "govuk-content") -> Record:
    summary = "What a passport applicant needs to know."
    return curated_record(0, title, id=id, summary=summary, url=url, resourceType=kind, publisher="HM Passport Office")


# Alike but for their addresses: without the list, "Passport advice" leads by title.
PAGES = [
    _page("passport-advice", "Passport advice", "https://www.gov.uk/passport-advice-and-more"),
    _page("passport-urgent", "Passport urgent", LISTED),
]


def _first(tmp_path: Path, layout: str) -> list[dict]:
    write_data(load_config(REPO / "site" / "site.toml"), PAGES, tmp_path / "data", layout=layout)
    catalogue = Catalogue.open(DirectoryLoader(tmp_path))
    return catalogue.call("search_government_knowledge", {"query": "passport"})["results"]


@pytest.mark.parametrize("layout", ["single", "sharded"])
def test_the_more_visited_page_leads_and_says_why(tmp_path, layout):
    first, second = _first(tmp_path, layout)
    assert (first["id"], second["id"]) == ("passport-urgent", "passport-advice")
    assert "most_visited" in first["reasons"]
    assert "most_visited" not in second.get("reasons", [])


@pytest.mark.parametrize("layout", ["single", "sharded"])
def test_visits_do_not_order_a_search_for_data_or_an_api(tmp_path, layout):
    """The visits are people doing a task on GOV.UK: a query asking for data ("statistics") or an
    API is ordered as if no page were on the list, and no result says `most_visited`; "documents"
    (the stem of the intent word "documentation") asks for neither, and the visits still count."""
    pages = [_page(page.id, page.data["title"], page.data["url"], "dataset") for page in PAGES]
    write_data(load_config(REPO / "site" / "site.toml"), pages, tmp_path / "data", layout=layout)
    catalogue = Catalogue.open(DirectoryLoader(tmp_path))
    for query in ("passport statistics", "passport api"):
        found = catalogue.call("search_government_knowledge", {"query": query})["results"]
        assert [result["id"] for result in found] == ["passport-advice", "passport-urgent"], query
        assert not any("most_visited" in result.get("reasons", []) for result in found), query
    for query in ("passport", "passport documents"):
        found = catalogue.call("search_government_knowledge", {"query": query})["results"]
        assert found[0]["id"] == "passport-urgent" and "most_visited" in found[0]["reasons"], query


def test_without_the_boost_the_words_decide(tmp_path, monkeypatch):
    monkeypatch.setattr(rules, "VISITED_BOOST", 0.0)
    found = _first(tmp_path, "single")
    assert [result["id"] for result in found] == ["passport-advice", "passport-urgent"]
    assert not any("most_visited" in result.get("reasons", []) for result in found)  # it raised nothing


def test_the_most_visited_gains_most_and_the_last_nothing():
    assert rules.visit_factor(1) == 1 + rules.VISITED_BOOST
    assert 1 < rules.visit_factor(170) < rules.visit_factor(23) < rules.visit_factor(1)
    assert rules.visit_factor(rules.VISITED_PAGES) == rules.visit_factor(5000) == 1.0


def test_the_list_reads_paths_on_gov_uk_and_other_sites_addresses():
    listed = places()
    assert listed[page_key("https://www.gov.uk/log-in-register-hmrc-online-services")] == 1
    assert page_key("https://www.legislation.gov.uk/") in listed
    assert len(listed) > 900 and sorted(listed.values()) == list(range(1, len(listed) + 1))


def test_a_record_matches_its_page_with_or_without_a_trailing_slash_but_not_another_query():
    listed = places()
    records = [
        _page("a", "A", "http://www.gov.uk/get-a-passport-urgently/"),
        _page("b", "B", "https://www.gov.uk/x"),
        _page("c", "C", "https://www.gov.uk/get-a-passport-urgently?step=2"),
    ]
    assert visited(records, listed) == [[0, listed[page_key(LISTED)]]]
