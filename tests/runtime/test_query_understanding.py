"""How a query phrased as people type it is read (docs/ranking.md,
"Questions and places"): filler words left out, place words preferred but not
required, and the newest edition of a dated title first."""

from govsearch.ranking import Ranked
from govsearch.ranking.query import clauses_for, query_terms
from govsearch.ranking.series import editions_of, grouped_answer, newest_first
from govsearch.ranking.vocabulary import SearchTerms

VOCABULARY = SearchTerms.from_lists(
    [["ons", "office for national statistics"]],
    {"data": ["dataset"], "api": ["api"], "who": ["organisation"]},
    fillers=["near", "nearest", "please", "next to", "latest", "last year"],
    optional=["search"],
    places=["bristol", "leeds"],
    openings={"how many people live in": "population", "how many people": ""},
)


def read(text):
    return query_terms(text, search_terms=VOCABULARY)


def required(text, mode="all_terms"):
    terms = read(text)
    return {term.typed for term, clause in zip(terms, clauses_for(terms, mode)) if clause.presence == "required"}


def test_a_place_beside_a_topic_is_preferred_not_required():
    # "population of Bristol": national population figures still answer; Bristol's come first.
    assert required("population of Bristol") == {"population"}
    assert [term.place for term in read("population of Bristol")] == ["", "bristol"]
    # In the looser modes nothing is required, as before.
    assert required("population of Bristol", "any_term") == set()


def test_a_place_beside_a_topic_adds_nothing_to_lunrs_score():
    # It ranks by the place boost alone (rules.PLACE_WEIGHT): its name's idf would lift any record naming it.
    terms = read("population of Bristol")
    assert [clause.boost for clause in clauses_for(terms, "all_terms")] == [1.0, 0.0]
    assert [clause.boost for clause in clauses_for(read("Bristol"), "all_terms")] == [1.0]
    assert [clause.boost for clause in clauses_for(read("Leeds data"), "all_terms")] == [1.0, 1.0]


def test_a_place_alone_or_with_intent_words_only_is_required():
    assert required("Bristol") == {"bristol"}
    assert required("Leeds data") == {"leeds"}
    assert required("Leeds Bristol") == {"leeds", "bristol"}


def test_a_place_is_read_as_typed_not_by_its_stem():
    # "bathing" stems like the city of Bath; only the typed word names a place.
    vocabulary = SearchTerms.from_lists([], {}, places=["bath"])
    terms = query_terms("bathing water", search_terms=vocabulary)
    assert [term.place for term in terms] == ["", ""]
    assert [term.place for term in query_terms("parks in bath", search_terms=vocabulary)] == ["", "bath"]


def test_a_councils_name_of_several_words_is_one_place():
    # "north" and "east" name no place alone (many councils share them), so beside a topic
    # they were required words: records about the North East, not Bath's, came next.
    vocabulary = SearchTerms.from_lists(
        [], {}, places=["bath", "somerset", "bath and north east somerset", "newcastle under lyme", "newcastle"]
    )
    terms = query_terms("libraries in Bath and North East Somerset", search_terms=vocabulary)
    assert [(term.typed, term.place) for term in terms] == [
        ("libraries", ""),
        ("bath", "bath and north east somerset"),
        ("north", "bath and north east somerset"),
        ("east", "bath and north east somerset"),
        ("somerset", "bath and north east somerset"),
    ]
    assert {
        term.typed for term, clause in zip(terms, clauses_for(terms, "all_terms")) if clause.presence == "required"
    } == {"libraries"}
    # Written with hyphens or "&" (or no "and"), it is the same place, named as the estate writes it.
    for text in ("bins newcastle-under-lyme", "bins Newcastle - under - Lyme"):
        assert [term.place for term in query_terms(text, search_terms=vocabulary)] == [""] + 3 * [
            "newcastle under lyme"
        ]
    for text in ("parks in Bath & North East Somerset", "parks bath north east somerset"):
        places = {term.place for term in query_terms(text, search_terms=vocabulary)}
        assert places == {"", "bath and north east somerset"}, text
    # Only a name typed whole: still being typed, its words are words to find.
    typing = query_terms("libraries in bath and north east somer", prefix_last=True, search_terms=vocabulary)
    assert [(term.typed, term.place) for term in typing if term.place] == [("bath", "bath")]
    # Its possessive names it, searched as the name is written ("somerset", not "somerset'").
    owned = query_terms("bath and north east somerset's libraries", search_terms=vocabulary)
    assert {term.place for term in owned if term.typed != "libraries"} == {"bath and north east somerset"}
    assert owned[3].indexed == "somerset"
    # Outside the name the same word is a word to find.
    assert [term.place for term in query_terms("north east unemployment", search_terms=vocabulary)] == ["", "", ""]


