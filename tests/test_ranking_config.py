"""The ranking's build side: the search vocabulary in the site configs, and
the record flags behind the prior (docs/ranking.md)."""

from functools import lru_cache
from pathlib import Path

import pytest

from govsearch import Catalogue, DirectoryLoader
from govsearch.ranking import rules
from govsearch.ranking.query import query_terms
from govsearch.ranking.vocabulary import SearchTerms
from govsearch_build.config import ConfigError, load_config
from govsearch_build.data_writer import index_document, record_flags, search_terms_of, write_data
from govsearch_build.records import Record

REPO = Path(__file__).resolve().parents[1]


def test_both_site_configs_carry_the_same_search_vocabulary():
    curated = load_config(REPO / "site" / "site.toml")
    estate = load_config(REPO / "site" / "full-estate.toml")
    assert curated.synonyms == estate.synonyms and curated.intents == estate.intents
    assert curated.fillers == estate.fillers and curated.openings == estate.openings
    assert curated.optional_words == estate.optional_words == ("search", "official")
    assert curated.common_words == estate.common_words and {"need", "time", "work"} <= set(curated.common_words)
    assert curated.framing_words == estate.framing_words and {"user", "needs", "find"} <= set(curated.framing_words)
    words = {group[0] for group in curated.synonyms}
    assert {"ons", "hmrc", "dvla", "mot", "vat", "mtd", "epc", "uprn"} <= words
    assert {"api", "dataset", "statistics", "documentation", "guidance"} <= {word for word, _ in curated.intents}


@pytest.mark.parametrize(
    "table, words",
    [
        ('[search]\nsynonyms = [["office for national statistics", "ons"]]', "must start with a single word"),
        ('[search]\nsynonyms = [["ons"]]', "two or more words"),
        ('[search.intents]\napi = ["apis"]', "search.intents.api"),
        ('[search.openings]\nhow = "guidance"', "search.openings"),
        ('[search]\noptional_words = ["planning search"]', "search.optional_words"),
        ('[search]\noptional_words = ["Search"]', "search.optional_words"),
        ('[search]\noptional_words = ["the"]', "search.optional_words"),
        ('[search]\noptional_words = ["near"]\nfillers = ["near"]', "search.optional_words"),
        ('[search]\noptional_words = ["api"]\n[search.intents]\napi = ["api"]', "search.optional_words"),
        ('[search.openings]\n"how many people" = 1', "search.openings"),
        ('[search]\ncommon_words = ["the"]', "search.common_words"),
        ('[search]\ncommon_words = ["Time"]', "search.common_words .*'Time'"),
        ('[search]\ncommon_words = ["near"]\nfillers = ["near"]', "search.common_words .*'near'"),
        ('[search]\ncommon_words = ["search"]\noptional_words = ["search"]', "search.common_words"),
        ('[search]\ncommon_words = ["data"]\n[search.intents]\ndata = ["dataset"]', "search.common_words"),
        ('[search]\ncommon_words = ["car"]\nsynonyms = [["vehicle", "car"]]', "search.common_words"),
        ('[search]\nframing_words = ["the user"]', "search.framing_words"),
        ('[search]\nframing_words = ["User"]', "search.framing_words"),
        ('[search]\nframing_words = ["near"]\nfillers = ["near"]', "search.framing_words"),
        ('[search]\nframing_words = ["need"]\ncommon_words = ["need"]', "search.framing_words .*'need'"),
    ],
)
def test_a_bad_search_table_is_refused_by_name(tmp_path, table, words):
    text = (REPO / "site" / "site.toml").read_text("utf-8").split("# Search vocabulary")[0] + table + "\n"
    path = tmp_path / "site.toml"
    path.write_text(text, "utf-8")
    with pytest.raises(ConfigError, match=words):
        load_config(path)


def record(**fields):
    data = {
        "id": "x",
        "title": "Flood risk zones",
        "summary": "Zones.",
        "url": "https://www.data.gov.uk/dataset/x",
        "resourceType": "dataset",
        "publisher": "Environment Agency",
        "accessStatus": "public",
        "collection": "government-apis",
        "source": {"kind": "okf-search-shards"},
    }
    data.update(fields)
    return Record(file="x.md", data=data, body="")


@pytest.mark.parametrize(
    "fields, flags",
    [
        ({}, []),
        ({"source": {"kind": "curated"}}, ["reviewed"]),
        # our words on an export's facts: nobody checked access or licence
        ({"source": {"kind": "annotated"}}, []),
        ({"collection": "deep-evidence"}, ["reviewed"]),
        ({"url": "https://www.gov.uk/flood-risk"}, ["official_page"]),
        ({"url": "https://check-for-flooding.service.gov.uk/"}, ["official_page"]),
        ({"url": "https://www.gov.uk.example.com/"}, []),
        ({"source": {"kind": "api-catalogue"}}, ["national_api_catalogue"]),
        ({"publisher": "Example Borough Council"}, ["local_authority_row"]),
        ({"publisher": "Royal Borough of Greenwich", "title": "GeoJSON"}, ["local_authority_row", "format_only_title"]),
        # a body's own record, a council's or a national council's, is no row of a council's catalogue
        ({"publisher": "Arts Council England", "resourceType": "organisation"}, []),
        ({"publisher": "Leeds City Council", "resourceType": "organisation"}, []),
        ({"title": "Download Data"}, ["format_only_title"]),
        ({"title": "CSV of flood zones"}, []),
        ({"accessStatus": "restricted"}, ["restricted_access"]),
        ({"accessStatus": "authentication-required"}, []),
    ],
)
def test_record_flags(fields, flags):
    assert record_flags(record(**fields)) == flags


