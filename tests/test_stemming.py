"""The index's stemmer (govsearch.ranking.analysis.stem_word): Porter's, with
its -y split mended, so a word's forms find each other in the index and in a
query alike (docs/ranking.md, class 2)."""

import pytest
from lunr.stemmer import porter_stemmer

from govsearch import Catalogue, DirectoryLoader
from govsearch.ranking.analysis import stem_word
from govsearch_build.config import load_config
from govsearch_build.data_writer import write_data
from sitefixture import SITE_TOML, curated_record


@pytest.mark.parametrize(
    ("one", "other"),
    [("unemployed", "unemployment"), ("employed", "employer"), ("repaying", "repayment"), ("conveyed", "conveyance")],
)
def test_a_words_forms_share_a_stem_that_porter_splits(one, other):
    assert porter_stemmer.stem(one) != porter_stemmer.stem(other)  # the split being mended
    assert stem_word(one) == stem_word(other)


def test_a_word_that_loses_one_letter_keeps_its_stem():
    # "PAYE" stems to "pay" and "pay" to "pai": the tax is not the word.
    assert stem_word("paye") != stem_word("pay")


def test_either_form_finds_records_written_with_the_other(tmp_path):
    records = [
        curated_record(1, "Claimant count", summary="People who are unemployed, by area."),
        curated_record(2, "Labour market", summary="The unemployment rate, month by month."),
        curated_record(3, "PAYE for employers", summary="Running payroll."),
        curated_record(4, "Maternity leave", summary="How much you are paid."),
    ]
    search = searcher(tmp_path, records)

    def found(query):
        return {item["id"] for item in search(query)["results"]}

    assert found("unemployment") == found("unemployed") == {"r1", "r2"}
    assert "r3" not in found("pay")


def test_an_apostrophe_finds_the_same_word_whichever_mark_is_typed(tmp_path):
    # A phone types "children’s" (U+2019), as GOV.UK's titles write it; a keyboard types "children's".
    records = [
        curated_record(1, "Children’s centres", summary="Find a centre."),
        curated_record(2, "Children's services", summary="Social care."),
        curated_record(3, "Childminders", summary="Register."),
    ]
    search = searcher(tmp_path, records)

    def found(query):
        answer = search(query)
        return answer["match_mode"], {item["id"] for item in answer["results"]}

    # Found as the word it is, not as a typo of it.
    assert found("children’s") == found("children's") == found("children‘s") == ("all_terms", {"r1", "r2"})


def searcher(folder, records):
    """A search of a site built from these records alone: the answer to a query, 10 results."""
    write_data(load_config(SITE_TOML), records, folder / "data")
    catalogue = Catalogue.open(DirectoryLoader(folder))
    return lambda query: catalogue.call("search_government_knowledge", {"query": query, "limit": 10})
