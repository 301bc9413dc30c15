"""The data-quality rules on a small fixture of real-shaped rows: each rule's
effect on the records, and its count in the import report."""

from helpers import assert_accounted, assert_all_valid

from govsearch_build.code_titles import spell_code_word
from govsearch_build.importers import run_import
from govsearch_build.link_facts import format_name
from govsearch_build.publishers import PublisherAuthority
from govsearch_build.text_repair import collapse_repeats, repair_mojibake
from govsearch_build.titles import is_generic_title, item_name, names_only_its_publisher, without_format
from govsearch_build.url_identity import format_free_url, normalised_url

PUBLIC_BODY_HOSTS = ("maps.council.example.gov.uk",)


def _import(fixtures, authority):
    result = run_import(
        "okf-search-shards", [fixtures / "okf-quality"], authority=authority, http_hosts=PUBLIC_BODY_HOSTS
    )
    assert_all_valid(result, PUBLIC_BODY_HOSTS)
    assert_accounted(result)
    return result, {r.data["source"]["nativeId"]: r.data for r in result.records}


def test_formats_of_one_dataset_become_one_record_with_links(fixtures, authority):
    result, records = _import(fixtures, authority)
    wards = records["wards-2024"]
    assert wards["title"] == "Wards (December 2024) Boundaries"
    # a row titled by its format alone, by its server, or by its dataset again with a format
    assert [(link["title"], link["kind"]) for link in wards["links"]][:7] == [
        ("CSV", "download"),
        ("GeoJSON", "download"),
        ("KML", "download"),
        ("Esri Rest API", "service"),
        ("INSPIRE View Service (not encrypted)", "service"),
        ("SHP", "download"),
        ("WMS", "service"),
    ]
    # the supplier's plain-http link is kept and flagged, not dropped: every folded row's link is accounted for
    supplier = wards["links"][4]
    assert supplier["url"].startswith("http://inspire.supplier") and supplier["linkSecurity"] == "http-only"
    assert result.report["quality"]["links-accounted"]["kept (plain http, flagged)"] == 1
    folded = {"wards-csv", "wards-geojson", "wards-kml", "wards-rest", "wards-wms", "wards-shp", "wards-ons-wms"}
    assert not folded & set(records)
    # a row that names more than its dataset is a resource of its own
    assert records["wards-councillors"]["title"] == "Wards (December 2024) Boundaries with councillors"
    quality = result.report["quality"]["formats-merged"]
    assert quality["merged"] == 9
    assert result.report["accounting"]["merged"] == 9


def test_one_layer_in_several_formats_is_one_link_each_of_its_dataset(fixtures, authority):
    _, records = _import(fixtures, authority)
    # titled with words its dataset's title lacks, but at one address but for the format: a layer of the dataset
    assert not {"wards-layer-csv", "wards-layer-shp"} & set(records)
    layer = [link for link in records["wards-2024"]["links"] if "typeName=plan:polling_wards" in link["url"]]
    assert [(link["title"], link["kind"]) for link in layer] == [
        ("Polling Wards - Local Plan Policy (download as CSV)", "download"),
        ("Polling Wards - Local Plan Policy (download as SHP)", "download"),
    ]
    # what the rows call the layer stays searchable, once, without its format
    assert records["wards-2024"]["alsoKnownAs"] == [{"title": "Polling Wards - Local Plan Policy"}]
    # a page and its JSON API are not formats of one dataset's rows: both stay
    assert records["holidays-page"]["url"].endswith("/bank-holidays")
    assert records["holidays-json"]["url"].endswith("/bank-holidays.json")


def test_generic_titles_are_qualified_or_rejected(fixtures, authority):
    result, records = _import(fixtures, authority)
    assert records["parks-rest"]["title"] == "Parks and open spaces (Esri Rest API)"
    assert "number-only" not in records
    assert any(r.file.endswith("#7") and r.field == "title" and "'0'" in r.reason for r in result.rejected)
    generic = result.report["quality"]["generic-title"]
    assert generic["rejected"] == 1 and generic["changed"] >= 1
    assert not [r["title"] for r in records.values() if is_generic_title(r["title"])]


def test_repeats_types_mojibake_and_http_links(fixtures, authority):
    result, records = _import(fixtures, authority)
    quality = result.report["quality"]
    assert records["kadoe"]["title"] == "KADOE API" and "API API" not in records["kadoe"]["summary"]
    assert quality["repeated-words"]["changed"] == 2
    assert records["prices-file"]["resourceType"] == "dataset"
    assert quality["type-from-evidence"]["changed"] == 1
    assert records["solicitor"]["title"] == "Treasury Solicitor\u2019s Department datasets"
    assert "\u00e2" not in records["solicitor"]["summary"]
    assert quality["mojibake-repaired"]["changed"] == 2
    council = records["council-wfs"]
    assert council["url"].startswith("http://") and council["linkSecurity"] == "http-only"
    assert quality["http-only-kept"]["kept"] == 1
    # a record's own plain-http address off the listed hosts is still refused (a folded row's link is kept)
    assert "supplier-wfs" not in records and result.report["http_only_hosts"]["inspire.supplier.example.com"] == 1


