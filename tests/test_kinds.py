"""A kind of resource asked for by name leads the answer (ranking.kinds):
"is there an api for fcdo travel advice" puts the API first, though the
service's page holds more of the words."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from govsearch import Catalogue, DirectoryLoader
from govsearch_build.config import ConfigError, load_config
from govsearch_build.data_writer import write_data
from govsearch_build.records import Record

REPO = Path(__file__).resolve().parents[1]


def _record(id: str, title: str, summary: str, kind: str, **more) -> Record:
    data = {
        "id": id,
        "title": title,
        "summary": summary,
        "url": f"https://www.example.gov.uk/{id}",
        "resourceType": kind,
        "publisher": "Driver and Vehicle Standards Agency",
        "accessStatus": "public",
        "collection": "government-apis",
        "source": {"kind": "curated"},
        **more,
    }
    return Record(file=f"{id}.md", data=data, body="")


@pytest.fixture(scope="module")
def search(tmp_path_factory):
    """The service's page holds every word of the questions below; the API lacks "vehicle"."""
    folder = tmp_path_factory.mktemp("kinds")
    records = [
        _record(
            "check-mot-history",
            "Check the MOT history of a vehicle",
            "Check a vehicle's MOT history: test results, mileage and data on failures.",
            "govuk-content",
        ),
        _record("mot-history-api", "MOT history API", "MOT test results and history for software.", "api"),
        _record("mot-data", "MOT testing data", "Anonymised MOT test results, history by make and model.", "dataset"),
    ]
    write_data(load_config(REPO / "site" / "site.toml"), records, folder / "data")
    catalogue = Catalogue.open(DirectoryLoader(folder))
    return lambda query, **more: catalogue.call("search_government_knowledge", {"query": query, **more})["results"]


def _ids(results: list[dict]) -> list[str]:
    return [result["id"] for result in results]


def test_the_api_asked_for_comes_first(search):
    found = search("check a vehicle's mot history api")
    assert _ids(found)[0] == "mot-history-api"
    assert "kind_asked_for" in found[0]["reasons"]
    # The page matches every word, the API only some: each says so, in its place.
    assert [result["matchMode"] for result in found[:2]] == ["any_term", "all_terms"]


def test_without_the_word_or_with_a_word_that_is_also_a_topic_the_words_decide(search):
    assert _ids(search("check a vehicle's mot history"))[0] == "check-mot-history"
    # "data" asks for datasets and is also a topic ("data protection"): it does not lead.
    found = search("check a vehicle's mot history data")
    assert _ids(found)[0] == "check-mot-history"
    assert not any("kind_asked_for" in result.get("reasons", []) for result in found)


def test_a_lead_of_the_kind_already_first_is_left_as_it_is(search):
    found = search("mot history api")
    assert _ids(found)[0] == "mot-history-api"
    assert "kind_asked_for" not in found[0]["reasons"]


def test_an_api_not_titled_by_the_topic_does_not_lead(tmp_path):
    """The catalogue holds no Met Office weather API: an API found by "office" in its
    publisher's name is not what was asked for, so the organisation keeps its lead."""
    records = [
        _record("met-office", "Met Office", "The UK's national weather service.", "organisation"),
        _record("ons-api", "ONS Beta API", "Datasets from the Office for National Statistics.", "api"),
    ]
    records[1].data["publisher"] = "Office for National Statistics"
    write_data(load_config(REPO / "site" / "site.toml"), records, tmp_path / "data")
    catalogue = Catalogue.open(DirectoryLoader(tmp_path))
    found = catalogue.call("search_government_knowledge", {"query": "met office weather api"})["results"]
    assert _ids(found) == ["met-office", "ons-api"]
    assert not any("kind_asked_for" in result.get("reasons", []) for result in found)


