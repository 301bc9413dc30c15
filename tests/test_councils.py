"""A place's own council where the catalogue holds nothing local on the topic
(ranking.councils): "edinburgh residents parking permit" finds GOV.UK's page,
which sends you to your council, and then the council's own website."""

from __future__ import annotations

from pathlib import Path

import fastjsonschema
import pytest

from govsearch import Catalogue, DirectoryLoader, load_schema
from govsearch.ranking.nearby import council_place
from govsearch_build.config import load_config
from govsearch_build.data_writer import write_data
from govsearch_build.records import Record

REPO = Path(__file__).resolve().parents[1]


def _record(id: str, title: str, publisher: str, kind: str, summary: str) -> Record:
    data = {
        "id": id,
        "title": title,
        "summary": summary,
        "url": f"https://example.gov.uk/{id}",
        "resourceType": kind,
        "publisher": publisher,
        "accessStatus": "not-applicable" if kind == "organisation" else "public",
        "collection": "uk-living",
        "source": {"kind": "curated"},
    }
    return Record(file=f"{id}.md", data=data, body="")


def _council(id: str, name: str) -> Record:
    return _record(id, name, name, "organisation", "The council's own website: its services and how to contact it.")


def _parking_permit_page() -> Record:
    """GOV.UK's page for any place, which sends you to your council."""
    return _record(
        "parking-permit",
        "Apply for a parking permit",
        "Government Digital Service",
        "govuk-content",
        "Points you to your local council to apply for a parking permit.",
    )


@pytest.fixture(scope="module")
def search(tmp_path_factory):
    folder = tmp_path_factory.mktemp("councils")
    records = [
        _council("edinburgh", "City of Edinburgh Council"),
        _council("leeds", "Leeds City Council"),
        _council("york", "City of York Council"),
        _council("bath", "Bath and North East Somerset Council"),
        _council("epsom", "Epsom and Ewell Borough Council"),
        _council("derby", "Derby City"),  # GOV.UK's name for Derby City Council
        _council("kings-lynn", "Borough Council of Kings Lynn and West Norfolk"),  # GOV.UK's, no apostrophe
        _parking_permit_page(),
        _record(
            "planning-permission",
            "Planning permission",
            "Ministry of Housing, Communities and Local Government",
            "govuk-content",
            "When you need planning permission and how to apply to your local planning authority.",
        ),
        _record(
            "planning-tables",
            "Planning applications by local authority",
            "Ministry of Housing, Communities and Local Government",
            "dataset",
            "Planning applications received and decided, by local authority.",
        ),
        _record(
            "blue-badge",
            "Apply for a Blue Badge",
            "Government Digital Service",
            "govuk-content",
            "Parking for disabled people: who can get a badge and how to apply.",
        ),
        _record(
            "blue-badge-stats",
            "Blue Badge scheme statistics",
            "Department for Transport",
            "dataset",
            "Badges held and issued, by year.",
        ),
        _record("crime", "Police recorded crime", "Home Office", "dataset", "Recorded crime by police force area."),
        _record("crime-survey", "Crime survey", "Office for National Statistics", "dataset", "Crime as people say."),
        _record("crime-outcomes", "Crime outcomes", "Home Office", "dataset", "What happened after a crime."),
        _record(
            "sold-prices",
            "Search sold house prices",
            "HM Land Registry",
            "govuk-content",
            "House prices: what a house sold for, in any area.",
        ),
        _record("price-index", "House price index", "HM Land Registry", "dataset", "Average house prices by month."),
        _record("zones", "Residents parking zones", "Example Borough Council", "dataset", "Parking zones and permits."),
        _record("york-permits", "Parking permits", "City of York Council", "dataset", "York's parking permit zones."),
        # Other councils' rows fill the first window, as in the estate: the council's own
        # record, holding the place alone, is never among the records a tier ranks.
        *(
            _record(f"permits-{n}", "Parking permits", f"Borough{chr(97 + n)}ton Borough Council", "dataset", "Zones.")
            for n in range(24)
        ),
        *(
            _record(f"crime-{n}", "Crime", f"Borough{chr(97 + n)}ton Borough Council", "dataset", "Crime figures.")
            for n in range(24)
        ),
        *(
            _record(f"plans-{n}", "Planning", f"Borough{chr(97 + n)}ton Borough Council", "dataset", "Permission.")
            for n in range(24)
        ),
        *(
            _record(f"badges-{n}", "Blue Badges", f"Borough{chr(97 + n)}ton Borough Council", "dataset", "Issued.")
            for n in range(24)
        ),
        *(
            _record(f"prices-{n}", "House prices", f"Borough{chr(97 + n)}ton Borough Council", "dataset", "Sales.")
            for n in range(24)
        ),
    ]
    write_data(load_config(REPO / "site" / "site.toml"), records, folder / "data")
    catalogue = Catalogue.open(DirectoryLoader(folder))
    check = fastjsonschema.compile(load_schema("search_government_knowledge", "output"), use_default=False)

    def run(query: str, **filters) -> dict:
        answer = catalogue.call("search_government_knowledge", {"query": query, **filters})
        check(answer)  # the reason is one the output schema names
        return answer

    return run


