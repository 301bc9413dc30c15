"""The second ranking stage, rule by rule, on the fixture corpus (docs/ranking.md).

Each test states what a searcher would notice: which record leads, where
looser matches go, what the answer says about why a record matched.
"""

import pytest

from govsearch.ranking import learned
from govsearch.ranking.analysis import analysed


def ids(result):
    return [item["id"] for item in result["results"]]


def stems(text):
    return [indexed for _, indexed in analysed(text)]


def test_a_typo_next_to_a_correct_word_is_corrected(search):
    result = search({"query": "compnies house", "limit": 20})
    assert result["match_mode"] == "fuzzy"
    first = result["results"][0]
    assert first["id"] == "companies-api" and first["matchMode"] == "fuzzy"
    assert "typo_corrected" in first["reasons"]
    assert result["suggestion"] == "companies house"
    # Records holding only the correct word come after the corrected match, not instead of it.
    assert {item["matchMode"] for item in result["results"][1:]} == {"any_term"}


def test_no_suggestion_when_every_word_matched(search):
    assert "suggestion" not in search({"query": "companies house"})


def test_total_and_order_do_not_depend_on_the_limit(search):
    wide = search({"query": "house prices", "limit": 20})
    for limit in (1, 3, 8):
        narrow = search({"query": "house prices", "limit": limit})
        assert narrow["total"] == wide["total"]
        assert narrow["results"] == wide["results"][:limit]


def test_order_is_mode_then_score(search):
    result = search({"query": "house prices census", "limit": 20})
    rank = {"identifier": 0, "all_terms": 1, "fuzzy": 2, "any_term": 3}
    keys = [(rank[item["matchMode"]], -item["score"]) for item in result["results"]]
    assert keys == sorted(keys) and len(keys) > 3


@pytest.mark.parametrize("query", ["house prices", "flood", "land registry price", "vat returns"])
def test_all_words_in_title_is_said_exactly_when_true(search, query):
    words = [term for term in stems(query)]
    for item in search({"query": query, "limit": 20})["results"]:
        if item["matchMode"] != "all_terms":
            continue
        title = set(stems(item["title"]))
        synonyms = {"hmlr"} if "hm land registry" in item["title"].lower() else set()
        assert ("all_words_in_title" in item.get("reasons", [])) == all(word in title | synonyms for word in words), (
            item
        )


def test_words_adjacent_as_typed_count(search):
    result = search({"query": "house prices", "limit": 20})
    adjacent = [item["id"] for item in result["results"] if "words_adjacent" in item.get("reasons", [])]
    assert adjacent == ["house-price-index"]  # "average house prices" in its summary
    reversed_words = search({"query": "prices house", "limit": 20})
    assert not any("words_adjacent" in item.get("reasons", []) for item in reversed_words["results"])


def test_intent_words_prefer_types_without_being_required(search):
    # "api" is an intent word: the census dataset has no "api" but still matches every required word.
    result = search({"query": "census api", "limit": 20})
    assert result["match_mode"] == "all_terms" and ids(result)[0] == "census-2021"
    for item in result["results"]:
        assert ("type_matches_intent" in item.get("reasons", [])) == (
            item["resourceType"] in ("api", "api-documentation")
        )
    plain = search({"query": "ons", "limit": 20})
    with_intent = search({"query": "ons dataset", "limit": 20})
    assert ids(with_intent).index("census-2021") <= ids(plain).index("census-2021")


def test_a_query_of_only_intent_words_requires_them(search):
    result = search({"query": "api", "limit": 20})
    assert result["match_mode"] == "all_terms"
    assert all(
        "api" in item["matched"].get("title", []) + item["matched"].get("summary", []) for item in result["results"]
    )