def test_an_api_titled_only_by_an_optional_word_does_not_lead(tmp_path):
    """ "official" says what standing the answer has, not what it is about (site.toml's
    search.optional_words): HM Land Registry's "Official Search" API led "find the official
    api for flood warnings" by it, above the Environment Agency's page on flood warnings."""
    records = [
        _record("flood-warnings", "Get flood warnings", "Flood warnings by text, phone or email.", "govuk-content"),
        _record("official-search", "Official Search of Whole", "An official search of a registered title.", "api"),
    ]
    write_data(load_config(REPO / "site" / "site.toml"), records, tmp_path / "data")
    catalogue = Catalogue.open(DirectoryLoader(tmp_path))
    found = catalogue.call("search_government_knowledge", {"query": "find the official api for flood warnings"})
    assert _ids(found["results"]) == ["flood-warnings", "official-search"]
    assert not any("kind_asked_for" in result.get("reasons", []) for result in found["results"])
    # With no other word, the optional words are the topic: the API of that name leads the
    # guide, which the words alone put first (the API is restricted and not reviewed).
    guide = _record(
        "official-search-guide",
        "Official search",
        "Official search: how to apply for an official search of the register, and its fees.",
        "guidance",
    )
    records[1].data.update(accessStatus="restricted", source={"kind": "api-catalogue"})
    write_data(load_config(REPO / "site" / "site.toml"), [*records, guide], tmp_path / "data")
    catalogue = Catalogue.open(DirectoryLoader(tmp_path))
    found = catalogue.call("search_government_knowledge", {"query": "official search api"})["results"]
    assert _ids(found)[:2] == ["official-search", "official-search-guide"]
    assert "kind_asked_for" in found[0]["reasons"]


# Not an intent word; "who" is one, but a stop word, read only where it opens a query: leading, it would do nothing.
@pytest.mark.parametrize(
    "words, refusal", [('["apis"]', "search.leading_intents"), ('["api", "who"]', "not question words")]
)
def test_a_leading_intent_must_be_an_intent_word_a_record_can_hold(tmp_path, words, refusal):
    text = (REPO / "site" / "site.toml").read_text("utf-8")
    path = tmp_path / "site.toml"
    path.write_text(text.replace('leading_intents = ["api"]', f"leading_intents = {words}"), "utf-8")
    with pytest.raises(ConfigError, match=refusal):
        load_config(path)


def test_both_site_configs_read_queries_alike():
    """`make serve` and the published full estate read a query with the same [search] table
    (synonyms, intents, fillers, openings, leading intents: every key): a filler added to one
    file only would rank the two sites apart, and `make eval`'s two corpora would measure
    different rules."""
    curated, estate = (
        tomllib.loads((REPO / "site" / name).read_text("utf-8")) for name in ("site.toml", "full-estate.toml")
    )
    assert curated["search"] == estate["search"]
    assert load_config(REPO / "site" / "site.toml").leading_intents == ("api",)


def test_a_later_page_keeps_its_order(tmp_path):
    """The lead is the first window's: an API past the first 20 records ("show more") is not lifted
    to the top of a later page, above records matching the words better."""
    towns = "Ayr Bude Cork Deal Eye Fowey Goole Hull Ilkley Jarrow Kendal Leek Lewes Looe Louth March Moffat Nairn Oban Penryn Rye Selby Thirsk Tring Wem"
    pages = [
        _record(
            f"mot-page-{n:02}",
            f"Check vehicle MOT history in {town}",
            "Testing stations and their results, with an API link.",
            "guidance",
        )
        for n, town in enumerate(towns.split())
    ]
    api = _record("mot-history-api", "History API", "For software.", "api", publisher="Wem Town Borough Council")
    # A council's row, not reviewed, its words in a long body: below every page, the 26th record.
    api.data["source"] = {"kind": "okf-search-shards"}
    api = Record(file=api.file, data=api.data, body="Check a vehicle and its MOT. " + "Other text. " * 200)
    write_data(load_config(REPO / "site" / "site.toml"), [*pages, api], tmp_path / "data")
    catalogue = Catalogue.open(DirectoryLoader(tmp_path))
    query = {"query": "check vehicle mot history api", "limit": 20}
    first = catalogue.call("search_government_knowledge", query)["results"]
    later = catalogue.call("search_government_knowledge", query, offset=20)["results"]
    assert "mot-history-api" not in _ids(first) and len(first) == 20
    assert _ids(later)[-1] == "mot-history-api" and len(later) == 6, _ids(later)
    assert not any("kind_asked_for" in result.get("reasons", []) for result in first + later)


