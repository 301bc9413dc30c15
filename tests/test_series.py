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
    # A nation is what varies too: one publisher's England, Scotland and Wales reports are one series.
    assert series_key("UK House Price Index England: September 2021") == series_key(
        "UK House Price Index Wales: July 2021"
    )
    assert series_key("Population estimates for Northern Ireland") == series_key("Population estimates for England")
    # A nation's adjective names what the data is ("Scottish" and "Welsh" indices are two things).
    assert series_key("Scottish index of multiple deprivation") != series_key("Welsh index of multiple deprivation")


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
    # A joining word is left out only next to the name; initials of two letters are no name ("WC").
    assert group("Land for Housing in Knowsley", "Knowsley Borough Council") == group(
        "Land for Housing", "Wigan Council"
    )
    assert group("Public WC Locations", "Wigan Council") != group("Public Locations", "Leeds City Council")
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


# A yearly index's editions: the older ones say "regional" twice and name England, so all
# 75 rank above the newest, which lies beyond the two windows an answer reads (and beyond
# those of the search page's second page, which starts at the 21st).
EDITIONS = [
    (f"rents-{year}", f"Private Rental Index {year}", "Regional rents in England, regional quarters.", "land-registry")
    for year in range(1950, 2025)
] + [
    ("rents-2026", "Private Rental Index 2026", "Regional rents across the nation, by quarter.", "ons"),
    ("rents-guide", "Rent statistics explained", "How rents are measured.", "land-registry"),
]


@pytest.fixture(scope="module", params=["single", "sharded"])
def editions(request, tmp_path_factory) -> Catalogue:
    content = tmp_path_factory.mktemp("editions-corpus")
    for record_id, title, summary, collection in EDITIONS:
        text = RECORD.format(id=record_id, title=title, summary=summary, publisher="HM Land Registry", kind="dataset")
        (content / f"{record_id}.md").write_text(text.replace("collection: land-registry", f"collection: {collection}"))
    site = tmp_path_factory.mktemp(f"editions-{request.param}")
    config = load_config(SITE_TOML)
    records = load_content(content, http_allowed_hosts=config.http_allowed_hosts).records
    write_data(config, records, site / "data", layout=request.param)
    return Catalogue.open(DirectoryLoader(site))


def rents_lead(catalogue: Catalogue, query: str, **filters) -> dict:
    answer = catalogue.call("search_government_knowledge", {"query": query, "limit": 20, **filters})
    return next(
        item for item in answer["results"] if item["id"].startswith("rents-1") or item["id"].startswith("rents-2")
    )


def test_the_newest_edition_leads_its_series_when_the_answer_found_only_older_ones(editions):
    """ "regional": the 75 older editions fill both windows the answer reads
    and group into one result; the newest edition, which holds the word too,
    leads it in its place, with them behind it."""
    lead = rents_lead(editions, "regional")
    assert lead["id"] == "rents-2026" and lead["reasons"] == ["newest_edition"]
    assert lead["matched"] == {"summary": ["regional"]} and lead["matchMode"] == "all_terms"
    assert len(lead["others"]) >= 20 and all(other["id"].startswith("rents-") for other in lead["others"])


def test_a_newest_edition_holding_fewer_of_the_query_words_than_the_lead_does_not_lead(editions):
    """ "regional england": the newest edition does not name England, so it
    would lead a result whose mode says every word matched: the found edition leads."""
    lead = rents_lead(editions, "regional england")
    assert lead["id"] != "rents-2026" and "newest_edition" not in lead.get("reasons", [])


def test_a_year_or_month_in_the_query_or_a_filter_the_newest_fails_keeps_the_found_edition_first(editions):
    named = rents_lead(editions, "regional 2024")
    assert named["id"] == "rents-2024" and "newest_edition" not in named.get("reasons", [])
    assert rents_lead(editions, "regional march")["id"] != "rents-2026"
    filtered = rents_lead(editions, "regional", collections=["land-registry"])
    assert filtered["id"] != "rents-2026" and "newest_edition" not in filtered.get("reasons", [])


