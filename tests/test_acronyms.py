"""Acronyms the estate defines (govsearch_build.acronyms): "Tree Preservation
Order (TPO)" written twice makes "TPO" and "tree preservation order" one
synonym group, so a visitor's either form finds records written with the other."""

import json

from govsearch import Catalogue, DirectoryLoader
from govsearch_build.acronyms import defined_acronyms, definitions
from govsearch_build.config import load_config
from govsearch_build.data_writer import write_data
from sitefixture import SITE_TOML, curated_record


def record(number, title, summary="", publisher="Sheffield City Council"):
    return curated_record(number, title, summary=summary or f"Record {number}.", publisher=publisher)


def finder(folder, records):
    """What a search finds (record ids, first ten) on a site of `records` built with site.toml."""
    write_data(load_config(SITE_TOML), records, folder / "data")
    catalogue = Catalogue.open(DirectoryLoader(folder))

    def found(query):
        answer = catalogue.call("search_government_knowledge", {"query": query, "limit": 10})
        return {item["id"] for item in answer["results"]}

    return found


def test_a_definition_is_the_capitalised_words_that_spell_the_acronym():
    text = "Locations of each Tree Preservation Order (TPO) and the Air Quality Management Areas (AQMAs) here."
    assert list(definitions(text)) == [("tpo", "tree preservation order"), ("aqma", "air quality management areas")]
    assert list(definitions("Data from the Office (XYZ).")) == []  # the words do not spell it


def test_an_acronym_defined_twice_and_not_the_sites_own_becomes_a_group():
    records = [
        record(1, "Tree Preservation Orders", "Each Tree Preservation Order (TPO) in the city."),
        record(2, "TPO areas", "Where a Tree Preservation Order (TPO) applies."),
        record(3, "Index", "The Index of Multiple Deprivation (IMD) once."),
        record(4, "Prices", "The House Price Index (HPI) by month."),
        record(5, "Prices again", "The House Price Index (HPI) by area."),
    ]
    assert defined_acronyms(records, known=["hpi", "house price index"]) == [["tpo", "tree preservation order"]]


def test_either_form_finds_records_written_with_the_other(tmp_path):
    records = [
        record(1, "Tree Preservation Orders", "Each Tree Preservation Order (TPO) in the city."),
        record(2, "Protected trees", "Where a Tree Preservation Order (TPO) applies."),
        record(3, "TPO points", "Points of every TPO in Leeds.", publisher="Leeds City Council"),
        record(4, "Street trees", "Trees the council plants along streets."),
    ]
    found = finder(tmp_path, records)
    assert "r3" in found("tree preservation order")  # says only "TPO"
    assert {"r1", "r2"} <= found("tpo")
    assert "r4" not in found("tpo")
    ranking = next((tmp_path / "data").glob("ranking.*.json"))
    assert ["tpo", "tree preservation order"] in json.loads(ranking.read_text("utf-8"))["search"]["synonyms"]


def test_an_acronym_the_estate_also_defines_with_another_meaning_says_neither_alone(tmp_path):
    """site.toml's "hpi" group is the House Price Index. A record defining "High Potential
    Individual (HPI)" shows that "HPI" alone does not say which: "house price index" finds
    what says so, not the visa page nor a vehicle check written "HPI"; "hpi" still finds all."""
    records = [
        record(1, "UK House Price Index", "Monthly house prices.", publisher="HM Land Registry"),
        record(2, "High Potential Individual (HPI) visa", "Apply for a High Potential Individual (HPI) visa."),
        record(3, "Check a used vehicle", "An HPI check before you buy.", publisher="DVSA"),
        record(4, "Flood zones", "A Web Feature Service (WFS) of flood zones."),
        record(5, "Tree points", "A Web Feature Service (WFS) of trees."),
        record(6, "Parks", "A World Feature Service (WFS) of parks."),
    ]
    found = finder(tmp_path, records)
    assert found("house price index") == {"r1"}
    assert found("hpi") == {"r1", "r2", "r3"}
    ranking = next((tmp_path / "data").glob("ranking.*.json"))
    # "World Feature Service" shares words with "web feature service": a variant, not another meaning.
    assert json.loads(ranking.read_text("utf-8"))["search"]["ambiguous"] == ["hpi"]
