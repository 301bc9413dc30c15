"""A filter value's count is what choosing it gives: the query decides which
match modes its answer uses, and filters only narrow the records they match
(ranking.tiers). Before, ticking "API (3)" under "flood risk" gave 14 results,
most of them APIs holding "flood" or "risk" alone, and every other count
jumped with them."""

import pytest

from govsearch import Catalogue, DirectoryLoader
from govsearch_build.config import load_config
from govsearch_build.data_writer import write_data
from govsearch_build.records import Record, load_content
from sitefixture import REPO, SITE_TOML, curated_record


def record(number: int, title: str, kind: str = "dataset") -> Record:
    return curated_record(number, title, summary=f"{title}, record {number}.", resourceType=kind, collection="ons")


def catalogue(tmp_path) -> Catalogue:
    records = [
        *(record(number, f"Widget survey of region {number}") for number in range(1, 26)),  # 25 datasets
        record(26, "Widget survey API", "api"),
        record(27, "Widget survey lookup API", "api"),
        *(record(number, f"Widget tools API {number}", "api") for number in range(28, 34)),  # "widget" alone
        record(34, "Guidance on widgets", "guidance"),  # "widget" alone
    ]
    write_data(load_config(SITE_TOML), records, tmp_path / "data")
    return Catalogue.open(DirectoryLoader(tmp_path))


def search(catalogue: Catalogue, **arguments) -> dict:
    return catalogue.call("search_government_knowledge", {"limit": 20, **arguments})


def test_each_values_count_is_the_total_choosing_it_gives(tmp_path):
    site = catalogue(tmp_path)
    unfiltered = search(site, query="widget survey")
    assert unfiltered["facets"]["resourceTypes"] == {"dataset": 25, "api": 2}
    for kind, count in unfiltered["facets"]["resourceTypes"].items():
        filtered = search(site, query="widget survey", resourceTypes=[kind])
        assert filtered["total"] == count, kind
        # Every other dimension counts the same records the answer holds.
        assert sum(filtered["facets"]["collections"].values()) == count
    apis = search(site, query="widget survey", resourceTypes=["api"])
    assert {item["id"] for item in apis["results"]} == {"r26", "r27"}
    assert {item["matchMode"] for item in apis["results"]} == {"all_terms"}


def test_a_filter_that_leaves_nothing_still_gets_the_looser_matches(tmp_path):
    """An agent may send a filter before it has seen the counts: where the
    query's own modes hold nothing of that kind, looser modes answer."""
    site = catalogue(tmp_path)
    guidance = search(site, query="widget survey", resourceTypes=["guidance"])
    assert [item["id"] for item in guidance["results"]] == ["r34"]
    assert guidance["results"][0]["matchMode"] == "any_term"


QUERIES = [
    "flood risk",
    "house prices",
    "companies house",
    "passport",
    "council tax",
    "api",
    "population",
    "land registry",
    "vat",
    "school admissions",
    "air quality data",
    "benefits",
    "crime statistics",
    "driving licence",
    "planning applications",
    "ons api",
    "tax",
    "census 2021",
    "postcode lookup",
    "pension",
]


@pytest.fixture(scope="module")
def curated(tmp_path_factory) -> Catalogue:
    site = tmp_path_factory.mktemp("curated-facets")
    config = load_config(SITE_TOML)
    loaded = load_content(REPO / "site" / "content", http_allowed_hosts=config.http_allowed_hosts)
    write_data(config, loaded.records, site / "data")
    return Catalogue.open(DirectoryLoader(site))


@pytest.mark.parametrize("query", QUERIES)
def test_on_the_curated_site_every_shown_count_is_the_total_it_gives(curated, query):
    """Over the site's own records and everyday queries: each type's and each collection's
    count beside it is the total that ticking it gives."""
    unfiltered = search(curated, query=query)
    for dimension in ("resourceTypes", "collections"):
        for value, count in unfiltered["facets"][dimension].items():
            assert search(curated, query=query, **{dimension: [value]})["total"] == count, (dimension, value)