def _ids(answer: dict) -> list[str]:
    return [result["id"] for result in answer["results"]]


@pytest.mark.parametrize("query", ["edinburgh residents parking permit", "parking permit in Edinburgh"])
def test_the_places_council_follows_the_page_that_sends_you_to_it(search, query):
    answer = search(query, limit=20)
    ids = _ids(answer)
    assert ids.index("edinburgh") == ids.index("parking-permit") + 1, ids
    council = answer["results"][ids.index("edinburgh")]
    assert council["reasons"] == ["place_council"] and council["matchMode"] == "any_term"
    assert council["matched"] == {"title": ["edinburgh"], "publisher": ["edinburgh"]}
    # The notice no longer says that no result is about the place.
    (notice,) = [notice for notice in answer["notices"] if notice["code"] == "place_not_matched"]
    assert notice["message"].startswith("The catalogue holds nothing about Edinburgh on this but the council's own")
    # Once: the any_term tier holds the council too, in the second window this answer reads.
    assert ids.count("edinburgh") == 1 and not any(
        other["id"] == "edinburgh" for result in answer["results"] for other in result.get("others", [])
    )


def test_where_no_record_says_the_council_does_it_the_council_comes_fourth_after_figures(search):
    """ "crime in leeds": nothing about Leeds, nothing saying the council does it, and nothing
    that finds crime for any place; the answer leads with figures, which the council's homepage
    does not give: its website is the next answer after three."""
    answer = search("crime in leeds")
    ids = _ids(answer)
    assert ids.index("leeds") == 3, ids
    assert answer["results"][3]["reasons"] == ["place_council"]


def test_where_a_service_leads_the_council_comes_second_though_no_record_says_so(search):
    """ "blue badge leeds": the service's page leads, saying nothing of councils, above the
    scheme's statistics; a service is done at the council, whose website comes next."""
    ids = _ids(search("blue badge leeds"))
    assert ids[0] == "blue-badge" and ids.index("leeds") == 1, ids
    # Led by the figures, the council does not come second.
    ids = _ids(search("blue badge statistics leeds"))
    assert ids[0] == "blue-badge-stats" and ids.index("leeds") > 1, ids


def test_no_council_where_a_record_above_it_finds_any_place(search):
    """ "house prices in leeds": "Search sold house prices" answers for Leeds as for any
    place, and a council's homepage says nothing of prices."""
    answer = search("house prices in leeds", limit=20)
    ids = _ids(answer)
    finder = ids.index("sold-prices")
    assert finder < 3 and "finds_any_place" in answer["results"][finder]["reasons"], ids
    assert "leeds" not in ids
    assert any(notice["message"].startswith("None of these results is about Leeds") for notice in answer["notices"])


def test_a_places_own_records_lead_and_bring_no_council(search):
    answer = search("parking permit york")
    assert _ids(answer)[0] == "york-permits"
    assert not any("place_council" in result["reasons"] for result in answer["results"])