def test_a_synonym_phrase_adds_the_group_word_in_its_own_field():
    document = index_document(
        record(publisher="HM Revenue & Customs", summary="Data from the Office for National Statistics."),
        _site_terms(),
    )
    assert document["publisher"] == "HM Revenue & Customs hmrc_"
    assert document["summary"].endswith(" ons_") and document["title"] == "Flood risk zones"


def test_an_acronym_that_is_an_everyday_word_joins_its_group_only_in_capitals(tmp_path):
    """site.toml writes "SEND" in capitals: special educational needs find the pages
    that say so in either form, not a page about sending money; the word as typed
    still finds all three (docs/ranking.md, "Acronyms that are everyday words")."""
    pages = {
        "verb": "Send money to someone in prison",
        "phrase": "Children with special educational needs and disabilities",
        "capitals": "SEND tribunal: appeal a decision",
    }
    records = [
        record(id=key, title=title, url=f"https://www.gov.uk/{key}", resourceType="govuk-content")
        for key, title in pages.items()
    ]
    search = results_on(tmp_path, records)
    assert {item["id"] for item in search("special educational needs")} == {"phrase", "capitals"}
    assert {item["id"] for item in search("send")} == set(pages)
    assert search("send money")[0]["id"] == "verb"
    terms = _site_terms()
    assert terms.group_tokens(pages["verb"]) == [] and terms.group_tokens(pages["capitals"]) == ["send_"]
    assert terms.group_tokens(pages["phrase"])[-2:] == ["send_", "send"]


def catalogue_on(folder, records) -> Catalogue:
    """A site of `records` built with site.toml's search vocabulary."""
    write_data(load_config(REPO / "site" / "site.toml"), records, folder / "data")
    return Catalogue.open(DirectoryLoader(folder))


def results_on(folder, records):
    """A search's results on a site of `records` built with site.toml's search vocabulary."""
    catalogue = catalogue_on(folder, records)
    return lambda query: catalogue.call("search_government_knowledge", {"query": query})["results"]


def first_result_on(folder, records):
    """A search's first result on a site of `records` built with site.toml's search vocabulary."""
    search = results_on(folder, records)
    return lambda query: search(query)[0]


def test_a_question_opening_with_who_puts_the_body_first(tmp_path):
    """ "who" asks for a body: an organisation record rises above a guide
    holding the same words (site.toml's search.intents), which leads the
    same words asked without it."""
    body = record(
        id="national-highways",
        title="National Highways",
        summary="Responsible for motorways in England.",
        url="https://www.gov.uk/government/organisations/national-highways",
        resourceType="organisation",
        accessStatus="not-applicable",
    )
    guide = record(
        id="motorway-guide",
        title="Motorway rules",
        summary=(
            "Which government department or agency is responsible for roads and bridges, and the rules"
            " for driving on them in England, Scotland and Wales."
        ),
        url="https://www.gov.uk/motorway-guide",
        resourceType="guidance",
    )
    first = first_result_on(tmp_path, [body, guide])
    assert first("responsible for motorways")["title"] == "Motorway rules"
    asked = first("who is responsible for motorways")
    assert asked["title"] == "National Highways" and "type_matches_intent" in asked["reasons"]
    # "which department" and the like ask what "who" asks; "department" is then no word to find.
    for question in ("which government department is responsible for motorways", "which agency runs motorways"):
        assert first(question)["title"] == "National Highways", question


def population_estimates():
    """The national population estimates: what population questions about any place find first or next."""
    return record(
        id="population-estimates",
        title="Population estimates",
        summary="Mid-year estimates of the resident population of each local authority.",
        url="https://www.ons.gov.uk/population-estimates",
        publisher="Office for National Statistics",
    )


def test_how_many_people_live_in_a_place_asks_for_its_population(tmp_path):
    """ "how many people live in Bristol" is a population question (site.toml's
    search.openings): the population estimates lead, not a guide that holds
    "people" and "live" and names the place, which leads the same words
    asked as keywords."""
    estimates = population_estimates()
    guide = record(
        id="bristol-guide",
        title="Help for people who live in Bristol",
        summary="Support for older people who live alone in Bristol.",
        url="https://www.bristol.gov.uk/help",
        resourceType="guidance",
        publisher="Bristol City Council",
    )
    first = first_result_on(tmp_path, [estimates, guide])
    assert first("people live in Bristol")["title"] == "Help for people who live in Bristol"
    assert first("How many people live in Bristol?")["title"] == "Population estimates"


def test_how_many_people_asks_for_figures(tmp_path):
    """ "how many people are homeless" counts people: the homelessness statistics
    lead the service for homeless people, which leads the same words asked as
    keywords ("how many people" reads as "statistics", an intent word)."""
    figures = record(
        id="homelessness-statistics",
        title="Statutory homelessness in England",
        summary="Households assessed as homeless by councils, each quarter.",
        url="https://www.gov.uk/government/collections/homelessness-statistics",
        resourceType="dataset",
        publisher="Ministry of Housing, Communities and Local Government",
    )
    help_page = record(
        id="homeless-help",
        title="Help if you're homeless",
        summary="What your council must do if you are homeless or at risk of homelessness.",
        url="https://www.gov.uk/homelessness-help-from-council",
        resourceType="govuk-content",
        publisher="Ministry of Housing, Communities and Local Government",
    )
    first = first_result_on(tmp_path, [figures, help_page])
    assert first("homeless")["id"] == "homeless-help"
    found = first("how many people are homeless")
    assert found["id"] == "homelessness-statistics" and "type_matches_intent" in found["reasons"]
    # "how many people can ..." asks a rule, not a count: the words decide, as typed without the opening.
    assert first("how many people can be homeless")["id"] == "homeless-help"


