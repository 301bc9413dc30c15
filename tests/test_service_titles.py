"""Services titled by what they serve: a visitor can tell a council's hundred
WFS layers apart, and each carries the name of the dataset it serves."""

from govsearch_build.estate import finish_estate
from govsearch_build.link_facts import service_kind
from govsearch_build.quality import QualityLog
from govsearch_build.records import Record
from govsearch_build.titles import names_only_its_server

DATASET = {
    "id": "dgu-advert-control-areas",
    "title": "Advert Control Areas",
    "summary": "Areas of special advertisement control.",
    "url": "https://www.data.gov.uk/dataset/advert-control-areas",
    "resourceType": "dataset",
    "publisher": "Barrow Borough Council",
    "accessStatus": "public",
    "collection": "government-apis",
    "source": {"kind": "okf-search-shards"},
}
LAYER = "https://webgis1.example.gov.uk/inspire/wfs?service=WFS&request=GetFeature&typeName=INSPIRE:ADVERTCONTROLAR"


def _service(id_: str, title: str, url: str = LAYER, **extra) -> dict:
    row = dict(DATASET, id=id_, title=title, url=url, resourceType="api", documentationUrl=DATASET["url"])
    return {**row, **extra}


def _finish(*rows: dict) -> dict[str, dict]:
    records = [Record(data=dict(row), body="", file=f"{row['id']}.md") for row in rows]
    return {r.id: r.data for r in finish_estate(records, QualityLog())}


def test_a_service_named_after_its_server_takes_its_datasets_title():
    found = _finish(DATASET, _service("wfs", "Barrow Council INSPIRE WFS GML 3.2 Download Service"))
    assert found["wfs"]["title"] == "Advert Control Areas (WFS)"
    assert found["dgu-advert-control-areas"]["title"] == "Advert Control Areas"


def test_a_layer_code_becomes_the_datasets_title_and_stays_searchable_as_a_keyword():
    found = _finish(
        DATASET, _service("code", "manc_advert_control", url="https://maps.example.gov.uk/geoserver/ows/wms")
    )
    assert found["code"]["title"] == "Advert Control Areas (WMS)"
    assert "manc_advert_control" in found["code"]["keywords"]


def test_a_service_repeating_its_datasets_title_says_what_kind_it_is():
    rest = "https://services.arcgis.com/x/arcgis/rest/services/Adverts/FeatureServer"
    found = _finish(DATASET, _service("rest", "Advert Control Areas", url=rest))
    assert found["rest"]["title"] == "Advert Control Areas (ArcGIS FeatureServer)"


def test_titles_that_name_the_data_are_left_alone():
    found = _finish(
        DATASET,
        _service("named", "Advertisement control zones 2019", url=LAYER + "&v=1"),
        _service("reviewed", "Barrow Council WFS Service", url=LAYER + "&v=2", evidence={"observed": "2026-07-14"}),
        _service(
            "orphan",
            "Barrow Council WFS Service",
            url=LAYER + "&v=3",
            documentationUrl="https://www.data.gov.uk/dataset/elsewhere",
        ),
    )
    assert found["named"]["title"] == "Advertisement control zones 2019"
    assert found["reviewed"]["title"] == "Barrow Council WFS Service"
    assert found["orphan"]["title"] == "Barrow Council WFS Service"


def test_server_titles_and_service_kinds():
    assert names_only_its_server("Runnymede Borough Council WMS Service", "Runnymede Borough Council")
    assert names_only_its_server("PNG Overview", "Powys County Council")
    assert not names_only_its_server("Runnymede Conservation Areas WMS", "Runnymede Borough Council")
    assert not names_only_its_server("Data Hub", "Runnymede Borough Council")
    assert service_kind("https://x.gov.uk/geoserver/waste/zones/wms?service=WMS&request=GetCapabilities") == "WMS"
    assert service_kind("https://x.gov.uk/arcgis/rest/services/A/MapServer/0") == "ArcGIS MapServer"
    assert service_kind("https://x.gov.uk/files/trees.geojson") == "GeoJSON"
    assert service_kind("https://x.gov.uk/page") is None


def test_a_code_title_is_spelled_as_words_and_found_by_any_of_them(tmp_path):
    from govsearch import Catalogue, DirectoryLoader
    from govsearch_build.config import load_config
    from govsearch_build.data_writer import write_data
    from sitefixture import SITE_TOML

    routes = dict(DATASET, id="occ-routes", title="OCC_Gritting_Routes", url="https://maps.example.gov.uk/routes")
    records = finish_estate([Record(data=routes, body="", file="occ.md")], QualityLog())
    assert records[0].data["title"] == "OCC Gritting Routes"
    write_data(load_config(SITE_TOML), records, tmp_path / "data", layout="sharded")
    catalogue = Catalogue.open(DirectoryLoader(tmp_path))
    for query in ("gritting routes", "OCC_Gritting_Routes"):
        found = catalogue.call("search_government_knowledge", {"query": query})
        assert [r["id"] for r in found["results"]] == ["occ-routes"], query


def test_only_words_written_as_codes_are_spelled_out():
    from govsearch_build.code_titles import spell_out_code

    assert spell_out_code("AM_S_MacclesfieldBoroughCouncilLocalPlanSavedPolicies_POLY_2017 (WMS)") == (
        "AM S Macclesfield Borough Council Local Plan Saved Policies POLY 2017 (WMS)"
    )
    # untrusted text keeps its characters: no code word, nothing changes
    for text in ("Hostile <script>window.__pwned = 1</script> title", "abc_Inspire:INSPIRE_Woodland", "a __b"):
        assert spell_out_code(text) == text