def test_text_rules_leave_good_text_alone():
    assert repair_mojibake("Ynys Môn café £5 – “quoted”") == "Ynys Môn café £5 – “quoted”"
    assert repair_mojibake("Solicitorâ€™s") == "Solicitor\u2019s"  # cp1252 flavour
    assert collapse_repeats("Data Data Hub") == "Data Hub" and collapse_repeats("Bora 2 Bora") == "Bora 2 Bora"
    assert [
        is_generic_title(t) for t in ("CSV", "0", "ArcGIS Hub Dataset", "Link to WMS", "Data Hub", "Companies House")
    ] == [True, True, True, True, False, False]


def test_publisher_authority_repairs_garbled_organisation_names():
    authority = PublisherAuthority.from_results(
        [
            {
                "title": "Treasury Solicitor\u00e2\u0080\u0099s Department",
                "details": {"slug": "treasury-solicitor-s-department"},
            }
        ]
    )
    assert authority.resolve("treasury-solicitor-s-department") == "Treasury Solicitor\u2019s Department"


def test_normalised_url_sets_aside_what_does_not_name_another_resource():
    same = [
        "https://Api.Example.gov.uk/service?wsdl",
        "http://api.example.gov.uk/service?wsdl=",
        "https://api.example.gov.uk:443/service/?wsdl",
    ]
    assert len({normalised_url(url) for url in same}) == 1
    assert normalised_url("https://example.gov.uk/a?x=1") != normalised_url("https://example.gov.uk/a?x=2")
    assert normalised_url("https://example.gov.uk/A") != normalised_url("https://example.gov.uk/a")
    # an API's trailing version names the same API; a host's bare version may be a gateway's
    assert normalised_url("https://api.os.uk/search/places/v1/") == normalised_url("https://api.os.uk/search/places")
    assert normalised_url("https://x.gov.uk/a/V2.1") == normalised_url("https://x.gov.uk/a")
    assert normalised_url("https://api.x.gov.uk/v1") != normalised_url("https://api.x.gov.uk")
    assert normalised_url("https://x.gov.uk/a/v1/b") != normalised_url("https://x.gov.uk/a/b")
    wms = "https://map.example.gov.uk/WmsServer?service=WMS&request=GetCapabilities"
    assert normalised_url(wms + "&") == normalised_url(wms) != normalised_url(wms + "&layers=a")
    # one path percent-encoded or not is one address; an escaped "/" is not a separator
    operation = "https://bg.example.gov.uk/bg2/api/v1/applications/{application_reference}/estimate"
    assert normalised_url(operation) == normalised_url(operation.replace("{", "%7B").replace("}", "%7d"))
    assert normalised_url("https://x.gov.uk/a%2Fb") != normalised_url("https://x.gov.uk/a/b")


def test_a_service_request_names_its_item_by_its_one_layer():
    """MHCLG's four "Geoserver shapefile download service" rows differ only by the layer they ask."""
    ows = "http://maps.example.gov.uk/geoserver/dclg_inspire/ows?service=WFS&request=GetFeature&outputFormat=shape-zip"
    assert is_generic_title("Geoserver shapefile download service")
    assert item_name("", ows + "&typeName=dclg_inspire%3AEnglish_Town_Centres_2004") == "English Town Centres 2004"
    assert (
        item_name("", ows + "&typeName=dclg_inspire:English%20Ceremonial%20Counties") == "English Ceremonial Counties"
    )
    assert item_name("", ows + "&typeName=a:Wards,a:Parishes") is None  # two layers name no one item


def test_format_free_url_sets_aside_only_the_format():
    wfs = "https://maps.example.gov.uk/geoserver/wfs?service=WFS&request=GetFeature&typeName=a:b"
    assert format_free_url(wfs + "&outputFormat=csv") == format_free_url(wfs + "&outputFormat=shape-zip") == wfs
    esri = "https://gis.example.gov.uk/rest/services/X/MapServer/24/query?outFields=*&where=1%3D1"
    assert format_free_url(esri + "&f=geojson") == format_free_url(esri + "&f=json") == format_free_url(esri)
    assert format_free_url("https://x.gov.uk/a/data.csv") == format_free_url("https://x.gov.uk/a/data.geojson")
    # another layer, or another product named by a fragment, is another address
    assert format_free_url(wfs + "&outputFormat=csv") != format_free_url(wfs.replace("a:b", "a:c"))
    page = "https://developer.example.gov.uk/product#product="
    assert format_free_url(page + "tides") != format_free_url(page + "charts")
    assert [format_name(wfs + f"&outputFormat={f}") for f in ("csv", "shape-zip", "excel2007", "html")] == [
        "CSV",
        "SHP",
        "XLS",
        None,
    ]
    assert [without_format(t) for t in ("SuDS Links ESRI Geoservice", "Wards (download as CSV)", "Bus Services")] == [
        "SuDS Links",
        "Wards",
        "Bus Services",
    ]


