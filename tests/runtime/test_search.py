"""What a searcher notices: which records come back, in what order, and why."""

import pytest

from govsearch.engine import SCORE_PLACES


def ids(result):
    return [item["id"] for item in result["results"]]


def test_all_terms_come_first_and_looser_matches_below(search):
    result = search({"query": "house prices", "limit": 20})
    assert result["match_mode"] == "all_terms"
    assert ids(result)[0] == "house-price-index"
    modes = [item["matchMode"] for item in result["results"]]
    strict = modes.count("all_terms")
    # Fewer than 20 records hold both words, so any-word matches follow them, never above.
    assert 0 < strict < len(modes) and modes == ["all_terms"] * strict + ["any_term"] * (len(modes) - strict)
    assert result["total"] == len(modes)
    # Price Paid Data mentions neither "house" in title nor summary: it is not an all-words match.
    assert all("hous" in (item["title"] + item["summary"]).lower() for item in result["results"][:strict])


def test_a_word_no_record_holds_is_named(search):
    """Where the answer matches only some words, the words no record holds are
    named: "No record matches all of your words" alone read as if each word
    matched some record."""
    found = search({"query": "vat xyzzyq"})
    assert found["match_mode"] == "any_term" and found["total"]
    (notice,) = [notice for notice in found["notices"] if notice["code"] == "words_not_found"]
    assert notice["message"] == "No record in the catalogue holds ‘xyzzyq’."
    both_held = search({"query": "VAT census"})
    assert both_held["match_mode"] == "any_term"
    assert all(notice["code"] != "words_not_found" for notice in both_held["notices"])
    # A question's opening asks for a kind of record: no record holds "who", and none is meant to.
    asked = search({"query": "who VAT census"})
    assert asked["match_mode"] == "any_term"
    assert all(notice["code"] != "words_not_found" for notice in asked["notices"]), asked["notices"]
    # Nothing found: the notice says why, so an agent tries other words, not other filters.
    empty = search({"query": "xyzzyq"})
    assert empty["total"] == 0
    assert [notice["message"] for notice in empty["notices"]] == ["No record in the catalogue holds ‘xyzzyq’."]
    filtered = search({"query": "VAT", "publishers": ["Ordnance Survey"]})
    assert filtered["total"] == 0 and all(notice["code"] != "words_not_found" for notice in filtered["notices"])


def test_falls_back_to_any_term_when_nothing_has_all(search):
    result = search({"query": "VAT census"})
    assert result["match_mode"] == "any_term"
    assert {"vat-api", "vat-guide", "census-2021"} <= set(ids(result))


def test_falls_back_to_typo_tolerance(search):
    result = search({"query": "ordnence mastermap"})
    assert result["match_mode"] in ("any_term", "fuzzy")
    typo_only = search({"query": "ordnence"})
    assert typo_only["match_mode"] == "fuzzy"
    assert ids(typo_only) == ["os-mastermap"]


def test_a_misspelt_word_beside_one_it_never_meets_is_read_corrected_by_any_word(search):
    # No record holds both "census" and "vat", so the answer falls to any word; "censsu" is
    # in no record, and any_term reads it as the typo tier did, not as typed (which finds nothing).
    result = search({"query": "censsu vat"})
    assert result["match_mode"] == "any_term"
    assert {"vat-api", "vat-guide", "census-2021"} <= set(ids(result))


def test_short_typos_are_not_fuzzed(search):
    result = search({"query": "vta"})
    assert result["total"] == 0 and result["match_mode"] == "all_terms"


def test_stemming_matches_word_forms(search):
    assert "housing-benefit" in ids(search({"query": "housed"}))


@pytest.mark.parametrize(
    "query",
    [
        ":",
        "+",
        "-",
        "*",
        "~",
        "^",
        '"',
        "title:vat",
        "vat~2",
        "+house -price",
        "price^10",
        '"house price"',
        "*land*",
        "a:b:c",
        "\\",
    ],
)
def test_lunr_syntax_is_plain_text(search, query):
    result = search({"query": query})
    assert result["ok"] is True


def test_query_syntax_characters_do_not_change_results(search):
    assert ids(search({"query": "+house ~prices^"})) == ids(search({"query": "house prices"}))


def test_only_stop_words_gives_a_notice_not_a_failure(search):
    result = search({"query": "the and of"})
    assert result["ok"] and result["total"] == 0 and result["results"] == []
    assert [notice["code"] for notice in result["notices"]] == ["no_searchable_terms"]


