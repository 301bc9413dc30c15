"""The query is plain text, and each call's work is bounded (CPython and Pyodide).

No character of the query acts as lunr syntax in any match mode: `*` and `-`
separate words, `~ ^ + :` are literal text (and punctuation at a word's
edge). The only wildcard is the search box's prefix-while-typing, which the
caller asks for (`prefix_last`). Budgets cut work only where a call would
otherwise cost far more than any normal query, and the answer says so.
"""

import pytest

from govsearch import engine as engine_module
from govsearch import terms as terms_module
from govsearch.engine import Budget
from govsearch.ranking import rules
from govsearch.ranking.budget import fit
from govsearch.ranking.query import MATCH_MODES, Term, clauses_for, query_terms
from govsearch.terms import LEADING_TERMS, MAX_QUERY_TERMS, budgeted

SYNTAX = "*~^+-:"
WORDS = [("land", "registry"), ("house", "prices"), ("companies", "house")]


def clauses(text, mode, prefix_last=False):
    return clauses_for(query_terms(text, prefix_last=prefix_last), mode)


@pytest.mark.parametrize("char", list(SYNTAX))
@pytest.mark.parametrize("mode", MATCH_MODES)
@pytest.mark.parametrize("prefix_last", [False, True])
def test_no_character_acts_as_lunr_syntax(char, mode, prefix_last):
    for first, second in WORDS:
        plain = clauses(f"{first} {second}", mode, prefix_last)
        # At a word's edge the character is punctuation.
        assert clauses(f"{char}{first} {second}{char}", mode, prefix_last) == plain
        assert clauses(f"{char}{char} {first} {char} {second}", mode, prefix_last) == plain
        inner = clauses(f"{first}{char}{second}", mode, prefix_last)
        if char in "*-":
            assert inner == plain  # inside a word it separates words, like a space
        else:
            assert any(char in clause.term for clause in inner)  # literal text, not an operator
        for clause in inner + clauses(f"{first}{char}2 {second}{char}10 {char}{first}", mode, prefix_last):
            assert "*" not in clause.term
            assert clause.edit_distance == (1 if mode == "fuzzy" and clause.edit_distance else 0) <= 1
            assert clause.presence == ("optional" if mode == "any_term" else "required")  # fuzzy: every word, corrected
        wildcards = [clause for clause in inner if clause.wildcard]
        assert not wildcards or (prefix_last and wildcards == inner[-1:])


@pytest.mark.parametrize("char", list(SYNTAX))
def test_syntax_characters_change_no_search(search, char):
    for first, second in WORDS:
        plain = search({"query": f"{first} {second}"})
        edged = search({"query": f"{char}{first} {second}{char}"})
        assert (edged["total"], edged["results"], edged["match_mode"]) == (
            plain["total"],
            plain["results"],
            plain["match_mode"],
        )
    # An inner * is no wildcard: "s*s" is the one-letter word s, not every word from s to s.
    assert search({"query": f"s{char}s"})["total"] <= search({"query": "s s"})["total"] or char not in "*-"
    assert search({"query": "la*"})["total"] == search({"query": "la"})["total"]


def test_only_the_caller_turns_on_the_prefix_wildcard(search):
    typing = search({"query": "registr"}, prefix_last=True)
    assert typing["total"] > 0
    plain = search({"query": "registr"})
    assert search({"query": "registr*"})["total"] == plain["total"]
    assert typing["results"] != plain["results"]


