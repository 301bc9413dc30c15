"""Related words (govsearch_build.related_words, govsearch.ranking.related):
when no record holds every word of a query, one that says a word another
way ("earnings" for "salary") counts as holding it."""

from pathlib import Path

import jsonschema
import pytest

from govsearch import Catalogue, DirectoryLoader, load_schema
from govsearch.ranking import rules, tiers
from govsearch_build.config import load_config
from govsearch_build.data_writer import write_data
from govsearch_build.records import load_content
from govsearch_build.related_words import TABLE, read_table, related_for, related_stems, word_usage

REPO = Path(__file__).resolve().parents[1]

RECORD = """---
id: {id}
title: {title}
summary: {summary}
url: https://www.gov.uk/government/statistics/{id}
resourceType: dataset
publisher: {publisher}
accessStatus: public
collection: ons
licence: Open Government Licence v3.0
source:
  kind: curated
---
"""

RECORDS = [
    ("weekly-earnings", "Average weekly earnings", "Average weekly earnings of employees in the UK.", "ONS"),
    ("senior-salaries", "Senior Salaries Review Body", "Advises on senior pay.", "Cabinet Office"),
    ("house-prices", "Average house prices", "Average prices paid for homes in the UK.", "HM Land Registry"),
    ("rail-fares", "Average rail fares", "Average fares paid for rail journeys in the UK.", "Office of Rail and Road"),
]


def built(tmp_path_factory, records) -> dict[str, Catalogue]:
    content = tmp_path_factory.mktemp("related-corpus")
    for record_id, title, summary, publisher in records:
        text = RECORD.format(id=record_id, title=title, summary=summary, publisher=publisher)
        (content / f"{record_id}.md").write_text(text, "utf-8")
    loaded = load_content(content)
    assert len(loaded.records) == len(records) and not loaded.rejected
    config = load_config(REPO / "site" / "site.toml")
    catalogues = {}
    for layout in ("single", "sharded"):
        site = tmp_path_factory.mktemp(layout)
        write_data(config, loaded.records, site / "data", layout=layout)
        catalogues[layout] = Catalogue.open(DirectoryLoader(site))
    return catalogues


@pytest.fixture(scope="module")
def sites(tmp_path_factory) -> dict[str, Catalogue]:
    return built(tmp_path_factory, RECORDS)


def titles(catalogue: Catalogue, query: str) -> list[str]:
    answer = catalogue.call("search_government_knowledge", {"query": query})
    jsonschema.validate(answer, load_schema("search_government_knowledge", "output"))
    return [item["title"] for item in answer["results"]]


def test_a_record_saying_a_word_another_way_comes_first_when_none_holds_every_word(sites):
    catalogue = sites["sharded"]
    # No record holds "average", "salary" and "uk"; the earnings record holds the other two and a
    # related word of "salary", the review body only "salaries", the others "average" and "uk".
    assert titles(catalogue, "what is the average salary in the uk")[0] == "Average weekly earnings"


def test_without_related_words_the_same_query_ranks_otherwise(sites, monkeypatch):
    catalogue = sites["single"]
    monkeypatch.setattr(catalogue.engine.matcher, "related", lambda term: ())
    catalogue.engine.forget()
    assert titles(catalogue, "what is the average salary in the uk")[0] != "Average weekly earnings"


def test_a_query_whose_words_a_record_holds_is_untouched(sites, monkeypatch):
    catalogue = sites["single"]
    with_related = titles(catalogue, "average house prices")
    monkeypatch.setattr(catalogue.engine.matcher, "related", lambda term: ())
    catalogue.engine.forget()
    assert titles(catalogue, "average house prices") == with_related


def test_both_layouts_give_the_same_answer(sites):
    for catalogue in sites.values():
        catalogue.engine.forget()  # nothing kept from a test that turned related words off
    for query in ("what is the average salary in the uk", "salary uk", "wages earnings fares"):
        answers = [
            catalogue.call("search_government_knowledge", {"query": query, "limit": 20}) for catalogue in sites.values()
        ]
        assert answers[0] == answers[1], query


