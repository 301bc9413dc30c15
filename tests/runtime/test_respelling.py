"""A misspelt word is read as the word one typed edit away that the person meant (govsearch.ranking.respelling)."""

from govsearch.ranking.respelling import candidate_stems, meant, one_edit
from govsearch.ranking.rules import COMMONER


def test_one_edit_holds_each_kind_of_edit_and_not_the_word():
    edits = one_edit("popluation")
    assert {"population", "poplation", "popluations", "pogluation"} <= edits  # swap, delete, insert, replace
    assert "popluation" not in edits and "populatoin" not in edits  # two edits away


def test_candidates_are_the_held_stems_of_words_one_edit_away():
    held = {"popul", "pollut", "census"}
    assert candidate_stems("popluation", "popluat", held.__contains__) == ["popul"]
    assert candidate_stems("census", "census", held.__contains__) == []  # its own stem is no correction


def test_a_string_with_no_vowel_is_no_misspelt_word():
    assert candidate_stems("qvzngthkc", "qvzngthkc", lambda stem: True) == []


def test_the_commonest_candidate_is_meant():
    assert meant(0, [("divers", 3), ("divorc", 40)]) == "divorc"
    assert meant(0, []) is None


def test_a_word_some_records_hold_is_read_as_another_only_when_that_is_far_commoner():
    assert meant(2, [("govern", 2 * COMMONER)]) == "govern"
    assert meant(2, [("govern", 2 * COMMONER - 1)]) is None


def test_a_typo_with_a_swapped_letter_in_the_stemmed_suffix_finds_the_word(search):
    """The typed "popluation" stems to "popluat", no edit from "popul"; one swap of what was typed is "population"."""
    result = search({"query": "popluation census"})
    assert result["match_mode"] == "fuzzy" and result["results"][0]["id"] == "census-2021"
    assert result["suggestion"] == "population census"