def test_a_town_no_record_names_is_a_place_not_a_typo(tmp_path):
    """ "population of Inverness": no record names Inverness, which the
    gazetteer knows as a town (govsearch_build/towns.txt), so the population
    figures answer and the notice says none is about it; read as a typo,
    "inver" (its stem) was one edit from "inner" and a record about inner
    London led."""
    estimates = population_estimates()
    inner = record(
        id="inner-london",
        title="Inner London schools",
        summary="Pupils of inner London schools, and the school population of each borough.",
        url="https://www.gov.uk/inner-london-schools",
        publisher="Department for Education",
    )
    answer = catalogue_on(tmp_path, [estimates, inner]).call(
        "search_government_knowledge", {"query": "population of Inverness"}
    )
    assert answer["results"][0]["id"] == "population-estimates"
    assert not any("typo_corrected" in result.get("reasons", []) for result in answer["results"])
    assert [notice["code"] for notice in answer["notices"]] == ["place_not_matched"]


@lru_cache(maxsize=1)
def _site_terms() -> SearchTerms:
    """How the curated site reads a query (site.toml's [search])."""
    return search_terms_of(load_config(REPO / "site" / "site.toml"))


def _typed(query: str) -> list[str]:
    """The query's search terms, as typed, as the curated site reads it."""
    return [term.typed for term in query_terms(query, search_terms=_site_terms())]


def test_when_and_how_a_sentence_is_framed_is_no_topic():
    """A sentence's first 8 words come first for the work budget (terms.LEADING_TERMS):
    "last month" and "a parent asks" took places its topic needed (search.fillers)."""
    read = _typed("A parent asks how many free childcare hours they can get for a 2 year old, starting next month")
    assert read == ["parent", "free", "childcare", "hours", "2", "year", "old", "starting"]


def test_an_agents_framing_of_a_sentence_is_no_topic_but_a_short_query_can_be_it():
    """ "The user ... wants", "I'm helping ...", "find ...": how an agent frames someone's need
    (search.framing_words), left out in a sentence of rules.SENTENCE_FROM words or more, where
    "find" and "user" took places among the topic's words (Land Registry's "Find a property"
    above the ONS Postcode Directory). In a short query the same word may be what is asked."""
    read = _typed("The user wants to find the latest ONS Postcode Directory bulk download for their app")
    assert read == ["ons", "postcode", "directory", "bulk", "download", "app"]
    read = _typed("I'm helping a client who needs to register her baby's birth at a register office in Leeds")
    assert read == ["register", "baby's", "birth", "office", "leeds"]
    # Seven words are no sentence: the framing stays.
    assert _typed("I'm helping a client who needs to register a birth in Leeds") == [
        "helping",
        "client",
        "needs",
        "register",
        "birth",
        "leeds",
    ]
    assert _typed("find a job") == ["find", "job"]
    assert _typed("user research in government services") == ["user", "research", "government", "services"]


def test_when_a_place_is_open_is_no_topic_but_a_day_can_be():
    """ "open sunday" says when, not what (the Bloody Sunday Inquiry led "nearest tip near me
    open sunday"); "Sunday trading" is a topic, so a day counts only after "open"."""
    assert _typed("swimming pool near me open on sundays") == ["swimming", "pool"]
    assert _typed("library opening times leeds") == ["library", "leeds"]
    assert _typed("sunday trading hours") == ["sunday", "trading", "hours"]


def test_at_present_is_no_topic():
    """ "now", "currently", "today" say when, as "current" does: "is Yeovil in Somerset Council or
    South Somerset District Council now" was led by "Local land charges searches for Norwich are
    now available" (search.fillers). Alone, the word is what is asked."""
    assert _typed("is Yeovil in Somerset Council or South Somerset District Council now") == [
        "yeovil",
        "somerset",
        "council",
        "south",
    ]
    assert _typed("what is the bank rate currently") == ["bank", "rate"]
    assert _typed("air pollution round here today") == ["air", "pollution", "round", "here"]
    assert _typed("now") == ["now"]


def test_where_the_asker_is_said_to_be_is_no_topic():
    """ "close to where I live" says where, as "near me" does: "close" and "live" found the
    DLA's "living" before the one record of public defibrillators. "my area" stays: finders
    say "in your area"."""
    assert _typed("are there any public defibrillators close to where I live") == ["public", "defibrillators"]
    assert _typed("dentist close to me") == ["dentist"]
    assert _typed("food banks around here") == ["food", "banks"]
    assert _typed("libraries close to leeds") == ["libraries", "leeds"]  # as "next to"
    assert _typed("broadband speed in my area") == ["broadband", "speed", "area"]


def test_which_council_asks_for_the_council_finder():
    """ "which council is skegness in" asks which council serves a place: the words the
    council finder is titled by ("Find your local council"), the place beside them."""
    assert _typed("which council is skegness in")[:2] == ["local", "council"]
    # The verb that asks which ("covers", "serves") is the question's, not a word to find: "covers"
    # led with boundary files that say which areas they cover.
    assert _typed("which council covers my area") == ["local", "council", "area"]
    assert _typed("what council serves yeovil") == ["local", "council", "yeovil"]
    for query in ("council tax bands", "which council tax band am i in", "what council tax band is my house"):
        assert _typed(query)[:2] == ["council", "tax"], query


