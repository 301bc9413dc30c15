"""Each importer on small hand-written fixtures: mapping, reports, provenance."""

from helpers import assert_accounted, assert_all_valid, by_id

from govsearch_build.importers import run_import


def test_api_catalogue(fixtures, authority):
    result = run_import("api-catalogue", [fixtures / "api-catalogue"], authority=authority)
    assert_all_valid(result)
    assert_accounted(result)
    records = by_id(result)
    rep = result.report
    # 3 org rows + 6 + 2 API rows
    assert rep["inputs"] == 11
    alpha = records["apic-alpha-tax"]
    # the shared endpoint is replaced by the API's own documentation page
    assert alpha["url"] == "https://docs.example.gov.uk/alpha"
    assert alpha["publisher"] == "HM Revenue & Customs"
    assert alpha["summary"] == "Alpha lets software - submit returns - read obligations"
    assert alpha["accessStatus"] == "access-not-established" and "does not state" in alpha["accessNote"]
    assert alpha["keywords"] == ["England", "Scotland", "Wales"]
    assert alpha["source"]["file"] == "api-catalogue/catalogue.csv#row 1"
    assert records["apic-beta-tax"]["licence"] == "Open Government Licence v3.0"
    assert records["apic-beta-tax"]["accessStatus"] == "public"
    land = records["apic-land-search"]
    assert land["collection"] == "land-registry" and land["accessStatus"] == "restricted"
    assert land["documentationUrl"] == "https://land.example.gov.uk/docs"
    # a documentation page of one API only is that API's documentation link, not a second result
    assert "apic-doc-land-search" not in records
    assert rep["quality"]["documentation-linked"]["merged"] == 1
    # two catalogue CSVs list "Shared One": merged, reported
    assert rep["duplicates_merged"] == 1
    assert any("Shared One" in d.get("reason", "") for d in rep["duplicates"])
    # Shared One/Two share endpoint and docs: left out, named by the documentation record
    assert rep["left_out"] == {"shared-url-listed-in-documentation-record": 2}
    shared_doc = [r for r in records.values() if r["url"] == "https://engineering.example.gov.uk/docs"][0]
    assert shared_doc["keywords"] == ["Shared One", "Shared Two"]
    # unknown licence value reported with count and example
    assert rep["unmapped"]["license"]["Some Bespoke Terms"]["count"] == 1
    assert records["apic-odd-licence-api"]["licence"] == "Some Bespoke Terms"
    # http-only host rejected with file/field/reason
    assert any(r.field == "url" and "http-only" in r.reason for r in result.rejected)
    # orgs: url from the authority when the row has none; unmatched publisher reported
    assert (
        records["apic-org-hm-revenue-customs"]["url"]
        == "https://www.gov.uk/government/organisations/hm-revenue-customs"
    )
    assert records["apic-org-hm-land-registry"]["collection"] == "land-registry"
    assert rep["unmatched_publishers"]["Tiny Test Council"] >= 1
    assert any(r.file == "api-catalogue/organisation.csv#row 3" for r in result.rejected)


def test_govuk_organisations(fixtures):
    result = run_import("govuk-organisations", [fixtures / "govuk-organisations"])
    assert_all_valid(result)
    assert_accounted(result)
    records = by_id(result)
    hmrc = records["govuk-org-hm-revenue-customs"]
    assert hmrc["url"] == "https://www.gov.uk/government/organisations/hm-revenue-customs"
    assert hmrc["accessStatus"] == "not-applicable" and hmrc["resourceType"] == "organisation"
    # The ordinary states' words ("live", "exempt") are no words of the organisation's:
    # "how many people live in ..." must not find every live organisation.
    assert hmrc["summary"] == "Ministerial department."
    assert hmrc["publisher"] == "HM Revenue & Customs" and "HMRC" in hmrc["keywords"]
    assert "live" not in hmrc["keywords"]
    ons = records["govuk-org-office-for-national-statistics"]
    assert ons["summary"] == "Non-ministerial department, has a separate website." and "exempt" not in ons["keywords"]
    old = records["govuk-org-old-example-board"]
    assert old["summary"] == (
        "Other organisation, closed (replaced) in 2016; part of HM Revenue & Customs; replaced by HM Land Registry."
    )
    assert "closed" in old["keywords"]
    assert records["govuk-org-land-registry"]["collection"] == "land-registry"
    assert records["govuk-org-office-for-national-statistics"]["collection"] == "ons"
    assert result.report["unmapped"]["details.govuk_status"]["paused"]["count"] == 1
    assert result.report["rejected"] == 1 and result.rejected[0].field == "title"