def test_a_loose_match_on_the_rare_word_beats_one_on_the_common_word(search, monkeypatch):
    # No record holds both words. "conveyancing" is in one record (its summary and
    # keywords), "flood" in three, two of them in the title: the title match
    # outscores in lunr, but the rules place the record holding the query's rarest word first.
    monkeypatch.setattr(learned, "WEIGHTS", {})
    result = search({"query": "flood conveyancing", "limit": 20})
    assert result["match_mode"] == "any_term"
    assert ids(result)[:2] == ["business-gateway", "flood-api"]
    assert "title" in result["results"][1]["matched"] and "title" not in result["results"][0]["matched"]
    # The learned last stage then weighs the gateway's restricted access (ranking.learned):
    # the two still lead the rest, in the order their weights give.
    monkeypatch.undo()
    assert set(ids(search({"query": "flood conveyancing", "limit": 20}))[:2]) == {"business-gateway", "flood-api"}


def test_a_loose_match_on_an_intent_word_alone_comes_last(search):
    # "api" is an intent word: records holding only it hold nothing of the subject
    # (flood, conveyancing), and come after every record that does, even a local
    # authority's flood row that lunr scores lower.
    result = search({"query": "flood conveyancing api", "limit": 20})
    only_intent = [set(sum(item["matched"].values(), [])) == {"api"} for item in result["results"]]
    assert sum(only_intent) >= 3 and only_intent == sorted(only_intent)
    assert "okf-data-gov-uk-flood-risk-zones-example" in ids(result)


def test_reviewed_national_record_above_a_local_catalogue_row(search):
    result = search({"query": "flood", "limit": 20})
    assert ids(result)[0] == "flood-api"
    council = next(
        item for item in result["results"] if item["publisher"] == "Example Borough Council" and item["title"] != "CSV"
    )
    assert "local_authority_row" in council["reasons"]
    csv = next(item for item in result["results"] if item["title"] == "CSV")
    assert {"local_authority_row", "format_only_title"} <= set(csv["reasons"])
    assert ids(result)[-1] == csv["id"]


def test_synonym_phrase_and_acronym_find_the_same_records(search):
    acronym = search({"query": "ons", "limit": 20})
    phrase = search({"query": "office for national statistics", "limit": 20})
    assert ids(acronym) == ids(phrase) and acronym["total"] >= 4
    # The index side: "HM Revenue & Customs" as a publisher is found by the acronym.
    hmrc = search({"query": "hmrc", "limit": 20})
    assert {"vat-api", "vat-guide"} <= set(ids(hmrc))
    assert all(item["matched"] == {"publisher": ["hmrc"]} for item in hmrc["results"])
    assert set(ids(search({"query": "hm revenue and customs", "limit": 20}))) == set(ids(hmrc))


@pytest.mark.parametrize(
    "query, record",
    [
        ("vat-api", "vat-api"),  # a record id
        ("data-gov-uk-flood-risk-zones-example", "okf-data-gov-uk-flood-risk-zones-example"),  # a source-native id
        ("hm-land-registry-business-gateway", "business-gateway"),  # the URL's slug
        ("  Flood-Risk-Zones-Example ", "okf-data-gov-uk-flood-risk-zones-example"),
    ],
)
def test_identifiers_find_their_record_first(search, query, record):
    result = search({"query": query})
    assert result["match_mode"] == "identifier"
    first = result["results"][0]
    assert first["id"] == record and first["matchMode"] == "identifier" and first["reasons"] == ["identifier"]


def test_identifier_hits_obey_the_filters(search):
    result = search({"query": "vat-api", "collections": ["uk-living"]})
    assert "vat-api" not in ids(result) and result["match_mode"] != "identifier"


@pytest.mark.parametrize("query", ["Office for National Statistics", "office  for national STATISTICS"])
def test_an_organisations_whole_name_finds_the_body_first(search, query):
    # Other records hold the same words, more often: the name still names the body.
    result = search({"query": query, "limit": 20})
    assert result["match_mode"] == "identifier"
    assert ids(result)[0] == "ons-org" and result["results"][0]["reasons"] == ["identifier"]
    assert len(ids(result)) > 1  # and the records holding the words follow


def test_only_an_organisations_name_is_looked_up(search):
    # A dataset's whole title is searched as words: only a body's name names one record.
    census = search({"query": "Census 2021 data", "limit": 20})
    assert census["match_mode"] != "identifier" and census["results"][0]["id"] == "census-2021"