# --- titles that name no resource (okf-titles: rows shaped like data.gov.uk's) ---
TITLES_HOSTS = ("maps.edc.example.gov.uk",)


def _titles(fixtures, authority):
    result = run_import("okf-search-shards", [fixtures / "okf-titles"], authority=authority, http_hosts=TITLES_HOSTS)
    assert_all_valid(result, TITLES_HOSTS)
    assert_accounted(result)
    return result, {r.data["source"]["nativeId"]: r.data for r in result.records}


def _links(record):
    return [(link["title"], link["kind"]) for link in record.get("links", [])]


def test_a_protocols_spelled_out_name_is_a_format(fixtures, authority):
    _, records = _titles(fixtures, authority)
    assert [is_generic_title(t) for t in ("Web Map Service", "Web coverage services", "Web Map")] == [True, True, False]
    # the CEH pattern: "Web Map Service" of a dataset's page is one of the dataset's links
    assert "land-cover-wms" not in records
    assert _links(records["land-cover"]) == [("Web Map Service", "service")]


def test_a_title_of_access_words_is_generic(fixtures, authority):
    result, records = _titles(fixtures, authority)
    assert [
        is_generic_title(t) for t in ("View Data", "View", "Browse and download", "Access to Work", "Data Hub")
    ] == [
        True,
        True,
        True,
        False,
        False,
    ]
    assert "allotments-view" not in records and _links(records["allotments"]) == [("View Data", "service")]
    # no dataset row to join: qualified with the item its page names
    assert records["cemeteries-view"]["title"] == "Cemeteries (View Data)"
    assert result.report["quality"]["generic-title"]["changed"] == 1


def test_html_is_a_format(fixtures, authority):
    _, records = _titles(fixtures, authority)
    assert is_generic_title("HTML") and not is_generic_title("HTML sitemap of the council")
    assert "sites-html" not in records and _links(records["sites"]) == [("HTML", "service")]


def test_an_access_label_with_only_its_publisher_names_no_resource(fixtures, authority):
    result, records = _titles(fixtures, authority)
    assert names_only_its_publisher("View & Download from CDC", "Craven District Council")
    assert names_only_its_publisher("View data from Craven District Council", "Craven District Council")
    assert not names_only_its_publisher("Companies House API", "Companies House")
    assert not names_only_its_publisher("SKDC INSPIRE WFS Service", "South Kesteven District Council")
    assert not names_only_its_publisher("View & Download from CDC", "Cheshire East Council")
    assert "toilets-hub" not in records and _links(records["toilets"]) == [("View & Download from EDC", "service")]
    # nothing names the item: rejected, and the rejection reported
    assert "orphan-hub" not in records
    assert [(r.file, r.field) for r in result.rejected] == [("okf-titles/results-0.fixture.json#7", "title")]
    assert result.report["quality"]["generic-title"]["rejected"] == 1
    assert records["edc-api"]["title"] == "Example District Council API"


def test_one_word_code_titles_are_spelled_from_the_row(fixtures, authority):
    result, records = _titles(fixtures, authority)
    # by its summary's initials, and by its summary's words run together
    assert records["aqma"]["title"] == "Air Quality Management Areas" and "aqma" in records["aqma"]["keywords"]
    assert records["article4"]["title"] == "Article 4" and "article4" in records["article4"]["keywords"]
    # a service of a dataset takes the dataset's title, so it is one of the dataset's links; its code a keyword
    assert "tpo-wfs" not in records and _links(records["tpo-orders"]) == [("WFS", "service")]
    assert "tpo" in records["tpo-orders"]["keywords"]
    # split by the words of the export's own titles
    assert records["property-wfs"]["title"] == "Council property register"
    assert "councilpropertyregister" in records["property-wfs"]["keywords"]
    # nothing spells it: left as it is
    assert records["mystery"]["title"] == "xqzt"
    assert result.report["quality"]["code-title-spelled"]["changed"] == 4


def test_spelling_a_code_uses_only_what_explains_it():
    vocabulary = frozenset({"council", "property", "register", "cycle", "way", "of"})
    assert spell_code_word("tpo", summary="Trees protected by Tree Preservation Orders.") == "Tree Preservation Orders"
    assert spell_code_word("aonb", summary="Areas of Outstanding Natural Beauty in the district") == (
        "Areas of Outstanding Natural Beauty"
    )
    assert spell_code_word("section106", summary="Section 106 agreements signed") == "Section 106"
    assert spell_code_word("aqmz", summary="aqmz", vocabulary=vocabulary) is None
    assert spell_code_word("tpo", dataset_title="Tree Preservation Orders", summary="tpo") == "Tree Preservation Orders"
    # a dataset titled by a code or a format explains nothing
    assert spell_code_word("tpo", dataset_title="tpo2", summary="tpo") is None


def test_sections_of_the_ons_website_are_left_out(fixtures, authority):
    result, records = _titles(fixtures, authority)
    assert records["ons-topic-economy"]["title"] == "Economy"
    assert "ons-topic-help" not in records and "contract-ons-topic-help-taxonomy" not in records
    assert result.report["left_out"] == {"taxonomy-entry-without-description": 2}