def test_okf_search_shards(fixtures, authority):
    result = run_import("okf-search-shards", [fixtures / "okf-shards"], authority=authority)
    assert_all_valid(result)
    assert_accounted(result)
    records = by_id(result)
    rep = result.report
    ds = records["okf-ds-one"]
    assert ds["resourceType"] == "dataset" and ds["collection"] == "ons" and ds["accessStatus"] == "public"
    assert ds["summary"].endswith("full resolution and…")  # the source's truncation kept as it is
    assert ds["source"]["file"] == "okf-shards/results-0.fixture.json.gz#0"
    # the contract describing the dataset shares its url: merged, reported
    assert "okf-contract-ds-one" not in records and rep["duplicates_merged"] == 1
    assert rep["duplicates"][0]["into"] == "okf-shards/results-0.fixture.json.gz#0"
    # http on an ArcGIS Hub host is upgraded; an unknown http-only host is rejected and counted
    assert records["okf-ep-arcgis"]["url"].startswith("https://example-council.opendata.arcgis.com/")
    assert rep["http_only_hosts"] == {"inspire.example.net": 1}
    assert rep["unmatched_publishers"] == {"Ordnance Survey": 3, "Example Borough Council": 1}
    os_op = records["okf-os-vts"]
    assert os_op["accessStatus"] == "authentication-required" and "API key" in os_op["accessNote"]
    assert os_op["licence"] == "Ordnance Survey licence required"
    nc = records["okf-nc-data"]
    assert nc["accessStatus"] == "restricted" and "non-commercial" in nc["accessNote"]
    assert nc["publisher"] == "HM Revenue & Customs"
    ns = records["okf-ns-data"]
    assert (
        ns["accessStatus"] == "access-not-established" and "licence" not in ns and ns["collection"] == "land-registry"
    )
    assert rep["unmapped"]["license_id"]["made-up-licence"]["count"] == 1
    assert records["okf-weird-lic"]["accessStatus"] == "access-not-established"
    # API Products sharing an endpoint get their own documentation pages as url
    assert records["okf-hmrc-a"]["url"] == "https://developer.example.gov.uk/agent"
    assert records["okf-hmrc-a"]["accessStatus"] == "access-not-established"  # open licence, access model unknown
    assert records["okf-portal"]["resourceType"] == "catalogue-record"
    assert "Prototype evidence only" in records["okf-portal"]["accessNote"]
    assert rep["unmapped"]["record_type"]["Something New"]["count"] == 1


def test_okf_hmlr_csv(fixtures, authority):
    result = run_import("okf-hmlr-csv", [fixtures / "okf-hmlr"], authority=authority, revision="4580c9e4")
    assert_all_valid(result)
    assert_accounted(result)
    records = by_id(result)
    rep = result.report
    assert rep["left_out"] == {"software-repository": 1}
    news = records["hmlr-000000000000000000000002"]
    assert news["summary"] == "A line with an escape and markup."
    assert news["resourceType"] == "govuk-content" and news["collection"] == "land-registry"
    assert news["updated"] == "2019-07-11" and news["observed"] == "2026-07-29"
    assert news["source"] == {
        "kind": "okf-hmlr-csv",
        "file": "okf-hmlr/catalogue.csv#row 2",
        "revision": "4580c9e4",
        "observed": "2026-07-29",
        "nativeId": "govuk:https://www.gov.uk/government/news/x",
    }
    api = records["hmlr-000000000000000000000003"]
    assert api["resourceType"] == "api" and api["accessStatus"] == "restricted"
    assert "certificate-based access" in api["accessNote"]
    assert rep["unmatched_publishers"] == {"HM Land Registry and partners": 1}
    assert rep["unmapped"]["kind"]["podcast"]["count"] == 1
    assert rep["unmapped"]["access_state"]["sometimes"]["count"] == 1
    assert rep["trimmed"] == {"summary": 1}
    assert records["hmlr-000000000000000000000006"]["summary"].endswith("…")
    assert [r.field for r in result.rejected] == ["url"]


def test_okf_uk_living(fixtures, authority):
    result = run_import("okf-uk-living", [fixtures / "okf-living" / "resources-0.json"], authority=authority)
    assert_all_valid(result)
    assert_accounted(result)
    rep = result.report
    assert rep["inputs"] == 4 and rep["built"] == 2 and rep["duplicates_merged"] == 1 and rep["rejected"] == 1
    pension = [r.data for r in result.records if r.data["url"] == "https://www.gov.uk/check-state-pension"][0]
    assert pension["resourceType"] == "govuk-content" and pension["collection"] == "uk-living"
    assert pension["keywords"] == ["get state pension forecast", "get state pension forecast scotland"]
    assert pension["observed"] == "2026-08-08"
    assert rep["unmatched_publishers"] == {"Department for Work and Pensions": 2, "Belfast City Council": 1}


def test_okf_markdown(fixtures, authority):
    result = run_import("okf-markdown", [fixtures / "okf-living" / "services"], authority=authority)
    assert_all_valid(result)
    assert_accounted(result)
    records = by_id(result)
    rep = result.report
    family = records["okfmd-get-state-pension-forecast"]
    assert family["url"] == "https://www.gov.uk/check-state-pension"
    # the owner of that page comes from the bundle's resources index
    assert family["publisher"] == "Department for Work and Pensions"
    top_up = records["okfmd-state-pension-top-up"]
    # first official route already used by another record: the next route is used
    assert top_up["url"] == "https://www.gov.uk/voluntary-national-insurance-contributions"
    route = records["okfmd-scotland-route"]
    assert route["url"] == "https://www.scotcourts.gov.uk/confirmation" and route["publisher"] == "HM Revenue & Customs"
    assert route["resourceType"] == "guidance" and "scotland" in route["keywords"]
    body = [r for r in result.records if r.id == "okfmd-get-state-pension-forecast"][0].body
    assert "(https://www.gov.uk/check-state-pension)" in body
    assert rep["left_out"] == {"not-a-record": 1}
    assert {r.file for r in result.rejected} == {"services/broken.md"}
    # a family with no address of its own is another name of the service it links, with its source
    assert {"title": "Administer an estate", "source": "okf-markdown: services/family-without-links.md"}.items() <= (
        route["alsoKnownAs"][0].items()
    )
    assert rep["accounting"]["merged"] == 1 and rep["duplicates"][0]["file"] == "services/family-without-links.md"