def test_a_later_page_keeps_the_editions_it_found_first(editions):
    """The search page's "show more" leaves out a record an earlier page
    showed, with the rest of its group: a later page keeps its own leads,
    which the first page's newest edition would otherwise hide."""
    first = rents_lead(editions, "regional")
    later = editions.call("search_government_knowledge", {"query": "regional", "limit": 20}, offset=20)["results"]
    assert first["id"] == "rents-2026"
    assert later and all("newest_edition" not in item.get("reasons", []) for item in later)
    assert all(item["id"] != "rents-2026" for item in later)


def test_a_councils_newest_edition_leading_in_its_place_is_about_the_place(tmp_path):
    """A council's newest edition placed at the head of its older ones (beyond the
    windows read) is its publisher's, so about the place the query names as the
    lead was: the answer does not say that none of its results is ("planning
    applications in Wigan" led by Wigan's newest list was told it was not)."""
    content = tmp_path / "content"
    content.mkdir()
    # The older editions' summaries say the words again, so they fill the windows the answer reads.
    editions = [(year, "Planning applications, the planning applications decided.") for year in range(1960, 2025)]
    editions.append(
        (
            2025,
            "Decisions on proposals to build, extend or change the use of land and buildings, by quarter, with dates and outcomes for each case heard.",
        )
    )
    for year, summary in editions:
        text = RECORD.format(
            id=f"apps-{year}",
            title=f"Planning applications {year}",
            summary=summary,
            publisher="Wigan Council",
            kind="dataset",
        )
        (content / f"apps-{year}.md").write_text(text)
    config = load_config(SITE_TOML)
    loaded = load_content(content, http_allowed_hosts=config.http_allowed_hosts)
    assert len(loaded.records) == len(editions) and not loaded.rejected
    write_data(config, loaded.records, tmp_path / "data")
    answer = Catalogue.open(DirectoryLoader(tmp_path)).call(
        "search_government_knowledge", {"query": "planning applications wigan", "limit": 5}
    )
    lead = answer["results"][0]
    assert lead["id"] == "apps-2025" and lead["reasons"] == ["newest_edition", "place_matches"], lead["reasons"]
    assert [notice["code"] for notice in answer["notices"]] == []


def test_a_series_longer_than_a_window_is_one_valid_result(tmp_path):
    """34 councils' "Allotments" (the full estate's answer to "allotments"): the answer reads a
    second window while series leave fewer than 8 results, so one result stands for more
    records than a window holds, and the answer still meets the output schema (it had
    allowed 19 others, and an MCP client checking it refused the answer)."""
    content = tmp_path / "corpus"
    content.mkdir()
    for n in range(34):
        publisher = f"Borough{chr(97 + n % 26)}{n} Borough Council"
        summary = f"Allotment sites run by {publisher}."
        text = RECORD.format(id=f"allot-{n}", title="Allotments", summary=summary, publisher=publisher, kind="dataset")
        (content / f"allot-{n}.md").write_text(text, "utf-8")
    site = build_fixture_site(tmp_path / "site", content)
    (only,) = search(Catalogue.open(DirectoryLoader(Path(site))), "allotments")["results"]
    assert only["more"] == len(only["others"]) == 33


def test_the_output_schema_allows_every_record_an_answer_reads_behind_one_result():
    """An answer reads at most POOL records a window, WINDOWS windows: one result may stand for all."""
    from govsearch.ranking import rules

    def found(node):
        if isinstance(node, dict):
            if "others" in node.get("properties", {}):
                return node["properties"]["others"]
            return next((hit for value in node.values() if (hit := found(value))), None)
        if isinstance(node, list):
            return next((hit for value in node if (hit := found(value))), None)
        return None

    others = found(load_schema("search_government_knowledge", "output"))
    assert others["maxItems"] == rules.POOL * rules.WINDOWS - 1
