"""One resource, one result: records of the same resource merge across collections.

A reviewed (deep-evidence) record and an imported one for the same API, under
URLs that differ only in case, scheme, a trailing slash or an empty query
value, become one record in both collections; filters by either collection
find it, an answer shows it once, and the reviewed facts win.
"""

import pytest

from govsearch import Catalogue, DirectoryLoader
from govsearch_build.config import load_config
from govsearch_build.data_writer import record_flags, write_data
from govsearch_build.estate import finish_estate
from govsearch_build.importers.cleaning import MAX_LINKS
from govsearch_build.importers.merge import merge_into
from govsearch_build.quality import QualityLog
from govsearch_build.records import Record
from sitefixture import SITE_TOML

REVIEWED = {
    "id": "de-weather-api",
    "title": "Met Office",
    "summary": "Reviewed: forecasts for UK places.",
    "url": "https://api.weather.example.gov.uk/v1",
    "resourceType": "api",
    "publisher": "Met Office",
    "accessStatus": "authentication-required",
    "accessNote": "Needs a key (checked).",
    "collection": "deep-evidence",
    "keywords": ["forecast"],
    "source": {"kind": "curated"},
    "evidence": {
        "observed": "2026-07-14",
        "accessEvidenceUrl": "https://api.weather.example.gov.uk/docs",
        "licenceStatus": "not-stated",
        "licenceTitle": "Not stated",
    },
}
IMPORTED = {
    "id": "apic-weather",
    "title": "Met Office",
    "summary": "Weather data.",
    "url": "https://API.weather.example.gov.uk/v1/",
    "resourceType": "api",
    "publisher": "Met Office",
    "accessStatus": "public",
    "collection": "government-apis",
    "licence": "Open Government Licence v3.0",
    "keywords": ["weather", "climate"],
    "documentationUrl": "https://api.weather.example.gov.uk/docs",
    "source": {"kind": "api-catalogue"},
}
WSDL = {
    "id": "okf-tax-wsdl",
    "title": "Tax service",
    "summary": "A SOAP service.",
    "url": "https://soap.example.gov.uk/tax?wsdl=",
    "resourceType": "api",
    "publisher": "HM Revenue & Customs",
    "accessStatus": "public",
    "collection": "ons",
    "source": {"kind": "okf-search-shards"},
}
WSDL_TWIN = dict(WSDL, id="okf-tax-wsdl-2", url="https://soap.example.gov.uk/tax?wsdl", collection="land-registry")
GOVUK_PAGE = {
    "id": "living-tax-page",
    "title": "Pay your tax",
    "summary": "How to pay.",
    "url": "https://www.gov.uk/pay-tax",
    "resourceType": "govuk-content",
    "publisher": "HM Revenue & Customs",
    "accessStatus": "public",
    "collection": "uk-living",
    "source": {"kind": "okf-uk-living"},
}


def _records():
    return [
        Record(data={**d, "keywords": list(d.get("keywords", []))}, body="", file=f"{d['id']}.md")
        for d in (IMPORTED, REVIEWED, WSDL, WSDL_TWIN, GOVUK_PAGE)
    ]


def test_same_resource_becomes_one_record_and_reviewed_facts_win():
    log = QualityLog()
    records = {r.id: r.data for r in finish_estate(_records(), log)}
    assert set(records) == {"de-weather-api", "okf-tax-wsdl", "living-tax-page"}
    weather = records["de-weather-api"]
    assert weather["title"] == "Met Office API"  # an API titled only by its publisher's name
    assert weather["collections"] == ["deep-evidence", "government-apis"]
    # the review's access and (absent) licence stand; the import adds keywords and its documentation link
    assert weather["accessStatus"] == "authentication-required" and "licence" not in weather
    assert weather["keywords"] == ["forecast", "weather", "climate"]
    assert weather["documentationUrl"] == "https://api.weather.example.gov.uk/docs"
    assert records["okf-tax-wsdl"]["collections"] == ["ons", "land-registry"]
    assert records["living-tax-page"]["collections"] == ["uk-living"]
    assert records["living-tax-page"]["licence"] == "Open Government Licence v3.0"  # GOV.UK's own statement
    quality = log.as_dict()
    assert quality["same-resource-merged"]["merged"] == 2 and quality["licence-from-govuk"]["changed"] == 1
    assert quality["generic-title"]["changed"] == 1