def test_related_stems_keep_index_terms_merge_forms_and_keep_the_nearest():
    table = {
        "salary": [("wages", 0.73), ("income", 0.65), ("earnings", 0.60), ("compensation", 0.60)],
        "salaries": [("pay", 0.66), ("wages", 0.70)],
        "fine": [("okay", 0.68)],
    }
    vocabulary = {"salari", "wage", "incom", "earn", "pai", "fine"}
    related = related_stems(table, vocabulary, min_similarity=0.6, most=3)
    # "salary" and "salaries" are one index term; "compensation" is not in the index, nor "okay".
    assert related == {"salari": ["wage", "pai", "incom"]}
    assert related_stems(dict(reversed(table.items())), vocabulary, min_similarity=0.6, most=3) == related
    assert related_stems(table, vocabulary, min_similarity=0.7, most=3) == {"salari": ["wage"]}


def test_a_stem_takes_the_neighbours_of_the_words_the_estate_uses():
    # "inflation" and "inflated" are one index term; a catalogue of statistics says "inflation".
    table = {"inflation": [("monetary", 0.68)], "inflated": [("air", 0.63), ("pump", 0.61)]}
    vocabulary = {"inflat", "monetari", "air", "pump"}
    usage = word_usage(["Consumer price inflation", "Inflation rose; inflation fell", "prices inflated"])
    assert usage["inflation"] == 3 and usage["inflated"] == 1
    assert related_stems(table, vocabulary, usage=usage) == {"inflat": ["monetari"]}
    assert related_stems(table, vocabulary) == {"inflat": ["monetari", "air", "pump"]}
    # a word used at least half as often as the stem's most used one still counts; an unused stem keeps all
    assert related_stems(table, vocabulary, usage={"inflation": 2, "inflated": 1}) == related_stems(table, vocabulary)
    assert related_stems(table, vocabulary, usage={"other": 5}) == related_stems(table, vocabulary)


def test_a_search_for_inflation_does_not_bring_the_tyre_pump(tmp_path_factory):
    # The shipped table relates "inflated" to air and pump; these records never say "inflated".
    # No record holds "rate" as well, so related words are asked.
    records = [
        (
            "consumer-price-inflation",
            "Consumer price inflation",
            "How fast the prices of goods and services rise, as inflation.",
            "ONS",
        ),
        ("tyre-air-pump", "Tyre air pump", "Where to find an air pump for your tyres.", "DVSA"),
    ]
    for catalogue in built(tmp_path_factory, records).values():
        assert titles(catalogue, "inflation rate") == ["Consumer price inflation"]


def test_a_malformed_table_line_names_its_place():
    with pytest.raises(ValueError, match=r"table.tsv:2: 'wages' is not word:similarity"):
        read_table(["salary\tincome:0.65", "pay\twages"], "table.tsv")


def test_the_shipped_table_reads_and_relates_a_visitors_words_to_the_records_words():
    with TABLE.open(encoding="utf-8") as lines:
        table = read_table(lines)
    assert len(table) > 10_000
    for word, neighbours in table.items():
        similarities = [similarity for _, similarity in neighbours]
        assert word.isalpha() and word.islower() and similarities == sorted(similarities, reverse=True), word
    related = related_for({"salari", "earn", "wage", "owner", "own", "dwell", "hous"})
    assert {"wage", "earn"} <= set(related["salari"])
    assert "owner" in related["own"]


def test_related_words_are_not_asked_once_the_words_as_typed_fill_a_first_page(sites, monkeypatch):
    # "average earnings": one record holds both words, the others "average" alone (any_term).
    # Related words cost a round of downloads; past a first page of records holding every
    # word they would only order records after it.
    catalogue = sites["sharded"]
    asked: list[int] = []  # a call's any_term tier searched related words for this many of its words
    search = tiers.alternative_clauses
    monkeypatch.setattr(tiers, "alternative_clauses", lambda *args: asked.append(len(args[2])) or search(*args))

    def answer() -> dict:
        catalogue.engine.forget()
        return catalogue.call("search_government_knowledge", {"query": "average earnings", "limit": 20})

    monkeypatch.setattr(rules, "RELATED_WHILE_FEWER", 2)  # one record holds every word: fewer
    assert answer()["results"][0]["title"] == "Average weekly earnings" and asked
    asked.clear()
    monkeypatch.setattr(rules, "RELATED_WHILE_FEWER", 1)  # one holds every word: a page, here
    first_page_full = answer()
    assert not asked
    monkeypatch.setattr(catalogue.engine.matcher, "related", lambda term: ())
    assert answer() == first_page_full