def test_how_do_i_apply_for_a_service_asks_for_the_service(tmp_path):
    """ "how do I apply for pension credit" (search.openings): the service's own
    page leads, not a page that tells you to apply for another credit and
    mentions pensions, which leads the same words asked as keywords."""
    service = record(
        id="pension-credit",
        title="Pension Credit",
        summary="Extra money to help with living costs if you are over State Pension age.",
        url="https://www.gov.uk/pension-credit",
        resourceType="govuk-content",
        publisher="Department for Work and Pensions",
    )
    other = record(
        id="ni-credits",
        title="National Insurance credits",
        summary="Apply for credits to fill gaps in your record for your pension; apply for credit if you are ill.",
        url="https://www.gov.uk/national-insurance-credits",
        resourceType="govuk-content",
        publisher="HM Revenue & Customs",
    )
    first = first_result_on(tmp_path, [service, other])
    assert first("apply pension credit")["id"] == "ni-credits"
    assert first("How do I apply for Pension Credit?")["id"] == "pension-credit"


def test_how_much_houses_cost_asks_for_house_prices(tmp_path):
    """ "how much are houses in Leeds" asks what homes sell for (search.openings):
    the house price index leads, not a page about a house that holds "houses"."""
    prices = record(
        id="house-price-index",
        title="UK House Price Index",
        summary="Average prices of homes sold in each local authority, month by month.",
        url="https://www.gov.uk/government/collections/uk-house-price-index-reports",
        publisher="HM Land Registry",
    )
    company = record(
        id="companies-house",
        title="Companies House",
        summary="Companies House houses the register of companies in Leeds and elsewhere.",
        url="https://www.gov.uk/government/organisations/companies-house",
        resourceType="organisation",
        publisher="Companies House",
    )
    first = first_result_on(tmp_path, [prices, company])
    assert first("houses in Leeds")["id"] == "companies-house"
    assert first("how much are houses in Leeds")["id"] == "house-price-index"


def test_a_place_ranks_its_records_without_lifting_a_record_that_only_names_it(tmp_path):
    """A place beside a topic is a preference (docs/ranking.md, "Questions and
    places"): the place's own record on the topic leads, then the national
    figures, and only then a council register that names the place in its
    title and the topic in passing. The place's name, a rare word, no longer
    adds its weight to the register's score."""
    estimates = population_estimates()
    register = record(
        id="cornwall-brownfield",
        title="Cornwall Council Brownfield Register",
        summary="Sites suitable for housing, listed with the population of the parish each is in.",
        url="https://www.data.gov.uk/dataset/cornwall-brownfield",
        publisher="Cornwall Council",
    )
    profile = record(
        id="cornwall-population",
        title="Cornwall population profile",
        summary="Residents of Cornwall by age and sex.",
        url="https://www.data.gov.uk/dataset/cornwall-population",
        publisher="Cornwall Council",
    )
    search = results_on(tmp_path, [estimates, register, profile])
    found = search("population of Cornwall")
    assert [result["title"] for result in found] == [
        "Cornwall population profile",
        "Population estimates",
        "Cornwall Council Brownfield Register",
    ]
    assert "place_matches" in found[0]["reasons"] and "place_matches" not in found[1].get("reasons", [])
    assert "cornwall" in found[2]["matched"]["title"]  # the register still holds the place: it is found, not lifted


def test_a_contraction_typed_without_its_apostrophe_asks_nothing(tmp_path):
    """ "cant" is "can't" typed on a phone: no record holds it, so requiring it
    sent "i lost my job and cant pay rent" to records holding some of the words."""
    credit = record(
        id="universal-credit",
        title="Universal Credit",
        summary="Help to pay your rent and living costs if you lost your job or are on a low income.",
        url="https://www.gov.uk/universal-credit",
        resourceType="govuk-content",
    )
    search = results_on(tmp_path, [credit, population_estimates()])
    for query in ("i lost my job and cant pay rent", "i lost my job so i wont pay rent"):
        assert [(result["title"], result["matchMode"]) for result in search(query)] == [
            ("Universal Credit", "all_terms")
        ], query


def test_a_councils_name_of_several_words_is_one_place(tmp_path):
    """ "North" is in many councils' names, so alone it is no place and a query
    must find it; in "North Somerset" it is part of one place: that council's
    record leads, the national guide is found (it says nothing of the north),
    and the other "North" councils' records are not lifted."""
    councils = [
        record(
            id=f"libraries-{place.lower()}",
            title=title,
            summary="Opening hours of the council's libraries.",
            url=f"https://www.data.gov.uk/dataset/libraries-{place.lower()}",
            publisher=f"North {place} Council",
        )
        for place, title in (
            ("Somerset", "Libraries"),
            ("Yorkshire", "Library locations"),
            ("Devon", "Mobile libraries"),
            ("Norfolk", "Public libraries"),
        )
    ]
    guide = record(
        id="library-services",
        title="Local library services",
        summary="What a public library offers and how to join one.",
        url="https://www.gov.uk/local-library-services",
        resourceType="govuk-content",
        publisher="Department for Culture, Media and Sport",
    )
    found = results_on(tmp_path, [*councils, guide])("libraries in North Somerset")
    assert found[0]["publisher"] == "North Somerset Council" and "place_matches" in found[0]["reasons"]
    # Found by every word it must hold, it comes next: before, "north" was one of them, and the
    # other councils' libraries held it and came first.
    assert found[1]["title"] == "Local library services"
    assert not any("place_matches" in result.get("reasons", []) for result in found[1:])


