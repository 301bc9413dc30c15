"""The importers on the real exports in ../shared/data (skipped when absent)."""

import json
from pathlib import Path

import pytest
from helpers import assert_accounted, assert_all_valid

from govsearch_build.config import load_config
from govsearch_build.importers import run_import
from govsearch_build.importers.cli import main
from govsearch_build.records import load_content

pytestmark = pytest.mark.shared_data
REPO = Path(__file__).resolve().parents[2]


def _run(kind, path, authority, **kw):
    result = run_import(kind, [path], authority=authority, **kw)
    assert_accounted(result)
    assert_all_valid(result, kw.get("http_hosts", ()))
    json.dumps(result.report)
    return result


def test_land_registry_csv(shared, real_authority):
    result = _run("okf-hmlr-csv", shared / "okf-land-registry", real_authority, revision="4580c9e4")
    rep = result.report
    assert rep["inputs"] == 2203
    assert rep["left_out"] == {"software-repository": 290}
    assert rep["built"] + rep["rejected"] + rep["duplicates_merged"] == 2203 - 290
    assert rep["rejected"] == 0 and rep["built"] == 1913
    assert {r.data["collection"] for r in result.records} == {"land-registry"}


def test_govuk_organisations(shared):
    result = _run("govuk-organisations", shared / "govuk-organisations", None)
    rep = result.report
    assert rep["inputs"] == 1254 and rep["built"] == 1254 and rep["rejected"] == 0
    closed = [r for r in result.records if "closed" in r.data.get("keywords", [])]
    assert len(closed) == 589


def test_api_catalogue(shared, real_authority):
    result = _run("api-catalogue", shared / "api-catalogue", real_authority)
    rep = result.report
    assert rep["inputs"] == 231 + 133 + 34
    assert rep["duplicates_merged"] == 98  # names in both catalogue CSVs
    assert rep["accounting"]["built_primary"] >= 240
    assert rep["rejected"] <= 20
    types = rep["by_resource_type"]
    assert types["api"] >= 200 and types["organisation"] >= 25
    # a page documenting one API is that API's documentation link; pages covering several stay records
    assert rep["quality"]["documentation-linked"]["merged"] >= 50 and types["api-documentation"] >= 3
    docs = [r.data for r in result.records if r.data["resourceType"] == "api-documentation"]
    assert all(link["kind"] == "api" for d in docs for link in d.get("links", []))
    assert sum(len(d.get("links", [])) for d in docs) >= 4


def test_search_shards(shared, real_authority):
    hosts = load_config(REPO / "site" / "full-estate.toml").http_allowed_hosts
    result = _run("okf-search-shards", shared / "okf-uk-government-apis", real_authority, http_hosts=hosts)
    rep = result.report
    assert rep["inputs"] == 41598
    # one record per dataset: its ~27,000 format and service rows are links of it
    assert 7_000 < rep["built"] < 10_000 and rep["quality"]["formats-merged"]["merged"] > 27_000
    assert sum(len(r.data.get("links", [])) for r in result.records) > 20_000
    # rejections are http-only hosts that are not public bodies and records without a url, nothing else
    assert rep["rejected"] < 0.005 * rep["inputs"]
    assert rep["quality"]["http-only-kept"]["kept"] >= 200
    assert rep["by_collection"]["ons"] > 2_500
    assert set(rep["by_resource_type"]) == {"api", "dataset", "api-documentation", "catalogue-record"}
    assert rep["by_access_status"]["restricted"] > 0 and rep["by_access_status"]["authentication-required"] > 0
    assert rep["unmapped"] == {}


def test_uk_living(shared, real_authority):
    result = _run("okf-uk-living", shared / "okf-uk-living" / "resources-0.json", real_authority)
    rep = result.report
    assert rep["inputs"] == 879 and rep["rejected"] == 0
    assert rep["built"] + rep["duplicates_merged"] == 879
    md = _run("okf-markdown", shared / "okf-uk-living" / "services", real_authority)
    assert md.report["inputs"] == 312
    assert md.report["left_out"] == {"not-a-record": 1}
    assert md.report["rejected"] <= 10


def test_cli_on_real_export_reads_back(shared, tmp_path):
    out = tmp_path / "out"
    assert (
        main(
            [
                "okf-uk-living",
                str(shared / "okf-uk-living" / "resources-0.json"),
                "--out",
                str(out),
                "--organisations",
                str(shared / "govuk-organisations" / "gov.uk_api_organisations.json"),
            ]
        )
        == 0
    )
    loaded = load_content(out)
    assert (
        loaded.rejected == [] and len(loaded.records) == json.loads((out / "import-report.json").read_text())["built"]
    )