def test_a_plain_word_is_not_looked_up_as_an_identifier(search):
    assert search({"query": "vat"})["match_mode"] == "all_terms"


def test_matched_fields_say_where_each_word_is(search):
    item = search({"query": "companies house"})["results"][0]
    assert item["id"] == "companies-api"
    assert item["matched"]["title"] == ["companies", "house"]
    assert "publisher" in item["matched"] and "body" not in item["matched"]
    census = next(item for item in search({"query": "house", "limit": 20})["results"] if item["id"] == "census-2021")
    assert census["matched"] == {"summary": ["house"]}  # "housing census results": a stray word in the summary


def test_a_typo_that_breaks_the_stemmed_suffix_is_still_corrected(search):
    """The index holds stems: "populaton" is no edit away from any of them ("popul")."""
    result = search({"query": "populaton census"})
    assert result["match_mode"] == "fuzzy" and ids(result)[0] == "census-2021"
    assert result["suggestion"] == "population census"


def test_a_title_that_is_the_query_comes_first(search):
    # "ONS" is the group token of "Office for National Statistics": that title is exactly the query.
    result = search({"query": "ONS", "limit": 20})
    assert ids(result)[0] == "ons-org" and "title_is_query" in result["results"][0]["reasons"]
    assert all("title_is_query" not in item.get("reasons", []) for item in result["results"][1:])


def test_required_words_keep_their_place_in_the_work_budget(search, monkeypatch):
    from govsearch.ranking import rules

    # Room for one word's postings: "house" reaches more than the intent word "data", yet stays.
    monkeypatch.setattr(rules, "MAX_POSTINGS", 9)
    result = search({"query": "house data", "limit": 20})
    notice = next(n for n in result["notices"] if n["code"] == "common_terms_left_out")
    assert "data" in notice["message"]
    strict = [item for item in result["results"] if item["matchMode"] == "all_terms"]
    assert strict and all("house" in str(item["matched"]) for item in strict)


def _evidence(
    query, titles, misspelt=(), mode="all_terms", intended=(), synonyms=(), intents=None, urls=(), in_title=()
):
    """The order and reasons _row_evidence gives records of these titles, scored in falling order."""
    from govsearch.ranking import Ranked
    from govsearch.ranking.evidence import row_evidence
    from govsearch.ranking.query import query_terms
    from govsearch.ranking.vocabulary import SearchTerms

    search_terms = SearchTerms.from_lists([list(group) for group in synonyms], intents or {})
    terms = query_terms(query, search_terms=search_terms)
    reasons = [
        (["type_matches_intent"] if number in intended else []) + (["all_words_in_title"] if number in in_title else [])
        for number in range(len(titles))
    ]
    ranked = [Ranked(number, 10.0 - number, mode, reasons[number]) for number in range(len(titles))]
    rows = [{"title": title, "summary": "", "url": url} for title, url in zip(titles, list(urls) or [""] * len(titles))]
    row_evidence(terms, ranked, rows, search_terms, frozenset(misspelt))
    return [(titles[item.number], item.reasons) for item in ranked]


def test_an_intent_word_gives_the_title_rule_only_to_its_types():
    # "companies house api": the organisation titled "Companies House" is not what the intent word asks for.
    titles = ["Companies House", "Companies House API"]
    with_intent = _evidence("companies house api", titles, intended={1}, intents={"api": ["api"]})
    assert "title_is_query" not in dict(with_intent)["Companies House"]
    assert "title_is_query" in dict(with_intent)["Companies House API"]  # its title names the kind too
    without = _evidence("companies house", titles)
    assert without[0] == ("Companies House", ["title_is_query", "words_adjacent"])