def test_an_optional_word_is_required_only_where_nothing_else_is():
    # "planning applications search": a page of planning applications need not say "search".
    assert required("planning applications search") == {"planning", "applications"}
    # Alone, or beside words that are themselves preferences, it is what is asked for.
    assert required("search") == {"search"}
    assert required("search data") == {"search"}
    assert required("planning search Bristol") == {"planning"}
    # It still ranks: all_terms searches it, optional.
    terms = read("planning applications search")
    assert [(clause.term, clause.presence) for clause in clauses_for(terms, "all_terms")][-1] == ("search", "optional")
    # Finished but still typed as a prefix (the search box), it is optional as when typed in full.
    typing = query_terms("planning applications search", prefix_last=True, search_terms=VOCABULARY)
    assert [clause.presence for clause in clauses_for(typing, "all_terms")] == ["required", "required", "optional"]


def test_filler_words_are_left_out_beside_other_words():
    assert [term.typed for term in read("flood risk near me")] == ["flood", "risk"]
    assert [term.typed for term in read("nearest library please")] == ["library"]
    # A query of nothing else keeps them: something must be searched for.
    assert [term.typed for term in read("near")] == ["near"]


def test_filler_phrases_are_left_out_wherever_they_stand():
    # "next to" says where, "last year" and "latest" when (a query with no year gets the newest edition first)
    assert [term.typed for term in read("who owns the land Next  To my house")] == ["owns", "land", "house", "who"]
    assert [term.typed for term in read("how many people moved to the UK last year")] == ["moved", "uk"]
    assert [term.typed for term in read("latest inflation rate")] == ["inflation", "rate"]
    # only the whole phrase: "next of kin" and "last will" are what someone asks about
    assert [term.typed for term in read("next of kin")] == ["next", "kin"]
    assert [term.typed for term in read("last will and testament")] == ["last", "testament"]
    assert [term.typed for term in read("last year")] == ["last", "year"]  # nothing else to search for
    # a phrase still being typed may grow into another word ("last yearbook")
    typing = query_terms("house prices last year", prefix_last=True, search_terms=VOCABULARY)
    assert [(term.typed, term.prefix) for term in typing] == [
        ("house", False),
        ("prices", False),
        ("last", False),
        ("year", True),
    ]


def test_a_stop_words_contraction_is_left_out_beside_other_words():
    # "isn't" is "is not", both stop words, but the pipeline keeps it whole: a record would have to hold it.
    assert [term.typed for term in read("register land that isn't registered")] == ["register", "land"]
    assert [term.typed for term in read("can’t pay council tax")] == ["pay", "council", "tax"]
    # A possessive is a word of its own ("children's" is not a stop word), and a contraction alone stays.
    assert [term.typed for term in read("children's services")] == ["children's", "services"]
    assert [term.typed for term in read("don't")] == ["don't"]


def test_a_questions_opening_words_are_read_as_what_it_asks_about():
    # "how many people live in X" asks for X's population; the place is still a preference.
    terms = read("How many people live in Bristol?")
    assert [(term.typed, term.place) for term in terms] == [("population", ""), ("bristol", "bristol")]
    assert required("how many people live in Bristol") == {"population"}
    # "how many people" counts people: the topic is what follows, the longest opening wins.
    assert [term.typed for term in read("how many people are homeless in Leeds")] == ["homeless", "leeds"]
    assert [term.typed for term in read("how  many People live in   leeds")] == ["population", "leeds"]
    # Only where it opens the query, as whole words, and never alone: something must be searched for.
    assert [term.typed for term in read("older people living alone")] == ["older", "people", "living", "alone"]
    assert [term.typed for term in read("how many peoples")] == ["many", "peoples"]
    assert [term.typed for term in read("how many people")] == ["many", "people"]
    # Case is folded as Unicode folds it: a dotless "ı" matches "i", and is read like it, never a failure.
    assert [term.typed for term in read("how many people lıve in Leeds")] == ["population", "leeds"]


def test_a_word_being_typed_is_never_taken_for_a_filler():
    terms = query_terms("library near", prefix_last=True, search_terms=VOCABULARY)
    assert [(term.typed, term.prefix) for term in terms] == [("library", False), ("near", True)]