def test_no_council_that_the_filters_leave_out(search):
    answer = search("parking permit edinburgh", resourceTypes=["govuk-content", "dataset"])
    assert answer["results"] and "edinburgh" not in _ids(answer)


def test_a_council_named_in_full_is_its_place(search):
    """ "Leeds City Council parking permit": the council's kind says whose, as the place does;
    as words to find, "city" and "council" had required records holding them (other councils'
    rows, by publisher) and lost the page that sends you to the council."""
    ids = _ids(search("Leeds City Council parking permit", limit=20))
    assert ids.index("leeds") == ids.index("parking-permit") + 1, ids


def test_a_query_that_says_council_puts_the_council_second(search):
    """ "Leeds council crime": no record says the council does it, but the query does; where
    "crime in leeds" (which does not say it) brings the council fourth, this one brings it second."""
    for query in ("leeds council crime", "leeds councils crime", "which council is leeds crime"):
        ids = _ids(search(query))
        assert ids.index("leeds") == 1, (query, ids)
    assert _ids(search("leeds crime")).index("leeds") == 3


@pytest.fixture(scope="module")
def towns(tmp_path_factory):
    """An estate without Skegness's council or records: the gazetteer (towns.txt) puts Skegness in
    Lincolnshire, whose county council the estate holds, beside another council named after it."""
    folder = tmp_path_factory.mktemp("towns")
    records = [
        _council("lincolnshire", "Lincolnshire County Council"),
        _council("north-lincolnshire", "North Lincolnshire Council"),
        _parking_permit_page(),
        _record("gritting", "Gritting routes", "Lincolnshire County Council", "dataset", "Roads gritted in winter."),
        _record("n-gritting", "Gritting routes", "North Lincolnshire Council", "dataset", "Roads gritted in winter."),
        _record("m-gritting", "Gritting routes", "Example Borough Council", "dataset", "Roads gritted in winter."),
    ]
    write_data(load_config(REPO / "site" / "site.toml"), records, folder / "data")
    catalogue = Catalogue.open(DirectoryLoader(folder))
    return lambda query: catalogue.call("search_government_knowledge", {"query": query, "limit": 20})


def test_a_towns_council_is_its_areas(towns):
    """ "skegness parking permit": the estate writes no town's council, so GOV.UK's page and
    then Lincolnshire County Council's website, not North Lincolnshire's (another council)."""
    answer = towns("skegness parking permit")
    ids = _ids(answer)
    assert ids[:2] == ["parking-permit", "lincolnshire"] and "north-lincolnshire" not in ids, ids
    (notice,) = [notice for notice in answer["notices"] if notice["code"] == "place_not_matched"]
    assert notice["message"].startswith("The catalogue holds nothing about Skegness (in Lincolnshire) on this")


def test_a_town_named_by_a_word_of_its_councils_name_is_that_councils(search):
    """ "bath parking permit": Bath's council is Bath and North East Somerset Council, whose
    name holds the town's word but is not it; the gazetteer's area names the council."""
    ids = _ids(search("bath parking permit", limit=20))
    assert ids.index("bath") == ids.index("parking-permit") + 1, ids


def test_a_place_one_of_several_a_councils_name_joins_is_that_councils(search):
    """ "epsom parking permit": Epsom's council is Epsom and Ewell Borough Council, a name of two
    places joined by "and" (GeoNames puts Epsom in Surrey, not in its district); so is Ewell's."""
    for query in ("epsom parking permit", "ewell parking permit"):
        ids = _ids(search(query, limit=20))
        assert ids.index("epsom") == ids.index("parking-permit") + 1, (query, ids)


def test_the_council_comes_where_no_record_holds_every_word(search):
    """ "edinburgh parking permit tonight": no record holds "tonight", so the answer is any_term's
    (or fuzzy's), whose tier the place is read from; the first tier, which found nothing, holds no words."""
    answer = search("edinburgh parking permit tonight", limit=20)
    ids = _ids(answer)
    assert answer["match_mode"] != "all_terms" and ids.index("edinburgh") == ids.index("parking-permit") + 1, ids