def test_a_title_naming_the_intent_word_is_the_kind_asked_for_whatever_its_type():
    # GOV.UK's "Universal Credit statistics" page is no dataset, but its title says what it is:
    # for "universal credit statistics" it is the query's title; the service's own page is not.
    titles = ["Universal Credit", "Universal Credit advances", "Universal Credit statistics"]
    order = _evidence("universal credit statistics", titles, intents={"statistics": ["dataset"]})
    assert order[0] == ("Universal Credit statistics", ["title_is_query", "words_adjacent"])
    assert all("title_is_query" not in reasons for title, reasons in order[1:])


def test_a_corrected_word_counts_for_title_and_phrase_evidence():
    # "regsitry" (a swap) is read as the title's "registry": the title is then the query, via its synonym group.
    titles = ["How to make a complaint to HM Land Registry", "HM Land Registry", "Registry of land charges"]
    group = [("hmlr", "hm land registry", "land registry")]
    order = _evidence("land regsitry", titles, misspelt={"regsitri"}, mode="fuzzy", synonyms=group)
    assert order[0] == ("HM Land Registry", ["title_is_query", "words_adjacent"])
    assert "title_is_query" not in dict(order)["Registry of land charges"]
    # Without the typo taken as corrected, nothing is evidence.
    assert all(reasons == [] for _, reasons in _evidence("land regsitry", titles, mode="fuzzy", synonyms=group))


def test_a_url_named_as_the_query_stands_in_for_a_title_that_is_not():
    # A page whose title does not name it ("Routes a user to ...") but whose address does.
    titles = ["Deaths registered weekly", "Routes a user to a registration service", "Register a death: a history"]
    urls = [
        "https://example.gov.uk/deaths",
        "https://www.gov.uk/register-a-death",
        "https://www.gov.uk/register-a-death",
    ]
    order = _evidence("register a death", titles, urls=urls, in_title={2})
    assert order[0] == ("Routes a user to a registration service", ["url_is_query"])
    # The title already holds every word: the address adds nothing more.
    assert "url_is_query" not in dict(order)["Register a death: a history"]
    # A host alone is no page name.
    assert _evidence("gov", ["Home"], urls=["https://www.gov.uk/"])[0][1] == []


def test_a_typo_two_edits_from_any_stem_is_still_corrected(search, monkeypatch):
    # "statstcs": no stem is one edit away and no stem begins it ("statist" is two edits away).
    from govsearch.ranking import rules

    result = search({"query": "statstcs"})
    assert result["match_mode"] == "fuzzy" and result["suggestion"] == "statistics"
    assert ids(result)[0] == "ons-org" and "typo_corrected" in result["results"][0]["reasons"]
    monkeypatch.setattr(rules, "TWO_EDITS_FROM", 99)  # without the rule: nothing found
    assert search({"query": "statstcs"})["results"] == []
    monkeypatch.undo()
    assert search({"query": "stat1stcs"})["results"] == []  # not a word of letters: no two-edit reading
    monkeypatch.setattr(rules, "MAX_TWO_EDIT_WORDS", 0)  # the call's budget for two-edit words spent
    assert search({"query": "statstcs"})["results"] == []


def test_a_suggestion_spells_the_correction_as_the_record_shows_it(search):
    # "registy" is corrected by the publisher "HM Land Registry", not read back as the stem "registri".
    result = search({"query": "price registy"})
    assert result["match_mode"] == "fuzzy" and result["suggestion"] == "price registry"


def test_a_suggestion_never_offers_an_index_stem():
    """ "popul" is how the index holds "population": a person is offered the word as a result spells it, or nothing."""
    from govsearch.ranking import suggestion

    corrected = {stems("populaton")[0]: stems("population")[0]}
    census = {"title": "Census", "summary": "Topics of the 2021 census.", "publisher": "Office for National Statistics"}
    estimates = {"title": "Population estimates", "summary": "", "publisher": "ONS"}
    assert suggestion("populaton census", corrected, [census, estimates]) == "population census"
    assert suggestion("populaton census", corrected, [census]) is None