def test_at_most_max_query_terms_are_searched_and_the_rest_are_named(search):
    words = [
        "benefits",
        "pensions",
        "house",
        "prices",
        "companies",
        "tax",
        "school",
        "water",
        "energy",
        "transport",
        "health",
        "police",
        "census",
        "weather",
        "flood",
        "passport",
        "driving",
        "court",
        "visa",
        "vote",
    ]
    assert len(words) > MAX_QUERY_TERMS
    result = search({"query": " ".join(words)})
    notice = next(n for n in result["notices"] if n["code"] == "query_terms_limited")
    assert all(word in notice["message"] for word in words[MAX_QUERY_TERMS:])
    assert not any(word in notice["message"].split(":")[1] for word in words[:MAX_QUERY_TERMS])
    assert result == search({"query": " ".join(words[:MAX_QUERY_TERMS])}) | {
        "query": result["query"],
        "notices": result["notices"],
    }


def test_filters_that_pass_nothing_answer_without_fallback_modes(search, catalogue, monkeypatch):
    matched = []
    original = catalogue.engine.matcher.match
    monkeypatch.setattr(catalogue.engine.matcher, "match", lambda clauses: matched.append(clauses) or original(clauses))
    catalogue.engine.forget()
    result = search({"query": "registry prices", "publishers": ["No Such Publisher"]})
    assert result["total"] == 0 and result["match_mode"] == "all_terms"
    assert {"unknown_publisher", "filters_match_nothing"} <= {n["code"] for n in result["notices"]}
    assert set(result["facets"]) == {"resourceTypes", "accessStatuses", "collections", "publishers"}
    assert len(matched) == 1 and all(
        clause.presence == "required" and not clause.edit_distance for clause in matched[0]
    )
    # Filters that pass records still fall back to looser modes.
    loose = search({"query": "registry prices lnad", "collections": ["land-registry"]})
    assert loose["match_mode"] != "all_terms" and "filters_match_nothing" not in {n["code"] for n in loose["notices"]}


def test_expansions_are_cut_to_the_closest_and_the_answer_says_so(search, catalogue, monkeypatch):
    full = search({"query": "land reg"}, prefix_last=True)
    assert "expansions_limited" not in {n["code"] for n in full["notices"]}
    monkeypatch.setattr(terms_module, "MAX_EXPANSIONS", 1)
    catalogue.engine.forget()  # match sets and answers are kept by call; the budget is a constant
    cut = search({"query": "land reg"}, prefix_last=True)
    notice = next(n for n in cut["notices"] if n["code"] == "expansions_limited")
    assert "reg" in notice["message"]
    assert 0 < cut["total"] <= full["total"]
    catalogue.engine.forget()  # no cut match set outlives the patched budget


def test_a_cut_expansion_is_named_as_typed_not_as_its_index_term():
    # A word being typed ("housin") is searched as the prefix its word and stem share ("hous"),
    # and a synonym phrase as its group's token: the notice names what the person typed.
    from govsearch.engine import Matches
    from govsearch.ranking import Answer
    from govsearch.tools import _budget_notices

    words = [
        Term("housin", "hous", prefix=True),
        Term("land registry", "hmlr_", synonym=True),
    ]
    clauses = [terms_module.Clause("hous", "required", wildcard=True), terms_module.Clause("hmlr_", "required")]
    found = Answer(
        total=3,
        mode="all_terms",
        ranked=[],
        tiers=[("all_terms", words, clauses)],
        matches=Matches({}),
        limited=("hous", "hmlr_"),
    )
    (notice,) = _budget_notices(found)
    assert notice["code"] == "expansions_limited"
    assert notice["message"].startswith("housin, land registry: "), notice["message"]


def test_budgeted_keeps_the_closest_expansions_in_their_own_order(monkeypatch):
    monkeypatch.setattr(terms_module, "MAX_EXPANSIONS", 3)
    clause = terms_module.Clause("regist", "optional", wildcard=True)
    assert budgeted(["registrations", "regist", "registri", "registered", "registr"], clause) == [
        "regist",
        "registri",
        "registr",
    ]
    assert budgeted(["a", "b"], clause) == ["a", "b"]