def test_the_ways_people_ask_for_a_contact_page_find_it(tmp_path):
    """ "phone number", "helpline", "telephone" ask for a body's contact page
    (site.toml's synonym group led by "contact"): it leads, above a page that
    holds "phone" and "number" in passing."""
    contact = record(
        id="contact-passport-office",
        title="Contact HM Passport Office",
        summary="Call or write to the passport adviceline.",
        url="https://www.gov.uk/passport-advice-line",
        resourceType="govuk-content",
        publisher="HM Passport Office",
    )
    photo = record(
        id="passport-photo",
        title="Passport photos",
        summary="Take a passport photo with a phone; the office checks the number of the application.",
        url="https://www.gov.uk/photos-for-passports",
        resourceType="govuk-content",
        publisher="HM Passport Office",
    )
    first = first_result_on(tmp_path, [contact, photo])
    for query in ("passport office phone number", "passport office helpline", "passport office telephone"):
        assert first(query)["title"] == "Contact HM Passport Office", query


def test_the_tip_is_the_recycling_centre_and_fly_tipping_is_not(tmp_path):
    """ "tip" is what people call a household waste recycling centre (site.toml's group led
    by "tip"); Porter stems "tipping" as "tip", so "Fly-tipping" led "nearest tip near me".
    Tips, in the plural, are gratuities or advice: not the group's."""
    fly_tipping = record(
        id="fly-tipping",
        title="Fly-tipping: council responsibilities",
        summary="What councils must do about fly-tipping and illegal dumping of waste.",
        url="https://www.gov.uk/guidance/fly-tipping-council-responsibilities",
        resourceType="guidance",
    )
    centres = record(
        id="recycling-centres",
        title="Household Waste Recycling Centres",
        summary="Where the council's household waste recycling centres are and what each takes.",
        url="https://example.gov.uk/recycling-centres",
        resourceType="dataset",
        publisher="Example Council",
    )
    gratuities = record(
        id="tips",
        title="Tips, gratuities and service charges",
        summary="How tips paid to staff are taxed.",
        url="https://www.gov.uk/tips-at-work",
        resourceType="govuk-content",
    )
    search = results_on(tmp_path, [fly_tipping, centres, gratuities])
    for query in ("nearest tip near me", "tip open sunday", "local recycling centre"):
        assert [result["id"] for result in search(query)] == ["recycling-centres"], query
    assert search("report fly tipping")[0]["id"] == "fly-tipping"
    assert search("tax on tips")[0]["id"] == "tips"


def test_a_title_holding_several_of_the_words_comes_before_one_holding_them_scattered(tmp_path, monkeypatch):
    """When no record holds every word (any_term), a record titled by two of
    them ("charging points") is about them and leads a reviewed GOV.UK page
    that holds as many of them, scattered through its text. Related words
    are left out: in two records they are accidents ("charging" is related
    to the page's "pays"), and this is about the words as typed."""
    chargers = record(
        id="chelmsford-ev",
        title="EV Charging Points in Chelmsford",
        summary="Where to find public charging points in the city, and what each one offers.",
        url="https://www.data.gov.uk/dataset/ev-charging-points-in-chelmsford",
        publisher="Energy Saving Trust",
    )
    scattered = record(
        id="vehicle-tax",
        title="Road tax rates",
        summary="Rates for each car by its emissions: a hybrid car pays less.",
        # Not an address on GOV.UK's most visited list: the page's prior is its flags' alone.
        url="https://www.gov.uk/road-tax-rates",
        resourceType="guidance",
        publisher="HM Revenue & Customs",
        source={"kind": "curated"},
    )
    catalogue = catalogue_on(tmp_path, [chargers, scattered])
    monkeypatch.setattr(catalogue.engine.matcher, "related", lambda term: ())
    # Not "electric car": it is the "ev" group (site.toml's synonyms), which "EV Charging Points"
    # holds, so that record would hold every word and leave the any-term tier.
    found = catalogue.call("search_government_knowledge", {"query": "hybrid car charging points"})["results"]
    assert [result["title"] for result in found] == ["EV Charging Points in Chelmsford", "Road tax rates"]
    assert all(result["matchMode"] == "any_term" for result in found)
    assert "words_in_title" in found[0]["reasons"] and "words_in_title" not in found[1]["reasons"]


def test_figures_ask_for_statistics_as_statistics_does(tmp_path):
    """ "figures" is how people say statistics ("uk employment figures"): a
    dataset leads a GOV.UK page titled by the same word, which leads without
    it, and "figures" is not required of it (site.toml's search.intents)."""
    dataset = record(
        id="employment-statistics",
        title="Employment in the UK",
        summary="Monthly estimates of people in work, by age and sex.",
        url="https://www.ons.gov.uk/employmentandlabourmarket/peopleinwork",
        resourceType="dataset",
        publisher="Office for National Statistics",
    )
    page = record(
        id="employment-contracts",
        title="Employment contracts",
        summary="What your employer must give you in writing when you start a job.",
        url="https://www.gov.uk/employment-contracts-and-conditions",
        resourceType="govuk-content",
        publisher="Department for Business and Trade",
    )
    search = results_on(tmp_path, [dataset, page])
    assert [result["id"] for result in search("employment")] == ["employment-contracts", "employment-statistics"]
    asked = search("employment figures")
    assert [result["id"] for result in asked] == ["employment-statistics", "employment-contracts"]
    assert "type_matches_intent" in asked[0]["reasons"]


