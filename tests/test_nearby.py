"""What an answer says of the place a query asks about. One about the asker's
own place that names none ("libraries near me", "crime in my area"): the
search does not know where they are (notice `place_not_named`), so a person
adds a town and an agent asks for one. One naming a place none of whose
records answers it ("parks Leeds"): the results are national or other
places' (notice `place_not_matched`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from govsearch import Catalogue, DirectoryLoader
from govsearch.ranking.nearby import finds_any_place, local_example
from govsearch_build.config import load_config
from govsearch_build.data_writer import write_data
from govsearch_build.records import Record

REPO = Path(__file__).resolve().parents[1]


def _record(id: str, title: str, publisher: str) -> Record:
    data = {
        "id": id,
        "title": title,
        "summary": f"{title}: opening hours and addresses.",
        "url": f"https://www.data.gov.uk/dataset/{id}",
        "resourceType": "dataset",
        "publisher": publisher,
        "accessStatus": "public",
        "collection": "government-apis",
        "source": {"kind": "okf-search-shards"},
    }
    return Record(file=f"{id}.md", data=data, body="")


@pytest.fixture(scope="module")
def notices(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nearby")
    records = [
        _record("leeds-libraries", "Libraries", "Leeds City Council"),
        _record("national-libraries", "Public libraries in England", "Arts Council England"),
        _record("national-parks", "Public parks in England", "Natural England"),
        _record("banes-allotments", "Allotments", "Bath and North East Somerset Council"),
        _record("peak-boundary", "National Park Boundary", "Peak District National Park Authority"),
        _record("kl-markets", "Markets", "Borough Council of King's Lynn and West Norfolk"),
    ]
    write_data(load_config(REPO / "site" / "site.toml"), records, folder / "data")
    catalogue = Catalogue.open(DirectoryLoader(folder))

    def codes(query: str, **filters) -> list[str]:
        return [notice["code"] for notice in messages(query, **filters)]

    def messages(query: str, allow_empty: bool = False, **filters) -> list[dict]:
        answer = catalogue.call("search_government_knowledge", {"query": query, **filters})
        assert answer["ok"] and (answer["total"] or allow_empty), answer
        return answer["notices"]

    codes.messages = messages
    codes.answer = lambda query: catalogue.call("search_government_knowledge", {"query": query})
    return codes


@pytest.mark.parametrize(
    "query",
    [
        "libraries near me",
        "nearest library",
        "libraries in my area",
        "libraries for my postcode",
        "library close to me",
        "is there a library close by",
        "libraries close to where we live",
    ],
)
def test_a_query_about_the_askers_place_says_it_is_not_known(notices, query):
    # "area" and "postcode" are words no record here holds, which a notice of their own names.
    assert [code for code in notices(query) if code != "words_not_found"] == ["place_not_named"]


@pytest.mark.parametrize(
    "query", ["libraries", "libraries near Leeds", "library Leeds near me", "libraries around my childcare"]
)
def test_a_query_naming_a_place_or_none_says_nothing(notices, query):
    assert "place_not_named" not in notices(query)


def test_a_publisher_filter_names_the_place(notices):
    assert notices("libraries near me", publishers=["Leeds City Council"]) == []


def test_a_place_none_of_whose_records_answers_is_said_to_be_unmatched(notices):
    assert notices("parks Leeds") == ["place_not_matched"]
    assert notices("parks in leeds", limit=1) == ["place_not_matched"]  # the first window decides, not the limit
    assert "place_not_matched" not in notices("libraries Leeds")  # Leeds's own libraries lead
    assert "place_not_matched" not in notices("Leeds")  # a place alone is a word every result holds
    # A council's name of several words is one place, named as people write it.
    (notice,) = notices.messages("parks in Bath and North East Somerset")
    assert notice["message"].startswith("None of these results is about Bath and North East Somerset:")


@pytest.mark.parametrize("written", ["King's Lynn", "king’s lynn", "kings lynn"])
def test_a_place_with_a_possessive_is_named_however_its_apostrophe_is_typed(notices, written):
    assert "place_not_matched" not in notices(f"markets in {written}")
    assert notices.answer(f"markets in {written}")["results"][0]["id"] == "kl-markets"
    (notice,) = notices.messages(f"parks in {written}")
    assert notice["message"].startswith("None of these results is about King")


@pytest.mark.parametrize(
    ("query", "example"), [("libraries near me", "libraries in Leeds"), ("nearest library", "library in Leeds")]
)
def test_the_notices_example_names_a_council_whose_records_answer(notices, query, example):
    """The example is the query naming the place of a council that publishes
    records holding every word ("libraries Leeds" once named a council with
    none, and the visitor who tried it was told none of the results was about
    it); and the example, searched, is not told so."""
    (notice,) = notices.messages(query)
    assert f"(for example ‘{example}’)" in notice["message"]
    assert notice["suggestions"] == [example]  # the search page links it
    assert notices(example) == []


def test_the_notices_example_is_spelt_as_the_suggestion_spells_it(notices):
    # A visitor's "recyling centre near me" got "recycling" suggested and "recyling centre in Barrow" as the example.
    (notice,) = notices.messages("libarries near me")
    assert notice["suggestions"] == ["libraries in Leeds"]


def test_the_notices_example_needs_the_words_in_titles_not_their_stem_alone(notices):
    # "parking" stems like a National Park's "Park": "parking in Peak District" found only its boundary.
    (notice,) = notices.messages("parking near me")
    assert "for example" not in notice["message"] and "suggestions" not in notice


def test_the_asker_s_place_is_replaced_where_it_stood():
    places = {"leeds", "tunbridge", "bradford"}
    assert local_example("libraries in my area", {"Leeds City Council": 2}, places) == "libraries in Leeds"
    assert local_example("libraries where I live", {"Leeds City Council": 2}, places) == "libraries in Leeds"
    # The council publishing most of them, its place as people write it.
    publishers = {"Tunbridge Wells Borough Council": 3, "City of Bradford Metropolitan District Council": 2}
    assert local_example("car parks near me", publishers, places) == "car parks in Tunbridge Wells"
    assert local_example("car parks near me", {"Natural England": 5}, places) is None
    # The place as the council's name writes it, not cut at its first word the estate reads as one.
    assert (
        local_example("parks near me", {"Vale of Glamorgan Council": 1}, {"glamorgan"}) == "parks in Vale of Glamorgan"
    )
    assert local_example("parks near me", {"London Borough of Camden": 1}, {"camden"}) == "parks in Camden"


def test_no_example_where_no_councils_records_hold_every_word(notices):
    (notice,) = notices.messages("public parks near me")
    assert "for example" not in notice["message"] and notice["message"].endswith("to put its records first.")
    assert "suggestions" not in notice


@pytest.mark.parametrize("query", ["SW1A 1AA", "libraries near ls1 4ap", "bins M11AE"])
def test_a_postcode_is_said_not_to_be_searched(notices, query):
    """No record says which council a postcode is in: a visitor typing one got
    "No results" and advice to check their spelling."""
    assert "postcode_not_searched" in [notice["code"] for notice in notices.messages(query, allow_empty=True)]


@pytest.mark.parametrize("query", ["postcode lookup", "M1 motorway", "libraries"])
def test_words_that_are_no_postcode_say_nothing_of_postcodes(notices, query):
    assert "postcode_not_searched" not in [notice["code"] for notice in notices.messages(query, allow_empty=True)]


@pytest.fixture(scope="module")
def finders(tmp_path_factory):
    """A site where Leeds publishes its schools and Manchester only its allotments."""
    folder = tmp_path_factory.mktemp("finders")
    guide = _record("school-term-dates", "Schools: term and holiday dates", "Department for Education")
    guide.data.update(summary="Schools set their term and holiday dates; schools and councils publish them.")
    finder = _record("compare-schools", "Find and compare schools in England", "Department for Education")
    finder.data.update(resourceType="govuk-content", summary="Performance tables by area.")
    records = [
        guide,
        finder,
        _record("leeds-schools", "Schools", "Leeds City Council"),
        _record("manchester-allotments", "Allotments", "Manchester City Council"),
    ]
    write_data(load_config(REPO / "site" / "site.toml"), records, folder / "data")
    catalogue = Catalogue.open(DirectoryLoader(folder))
    return lambda query: catalogue.call("search_government_knowledge", {"query": query})["results"]


def _order(found: list[dict]) -> list[str]:
    return [result["id"] for result in found]


@pytest.mark.parametrize("query", ["schools in Manchester", "schools near me", "nearest schools"])
def test_where_nothing_is_local_a_finder_comes_before_a_guide(finders, query):
    """Nothing in the catalogue is about Manchester's schools, nor can it know where "me"
    is: a service that finds schools for any place answers, before a guide holding the
    word more often (which leads without a place: below)."""
    found = finders(query)
    order = _order(found)
    assert order.index("compare-schools") < order.index("school-term-dates"), order
    assert [result["id"] for result in found if "finds_any_place" in result.get("reasons", [])] == ["compare-schools"]
    if "Manchester" in query:
        assert order[0] == "compare-schools"


@pytest.mark.parametrize("query", ["schools in Leeds", "schools"])
def test_a_places_own_records_or_no_place_lift_no_finder(finders, query):
    """Leeds publishes its schools, so they lead; and a query about no place asks for no finder:
    the guide stays before it ("schools" after "nearest schools", which searches the same words)."""
    finders("nearest schools")
    found = finders(query)
    order = _order(found)
    assert order[0] == "leeds-schools" and order.index("school-term-dates") < order.index("compare-schools"), order
    assert all("finds_any_place" not in result.get("reasons", []) for result in found)


def test_a_file_is_no_finder(tmp_path):
    """ "Ward to Local Authority Lookup" and a map layer are datasets: files, not services that find
    anything for a place, so where nothing is local they are not lifted."""
    lookup = _record("ward-lookup", "Ward to Local Authority District Lookup", "Office for National Statistics")
    guide = _record("ward-guide", "Wards and councillors", "Ministry of Housing, Communities and Local Government")
    guide.data.update(resourceType="guidance", summary="Wards, the councillors who represent them and ward boundaries.")
    records = [lookup, guide, _record("leeds-allotments", "Allotments", "Leeds City Council")]
    write_data(load_config(REPO / "site" / "site.toml"), records, tmp_path / "data")
    catalogue = Catalogue.open(DirectoryLoader(tmp_path))
    found = catalogue.call("search_government_knowledge", {"query": "wards near me"})["results"]
    assert [result["id"] for result in found] == ["ward-guide", "ward-lookup"], found
    assert not any("finds_any_place" in result.get("reasons", []) for result in found)


@pytest.mark.parametrize(
    ("title", "summary"),
    [
        ("Report a pothole", "Finds the council responsible for the road so you can report a pothole to them."),
        ("Check a pothole", "Looks up the council that mends a road with potholes, from its postcode."),
    ],
)
def test_a_service_that_says_it_finds_or_looks_up_is_a_finder(tmp_path, title, summary):
    """Our summaries say what a page does in the third person ("Finds the council ...",
    "Looks up ..."): such a page is a finder as much as one titled "Find ...", and where
    nothing is local it comes before a guide that says "pothole" more often."""
    service = _record("pothole-service", title, "Department for Transport")
    service.data.update(resourceType="govuk-content", summary=summary)
    guide = _record("pothole-guide", "Road maintenance", "Department for Transport")
    guide.data.update(resourceType="guidance", summary="Why a pothole forms, and how a council repairs each pothole.")
    records = [service, guide, _record("leeds-allotments", "Allotments", "Leeds City Council")]
    write_data(load_config(REPO / "site" / "site.toml"), records, tmp_path / "data")
    catalogue = Catalogue.open(DirectoryLoader(tmp_path))
    found = catalogue.call("search_government_knowledge", {"query": "pothole near me"})["results"]
    assert _order(found) == ["pothole-service", "pothole-guide"], found
    assert "finds_any_place" in found[0]["reasons"]


def test_later_pages_keep_the_first_pages_decision(tmp_path):
    """Leeds publishes its schools, so "schools in Leeds" lifts no finder: nor does its second
    page, which holds only other councils' schools (decided on the first window, as the notice is)."""
    councils = [_record(f"schools-{n}", "Schools", f"Borough{chr(97 + n)}ton Borough Council") for n in range(26)]
    finder = _record("compare-schools", "Find and compare", "Department for Education")
    finder.data.update(resourceType="govuk-content", summary="Performance tables for schools by area.")
    records = [*councils, finder, _record("leeds-schools", "Schools", "Leeds City Council")]
    write_data(load_config(REPO / "site" / "site.toml"), records, tmp_path / "data")
    catalogue = Catalogue.open(DirectoryLoader(tmp_path))
    first = catalogue.call("search_government_knowledge", {"query": "schools in Leeds", "limit": 20})
    later = catalogue.call("search_government_knowledge", {"query": "schools in Leeds", "limit": 20}, offset=20)
    assert first["results"][0]["id"] == "leeds-schools"
    assert "compare-schools" in [result["id"] for result in later["results"]]
    assert not any("finds_any_place" in result.get("reasons", []) for result in first["results"] + later["results"])


