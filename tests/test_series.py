"""Series (govsearch.ranking.series): one publisher's editions of one title, or one title
that local authorities each publish, are one result.

A searcher for the house price index wants the index, not ten monthly
releases in a row: the newest release leads its series, the others stand
behind it (`more`, `others`), and the answer shows other records instead.
"""

from pathlib import Path

import jsonschema
import pytest

from govsearch import Catalogue, DirectoryLoader, load_schema
from govsearch.ranking.series import edition, group_of, grouped, series_key
from govsearch_build.config import load_config
from govsearch_build.data_writer import write_data
from govsearch_build.records import load_content
from sitefixture import SITE_TOML, build_fixture_site

RECORD = """---
id: {id}
title: {title}
summary: {summary}
url: https://www.gov.uk/government/news/{id}
resourceType: {kind}
publisher: {publisher}
accessStatus: public
collection: land-registry
licence: Open Government Licence v3.0
observed: '2026-07-14'
source:
  kind: curated
---
The monthly release of house price figures.
"""

RECORDS = [
    ("hpi-2026-03", "UK House Price Index for March 2026", "HM Land Registry", "govuk-content"),
    ("hpi-2026-05", "UK House Price Index for May 2026", "HM Land Registry", "govuk-content"),
    ("hpi-2025-12", "UK House Price Index for December 2025", "HM Land Registry", "govuk-content"),
    ("hpi-2026-04", "UK House Price Index for April 2026", "HM Land Registry", "govuk-content"),
    # The same title from another publisher is another series.
    ("hpi-wales-2026-05", "UK House Price Index for May 2026", "Welsh Government", "govuk-content"),
    # So is the same title of another resource type.
    ("hpi-api-2026-05", "UK House Price Index for May 2026", "HM Land Registry", "dataset"),
    ("hpi-guide", "About the UK House Price Index", "HM Land Registry", "govuk-content"),
]


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory) -> Catalogue:
    content = tmp_path_factory.mktemp("series-corpus")
    for record_id, title, publisher, kind in RECORDS:
        summary = f"House price index figures from {publisher}."
        text = RECORD.format(id=record_id, title=title, summary=summary, publisher=publisher, kind=kind)
        (content / f"{record_id}.md").write_text(text, "utf-8")
    site = build_fixture_site(tmp_path_factory.mktemp("series-site"), content)
    return Catalogue.open(DirectoryLoader(Path(site)))


def search(catalogue: Catalogue, query: str, limit: int = 10) -> dict:
    answer = catalogue.call("search_government_knowledge", {"query": query, "limit": limit})
    jsonschema.validate(answer, load_schema("search_government_knowledge", "output"))
    return answer


def test_a_series_is_one_result_led_by_its_newest_edition(catalogue):
    answer = search(catalogue, "house price index")
    ids = [item["id"] for item in answer["results"]]
    assert answer["total"] == len(RECORDS)  # records, not results
    assert answer["returned"] == len(ids) == 4
    lead = answer["results"][ids.index("hpi-2026-05")]
    assert lead["more"] == 3
    assert [other["id"] for other in lead["others"]] == ["hpi-2026-04", "hpi-2026-03", "hpi-2025-12"]
    assert {"title", "url", "recordUrl"} <= set(lead["others"][0])
    assert {"hpi-wales-2026-05", "hpi-api-2026-05", "hpi-guide"} <= set(ids)
    assert "more" not in answer["results"][ids.index("hpi-guide")]


def test_a_year_in_the_query_keeps_its_edition_first(catalogue):
    answer = search(catalogue, "house price index 2025")
    assert answer["results"][0]["id"] == "hpi-2025-12"


def test_the_answer_does_not_depend_on_the_limit(catalogue):
    wide = search(catalogue, "house price index", limit=20)
    for limit in (1, 2):
        assert search(catalogue, "house price index", limit=limit)["results"] == wide["results"][:limit]


