"""Issue 33: the importers lose nothing they were given and say nothing untrue.

Each test builds a small export in a temporary folder (rows as the real exports
write them) and runs the real importer over it: every folded row's link is
kept or dropped with its reason, a bad row takes nothing else with it,
placeholder text is no summary, test rows are left out and listed, and names
merged across sources stay with their source.
"""

import json

from helpers import assert_accounted, assert_all_valid, by_id

from govsearch_build.estate import finish_estate
from govsearch_build.importers import combine_results, run_import
from govsearch_build.importers.cleaning import UrlCleaner
from govsearch_build.quality import QualityLog
from govsearch_build.records import Record

PAGE = "https://www.data.gov.uk/dataset/rights-of-way"


def _row(name: str, title: str, url: str, record_type: str = "Data Access API Endpoint", **extra) -> dict:
    return {
        "name": name,
        "title": title,
        "url": url,
        "documentation": PAGE,
        "record_type": record_type,
        "publisher_title": "Example Council",
        "license_id": "open-government-licence-v3",
        "access_model": "anonymous",
        "source_adapter": "data_gov_uk_ckan",
        "notes": "Public rights of way in the county.",
        **extra,
    }


DATASET = _row("rights-of-way", "Public rights of way", PAGE, "Data Product")


def _shards(tmp_path, *rows):
    folder = tmp_path / "shards"
    folder.mkdir(exist_ok=True)
    (folder / "results-0.json").write_text(json.dumps(list(rows)), "utf-8")
    result = run_import("okf-search-shards", [folder])
    assert_all_valid(result)
    assert_accounted(result)
    return result, {r.data["source"]["nativeId"]: r.data for r in result.records}


def test_a_scheme_in_any_case_is_the_scheme():
    cleaner = UrlCleaner()
    assert cleaner.clean("Https://maps.example.gov.uk/ows?SERVICE=wfs") == (
        "https://maps.example.gov.uk/ows?SERVICE=wfs",
        None,
    )
    assert cleaner.clean("HTTP://www.gov.uk/x")[0] == "https://www.gov.uk/x"  # a host known to serve https


def test_every_link_of_a_folded_row_is_kept_plain_http_flagged(tmp_path):
    result, records = _shards(
        tmp_path,
        DATASET,
        _row("wfs", "WFS", "Https://maps.example.gov.uk/getows.ashx?SERVICE=wfs&REQUEST=GetCapabilities"),
        _row("wms", "WMS", "http://inspire.supplier.example.com/wms?request=getCapabilities"),
        _row("csv", "CSV", "https://files.example.gov.uk/row.csv"),
        _row("csv-again", "CSV", "https://files.example.gov.uk/row.csv"),
    )
    links = {link["url"]: link for link in records["rights-of-way"]["links"]}
    # the dataset is not lost to its service's "Https://" (issue 33's Denbighshire rights of way)
    assert "https://maps.example.gov.uk/getows.ashx?SERVICE=wfs&REQUEST=GetCapabilities" in links
    plain = links["http://inspire.supplier.example.com/wms?request=getCapabilities"]
    assert plain["linkSecurity"] == "http-only" and "not encrypted" in plain["title"]
    accounted = result.report["quality"]["links-accounted"]
    assert accounted["kept"] == 2 and accounted["kept (plain http, flagged)"] == 1
    assert accounted["dropped: the same address as a link already listed"] == 1
    assert result.report["accounting"]["merged"] == 4


def test_a_rejected_dataset_row_takes_nothing_with_it(tmp_path):
    broken = dict(DATASET, url="ftp://files.example.gov.uk/rights-of-way")
    broken["documentation"] = broken["url"]
    service = dict(_row("wfs", "Rights of way WFS", "https://maps.example.gov.uk/wfs"), documentation=broken["url"])
    result, records = _shards(tmp_path, broken, service)
    assert [r.file for r in result.rejected] == ["shards/results-0.json#0"]
    assert "wfs" in records and result.report["accounting"]["merged"] == 0  # built on its own, not merged into nothing


def test_a_link_the_schema_refuses_is_dropped_with_its_reason_not_its_record(tmp_path):
    result, records = _shards(tmp_path, DATASET, _row("odd", "WMS", "https://user:secret@maps.example.gov.uk/wms"))
    assert "rights-of-way" in records and "links" not in records["rights-of-way"]
    assert not result.rejected
    dropped = [action for action in result.report["quality"]["links-accounted"] if action.startswith("dropped")]
    assert dropped == ["dropped: URL carries credentials"]