def test_a_publishers_filter_names_whose_records_so_no_finder_is_lifted(tmp_path):
    """Under a publishers filter "near me" gets no place_not_named notice (the filter names
    whose records), and so no finder is lifted either: the notice and the rule agree."""
    finder = _record("compare-schools", "Find and compare schools in England", "Department for Education")
    finder.data.update(resourceType="govuk-content")
    guide = _record("school-term-dates", "Schools: term and holiday dates", "Department for Education")
    guide.data.update(resourceType="guidance", summary="Schools set their term dates; schools publish them.")
    write_data(load_config(REPO / "site" / "site.toml"), [finder, guide], tmp_path / "data")
    catalogue = Catalogue.open(DirectoryLoader(tmp_path))
    for filters in ({}, {"publishers": ["Department for Education"]}):
        answer = catalogue.call("search_government_knowledge", {"query": "schools near me", **filters})
        lifted = [result["id"] for result in answer["results"] if "finds_any_place" in result.get("reasons", [])]
        named = "place_not_named" in {notice["code"] for notice in answer["notices"]}
        assert lifted == (["compare-schools"] if named else []) and named == (not filters), (filters, answer)


def test_a_record_holding_the_topic_only_as_a_theme_is_not_the_places(tmp_path):
    """Bristol's allotments are filed under the catalogue theme "Population and statistics":
    they hold "population" in their keywords only, so "population of Bristol" finds them but
    they are not Bristol's population (no place boost above the national figures, and the
    answer says nothing in it is about Bristol). A record saying it is about the topic is."""
    plots = _record("bristol-allotments", "Allotment Plots", "Bristol City Council")
    plots.data.update(keywords=["Population and statistics"])
    national = _record("population-estimates", "Population estimates", "Office for National Statistics")
    national.data.update(summary="Population estimates for the UK and its local authorities.")
    records = [plots, national]
    write_data(load_config(REPO / "site" / "site.toml"), records, tmp_path / "data")
    catalogue = Catalogue.open(DirectoryLoader(tmp_path))
    answer = catalogue.call("search_government_knowledge", {"query": "population of Bristol"})
    assert _order(answer["results"]) == ["population-estimates", "bristol-allotments"]
    assert not any("place_matches" in result.get("reasons", []) for result in answer["results"])
    assert "place_not_matched" in {notice["code"] for notice in answer["notices"]}
    plots.data.update(summary="Bristol's population of allotment holders, by site.")
    write_data(load_config(REPO / "site" / "site.toml"), records, tmp_path / "data")
    placed = Catalogue.open(DirectoryLoader(tmp_path)).call(
        "search_government_knowledge", {"query": "population of Bristol"}
    )
    assert _order(placed["results"])[0] == "bristol-allotments" and not placed["notices"]