def test_the_commonest_words_are_left_out_past_the_postings_budget(search, monkeypatch):
    plain = search({"query": "house prices england"})
    assert "common_terms_left_out" not in {n["code"] for n in plain["notices"]}
    monkeypatch.setattr(rules, "MAX_POSTINGS", 1)
    cut = search({"query": "house prices england"})
    notice = next(n for n in cut["notices"] if n["code"] == "common_terms_left_out")
    assert sum(word in notice["message"] for word in ("house", "prices", "england")) == 2  # one word always stays
    # Fewer required words match at least as many records; looser modes are not tried.
    strict = [
        item
        for item in search({"query": "house prices england", "limit": 20})["results"]
        if item["matchMode"] == "all_terms"
    ]
    assert cut["total"] >= len(strict) and "work_budget_reached" in {n["code"] for n in cut["notices"]}


def test_a_sentences_later_words_are_searched_while_the_budget_lasts(search, catalogue, monkeypatch):
    """Past its first LEADING_TERMS words a sentence's words are searched too (its topic often
    comes last), each in turn only while what the leading words leave of the budget pays for
    what it adds to the work; the answer names the later words it could not search."""
    leading = ["benefits", "pensions", "companies", "tax", "school", "water", "energy", "transport"]
    assert len(leading) == LEADING_TERMS
    sentence = " ".join([*leading, "flood", "risk"])
    found = search({"query": sentence, "limit": 20})
    held = {word for item in found["results"] for words in item["matched"].values() for word in words}
    assert {"flood", "risk"} <= held
    assert not {"common_terms_left_out", "query_terms_limited"} & {n["code"] for n in found["notices"]}

    engine, terms = catalogue.engine, query_terms(sentence)

    def cost(count: int, mode: str = "any_term") -> int:
        """What the first `count` words cost with every one of them searched."""
        ample = Budget(postings=10**9)
        fit(engine, ample, terms[:count], clauses_for(terms[:count], mode))
        return 10**9 - ample.postings

    every = clauses_for(terms, "any_term")
    for postings, kept in ((cost(8), leading), (cost(9), [*leading, "flood"]), (cost(10), [*leading, "flood", "risk"])):
        budget = Budget(postings=postings)
        fitted, _ = fit(engine, budget, terms, every)
        assert [term.typed for term in fitted] == kept
        assert budget.later_words == [word for word in ("flood", "risk") if word not in kept]
        assert budget.dropped_words == [] and budget.postings >= 0

    # A later word no record holds: no record holds every word, and the budget is not spent on the rest.
    missing = query_terms(sentence + " zzzzqx")
    budget = Budget(postings=10**9)
    assert fit(engine, budget, missing, clauses_for(missing, "all_terms")) == ([], [])
    assert budget.postings == 10**9

    # A leading word no record holds: the later words' shards are not read (a looser tier needs the bytes).
    asked = []
    original = engine.matcher.postings
    monkeypatch.setattr(
        engine.matcher, "postings", lambda clauses, budget: asked.append(clauses) or original(clauses, budget)
    )
    absent = query_terms("zzzzqx " + sentence)
    assert fit(engine, Budget(), absent, clauses_for(absent, "all_terms")) == ([], [])
    assert [len(clauses) for clauses in asked] == [LEADING_TERMS]
    monkeypatch.undo()

    # The answer names the later words a budget that affords the leading ones left out, and no others.
    named = set()
    for postings in range(cost(8), cost(10) + 1, max(1, (cost(10) - cost(8)) // 20)):
        monkeypatch.setattr(rules, "MAX_POSTINGS", postings)
        for notice in search({"query": sentence, "limit": 20})["notices"]:
            if notice["code"] == "query_terms_limited":
                words = set(notice["message"].split(":")[0].split(", "))
                assert words <= {"flood", "risk"}, notice
                named |= words
    assert named == {"flood", "risk"}


def test_a_sentence_no_record_holds_whole_leaves_the_budget_to_the_tier_that_answers_it(catalogue):
    """Where words are required, their postings are narrowed to the records holding them all
    before scores are merged: the every-word tier of a sentence no record holds whole costs
    little more than its postings, and leaves the any-term tier, which answers it, the budget."""
    sentence = "land house prices flood england property map population"
    engine, terms = catalogue.engine, query_terms(sentence)
    required, optional = clauses_for(terms, "all_terms"), clauses_for(terms, "any_term")
    assert not engine.match(required).scores  # no record holds every word: the any-term tier answers
    costs = []
    for clauses in (required, optional):
        ample = Budget(postings=10**9)
        fit(engine, ample, terms, clauses)
        costs.append(10**9 - ample.postings)
    reach = engine.matcher.postings(required, Budget(shard_bytes=10**9))
    assert sum(reach) <= costs[0] < costs[1]  # narrowed, then merged: less than the any-term tier's merge
    budget = Budget(postings=sum(costs))
    for clauses in (required, optional):
        fitted, kept = fit(engine, budget, terms, clauses)
        assert kept == clauses and budget.dropped_words == [] and budget.postings >= 0


def test_a_later_word_reaching_nothing_costs_nothing_beside_required_words(catalogue):
    """A sentence's later words are searched while the budget pays for what each adds: a place
    (optional beside the topic, so not narrowing) that no record holds adds nothing, and is kept."""
    leading = "land house prices flood england property map population"
    engine, known = catalogue.engine, catalogue.ranking.search_terms
    first = query_terms(leading, search_terms=known)
    ample = Budget(postings=10**9)
    fit(engine, ample, first, clauses_for(first, "all_terms"))
    terms = query_terms(leading + " bristol", search_terms=known)
    assert terms[-1].place == "bristol" and len(terms) == LEADING_TERMS + 1
    clauses = clauses_for(terms, "all_terms")
    assert clauses[-1].presence == "optional" and not engine.matcher.postings(clauses[-1:], Budget())[0]
    budget = Budget(postings=10**9 - ample.postings)
    fitted, kept = fit(engine, budget, terms, clauses)
    assert kept == clauses and budget.later_words == []


def test_normal_queries_meet_no_budget(search):
    budget_codes = {"query_terms_limited", "expansions_limited", "common_terms_left_out", "work_budget_reached"}
    for query in (
        "vat",
        "house prices",
        "land registry price paid data",
        "companies house api",
        "schools in england",
        "flood risk",
        "registr",
    ):
        for prefix_last in (False, True):
            result = search({"query": query}, prefix_last=prefix_last)
            assert not budget_codes & {n["code"] for n in result["notices"]}, (query, result["notices"])


def test_publisher_suggestions_come_from_the_closest_names(search, catalogue):
    names = catalogue.engine.facets.values("publisher")
    for name in names[:40]:
        near = name[:-1] + ("x" if name[-1] != "x" else "y")
        if near in names:
            continue
        notice = next(
            n for n in search({"query": "data", "publishers": [near]})["notices"] if n["code"] == "unknown_publisher"
        )
        assert name in notice["suggestions"], (near, notice)


def test_within_budget_keeps_one_clause_and_drops_the_commonest_first(catalogue):
    engine = catalogue.engine
    found = clauses_for(query_terms("land registry data"), "all_terms")
    reach = dict(zip(found, engine.matcher.postings(found, engine_module.Budget(shard_bytes=10**9))))
    budget = engine_module.Budget(postings=0)
    kept = engine.within_budget(found, budget)
    assert kept == [min(found, key=lambda clause: reach[clause])] and len(budget.dropped) == 2
    assert budget.postings == -reach[kept[0]]  # what it used, so no looser mode runs after it
    roomy = engine_module.Budget()
    assert engine.within_budget(found, roomy) == found and roomy.dropped == []
    # A required word the index lacks: nothing can match, so nothing is scored.
    missing = clauses_for(query_terms("land zzzqqq"), "all_terms")
    assert engine.within_budget(missing, engine_module.Budget()) == []