def test_an_annotated_record_wins_the_merge_with_its_import_but_claims_no_review():
    annotated = {
        **GOVUK_PAGE,
        "id": "pay-tax",
        "summary": "Settle a tax bill online, by bank transfer or by card.",
        "keywords": ["settle a tax bill"],
        "source": {"kind": "annotated", "file": "large/data/resources-N.json", "revision": "241209d2"},
    }
    # an import names its export's commit in full, an annotation by the 8 characters people quote
    commit = "241209d23cec7803da2525261908f3314ff45086"
    place = {**GOVUK_PAGE["source"], "file": "okf-uk-living/resources-0.json#3", "revision": commit}
    imported = Record(data={**GOVUK_PAGE, "keywords": ["hmrc"], "source": place}, body="", file="resources-0.json#3")
    # another export's row of the same page: its place is no place in the annotated export
    listed = {
        **GOVUK_PAGE,
        "id": "apic-pay",
        "source": {"kind": "api-catalogue", "file": "catalogue.csv#9", "revision": "9e01a7ad"},
    }
    # the imports come first, as imports read before the content folder would
    records = [imported, Record(data=listed, body="", file="catalogue.csv#9")]
    (merged,) = finish_estate([*records, Record(data=annotated, body="", file="uk-living/pay-tax.md")], QualityLog())
    assert (merged.id, merged.data["summary"]) == ("pay-tax", annotated["summary"])
    assert merged.data["keywords"] == ["settle a tax bill", "hmrc"]
    assert merged.data["source"]["kind"] == "annotated"
    # the page names the import's very row in the export, not the annotation's file pattern
    assert merged.data["source"]["file"] == "okf-uk-living/resources-0.json#3"
    assert "reviewed" not in record_flags(merged)


def test_apis_behind_one_gateway_stay_apart():
    """Two curated APIs at one gateway address, titled with no word in common, are two
    resources (a search for either finds it by its own name); an import there joins the first."""
    gateway = "https://api.gateway.example.gov.uk"
    lookup = dict(REVIEWED, id="de-address-lookup", title="Address Lookup", url=gateway)
    claims = dict(IMPORTED, id="claims-api", title="Citizen Claims", url=gateway + "/", source={"kind": "curated"})
    row = dict(IMPORTED, id="apic-award", title="Award Details", url=gateway)
    log = QualityLog()
    records = {
        r.id: r.data
        for r in finish_estate([Record(data=d, body="", file=f"{d['id']}.md") for d in (lookup, claims, row)], log)
    }
    assert set(records) == {"de-address-lookup", "claims-api"}
    assert records["de-address-lookup"]["title"] == "Address Lookup"
    assert records["claims-api"]["title"] == "Citizen Claims"
    assert log.as_dict()["same-resource-merged"]["merged"] == 1  # the import, into the first


def test_filters_by_any_collection_find_it_once(tmp_path):
    records = finish_estate(_records(), QualityLog())
    write_data(load_config(SITE_TOML), records, tmp_path / "data", layout="sharded")
    catalogue = Catalogue.open(DirectoryLoader(tmp_path))

    def ids(arguments):
        answer = catalogue.call("search_government_knowledge", arguments)
        return [r["id"] for r in answer["results"]], answer

    found, answer = ids({"query": "weather"})
    assert found == ["de-weather-api"]
    assert answer["results"][0]["collections"] == ["deep-evidence", "government-apis"]
    assert answer["facets"]["collections"] == {"deep-evidence": 1, "government-apis": 1}
    for collection in ("deep-evidence", "government-apis"):
        assert ids({"query": "weather", "collections": [collection]})[0] == ["de-weather-api"]
    assert ids({"query": "weather", "collections": ["ons"]})[1]["total"] == 0
    both, answer = ids({"query": "tax", "collections": ["ons", "land-registry"]})
    assert both == ["okf-tax-wsdl"] and answer["total"] == 1


@pytest.mark.parametrize("layout", ["sharded", "single"])
def test_a_merged_records_id_still_finds_and_fetches_the_record(tmp_path, layout):
    """An id from an earlier build (an agent kept it) names the record it was merged into."""
    import fastjsonschema

    from govsearch import load_schema
    from govsearch_build.estate import record_former_ids

    moved: dict[str, str] = {}
    records = finish_estate(_records(), QualityLog(), moved)
    record_former_ids(records, moved)
    write_data(load_config(SITE_TOML), records, tmp_path / "data", layout=layout)
    catalogue = Catalogue.open(DirectoryLoader(tmp_path))
    found = catalogue.call("search_government_knowledge", {"query": "apic-weather"})
    assert found["match_mode"] == "identifier" and [r["id"] for r in found["results"]] == ["de-weather-api"]
    fetched = catalogue.call("get_resource_record", {"recordId": "apic-weather"})
    fastjsonschema.compile(load_schema("get_resource_record", "output"))(fetched)
    assert fetched["record"]["id"] == "de-weather-api" and fetched["record"]["formerIds"] == ["apic-weather"]
    assert fetched["record"]["recordUrl"].endswith("/records/de-weather-api/")
    assert catalogue.call("get_resource_record", {"recordId": "apic-nothing"})["error"]["code"] == "not_found"