def test_a_word_sharing_an_intent_words_stem_asks_for_nothing():
    """An intent word asks for its types as typed, or as its plural ("apis"): "figure out"
    and "travel documents" share the stems of "figures" and "documentation" and ask for no
    statistics or API documentation (an API's page led "how to figure out my tax code")."""
    terms = _site_terms()
    read = {
        word: query_terms(f"tax {word}", search_terms=terms)[1].intent
        for word in ("figure", "documents", "figures", "documentation", "apis")
    }
    assert read == {
        "figure": (),
        "documents": (),
        "figures": ("dataset",),
        "documentation": ("api-documentation",),
        "apis": ("api", "api-documentation"),
    }
    # Two words of one stem are one term: the intent word's reading, whichever comes first.
    for query in ("documents documentation", "documentation documents"):
        (term,) = query_terms(query, search_terms=terms)
        assert term.intent == ("api-documentation",), query


def test_an_intent_word_puts_its_type_above_a_reviewed_page_holding_the_words(tmp_path):
    """ "api" asks for an API: the API record leads a reviewed GOV.UK page
    that holds every word, whose prior (reviewed x official) outweighed the
    type's factor at 1.5 (rules.INTENT_BOOST, 2.0). Without the intent word
    the page leads."""
    api = record(
        id="tariff-api",
        title="Trade Tariff API",
        summary="Look up commodity codes, duties and quotas from your own software: the trade tariff as data.",
        url="https://developer.example.org/trade-tariff-api",
        resourceType="api",
        publisher="HM Revenue & Customs",
    )
    page = record(
        id="tariff-lookup",
        title="Trade Tariff: look up commodity codes, duty and VAT rates",
        summary="Find the commodity code for goods you import or export, and the duty and VAT you pay on them.",
        url="https://www.gov.uk/trade-tariff",
        resourceType="govuk-content",
        publisher="HM Revenue & Customs",
        source={"kind": "curated"},
        keywords=["commodity codes"],
    )
    search = results_on(tmp_path, [api, page])
    assert [result["id"] for result in search("trade tariff commodity codes")] == ["tariff-lookup", "tariff-api"]
    asked = search("trade tariff API commodity codes")
    assert [result["id"] for result in asked] == ["tariff-api", "tariff-lookup"]
    assert "type_matches_intent" in asked[0]["reasons"] and "reviewed" in asked[1]["reasons"]


def test_a_title_naming_the_intent_word_is_the_kind_asked_for_whatever_its_type(tmp_path):
    """ "how many people" asks for statistics (datasets): GOV.UK's own statistics page, titled so,
    is what is asked for, above a guide holding the words more often; "data" in a title is as
    often part of a thing's name ("Price Paid Data"), so a page so titled is no dataset."""
    guide = record(
        id="claim-guide",
        title="How to claim Benefit X",
        summary="Claim Benefit X online: who can claim, how to claim and what happens after you claim.",
        url="https://www.gov.uk/claim-benefit-x",
        resourceType="govuk-content",
        source={"kind": "curated"},
        keywords=["claim benefit x", "benefit x claim"],
    )
    statistics = record(
        id="benefit-x-statistics",
        title="Benefit X statistics",
        summary="Monthly figures on who claims Benefit X, by area.",
        url="https://www.gov.uk/government/collections/benefit-x-statistics",
        resourceType="govuk-content",
        source={"kind": "curated"},
    )
    survey = record(id="survey", title="Family Resources Survey", summary="Household incomes.")
    search = results_on(tmp_path, [guide, statistics, survey])
    asked = search("how many people claim benefit x")
    assert [result["id"] for result in asked] == ["benefit-x-statistics", "claim-guide"]
    assert "type_matches_intent" in asked[0]["reasons"]
    assert "type_matches_intent" not in search("benefit x claim data")[0]["reasons"]


def test_a_record_of_one_devolved_nation_follows_for_a_query_naming_no_nation_or_place(tmp_path):
    """Most people asking live in England: for "childcare costs help", Wales's own guide follows
    GOV.UK's (which it leads on its words alone: its summary says "help" twice); naming Wales, or a place
    (which may be in Wales), or asking "near me" (the asker's nation unknown), leaves them as found."""
    common = {"resourceType": "guidance", "source": {"kind": "curated"}}
    wales = record(
        id="wales",
        title="Childcare costs: help in Wales",
        summary="Help with childcare costs for working parents, and help to apply.",
        url="https://www.gov.wales/childcare-costs",
        publisher="Welsh Government",
        **common,
    )
    england = record(
        id="england",
        title="Childcare costs: help for parents",
        summary="Help with childcare costs for working parents, and how to apply.",
        url="https://www.childcarechoices.gov.uk/costs",
        publisher="Department for Education",
        **common,
    )
    search = results_on(tmp_path, [wales, england])
    assert [item["id"] for item in search("childcare costs help")] == ["england", "wales"]
    assert search("childcare costs help wales")[0]["id"] == "wales"
    near = [item["id"] for item in search("childcare costs help near me")]
    assert near == [item["id"] for item in search("childcare costs help cardiff")] == ["wales", "england"]


