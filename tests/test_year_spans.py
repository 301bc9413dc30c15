"""Spans of two years (govsearch_build.year_spans): GOV.UK writes "2025 to 2026",
statistics "2025-26" or "2025/26", and a visitor types any of them; each finds the
records written with the others."""

from govsearch import Catalogue, DirectoryLoader
from govsearch_build.config import load_config
from govsearch_build.data_writer import write_data
from govsearch_build.year_spans import spans_written, year_span_groups
from sitefixture import SITE_TOML, curated_record


def record(number, title, summary=""):
    return curated_record(number, title, summary=summary or f"Record {number}.", publisher="Example Council")


def test_a_span_is_a_year_and_the_next_in_any_of_the_written_forms():
    texts = ["Rates for 2025 to 2026", "Starts 2023-24 and 2021/22", "Budget 2019–20, 2017/2018", "A 2010-2011 survey"]
    assert spans_written(texts) == [2010, 2017, 2019, 2021, 2023, 2025]
    # Not spans: years apart, a range of pages, a date.
    assert spans_written(["2019 to 2021", "pages 2020-30", "2024-05-01", "1999-2000 and 20-21"]) == [1999]


def test_each_span_the_records_write_is_one_group_led_by_its_short_form():
    groups = year_span_groups([record(1, "Council tax 2025 to 2026"), record(2, "Starts", "Figures for 2023-24.")])
    assert [group[0] for group in groups] == ["2023/24", "2025/26"]
    assert {"2025/26", "2025-26", "2025 to 2026", "2025/2026"} <= set(groups[1])


def test_every_spelling_of_a_span_finds_the_records_written_with_the_others(tmp_path):
    records = [
        record(1, "Council Tax levels set by local authorities: England 2025 to 2026"),
        record(2, "Council tax collection rates 2025-26"),
        record(3, "Council tax bands 2025/26"),
        record(4, "Council tax levels 2024 to 2025"),
        record(5, "Council tax requirement 2025-2026"),
    ]
    write_data(load_config(SITE_TOML), records, tmp_path / "data")
    catalogue = Catalogue.open(DirectoryLoader(tmp_path))

    def found(query):
        answer = catalogue.call("search_government_knowledge", {"query": query, "limit": 10})
        return {item["id"] for item in answer["results"] if item["matchMode"] == "all_terms"}

    for spelling in ("2025/26", "2025-26", "2025 to 2026", "2025-2026", "2025/2026"):
        assert found(f"council tax {spelling}") == {"r1", "r2", "r3", "r5"}, spelling
    assert found("council tax 2024/25") == {"r4"}
