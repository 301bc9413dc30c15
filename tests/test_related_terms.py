"""Related terms (issue 32 prototype, docs/meaning.md): off by default, a bad
setting refused by name, and, when on, words of the same meaning reach the
body a query searches, never the other fields."""

from pathlib import Path

import pytest

from govsearch_build.config import ConfigError, load_config
from govsearch_build.data_writer import build_index, index_document
from test_ranking_config import record

REPO = Path(__file__).resolve().parents[1]


def test_both_site_configs_leave_related_terms_off():
    for name in ("site.toml", "full-estate.toml"):
        assert load_config(REPO / "site" / name).related_terms == 0


@pytest.mark.parametrize("value", ["-1", "51", "true", '"8"', "2.5"])
def test_a_bad_related_terms_setting_is_refused_by_name(tmp_path, value):
    text = (REPO / "site" / "site.toml").read_text("utf-8").replace("[search]", f"[search]\nrelated_terms = {value}", 1)
    path = tmp_path / "site.toml"
    path.write_text(text, "utf-8")
    with pytest.raises(ConfigError, match="search.related_terms"):
        load_config(path)


def test_related_words_join_the_body_only():
    road = record(id="road", title="Road defects reported", summary="Defects in the highway.")
    plain = index_document(road)
    document = index_document(road, related={"road": "pothole potholes"})
    assert document["body"].endswith(" pothole potholes")
    assert {k: v for k, v in document.items() if k != "body"} == {k: v for k, v in plain.items() if k != "body"}


def test_a_query_for_a_related_word_finds_the_record_that_never_says_it():
    road = record(id="road", title="Road defects reported", summary="Defects in the highway.")
    other = record(id="bins", title="Bin collection days", summary="When bins are emptied.")
    assert build_index([other, road]).search("pothole") == []
    found = build_index([other, road], related={"road": "pothole"}).search("pothole")
    assert [hit["ref"] for hit in found] == ["road"]


def test_nearest_words_come_from_the_vectors_and_skip_the_records_own():
    np = pytest.importorskip("numpy")  # the 'meaning' extra; the build never needs it while the switch is off
    from govsearch_build import related_terms as rt

    # A tiny vector space made here: two topics (roads, money) along two axes,
    # behind enough filler rows that the candidate band starts after them.
    filler = [f"w{i}" for i in range(rt.FIRST_CANDIDATE)]
    topical = ["road", "defects", "highway", "pothole", "tarmac", "salary", "wages", "earnings"]
    axis = {"road": 0, "defects": 0, "highway": 0, "pothole": 0, "tarmac": 0}
    vectors = np.zeros((len(filler) + len(topical), 3), dtype=np.float32)
    vectors[: len(filler), 2] = 1
    for i, word in enumerate(topical):
        vectors[len(filler) + i, axis.get(word, 1)] = 1
        vectors[len(filler) + i, 2] = 0.01 * i  # distinct, so the order is defined
    space = rt.WordVectors(filler + topical, vectors)
    road = record(id="road", title="Road defects", summary="On the highway.")
    pay = record(id="pay", title="Earnings", summary="Salary by area.")
    related = rt.related_terms([road, pay], 2, space)
    assert set(related["road"].split()) == {"pothole", "tarmac"}
    assert related["pay"].split()[0] == "wages"
    assert not {"salary", "earnings"} & set(related["pay"].split())