def test_a_question_naming_a_service_by_its_title_puts_that_service_first(tmp_path):
    """A question of five words or more whose words hold a title as a run ("can i claim pension
    credit with savings ...": "Pension Credit") names that service; a guide holding the words
    more often led it. A shorter query is read as before (rules.TITLE_RUN_FROM)."""
    common = {"resourceType": "govuk-content", "source": {"kind": "curated"}}
    service = record(
        id="pension-credit",
        title="Pension Credit",
        summary="Claim Pension Credit if you are over State Pension age, whatever your savings or private pension.",
        url="https://www.gov.uk/pension-credit",
        **common,
    )
    guide = record(
        id="savings-guide",
        title="How savings and a private pension affect a claim",
        summary="What savings and a private pension mean for a claim for Pension Credit, and for other benefits.",
        url="https://www.gov.uk/savings-guide",
        keywords=["claim pension credit with savings"],
        **common,
    )
    search = results_on(tmp_path, [service, guide])
    asked = search("can i claim pension credit with savings and a private pension")
    assert [item["id"] for item in asked] == ["pension-credit", "savings-guide"]
    assert "title_in_query" in asked[0]["reasons"]
    assert [item["id"] for item in search("pension credit savings")] == ["savings-guide", "pension-credit"]


def test_a_summarys_opening_verb_about_the_page_is_no_topic(tmp_path):
    """Our summaries (curated and annotated records) open with what the page does ("Walks
    through", "Lists", "Works out"): those verbs are not its topic, so "walk in centre" does not find
    a visa guide by its summary's "Walks", while the words after them still count."""
    visa = record(
        id="visa-guide",
        title="How to apply for a visa to come to the UK",
        summary="Walks through applying for a UK visa: the visa centre, proving identity and paying.",
        url="https://www.gov.uk/apply-to-come-to-the-uk",
        resourceType="govuk-content",
        source={"kind": "curated"},
    )
    clinic = record(
        id="urgent-care",
        title="Urgent and emergency care services",
        summary="Where to go when it is urgent: a walk-in centre, an urgent treatment centre or A&E.",
        url="https://www.nhs.uk/urgent-care",
        resourceType="guidance",
    )
    listed = record(
        id="lists",
        title="Planning guide",
        summary="Lists the buildings a council must consult on.",
        source={"kind": "curated"},
    )
    search = results_on(tmp_path, [visa, clinic, listed])
    assert [result["title"] for result in search("walk in centre")][:1] == ["Urgent and emergency care services"]
    assert all(result["id"] != "visa-guide" or result["matchMode"] == "any_term" for result in search("walk centre"))
    assert search("listed") == [] and [result["id"] for result in search("buildings")] == ["lists"]
    assert [result["id"] for result in search("visa centre")][:1] == ["visa-guide"]
    indexed = index_document(visa)["summary"]
    assert "Walks" not in indexed and "applying for a UK visa" in indexed
    # An export's summary is its publisher's, not ours: its first word is what it says.
    exported = record(summary="Points showing the location of tree preservation orders.")
    assert index_document(exported)["summary"] == exported.data["summary"]


def test_a_question_naming_no_future_puts_what_is_before_projections(tmp_path):
    """ "population of bristol" asks how many people live there now: ONS's estimates, not its
    projections, which tied with them on every word ("National population projections" led).
    A query naming the future or a date leaves projections where their words put them (here
    first: of two records alike, the first by title)."""
    records = [
        record(
            id=key,
            title=f"Population {key}",
            summary="Population for the UK and its areas.",
            url=f"https://www.ons.gov.uk/{key}",
            publisher="Office for National Statistics",
        )
        for key in ("projections", "totals")
    ]
    first = first_result_on(tmp_path, records)
    assert first("population of bristol")["id"] == "totals"
    for query in ("population of bristol in the future", "projected population", "population of bristol 2040"):
        assert first(query)["id"] == "projections", query
    # Still being typed, "proj" may grow into "projections": the search box's answer keeps them
    # where their words put them (first of two titles alike: "projections", "projects").
    alike = [{**records[0].data, "id": key, "title": f"Population {key}"} for key in ("projections", "projects")]
    typing = catalogue_on(tmp_path / "typing", [record(**data) for data in alike])
    answer = typing.call("search_government_knowledge", {"query": "population of bristol proj"}, prefix_last=True)
    assert [result["id"] for result in answer["results"]] == ["projections", "projects"]


def _planning_search(tmp_path, official_summary: str) -> list[tuple[str, str]]:
    """ "planning applications search" over a planning page and HM Land Registry's "Official
    Search" service (summarised as given): each result's id and match mode."""
    planning = record(
        id="planning-applications",
        title="Planning applications",
        summary="Planning applications made to the council, with their decisions.",
        url="https://www.gov.uk/planning-applications",
        publisher="Ministry of Housing, Communities and Local Government",
    )
    official = record(
        id="official-search",
        title="Official Search applications",
        summary=official_summary,
        url="https://www.gov.uk/official-search",
        publisher="HM Land Registry",
    )
    results = results_on(tmp_path, [planning, official])("planning applications search")
    return [(result["id"], result["matchMode"]) for result in results]


def test_a_search_asked_for_need_not_say_search(tmp_path):
    """ "planning applications search" asks for planning applications, to search: a page
    about them need not say "search" (site.toml's search.optional_words). Required, the word
    left HM Land Registry's "Official Search" services (holding "search" and "applications")
    level with the planning page in the any-term tier."""
    assert _planning_search(tmp_path, "Applications for an official search of a registered title.") == [
        ("planning-applications", "all_terms"),
        ("official-search", "any_term"),
    ]