def test_a_series_is_grouped_the_same_when_asked_again(catalogue):
    """An answer's windows are kept for the next calls (the browser asks again
    once rows arrive; people repeat queries): grouping works on copies, so a
    series' others are neither lost nor listed twice the second time."""
    catalogue.engine.forget()
    first = search(catalogue, "house price index")
    assert search(catalogue, "house price index", limit=2)["results"] == first["results"][:2]
    assert search(catalogue, "house price index") == first
    catalogue.engine.forget()
    assert search(catalogue, "house price index") == first


def test_series_keys_leave_out_what_varies_between_editions():
    assert series_key("UK House Price Index for April 2025") == series_key("UK House Price Index for Sept 2024")
    assert series_key("Price Paid Data 2019-20 (v2)") == series_key("Price Paid Data 2021")
    assert series_key("Café statistics Q1") == series_key("cafe statistics q3")
    assert series_key("Price Paid Data") != series_key("Land Registry Data")
    assert series_key("2024") == ""


def test_an_edition_is_its_newest_year_and_month():
    assert edition("UK House Price Index for May 2026") == (2026, 5)
    assert edition("Indices of deprivation 2019 and 2010") == (2019, 0)
    assert edition("Sept 2024 figures") == (2024, 9)
    assert edition("Price Paid Data") == (0, 0)


def test_grouping_keeps_each_series_at_its_first_place():
    a, b = ("pub", "a"), ("pub", "b")
    assert grouped([a, None, b, a, None, b, a]) == [(0, [3, 6]), (1, []), (2, [5]), (4, [])]


COUNCILS = [
    ("tpo-leeds", "Tree Preservation Orders 2019", "Leeds City Council"),
    ("tpo-sheffield", "Tree Preservation Orders", "Sheffield City Council"),
    ("tpo-bristol", "Tree Preservation Orders 2024", "Bristol City Council"),
    # Some councils put their own name or initials in the title: still the same title.
    ("tpo-knowsley", "Knowsley Tree Preservation Orders", "Knowsley Borough Council"),
    ("tpo-ldnpa", "LDNPA Tree Preservation Orders", "Lake District National Park Authority"),
    # A national body's record of the same title is no local authority's: apart.
    ("tpo-national", "Tree Preservation Orders", "Forestry Commission"),
]


@pytest.fixture(scope="module")
def councils(tmp_path_factory) -> Catalogue:
    content = tmp_path_factory.mktemp("councils-corpus")
    for record_id, title, publisher in COUNCILS:
        summary = f"Trees protected by order, from {publisher}."
        text = RECORD.format(id=record_id, title=title, summary=summary, publisher=publisher, kind="dataset")
        (content / f"{record_id}.md").write_text(text, "utf-8")
    site = build_fixture_site(tmp_path_factory.mktemp("councils-site"), content)
    return Catalogue.open(DirectoryLoader(Path(site)))


LOCAL = {"tpo-leeds", "tpo-sheffield", "tpo-bristol", "tpo-knowsley", "tpo-ldnpa"}


def test_one_title_that_local_authorities_each_publish_is_one_result(councils):
    """Five local authorities' "Tree Preservation Orders", two of them titled
    with their own name or initials, are one result with four more behind it,
    so other records keep their places; a national body's of the same title
    stands apart."""
    answer = search(councils, "tree preservation orders")
    results = {item["id"]: item for item in answer["results"]}
    local = [item for item in answer["results"] if item["id"] in LOCAL]
    assert len(local) == 1 and local[0]["more"] == 4 and "tpo-national" in results
    assert {local[0]["id"], *(other["id"] for other in local[0]["others"])} == LOCAL