PLACES = dict(
    REVIEWED,
    id="de-places-api",
    title="Places API",
    summary="Reviewed: address search built on a national address base.",
    url="https://api.places.example.gov.uk/search/places",
    keywords=["addresses"],
)
PLACES_V1 = dict(
    IMPORTED,
    id="places-api-v1",
    title="Places API",
    summary="Address look-up by postcode or reference number.",
    url="https://api.places.example.gov.uk/search/places/v1",
    source={"kind": "curated"},
)
PLACES_ROW = dict(IMPORTED, id="apic-places", title="Address Finder", summary="Find an address.", url=PLACES_V1["url"])


def _places(*extra):
    records = [Record(data=dict(d), body="", file=f"{d['id']}.md") for d in (PLACES, PLACES_V1, PLACES_ROW, *extra)]
    return finish_estate(records, QualityLog())


def test_an_api_with_and_without_its_version_is_one_record_that_keeps_every_name():
    (places,) = _places()
    data = places.data
    assert places.id == "de-places-api" and data["url"] == PLACES["url"]
    assert data["summary"] == PLACES["summary"]  # the review's words lead; the others' stay as aliases
    assert data["alsoKnownAs"] == [  # a URL once; a name or summary the record already holds not at all
        {
            "title": "Places API",
            "summary": PLACES_V1["summary"],
            "url": PLACES_V1["url"],
            "source": "curated: places-api-v1.md",
        },
        {"title": "Address Finder", "summary": "Find an address.", "source": "api-catalogue: apic-places.md"},
    ]
    assert data["collections"] == ["deep-evidence", "government-apis"]


def test_a_gateway_hosts_bare_version_is_not_another_spelling():
    gateway = dict(PLACES_ROW, id="apic-gateway", title="Claims", url="https://api.places.example.gov.uk/v1")
    bare = dict(PLACES_ROW, id="apic-bare", title="Gateway", url="https://api.places.example.gov.uk")
    ids = {r.id for r in _places(gateway, bare)}
    assert ids == {"de-places-api", "apic-gateway", "apic-bare"}


@pytest.mark.parametrize("layout", ["sharded", "single"])
def test_a_merged_records_words_still_find_it(tmp_path, layout):
    """'lookup' is only in the merged records' summaries: the one record is found by
    all the words of a query, in the strictest tier, and fetched with its aliases as text."""
    import fastjsonschema

    from govsearch import load_schema

    records = _places(dict(GOVUK_PAGE, summary="How to look up an address and pay."))
    write_data(load_config(SITE_TOML), records, tmp_path / "data", layout=layout)
    catalogue = Catalogue.open(DirectoryLoader(tmp_path))
    answer = catalogue.call("search_government_knowledge", {"query": "address look-up postcode"})
    assert answer["match_mode"] == "all_terms" and [r["id"] for r in answer["results"]][:1] == ["de-places-api"]
    finder = catalogue.call("search_government_knowledge", {"query": "address finder"})
    assert finder["results"][0]["id"] == "de-places-api" and finder["results"][0]["matchMode"] == "all_terms"
    fetched = catalogue.call("get_resource_record", {"recordId": "de-places-api"})
    fastjsonschema.compile(load_schema("get_resource_record", "output"))(fetched)
    assert fetched["record"]["alsoKnownAs"][0]["url"] == PLACES_V1["url"]