def test_an_optional_word_lifts_no_record_holding_it(tmp_path):
    """ "planning applications search": both records hold every word, but "search" says what
    the asker will do, not what about (rules.OPTIONAL_WEIGHT): HM Land Registry's "Official
    Search" service, titled by it, led the planning page by it."""
    summary = "Applications for an official search of a title, for planning a purchase."
    assert _planning_search(tmp_path, summary) == [
        ("planning-applications", "all_terms"),
        ("official-search", "all_terms"),
    ]


def _credit_and_hours(common_holders: int) -> list:
    """A catalogue for "can i get universal credit if i work part time": the Universal Credit
    page (the rare words), "Maximum weekly working hours" (holding "work", "part" and "time"),
    `common_holders` more records holding those three, and 60 holding none of the words."""
    credit = record(
        id="universal-credit",
        title="Universal Credit",
        summary="A payment to help with your living costs if you're on a low income.",
        url="https://www.gov.uk/universal-credit",
        publisher="Department for Work and Pensions",
        resourceType="govuk-content",
    )
    hours = record(
        id="working-hours",
        title="Maximum weekly working hours",
        summary="How many hours a week you can be made to work, full or part time.",
        url="https://www.gov.uk/maximum-weekly-working-hours",
        publisher="Department for Business and Trade",
        resourceType="govuk-content",
    )
    common = [
        record(
            id=f"common-{n}",
            title=f"Topic {n}",
            summary="Part of the time you work here.",
            url=f"https://www.gov.uk/topic-{n}",
            resourceType="govuk-content",
        )
        for n in range(common_holders)
    ]
    # The rest of the catalogue holds none of the words: "work", "part" and "time" are common, not everywhere.
    other = [
        record(id=f"other-{n}", title=f"Other {n}", summary="Rivers and roads.", url=f"https://www.gov.uk/other-{n}")
        for n in range(60)
    ]
    return [credit, hours, *common, *other]


def test_a_record_holding_the_rare_topic_outranks_one_holding_the_common_words(tmp_path):
    """No record holds every word of "can i get universal credit if i work part time"; the
    any-term tier then ranks by the share of the query's words a record holds. Counted one
    word each, "Maximum weekly working hours" (holding "work", "part" and "time", which many
    records hold) led the Universal Credit page (holding the rare words only); a lacking word
    now counts in part by its information (rules.LACKING_BY_INFORMATION). Here the shares
    decide; in the estate lunr's score for "working" in that title still carries it first."""
    results = results_on(tmp_path, _credit_and_hours(12))("can i get universal credit if i work part time")
    assert [result["id"] for result in results[:2]] == ["universal-credit", "working-hours"]
    assert results[0]["matchMode"] == "any_term"


def test_a_common_english_word_says_less_of_the_topic_than_the_estate_counts(tmp_path, monkeypatch):
    """The estate's short texts hold "work" and "time" less often than speech does, so their idf
    overstates what they say of "can i get universal credit if i work part time": counted by the
    estate alone, "Maximum weekly working hours" (holding "work", "part" and "time") leads the
    Universal Credit page. Each is among English's commonest words (site.toml's
    search.common_words) and weighs half its idf (rules.COMMON_WORD_WEIGHT): Universal Credit leads.
    Here six other records hold the three words (twelve in the test above): rarer, so that
    counted by their idf alone they outweigh "universal credit"."""
    catalogue = catalogue_on(tmp_path, _credit_and_hours(6))

    def first_two() -> list[str]:
        query = {"query": "can i get universal credit if i work part time"}
        return [result["id"] for result in catalogue.call("search_government_knowledge", query)["results"][:2]]

    assert first_two() == ["universal-credit", "working-hours"]
    monkeypatch.setattr(rules, "COMMON_WORD_WEIGHT", 1.0)
    assert first_two() == ["working-hours", "universal-credit"]


def test_a_record_holding_only_the_querys_year_comes_after_the_subject(tmp_path):
    """ "ONSPD May 2026 csv": no record holds every word, and "Rates and thresholds for
    employers 2026 to 2027" held the rarest of them, the year, in its title, so the any-term
    tier's share put it first. A year says which edition, not what about: a record holding
    nothing else scores 0 there and comes after every record holding a word of the subject,
    as one holding only an intent word does. With the year, the subject's records still rank
    by it."""
    directory = record(
        id="directory",
        title="Postcode directory for the UK",
        summary="Every postcode with its areas, as a CSV download.",
        url="https://www.data.gov.uk/dataset/onspd",
    )
    dated = record(
        id="directory-2026",
        title="ONS Postcode Directory (May 2026)",
        summary="The May edition of every postcode with its areas.",
        url="https://www.data.gov.uk/dataset/onspd-2026",
    )
    rates = record(
        id="rates",
        title="Rates and thresholds for employers 2026 to 2027",
        summary="What employers deduct from pay.",
        url="https://www.gov.uk/guidance/rates-and-thresholds-for-employers-2026-to-2027",
        resourceType="guidance",
    )
    places = ["Leeds", "York", "Hull", "Bath", "Ely", "Wells", "Derby", "Truro", "Exeter", "Lincoln"]
    other = [
        record(
            id=f"postcode-{place}", title=f"Postcodes of {place}", summary="Areas.", url=f"https://www.gov.uk/{place}"
        )
        for place in places
    ]
    catalogue = catalogue_on(tmp_path, [directory, dated, rates, *other])
    query = {"query": "postcode directory 2026 csv", "limit": 20}
    ids = [result["id"] for result in catalogue.call("search_government_knowledge", query)["results"]]
    assert ids[:2] == ["directory-2026", "directory"]
    assert ids[-1] == "rates" and len(ids) == 3 + len(places)