def test_a_council_named_by_its_place_and_city_alone_is_a_council(search):
    """GOV.UK's "Derby City" is Derby's council; no other "<Word> City" is one ("Hull City")."""
    ids = _ids(search("derby parking permit", limit=20))
    assert ids.index("derby") == ids.index("parking-permit") + 1, ids
    assert council_place("Derby City") == "Derby" and council_place("Hull City") is None


@pytest.mark.parametrize("written", ["King's Lynn", "kings lynn"])
def test_a_possessive_place_brings_its_council_however_either_writes_the_apostrophe(search, written):
    """The gazetteer writes "King's Lynn", GOV.UK's list "Borough Council of Kings Lynn and West Norfolk"."""
    ids = _ids(search(f"{written} parking permit", limit=20))
    assert ids.index("kings-lynn") == ids.index("parking-permit") + 1, ids


def test_a_towns_records_are_its_council_areas(towns):
    answer = towns("gritting routes skegness")
    assert _ids(answer)[0] == "gritting" and "place_matches" in answer["results"][0]["reasons"]
    assert not any("place_matches" in result["reasons"] for result in answer["results"][1:])
    assert not any(notice["code"] == "place_not_matched" for notice in answer["notices"])


def test_a_town_named_with_its_area_is_about_the_area_alone(towns):
    """ "skegness lincolnshire gritting routes" names the area itself: Lincolnshire's records
    are its place's, and the notice does not say which area Skegness is in."""
    answer = towns("gritting routes skegness lincolnshire")
    assert _ids(answer)[0] == "gritting" and "place_matches" in answer["results"][0]["reasons"]


def test_a_page_sending_you_to_the_local_planning_authority_sends_you_to_the_council(search):
    """A council is the local planning (or highway, or housing) authority: GOV.UK's planning
    page says "apply to your local planning authority" and never "council", so Leeds's council
    did not follow it."""
    ids = _ids(search("planning permission leeds", limit=20))
    assert ids.index("leeds") == ids.index("planning-permission") + 1, ids


def _residents_parking(folder: Path, rows: int) -> list[dict]:
    """ "residents parking permit york" where `rows` other councils' rows hold every word, and
    York's own record holds only "parking permits" (it stands after them, as in the estate)."""
    titles = ("Residents parking permits", "Residents' parking permit zones", "Residents parking permit areas")
    records = [
        _council("york", "City of York Council"),
        _record("york-permits", "Parking permits", "City of York Council", "dataset", "Zones in York."),
        *(
            _record(f"residents-{n}", title, f"Borough{chr(97 + n)}ton Borough Council", "dataset", "Zones.")
            for n, title in enumerate(titles[:rows])
        ),
        # As in the estate, other councils' rows put the council's own record past the first window.
        *(
            _record(f"parking-{n}", "Parking", f"Borough{chr(97 + n)}by Borough Council", "dataset", "")
            for n in range(24)
        ),
    ]
    write_data(load_config(REPO / "site" / "site.toml"), records, folder / "data")
    catalogue = Catalogue.open(DirectoryLoader(folder))
    query = {"query": "residents parking permit york", "limit": 20}
    return catalogue.call("search_government_knowledge", query)["results"]


def test_a_places_record_below_the_first_three_still_brings_its_council(tmp_path):
    """York's record fourth: the answer's first three say nothing of York, and York's council
    comes fourth, its record after it."""
    ids = [result["id"] for result in _residents_parking(tmp_path, 3)]
    assert {"residents-0", "residents-1", "residents-2"} == set(ids[:3]) and ids[3] == "york", ids
    assert ids.index("york-permits") == 4, ids


def test_a_places_record_among_the_first_three_is_local(tmp_path):
    """York's record third: the answer is local, and no council is put in."""
    results = _residents_parking(tmp_path, 2)
    assert [result["id"] for result in results][2] == "york-permits", [result["id"] for result in results]
    assert not any("place_council" in result["reasons"] or "finds_any_place" in result["reasons"] for result in results)