@pytest.mark.parametrize("layout", ["sharded", "single"])
def test_for_the_same_evidence_a_restricted_service_ranks_below_a_public_one(tmp_path, layout):
    """Access is part of the prior (docs/ranking.md): two APIs saying the same, one
    only for eligible organisations; the one anyone may use comes first, the other stays."""
    import fastjsonschema

    from govsearch import load_schema

    words = {"title": "Address Lookup", "summary": "Find addresses by UPRN.", "publisher": "Example Department"}
    internal = dict(IMPORTED, **words, id="internal-lookup", url="https://a.example.gov.uk", accessStatus="restricted")
    public = dict(IMPORTED, **words, id="public-lookup", url="https://b.example.gov.uk", accessStatus="public")
    keyed = dict(public, id="keyed-lookup", url="https://c.example.gov.uk", accessStatus="authentication-required")
    records = [Record(data=dict(d), body="", file=f"{d['id']}.md") for d in (internal, public, keyed)]
    write_data(load_config(SITE_TOML), records, tmp_path / "data", layout=layout)
    answer = Catalogue.open(DirectoryLoader(tmp_path)).call("search_government_knowledge", {"query": "UPRN lookup"})
    fastjsonschema.compile(load_schema("search_government_knowledge", "output"))(answer)
    # One title, publisher and type: a repeated title, shown as one result (ranking.series), in rank order.
    (lead,) = answer["results"]
    assert [lead["id"], *(other["id"] for other in lead["others"])][-1] == "internal-lookup" and answer["total"] == 3
    assert "restricted_access" not in lead.get("reasons", [])
    internal = Catalogue.open(DirectoryLoader(tmp_path)).call(
        "search_government_knowledge", {"query": "UPRN lookup", "accessStatuses": ["restricted"]}
    )
    assert "restricted_access" in internal["results"][0]["reasons"]


@pytest.mark.parametrize("layout", ["sharded", "single"])
def test_a_hyphenated_compound_and_its_joined_spelling_find_each_other(tmp_path, layout):
    """'wellbeing' finds 'well-being' and 'well-being' finds 'wellbeing', with every word
    of the query held (all_terms), in the title where the title holds it."""
    hyphen = dict(GOVUK_PAGE, id="wb-stats", title="Personal well-being in the UK", url="https://x.example.gov.uk/a")
    joined = dict(GOVUK_PAGE, id="wb-guide", title="Wellbeing at work", url="https://x.example.gov.uk/b")
    other = dict(GOVUK_PAGE, id="being", title="Being well", summary="Being a healthy person.", url="https://y.gov.uk")
    records = [Record(data=dict(d), body="", file=f"{d['id']}.md") for d in (hyphen, joined, other)]
    write_data(load_config(SITE_TOML), records, tmp_path / "data", layout=layout)
    catalogue = Catalogue.open(DirectoryLoader(tmp_path))

    def found(query):
        answer = catalogue.call("search_government_knowledge", {"query": query})
        return {r["id"] for r in answer["results"] if r["matchMode"] == "all_terms"}, answer["results"][0]

    assert found("personal wellbeing")[0] == {"wb-stats"}
    assert "all_words_in_title" in found("personal wellbeing")[1]["reasons"]
    assert found("wellbeing")[0] == {"wb-stats", "wb-guide"}
    assert found("well-being")[0] == {"wb-stats", "wb-guide", "being"}  # lunr reads it as two words
    assert found("well-being at work")[0] == {"wb-guide"}


def test_compounds_are_two_parts_of_letters_and_each_spelling_gets_the_other():
    from govsearch_build.compounds import find_compounds, other_spellings

    compounds = find_compounds(["Personal well-being", "address look-up", "state-of-the-art", "e-mail", "covid-19"])
    assert compounds == {"wellbeing": "well being", "lookup": "look up"}
    assert other_spellings("Wellbeing and LOOKUP", compounds) == ["well being", "look up"]
    assert other_spellings("well-being, well-being", compounds) == ["wellbeing"]
    assert other_spellings("email", compounds) == [] and other_spellings("well", {}) == []


def _imported(**fields) -> Record:
    data = dict(IMPORTED, source={"kind": "okf-search-shards"}, **fields)
    return Record(data=data, body="", file=f"{data['id']}.json#0")


def test_code_titles_are_qualified_from_the_rows_own_facts():
    quadrant = _imported(id="q-9", title="Q 9", summary="PDF map of quadrant 9", url="https://x.example/q-9")
    wildlife = _imported(
        id="lwls",
        title="LWLS20131120",
        summary="The local wildlife data sets are captured against OS master map. They are maintained annually.",
        url="https://x.example/lwls",
        publisher="Gateshead Council",
    )
    plan = _imported(id="plan", title="COMMON.PLAN_ARTICLE_4_C3_TO_C4", url="https://x.example/plan")
    log = QualityLog()
    titles = {r.id: r.data["title"] for r in finish_estate([quadrant, wildlife, plan], log)}
    assert titles == {
        "q-9": "Q 9: PDF map of quadrant 9",
        "lwls": "LWLS20131120, from Gateshead Council",
        "plan": "Common plan article 4 C3 to C4",
    }
    assert log.counts["code-title-qualified"]["changed"] == 2 and "LWLS20131120" in wildlife.data["keywords"]