def test_placeholder_and_title_only_summaries_are_absent(tmp_path):
    result, records = _shards(
        tmp_path,
        dict(DATASET, notes="{{description}}"),
        _row(
            "allotments", "Allotments", "https://www.data.gov.uk/dataset/allotments", "Data Product", notes="Allotments"
        ),
        _row("empty", "Bus stops", "https://www.data.gov.uk/dataset/bus-stops", "Data Product", notes="null"),
    )
    for name in ("rights-of-way", "allotments", "empty"):
        assert records[name]["summary"].endswith("listed in data.gov.uk."), records[name]["summary"]
    quality = result.report["quality"]
    assert quality["placeholder-text-absent"]["changed"] == 2 and quality["title-repeat-absent"]["changed"] == 1


def test_test_rows_are_left_out_and_listed(tmp_path):
    page = "https://www.data.gov.uk/dataset/tpo-test"
    result, records = _shards(
        tmp_path,
        _row("tpo-test", "TPO Test", page, "Data Product", documentation=page),
        _row("tpo-test-wms", "WMS", "https://maps.example.gov.uk/tpo/wms", documentation=page),
        _row("mot", "MOT test history", "https://www.data.gov.uk/dataset/mot-history", "Data Product"),
    )
    assert set(records) == {"mot"}
    assert result.report["left_out"] == {"test-record": 1}
    (listed,) = result.report["quality"]["test-record-left-out"]["listed"]
    assert listed["title"] == "TPO Test" and listed["links"] == ["https://maps.example.gov.uk/tpo/wms"]
    accounted = result.report["quality"]["links-accounted"]
    assert accounted["dropped: its record is a test record, left out"] == 1 and accounted["kept"] == 0


def test_a_test_record_drops_only_the_links_counted_as_kept(tmp_path):
    result, records = _shards(tmp_path, DATASET, _row("csv", "CSV", "https://files.example.gov.uk/row.csv"))
    # a test record from another source, with a link of its own that no folded row gave it
    test = dict(
        records["rights-of-way"],
        id="allotments-test",
        title="Allotments test",
        url="https://www.data.gov.uk/dataset/allotments-test",
        links=[{"title": "WMS", "url": "https://maps.example.gov.uk/allotments/wms", "kind": "service"}],
    )
    kept = finish_estate([*result.records, Record(data=test, body="", file="other.json#0")], result.quality)
    assert [record.id for record in kept] == [records["rights-of-way"]["id"]]
    accounted = result.quality.as_dict()["links-accounted"]
    # the dataset's CSV is still kept; the test record's own link was never counted, so nothing moves
    assert accounted["kept"] == 1 and not any(action.startswith("dropped") for action in accounted)
    (listed,) = result.quality.as_dict()["test-record-left-out"]["listed"]
    assert listed["links"] == ["https://maps.example.gov.uk/allotments/wms"]


def _living(tmp_path, name: str, title: str, summary: str, url: str) -> dict:
    return {
        "id": f"resource:topic:{name}",
        "name": title,
        "description": summary,
        "url": url,
        "provenance": {"owner": "Department for Work and Pensions", "observed_at": "2026-08-08"},
        "dataset": "later-life",
    }


def test_names_merged_across_sources_stay_with_their_source_and_ids_still_answer(tmp_path):
    url = "https://www.gov.uk/check-state-pension"
    one = tmp_path / "one"
    one.mkdir()
    (one / "resources-0.json").write_text(
        json.dumps([_living(tmp_path, "forecast", "Check your State Pension forecast", "", url)]), "utf-8"
    )
    two = tmp_path / "two"
    two.mkdir()
    (two / "resources-0.json").write_text(
        json.dumps([_living(tmp_path, "pension", "Get a State Pension forecast", "Use the official forecast.", url)]),
        "utf-8",
    )
    first, second = (run_import("okf-uk-living", [folder]) for folder in (one, two))
    moved: dict[str, str] = {}
    log = QualityLog()
    kept, merged = combine_results([first, second], log, moved)
    (record,) = kept
    # the placeholder-free, person-written summary wins over the importer's own
    assert record.data["summary"] == "Use the official forecast."
    assert record.data["alsoKnownAs"] == [
        {"title": "Get a State Pension forecast", "source": "okf-uk-living: two/resources-0.json#0"}
    ]
    assert moved == {"living-topic-pension": "living-topic-forecast"} and merged["cross_source_merged"] == 1
    assert log.counts["summary-from-merged"]["changed"] == 1


def test_a_record_without_a_summary_of_its_own_says_where_it_is_listed(tmp_path):
    folder = tmp_path / "living"
    folder.mkdir()
    (folder / "resources-0.json").write_text(
        json.dumps([_living(tmp_path, "x", "Pay council tax", "no description", "https://www.gov.uk/pay-council-tax")]),
        "utf-8",
    )
    result = run_import("okf-uk-living", [folder])
    assert by_id(result)["living-topic-x"]["summary"] == "Official page from Department for Work and Pensions."