def test_filters_apply_before_the_limit_and_total_is_exact(search):
    everything = search({"query": "api", "limit": 20})
    in_collection = [item for item in everything["results"] if item["collection"] == "government-apis"]
    limited = search({"query": "api", "collections": ["government-apis"], "limit": 1})
    filtered = search({"query": "api", "collections": ["government-apis"], "limit": 20})
    assert limited["returned"] == 1
    assert limited["total"] == len(in_collection) >= 2
    # The limit takes the filtered answer's first; the filtered answer holds the collection's records
    # (in its own order: the learned last stage reads each record's place on the page, ranking.learned).
    assert limited["results"][0]["id"] == filtered["results"][0]["id"]
    assert sorted(ids(filtered)) == sorted(item["id"] for item in in_collection)


def test_filters_combine_across_dimensions(search):
    result = search(
        {"query": "api", "resourceTypes": ["api"], "accessStatuses": ["authentication-required"], "limit": 20}
    )
    assert set(ids(result)) == {"vat-api", "companies-api"}
    assert result["filters"] == {"resourceTypes": ["api"], "accessStatuses": ["authentication-required"], "limit": 20}


def test_facets_count_each_dimension_with_the_other_filters(search):
    result = search({"query": "api", "resourceTypes": ["api"], "limit": 20})
    unfiltered = search({"query": "api", "limit": 20})
    # The filtered dimension still shows every type, so a person can switch.
    assert result["facets"]["resourceTypes"] == unfiltered["facets"]["resourceTypes"]
    assert sum(result["facets"]["collections"].values()) == result["total"]
    assert sum(unfiltered["facets"]["resourceTypes"].values()) == unfiltered["total"]


def test_order_is_score_then_title_then_id(search):
    result = search({"query": "data statistics office api price", "limit": 20})
    keys = [(-item["score"], item["title"], item["id"]) for item in result["results"]]
    assert keys == sorted(keys) and len(keys) > 3
    assert all(round(item["score"], SCORE_PLACES) == item["score"] for item in result["results"])


def test_default_limit_is_eight_and_integral_floats_count_as_integers(search):
    default = search({"query": "api office data price statistics vat"})
    assert default["returned"] == 8 < default["total"]
    assert default["filters"]["limit"] == 8
    explicit = search({"query": "api office data price statistics vat", "limit": 3.0})
    assert explicit["returned"] == 3 and explicit["filters"]["limit"] == 3
    assert isinstance(explicit["filters"]["limit"], int)


def test_empty_filter_lists_are_ignored_with_a_notice(search):
    result = search({"query": "vat", "resourceTypes": [], "publishers": [], "accessStatuses": []})
    assert result["total"] == search({"query": "vat"})["total"]
    assert sorted(notice["path"] for notice in result["notices"]) == [
        "/accessStatuses",
        "/publishers",
        "/resourceTypes",
    ]
    assert "resourceTypes" not in result["filters"]


def test_publishers_match_exactly_after_trimming_and_nfc(search):
    trimmed = search({"query": "land", "publishers": ["  HM Land Registry "]})
    assert trimmed["total"] > 0 and trimmed["filters"]["publishers"] == ["HM Land Registry"]
    assert [notice["code"] for notice in trimmed["notices"]] == ["publisher_normalised"]
    wrong_case = search({"query": "land", "publishers": ["hm land registry"]})
    assert wrong_case["total"] == 0
    assert wrong_case["notices"][0]["code"] == "unknown_publisher"
    assert wrong_case["notices"][0]["suggestions"][0] == "HM Land Registry"


def test_prefix_matching_is_for_the_human_box_only(search):
    assert search({"query": "hous"})["total"] == 0
    typing = search({"query": "hous"}, prefix_last=True)
    assert {"house-price-index", "housing-benefit"} <= set(ids(typing))


@pytest.mark.parametrize("typed", ["h", "ho", "uk"])
def test_one_or_two_letters_are_searched_as_whole_words_while_typing(search, typed):
    """A short prefix would reach a large part of the vocabulary on the first key pressed."""
    assert search({"query": typed}, prefix_last=True) == search({"query": typed})


def test_three_letters_match_as_a_prefix(search):
    assert search({"query": "hou"})["total"] == 0
    assert "housing-benefit" in ids(search({"query": "hou"}, prefix_last=True))


def test_results_carry_record_page_and_optional_fields(search):
    item = search({"query": "VAT MTD"})["results"][0]
    assert item["id"] == "vat-api"
    assert item["recordUrl"] == "https://chris-page-gov.github.io/records/vat-api/"
    assert item["licence"] == "Open Government Licence v3.0"
    assert "body" not in item and "source" not in item


@pytest.mark.parametrize("typed", ["housing", "houses", "hous", "house"])
def test_a_finished_last_word_still_matches_while_typing(search, typed):
    assert "housing-benefit" in ids(search({"query": typed}, prefix_last=True))


def test_typing_the_last_word_keeps_all_terms_mode(search):
    result = search({"query": "companies house"}, prefix_last=True)
    assert result["match_mode"] == "all_terms" and ids(result)[0] == "companies-api"