def test_one_type_rule_licence_from_the_description_and_links_told_apart():
    # an API product at its documentation page is api-documentation, whoever publishes it; at its endpoint, an api
    hmrc = _imported(
        id="vat",
        title="Safety and Security Import Declarations",
        url="https://developer.service.hmrc.gov.uk/api-documentation/docs/api/service/import-control-entry-declaration-store",
    )
    ukho = _imported(
        id="tides", title="UK Tidal API", url="https://developer.admiralty.co.uk/product#product=uk-tidal-api"
    )
    guide = _imported(
        id="guide", title="Vehicle Enquiry", url="https://driver-vehicle-licensing.api.gov.uk/vehicle-enquiry"
    )
    app = _imported(id="app", url="https://council.maps.arcgis.com/apps/webappviewer/index.html?id=1")
    flood = _imported(
        id="flood",
        url="https://flood.example.gov.uk/",
        accessStatus="access-not-established",
        summary="Provided as open data under the Open Government Licence with no requirement for registration.",
        links=[
            {"title": "CSV", "url": "https://a.example/x.csv?srsName=EPSG:27700", "kind": "download"},
            {"title": "CSV", "url": "https://a.example/x.csv?srsName=EPSG:4326", "kind": "download"},
            {"title": "CSV", "url": "https://a.example/x.csv?srsName=EPSG:4326", "kind": "download"},
        ],
    )
    flood.data.pop("licence", None)  # the catalogue states none; the description does
    records = {r.id: r.data for r in finish_estate([hmrc, ukho, guide, app, flood], QualityLog())}
    types = [records[k]["resourceType"] for k in ("vat", "tides", "guide", "app")]
    assert types == ["api-documentation", "api", "api", "dataset"]
    assert records["flood"]["licence"] == "Open Government Licence (stated in the description)"
    assert (
        records["flood"]["accessStatus"] == "public" and "stated in the description" in records["flood"]["accessNote"]
    )
    assert [link["title"] for link in records["flood"]["links"]] == ["CSV (British National Grid)", "CSV (WGS 84)"]


def test_names_survive_merge_chains_and_moved_ids_point_at_the_final_record():
    reviewed = Record(data=dict(REVIEWED), body="", file="de.md")
    row = _imported(
        id="apic-met",
        title="Met Office forecasts",
        url="https://api.weather.example.gov.uk/v1/",
        alsoKnownAs=[{"title": "Weather DataHub", "source": "okf-uk-living: resources-0.json#3"}],
    )
    moved = {"living-weather": "apic-met"}
    log = QualityLog()
    (record,) = finish_estate([reviewed, row], log, moved)
    assert [alias["title"] for alias in record.data["alsoKnownAs"]] == ["Met Office forecasts", "Weather DataHub"]
    assert moved == {"living-weather": "de-weather-api", "apic-met": "de-weather-api"}


def test_a_test_record_spelled_from_a_code_is_left_out_and_listed():
    row = _imported(id="allotmentstest", title="Allotment test", url="https://x.example/allotments-test")
    log = QualityLog()
    assert finish_estate([row], log) == []
    assert log.as_dict()["test-record-left-out"]["listed"][0]["title"] == "Allotment test"


def test_a_link_dropped_at_the_schemas_limit_is_counted_dropped_not_kept():
    full = [{"title": f"Layer {n}", "url": f"https://x.example/layer-{n}", "kind": "service"} for n in range(MAX_LINKS)]
    target = _imported(id="roads", title="Roads", url="https://x.example/roads", links=full)
    extra = "https://x.example/roads.csv"
    other = _imported(
        id="roads-copy",
        title="Roads",
        url="https://x.example/roads",
        links=[{"title": "CSV", "url": extra, "kind": "download"}],
    )
    log = QualityLog()
    log.note_link_kept("kept", other.file, "CSV", extra)  # as the importer counted it when its row was folded
    merge_into(target, other, log=log)
    assert extra not in {link["url"] for link in target.data["links"]}
    accounted = log.as_dict()["links-accounted"]
    assert accounted["kept"] == 0 and accounted[f"dropped: the record already lists {MAX_LINKS} links"] == 1