def test_an_authoritys_own_name_is_left_out_of_its_titles_group_and_nothing_else():
    def group(title: str, publisher: str, kind: str = "dataset") -> tuple:
        return group_of({"title": title, "publisher": publisher, "resourceType": kind})

    conservation = group("Conservation Areas", "Leeds City Council")
    assert group("Erewash District Council Conservation Areas", "Erewash Borough Council") == conservation
    assert group("RBWM Conservation Areas", "Royal Borough of Windsor and Maidenhead") == conservation
    assert group("Public Toilets in Ipswich", "Ipswich Borough Council") == group("Public Toilets", "Wigan Council")
    # A word of the title that is no part of the publisher's name keeps the title apart.
    assert group("Conservation Areas Appraisals", "Leeds City Council") != conservation
    # Bodies' own records are named for the body: nothing is left once the name goes.
    assert group("Arts Council England", "Arts Council England", "organisation") != group(
        "British Council", "British Council", "organisation"
    )


def test_a_named_place_leads_its_councils_group_whatever_the_others_dates(councils):
    """ "Leeds" puts Leeds's record first; Bristol's newer-dated record of the
    same title is another council's data, not a newer edition of Leeds's."""
    lead = search(councils, "tree preservation orders Leeds")["results"][0]
    assert lead["id"] == "tpo-leeds" and "place_matches" in lead["reasons"]
    assert {other["id"] for other in lead["others"]} == LOCAL - {"tpo-leeds"}


EDITIONS = [
    # (id, title, summary, collection): the newest edition's summary does not say "regional".
    ("rents-2024", "Private Rental Index 2024", "Regional rents in England, quarter by quarter.", "land-registry"),
    ("rents-2025", "Private Rental Index 2025", "Regional rents in England, quarter by quarter.", "land-registry"),
    ("rents-2026", "Private Rental Index 2026", "Rents in England, quarter by quarter.", "ons"),
    ("rents-guide", "Regional rent statistics explained", "How regional rents are measured.", "land-registry"),
]


@pytest.fixture(scope="module", params=["single", "sharded"])
def editions(request, tmp_path_factory) -> Catalogue:
    content = tmp_path_factory.mktemp("editions-corpus")
    for record_id, title, summary, collection in EDITIONS:
        text = RECORD.format(id=record_id, title=title, summary=summary, publisher="HM Land Registry", kind="dataset")
        (content / f"{record_id}.md").write_text(text.replace("collection: land-registry", f"collection: {collection}"))
    site = tmp_path_factory.mktemp(f"editions-{request.param}")
    config = load_config(SITE_TOML)
    write_data(
        config,
        load_content(content, http_allowed_hosts=config.http_allowed_hosts).records,
        site / "data",
        layout=request.param,
    )
    return Catalogue.open(DirectoryLoader(site))


def test_the_newest_edition_leads_its_series_when_the_answer_found_only_older_ones(editions):
    """Only the older editions say "regional", so only they match; the newest
    edition leads their group in their place, with them behind it."""
    lead = next(item for item in search(editions, "regional")["results"] if item["id"].startswith("rents-20"))
    assert lead["id"] == "rents-2026" and "newest_edition" in lead["reasons"]
    assert [other["id"] for other in lead["others"]] == ["rents-2025", "rents-2024"]


def test_the_newest_edition_leads_its_series_when_a_looser_mode_found_it(editions):
    """ "regional rents": the older editions hold both words, the newest only
    "rents" (it stood behind them); it leads all the same."""
    lead = next(item for item in search(editions, "regional rents")["results"] if item["id"].startswith("rents-20"))
    assert lead["id"] == "rents-2026" and lead["reasons"] == ["newest_edition"]
    assert [other["id"] for other in lead["others"]] == ["rents-2025", "rents-2024"]


def test_a_year_or_month_in_the_query_or_a_filter_the_newest_fails_keeps_the_found_edition_first(editions):
    named = search(editions, "regional 2024")["results"][0]
    assert named["id"] == "rents-2024" and "newest_edition" not in named.get("reasons", [])
    in_march = [item["id"] for item in search(editions, "regional march")["results"]]
    assert "rents-2026" not in in_march
    answer = editions.call("search_government_knowledge", {"query": "regional", "collections": ["land-registry"]})
    ids = [item["id"] for item in answer["results"]] + [
        o["id"] for item in answer["results"] for o in item.get("others", [])
    ]
    assert "rents-2026" not in ids and "rents-2025" in ids