@pytest.mark.parametrize("query", ["Leeds libraries", "Leesd libraries", "libraries in Leedz"])
def test_a_misspelt_place_is_read_as_the_place(notices, query):
    """A word no record holds, one edit from a place the estate knows, is that place: Leeds's
    libraries come first (the place ranks, it is not required), and "did you mean" spells it."""
    answer = notices.answer(query)
    assert answer["results"][0]["id"] == "leeds-libraries"
    assert "place_matches" in answer["results"][0]["reasons"]
    assert answer.get("suggestion", "") in ("", "Leeds libraries", "libraries in Leeds")
    assert bool(answer.get("suggestion")) == ("Leeds" not in query)


def test_a_misspelt_word_of_a_place_of_several_words_is_read_with_the_others(notices):
    """ "Somreset" is one edit from Somerset: read so, "Bath and North East Somerset" is one place again."""
    answer = notices.answer("allotments in bath and north east somreset")
    assert answer["results"][0]["id"] == "banes-allotments" and "place_matches" in answer["results"][0]["reasons"]
    assert answer["suggestion"] == "allotments in bath and north east Somerset"


def test_a_word_one_edit_from_two_places_or_held_by_records_is_no_place(tmp_path):
    """ "leads" is one edit from Leeds but a record holds it: it is that word. "barnex" is
    one edit from Barnet and from Barnes: it is neither."""
    records = [
        _record("leeds-libraries", "Libraries", "Leeds City Council"),
        _record("barnet-libraries", "Libraries", "London Borough of Barnet"),
        _record("barnes-libraries", "Libraries", "Barnes District Council"),
        _record("lead-pipes", "Libraries and the leads of their lead pipes", "Environment Agency"),
    ]
    write_data(load_config(REPO / "site" / "site.toml"), records, tmp_path / "data")
    catalogue = Catalogue.open(DirectoryLoader(tmp_path))
    for query in ("libraries leads", "libraries barnex", "libraries barnet"):
        answer = catalogue.call("search_government_knowledge", {"query": query})
        placed = [result["id"] for result in answer["results"] if "place_matches" in result.get("reasons", [])]
        assert placed == (["barnet-libraries"] if query.endswith("barnet") else []), (query, answer)


