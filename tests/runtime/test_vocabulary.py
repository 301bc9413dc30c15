"""Wildcard and typo expansion: lunr's algorithm over a vocabulary automaton that is right.

lunr's TokenSet.from_list merges automaton nodes by keys that run edge
labels and node ids together, so digits in terms can merge nodes that differ
(lunr.js issue #503): the automaton then invents terms and loses real ones.
The 36 words below are the smallest part of the full estate's vocabulary
that shows it.
"""

import random

import pytest
from lunr.query import Clause as LunrClause
from lunr.token_set import TokenSet

from govsearch.terms import fuzzy_token_set, intersection, prefixed, typo_expansion, vocabulary_token_set

BREAKS_LUNR = sorted(
    [
        "##",
        "%",
        "&",
        "'children'",
        "(%",
        "(.",
        "(0)845",
        "(10,000",
        "(126.5",
        "(14/05/2017).",
        "(181,408)",
        "(1:50,000).",
        "(25.29",
        "(252.9",
        "(34,753)",
        "(7,201)",
        "(a&g)",
        "(a,b,c)",
        "(al/cr",
        "(al/so",
        "(approx.sit",
        "(aqma).upon",
        "(e&w)",
        "(e.g.",
        "(epsg:27700)",
        "(heating/cool",
        "(hg.4,",
        "(http://www.eastbourne.gov.uk/about",
        "(http://www.hastings.gov.uk/environment_planning/planning/localplan/evidence_base/walking_cycling_strategy/).",
        "(http://www.nationalarchives.gov.uk/doc/open",
        "(http://www.ordnancesurvey.co.uk/busi",
        "(https://agsapi.bgs.ac.uk/)",
        "(https://data.cefas.co.uk/),",
        "(no2/no3),",
        "ppg13",
        "ppg17",
    ]
)


def expand(token_set, term, edit_distance=0):
    return token_set.intersect(TokenSet.from_clause(LunrClause(term=term, edit_distance=edit_distance))).to_list()


def test_lunrs_own_automaton_loses_and_invents_terms_here(monkeypatch):
    """The vocabulary really does break lunr's automaton (node ids as lunr numbers them from a fresh start)."""
    monkeypatch.setattr(TokenSet, "_next_id", 1)
    words = TokenSet.from_list(BREAKS_LUNR).to_list()
    assert {"ppg13", "ppg17"} - set(words) and set(words) - set(BREAKS_LUNR)


def test_our_automaton_holds_exactly_the_vocabulary():
    token_set = vocabulary_token_set(BREAKS_LUNR)
    assert sorted(token_set.to_list()) == BREAKS_LUNR
    assert sorted(expand(token_set, "ppg*")) == ["ppg13", "ppg17"]
    assert sorted(expand(token_set, "ppg18", 1)) == ["ppg13", "ppg17"]
    assert expand(token_set, "ppg13") == ["ppg13"]


@pytest.mark.parametrize("seed", range(5))
def test_where_lunrs_automaton_is_right_expansions_come_out_the_same_in_the_same_order(seed):
    rng = random.Random(seed)
    letters = "abcdefghij"
    words = sorted({"".join(rng.choice(letters) for _ in range(rng.randint(1, 7))) for _ in range(1500)})
    ours, lunrs = vocabulary_token_set(words), TokenSet.from_list(words)
    assert sorted(lunrs.to_list()) == words  # letters only: no colliding keys
    for _ in range(60):
        word = rng.choice(words)
        assert expand(ours, word[:2] + "*") == expand(lunrs, word[:2] + "*")
        assert expand(ours, word, 1) == expand(lunrs, word, 1)


@pytest.mark.parametrize("seed", range(5))
def test_prefix_expansion_without_the_automaton_lists_the_same_terms_in_the_same_order(seed):
    """The search box's prefixes are expanded from the sorted vocabulary, not the automaton (not yet built at start-up)."""
    rng = random.Random(100 + seed)
    alphabet = "abcde019()./é"
    words = sorted(
        {"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 8))) for _ in range(3000)} | set(BREAKS_LUNR)
    )
    automaton = vocabulary_token_set(words)
    prefixes = {word[: rng.randint(1, len(word))] for word in rng.sample(words, 200)} | {"", "ppg", "zz", "("}
    for prefix in prefixes:
        assert prefixed(words, prefix) == expand(automaton, prefix + "*"), prefix


@pytest.mark.parametrize("seed", range(3))
def test_typo_expansion_without_lunrs_walk_lists_lunrs_terms_in_lunrs_order(seed):
    """Typo expansion finds the terms lunr's automaton accepts without walking
    the automaton (terms.typo_expansion), and skips the steps lunr repeats
    (terms.fuzzy_token_set, terms.intersection): the terms, their order
    (which decides how lunr adds up scores) and wildcard expansions stay
    exactly lunr's, transpositions and edits of the last letter included."""
    rng = random.Random(200 + seed)
    letters = "abcdef"
    words = sorted({"".join(rng.choice(letters) for _ in range(rng.randint(1, 9))) for _ in range(2500)})
    automaton = vocabulary_token_set(words)
    for _ in range(25):
        word = list(rng.choice(words) + rng.choice(letters))
        word[rng.randrange(len(word))] = rng.choice("abcdefg")  # a typo, sometimes a letter no term has
        typed = "".join(word)
        for distance in (1, 2, 3):
            lunrs = automaton.intersect(TokenSet.from_fuzzy_string(typed, distance)).to_list()
            assert typo_expansion(automaton, typed, distance) == lunrs, (typed, distance)
            assert intersection(automaton, fuzzy_token_set(typed, distance)) == lunrs, (typed, distance)
            assert intersection(automaton, TokenSet.from_fuzzy_string(typed, distance)) == lunrs
        assert intersection(automaton, TokenSet.from_string(typed[:2] + "*")) == expand(automaton, typed[:2] + "*")