def test_a_suggestion_offers_the_results_word_nearest_the_one_typed():
    """Records spell one stem several ways ("Renew ...", "renewal"): the word offered
    is the nearest to what was typed, not the first result's ("pasport renewel" is
    "passport renewal", never "passport renew")."""
    from govsearch.ranking import suggestion

    corrected = {stems("renewel")[0]: stems("renewal")[0], stems("pasport")[0]: stems("passport")[0]}
    renew = {"title": "Renew or replace your adult passport", "summary": "", "publisher": "HM Passport Office"}
    fees = {"title": "Passport fees", "summary": "What a passport renewal costs.", "publisher": "HM Passport Office"}
    assert suggestion("pasport renewel", corrected, [renew, fees]) == "passport renewal"
    assert suggestion("pasport renewel", corrected, [renew]) == "passport renew"


def test_a_suggestion_is_a_spelling_of_the_word_typed_not_another_word():
    """The fuzzy tier read "harrogate" (no record holds it) two edits from "harlow", and the page
    offered "Did you mean tree preservation order harlow?", another town. A word is offered only
    if it keeps most letters of the one typed ("reduncy": "redundancy" still is)."""
    from govsearch.ranking import suggestion

    harlow = {"title": "Harlow Council Confirmed TPO Areas", "summary": "", "publisher": "Harlow Council"}
    corrected = {"harrogate": stems("harlow")[0]}
    assert suggestion("tree preservation order harrogate", corrected, [harlow]) is None
    pay = {"title": "Calculate your statutory redundancy pay", "summary": "", "publisher": "Insolvency Service"}
    corrected = {"reduncy": stems("redundancy")[0]}
    assert suggestion("reduncy pay", corrected, [pay]) == "redundancy pay"


def test_a_call_asked_again_is_ranked_once_and_boosted_once(search, catalogue):
    """The browser asks a call again once its rows arrive: both ranking stages
    are kept for it, and row evidence (which multiplies scores) is applied
    once, to copies of the first stage's records, never on top of the last
    time's."""
    arguments = {"query": "ONS", "limit": 20}
    catalogue.engine.forget()
    first = search(arguments)
    assert {"title_is_query", "words_adjacent"} & set(first["results"][0]["reasons"])
    assert search(arguments) == first
    catalogue.engine.forget()
    assert search(arguments) == first


def test_a_stem_keeps_its_word_but_for_two_letters():
    # ranking.evidence._may_hold skips analysing a summary that cannot hold a query's
    # word pairs, reading each stem less its last two letters in the plain
    # text: if the stemmer ever added more, phrase evidence would be missed.
    from pathlib import Path

    from govsearch.ranking.analysis import words

    content = Path(__file__).resolve().parents[2] / "site" / "content"
    text = " ".join(path.read_text("utf-8") for path in sorted(content.rglob("*.md")))
    tricky = "relational sensibly stability possibly happy ponies conflated filing hopping generalization operator sensitivity formalize agreed"
    seen = set(words(text + " " + tricky))
    assert len(seen) > 2000  # the curated records' own words, not a handful
    for typed, stem in (pair for pair in map(analysed, seen) for pair in pair):
        assert typed.startswith(stem[:-2]), (typed, stem)


def test_reading_only_the_words_that_could_be_a_query_word_finds_what_stemming_every_word_finds():
    # index_terms_near stems only the words that could stem to a query's
    # words (the re-ranker's phrase and title evidence): every word the
    # pipeline keeps keeps its place, and every query word is found where
    # stemming every word finds it, on each curated record's text.
    import random
    from pathlib import Path

    from govsearch.ranking.analysis import index_terms_near

    content = Path(__file__).resolve().parents[2] / "site" / "content"
    rng = random.Random(18)
    texts = [path.read_text("utf-8") for path in sorted(content.rglob("*.md"))]
    texts.append("(Pollution) mains, main-road & the POLLUTED: “mainly” pollutants… ünïcode _main_ 2024")
    for text in texts:
        every = stems(text)
        for wanted in (set(rng.sample(every, min(3, len(every)))), {"main", "pollut", "mainli"}, {"a"}, set()):
            near = index_terms_near(text, wanted)
            assert len(near) == len(every)
            assert [t if t in wanted else "" for t in near] == [t if t in wanted else "" for t in every], text[:60]