def test_a_council_named_in_full_is_the_place_its_records_are_about(notices):
    """ "Leeds City Council": the council's kind says whose, as the place does (a filler), so
    the query is Leeds and Leeds's records lead; beside a topic, Leeds's records of it do."""
    for query in ("Leeds City Council", "Leeds City Council libraries"):
        answer = notices.answer(query)
        assert answer["results"][0]["id"] == "leeds-libraries", (query, answer["results"])
        assert "place_not_matched" not in {notice["code"] for notice in answer["notices"]}
    assert "place_matches" in notices.answer("Leeds City Council libraries")["results"][0]["reasons"]


@pytest.mark.parametrize(
    "title, summary, kind, finds",
    [
        (
            "Check UK property price trends",
            "A tool for viewing average house price trends by area.",
            "govuk-content",
            True,
        ),
        ("Air quality", "Readings for an area near you.", "api", True),
        ("Change your address", "Tell DVLA your new address.", "govuk-content", False),
        ("House prices by area", "Average prices by area, by month.", "dataset", False),
        ("Report a missed bin collection", "Your council, by postcode.", "govuk-content", False),
        ("School term and holiday dates", "Dates in your area.", "govuk-content", False),
        ("Conservation Areas WFS", "The limit of each area is recorded.", "api", False),
    ],
)
def test_a_service_for_any_area_finds_things_for_a_place(title, summary, kind, finds):
    """A service that shows something "by area" or "for an area" serves any place, as one that
    finds or looks up does ("house prices in Leeds": the price trends tool)."""
    assert finds_any_place({"title": title, "summary": summary, "resourceType": kind}) is finds