def _searcher(folder: Path, records: list[Record]):
    """A search over `records` built into `folder`: the results, or the whole answer."""
    write_data(load_config(REPO / "site" / "site.toml"), records, folder / "data")
    catalogue = Catalogue.open(DirectoryLoader(folder))

    def search(query: str, answer: bool = False):
        found = catalogue.call("search_government_knowledge", {"query": query})
        return found if answer else found["results"]

    return search


@pytest.fixture(scope="module")
def bodies(tmp_path_factory):
    """The Department for Transport's records hold every word of "which department is responsible
    for bus services"; its own record, titled by its name, holds one of them."""
    transport = {"publisher": "Department for Transport"}
    records = [
        _record(
            "bus-data",
            "Bus services open data",
            "Timetables of the bus services councils are responsible for.",
            "api",
            **transport,
        ),
        _record(
            "bus-stats",
            "Bus services statistics",
            "Journeys on the bus services councils are responsible for.",
            "dataset",
            **transport,
        ),
        _record("bus-pass", "Apply for a bus pass", "Free bus travel.", "govuk-content", publisher="Example Council"),
        _record(
            "dft",
            "Department for Transport",
            "Runs transport services: roads and railways.",
            "organisation",
            **transport,
        ),
        _record("council", "Example Council", "Runs local services.", "organisation", publisher="Example Council"),
    ]
    return _searcher(tmp_path_factory.mktemp("bodies"), records)


@pytest.mark.parametrize(
    "query", ["which department is responsible for bus services", "who is responsible for bus services"]
)
def test_a_question_asking_which_body_is_led_by_the_body_its_answers_come_from(bodies, query):
    found = bodies(query)
    assert _ids(found)[0] == "dft" and "kind_asked_for" in found[0]["reasons"], _ids(found)
    assert set(_ids(found)[1:3]) == {"bus-data", "bus-stats"}


def test_without_the_question_the_words_decide(bodies):
    found = bodies("responsible for bus services")
    assert _ids(found)[0] != "dft" and not any("kind_asked_for" in result.get("reasons", []) for result in found)


def test_a_question_naming_a_kind_is_led_by_that_kind_not_its_body(bodies):
    """ "which department runs the bus services api" asks for the API (kind_first), not the body."""
    found = bodies("which department runs the bus services api")
    assert _ids(found)[0] == "bus-data", _ids(found)
    assert "dft" not in _ids(found)[:1]


def test_a_misspelt_question_still_gets_its_spelling(bodies):
    """The body leads whatever it matched; the spelling is read from the next result."""
    answer = bodies("which department is responsible for bus sevices", answer=True)
    assert _ids(answer["results"])[0] == "dft", _ids(answer["results"])
    assert answer["suggestion"] == "which department is responsible for bus services"


@pytest.fixture(scope="module")
def regulated(tmp_path_factory):
    """A body whose own record holds every word of the question, and one that publishes
    only one of the first results."""
    transport = {"publisher": "Department for Transport"}
    records = [
        _record(
            "regulator",
            "Bus Services Regulator",
            "Responsible for bus services.",
            "organisation",
            publisher="Bus Services Regulator",
        ),
        _record(
            "bus-data", "Bus services open data", "The bus services councils are responsible for.", "api", **transport
        ),
        _record(
            "bus-stats",
            "Bus services statistics",
            "Councils are responsible for bus services.",
            "dataset",
            publisher="Department for Education",
        ),
        _record("dft", "Department for Transport", "Runs transport services.", "organisation", **transport),
    ]
    return _searcher(tmp_path_factory.mktemp("regulated"), records)


def test_an_organisation_leading_already_keeps_its_place(regulated):
    found = regulated("who is responsible for bus services")
    assert _ids(found)[0] == "regulator", _ids(found)
    assert not any("kind_asked_for" in result.get("reasons", []) for result in found)


def test_no_body_leads_where_none_publishes_two_of_the_first_results(regulated):
    found = regulated("which department publishes bus services open data and statistics")
    assert not any("kind_asked_for" in result.get("reasons", []) for result in found), _ids(found)
