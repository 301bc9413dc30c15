"""One attribution rule for record pages and the record tool (govsearch.attribution)."""

import json

from govsearch import Catalogue, DirectoryLoader
from govsearch.attribution import CATALOGUE_ATTRIBUTION, OGL_ATTRIBUTION, attribution
from govsearch_build.config import load_config
from govsearch_build.data_writer import write_data
from govsearch_build.records import Record, load_content
from sitefixture import FIXTURE_CORPUS, SITE_TOML

IMPORTED = {"source": {"kind": "api-catalogue"}}


def test_the_words_never_license_a_resource_under_another_licence():
    assert attribution({**IMPORTED, "licence": "Creative Commons Attribution 4.0"}) == CATALOGUE_ATTRIBUTION
    assert attribution(IMPORTED) == CATALOGUE_ATTRIBUTION
    assert attribution({**IMPORTED, "licence": "Open Government Licence v3.0"}) == OGL_ATTRIBUTION
    assert attribution({"licence": "Open Government Licence v3.0"}) == OGL_ATTRIBUTION
    assert attribution({"source": {"kind": "curated"}, "licence": "Crown copyright"}) is None
    # an annotated record's catalogue details are the export's, so they carry its attribution
    assert attribution({"source": {"kind": "annotated"}, "licence": "Crown copyright"}) == CATALOGUE_ATTRIBUTION


def test_reviewed_evidence_states_the_licence_when_the_record_does_not():
    evidence = {"licenceTitle": "Open Government Licence v3.0", "licenceStatus": "open"}
    assert attribution({**IMPORTED, "evidence": evidence}) == OGL_ATTRIBUTION
    assert attribution({**IMPORTED, "evidence": {**evidence, "licenceStatus": "not-stated"}}) == CATALOGUE_ATTRIBUTION


def test_the_record_tool_and_the_record_page_say_the_same(tmp_path):
    records = load_content(FIXTURE_CORPUS).records
    first = records[0].data
    imported = {
        **first,
        "id": "imported-cc-by",
        "url": first["url"] + "cc-by",
        "licence": "Creative Commons Attribution 4.0",
        "source": {"kind": "api-catalogue", "file": "api-catalogue/catalogue.csv#row 2"},
    }
    write_data(
        load_config(SITE_TOML), [*records, Record(data=imported, body="", file="imported.md")], tmp_path / "data"
    )
    site = tmp_path
    catalogue = Catalogue.open(DirectoryLoader(site))
    records = json.loads((site / "data" / catalogue.manifest["files"]["records"]["path"]).read_bytes())["records"]
    for record in records:
        answer = catalogue.call("get_resource_record", {"recordId": record["id"]})
        assert answer["record"]["provenance"].get("attribution") == attribution(record), record["id"]
    tool = catalogue.call("get_resource_record", {"recordId": "imported-cc-by"})["record"]["provenance"]
    assert tool["attribution"] == CATALOGUE_ATTRIBUTION
