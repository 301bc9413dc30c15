"""One resource listed twice becomes one record, by rules over what the records say.

Each case is a shape the full estate shows (issue 12): one ArcGIS Hub item on two
hub sites or under /maps/ and /datasets/, one OGC endpoint asked under WMS and
WFS, a data.gov.uk dataset published again under a numbered slug, a service and
the dataset page that describes it, an API and its own reference documentation.
Each merge keeps what the other record called the resource and is counted; what
the records show to be different stays apart.
"""

from govsearch_build.estate import finish_estate
from govsearch_build.quality import QualityLog
from govsearch_build.records import Record

ROW = {
    "summary": "Boundaries.",
    "resourceType": "dataset",
    "publisher": "Example Council",
    "accessStatus": "public",
    "collection": "government-apis",
    "source": {"kind": "okf-search-shards"},
}
ITEM = "0a50a3a812524875a4bcd3c18a308b46"


def _row(id: str, title: str, url: str, **extra) -> dict:
    return {**ROW, "id": id, "title": title, "url": url, **extra}


def _finish(*rows: dict) -> tuple[dict[str, dict], dict]:
    log = QualityLog()
    records = finish_estate([Record(data=dict(row), body="", file=f"{row['id']}.md") for row in rows], log)
    return {record.id: record.data for record in records}, log.as_dict()


def test_one_hub_item_on_two_hub_sites_or_two_paths_is_one_record():
    by_id = _row("by-id", "Wards", f"https://osni.spatial-ni.opendata.arcgis.com/datasets/{ITEM}_5")
    other_host = _row("other-host", "Wards", f"https://osni-spatial-ni.opendata.arcgis.com/datasets/{ITEM}_5")
    downloads = [{"title": "CSV", "url": f"https://x.hub.arcgis.com/api/download/v1/items/{ITEM}/csv?layers=5"}]
    slug = _row("slug", "Wards on Open Data Site", "https://x.hub.arcgis.com/datasets/org::wards", links=downloads)
    as_map = _row("as-map", "Wards", "https://x.hub.arcgis.com/maps/org::wards")
    other_layer = _row("other-layer", "Wards", f"https://osni.spatial-ni.opendata.arcgis.com/datasets/{ITEM}_6")
    records, quality = _finish(by_id, other_host, slug, as_map, other_layer)
    assert set(records) == {"by-id", "other-layer"}
    assert {alias.get("url") for alias in records["by-id"]["alsoKnownAs"]} >= {other_host["url"], slug["url"]}
    assert quality["hub-item-merged"]["merged"] == 3


def test_one_ogc_endpoint_under_two_protocols_is_one_record_with_both_links():
    ows = "https://ogc.example.ac.uk/cgi-bin/Geology/ows"
    wms = _row("wms", "Europe geology", f"{ows}?service=WMS&request=GetCapabilities&", resourceType="api")
    wfs = _row("wfs", "Europe geology", f"{ows}?service=WFS&request=GetCapabilities&", resourceType="api")
    layer = _row("layer", "Town centres", f"{ows}?service=WFS&request=GetFeature&typeName=ws:Town_Centres")
    records, quality = _finish(wms, wfs, layer)
    assert set(records) == {"wms", "layer"}
    assert {"title": "WFS", "url": wfs["url"], "kind": "service"} in records["wms"]["links"]
    assert quality["service-endpoints-merged"]["merged"] == 1


def test_a_dataset_published_again_is_one_record_only_with_the_same_summary_and_date():
    page = "https://www.data.gov.uk/dataset/property-land-owned"
    first = _row("owned", "Property land owned", page, updated="2026-07-08")
    again = _row("owned1", "Property land owned", page + "1", updated="2026-07-08")
    later = _row("owned2", "Property land owned", page + "2", updated="2016-11-22")
    records, quality = _finish(first, again, later)
    assert set(records) == {"owned", "owned2"}  # another date: perhaps another edition, so it stays
    assert records["owned"]["alsoKnownAs"] == [
        {"title": "Property land owned", "url": again["url"], "source": "okf-search-shards: owned1.md"}
    ]
    assert quality["republished-dataset-merged"]["merged"] == 1


def test_a_service_titled_as_the_page_that_describes_it_is_a_link_of_that_page():
    page = _row("page", "Minerals theme (OGC WMS)", "https://www.data.gov.uk/dataset/minerals-theme-ogc-wms")
    service = _row(
        "service",
        "GeoIndex_Onshore_minerals_wms",  # takes its page's title, then is the page's service
        "https://map.example.ac.uk/arcgis/services/minerals/MapServer/WmsServer?service=WMS&request=GetCapabilities",
        resourceType="api",
        documentationUrl=page["url"],
    )
    records, quality = _finish(service, page)
    assert set(records) == {"page"}
    assert {"title": "WMS", "url": service["url"], "kind": "service"} in records["page"]["links"]
    assert quality["service-page-merged"]["merged"] == 1


def test_an_api_and_its_own_reference_documentation_are_one_record():
    api = _row("api", "Asset management", "https://environment.example.gov.uk/asset-management", resourceType="api")
    docs = _row(
        "docs", "Asset Management", api["url"] + "/doc/reference", resourceType="api-documentation", summary="Docs."
    )
    other = _row("other", "Asset management", "https://environment.example.gov.uk/other", resourceType="api")
    records, quality = _finish(docs, api, other)
    assert set(records) == {"api", "other"}
    assert records["api"]["documentationUrl"] == docs["url"]
    assert quality["api-documentation-merged"]["merged"] == 1