def test_who_opening_a_question_asks_for_an_organisation():
    # "who" is a stop word, never an index term: where it opens a question it says
    # what kind of answer is wanted, as an intent word does, and is never required.
    terms = read("Who regulates water companies?")
    assert [(term.typed, term.intent) for term in terms][-1] == ("who", ("organisation",))
    assert required("who regulates water companies") == {"regulates", "water", "companies"}
    # Inside a query it asks nothing of the kind ("find out who owns a house": a service).
    assert all(not term.intent for term in read("find out who owns a house"))
    # Alone it says nothing about what: nothing to search.
    assert read("who") == []


def order_editions(ranked, titles):
    rows = {number: {"title": title, "publisher": "HM Land Registry"} for number, title in titles.items()}
    newest_first(ranked, [editions_of(rows[item.number]) for item in ranked], rows)


def editions(titles):
    ranked = [Ranked(number, 10.0 - number, "all_terms") for number in range(len(titles))]
    order_editions(ranked, dict(enumerate(titles)))
    return [titles[item.number] for item in ranked]


def test_the_newest_edition_takes_the_place_of_the_first_edition_shown():
    titles = [
        "Indices of Deprivation 2010",
        "Deprivation guidance",
        "Indices of Deprivation 2019",
        "Indices of Deprivation 2007",
    ]
    assert editions(titles) == [
        "Indices of Deprivation 2019",
        "Deprivation guidance",
        "Indices of Deprivation 2010",
        "Indices of Deprivation 2007",
    ]


def test_one_nations_figures_are_no_older_edition_of_anothers():
    # One series in an answer (a nation varies), but Northern Ireland's 2020 figures ranked first
    # stay first: England's 2022 ones are no newer edition of them.
    titles = ["Population estimates for Northern Ireland: mid-2020", "Population estimates for England: mid-2022"]
    assert editions(titles) == titles
    rows = {number: {"title": title, "publisher": "ONS"} for number, title in enumerate(titles)}
    ranked = [Ranked(number, 10.0 - number, "all_terms") for number in range(len(titles))]
    (lead,) = grouped_answer(read("population estimates"), ranked, rows)
    assert (lead.number, lead.others) == (0, [1])


def test_months_order_editions_of_one_year_and_other_titles_keep_their_places():
    titles = ["House Price Index for April 2025", "House Price Index", "House Price Index for October 2025"]
    assert editions(titles) == [
        "House Price Index for October 2025",
        "House Price Index",
        "House Price Index for April 2025",
    ]
    # Different titles are different resources, whatever their dates.
    other = ["Boundaries (May 2021) BFC", "Boundaries (May 2024) BGC"]
    assert editions(other) == other


def test_editions_stay_in_their_modes():
    ranked = [Ranked(0, 5.0, "all_terms"), Ranked(1, 9.0, "any_term")]
    order_editions(ranked, {0: "Census 2011 tables", 1: "Census 2021 tables"})
    assert [item.number for item in ranked] == [0, 1]


def test_any_term_shares_divide_by_coverage_for_each_word_lacking_by_its_information(catalogue):
    # Coordination: a record holding more of the query's words comes first in any_term mode
    # (docs/ranking.md); the words' idf orders records holding as many. A word lacking counts
    # as one word in part, and in part as its share of the query's information.
    from govsearch.ranking.coverage import Coverage
    from govsearch.ranking.index_evidence import records_holding
    from govsearch.ranking.rules import COVERAGE, LACKING_BY_INFORMATION

    engine = catalogue.engine
    terms = read("flood zones price")
    clauses = clauses_for(terms, "any_term")
    coverage = Coverage(engine, clauses)
    holders = [records_holding(engine, clause) for clause in clauses]
    everyone = sorted(set().union(*holders))
    for number, share in zip(everyone, coverage.shares(everyone)):
        held = [word for word, records in enumerate(holders) if number in records]
        lacking = [
            1 - LACKING_BY_INFORMATION + LACKING_BY_INFORMATION * len(clauses) * weight
            for word, weight in enumerate(coverage.weights)
            if word not in held
        ]
        expected = sum(coverage.weights[word] for word in held) * COVERAGE ** -sum(lacking)
        assert abs(share - expected) < 1e-12, (number, held)
    # Lacking every word is lacking as many words as there are; lacking a rarer one, more than one.
    assert abs(sum(coverage.lacks) - len(clauses)) < 1e-12
    rarest, commonest = coverage.weights.index(max(coverage.weights)), coverage.weights.index(min(coverage.weights))
    assert coverage.lacks[rarest] > 1 > coverage.lacks[commonest]
    both = [n for n in everyone if n in holders[0] and n in holders[1]]
    alone = [n for n in everyone if n in holders[2] and n not in holders[0] and n not in holders[1]]
    assert both and alone
    assert min(coverage.shares(both)) > max(coverage.shares(alone))
