"""What an agent needs to use an answer as it stands: whether `total` is exact,
which collections were searched, and a record's citation (issue 36).

Runs in CPython and inside Pyodide, like the other runtime tests.
"""

import hashlib
import json

from govsearch import terms as terms_module
from govsearch.attribution import CATALOGUE_ATTRIBUTION, OGL_ATTRIBUTION, citation
from govsearch.ranking import rules
from govsearch.tool_schemas import COLLECTIONS

RECORD = "get_resource_record"


def _codes(answer):
    return {notice["code"] for notice in answer["notices"]}


def test_a_search_within_its_budget_says_its_total_is_exact(search):
    for query in ("vat", "land registry price paid data", "houzing", "the and of"):
        answer = search({"query": query})
        assert answer["totalRelation"] == "eq", query


def test_cut_expansions_make_the_total_a_lower_bound(search, catalogue, monkeypatch):
    full = search({"query": "land reg"}, prefix_last=True)
    monkeypatch.setattr(terms_module, "MAX_EXPANSIONS", 1)
    catalogue.engine.forget()  # answers are kept by call; the budget is a constant
    try:
        cut = search({"query": "land reg"}, prefix_last=True)
    finally:
        catalogue.engine.forget()
    assert full["totalRelation"] == "eq" and "expansions_limited" not in _codes(full)
    assert cut["totalRelation"] == "gte" and "expansions_limited" in _codes(cut)
    assert cut["total"] <= full["total"]


def test_looser_modes_left_untried_make_the_total_a_lower_bound(search, catalogue, monkeypatch):
    monkeypatch.setattr(rules, "MAX_POSTINGS", 1)
    catalogue.engine.forget()
    try:
        cut = search({"query": "house prices england"})
    finally:
        catalogue.engine.forget()
    assert "work_budget_reached" in _codes(cut) and cut["totalRelation"] == "gte"


def test_the_answer_names_the_collections_it_searched(search, catalogue):
    held = [row["value"] for row in catalogue.call("list_filter_values", {"dimension": "collections"})["values"]]
    everything = [collection for collection in COLLECTIONS if collection in held]
    assert len(everything) >= 3
    assert search({"query": "vat"})["collectionsSearched"] == everything
    chosen = search({"query": "vat", "collections": [everything[-1], everything[0]]})
    assert chosen["collectionsSearched"] == [everything[0], everything[-1]]  # the schema's order
    missing = [collection for collection in COLLECTIONS if collection not in held]
    if missing:  # a collection the catalogue holds nothing of was not searched
        assert search({"query": "vat", "collections": missing})["collectionsSearched"] == []


def test_a_record_answer_carries_a_citation_of_its_snapshot(catalogue, site_dir, output_checks):
    manifest_bytes = (site_dir / "data" / "manifest.json").read_bytes()
    answer = catalogue.call(RECORD, {"recordId": "vat-api"})
    output_checks[RECORD](answer)
    record, cited = answer["record"], answer["citation"]
    assert {key: cited[key] for key in ("title", "publisher", "url", "recordUrl")} == {
        "title": record["title"],
        "publisher": record["publisher"],
        "url": record["url"],
        "recordUrl": record["recordUrl"],
    }
    assert cited["snapshot"] == {
        "manifestSha256": hashlib.sha256(manifest_bytes).hexdigest(),
        "built": json.loads(manifest_bytes)["built"],
    }
    assert cited["licence"] == record["licence"] and cited["attribution"] == OGL_ATTRIBUTION
    text = cited["text"]
    for part in (record["title"], record["publisher"], record["url"], record["recordUrl"], cited["attribution"]):
        assert part in text, part
    assert cited["snapshot"]["built"] in text and cited["snapshot"]["manifestSha256"][:12] in text


def test_a_citation_states_only_the_licence_and_attribution_the_record_has(output_checks):
    snapshot = {"manifestSha256": "ab" * 32, "built": "2026-12-02"}
    base = {"title": "Weather.", "publisher": "Met Office", "url": "https://example.gov.uk/w"}
    curated = citation({**base, "evidence": {"licenceStatus": "not-stated"}}, "https://x.test/records/w/", snapshot)
    imported = citation(
        {**base, "licence": "Crown copyright", "source": {"kind": "api-catalogue"}}, "https://x.test/r/", {}
    )
    assert "licence" not in curated and "attribution" not in curated and "Licence" not in curated["text"]
    assert (
        curated["text"]
        == "Met Office. Weather. https://example.gov.uk/w (govsearch catalogue record, data built 2026-12-02, manifest sha256 abababababab: https://x.test/records/w/)."
    )
    assert imported["licence"] == "Crown copyright" and imported["attribution"] == CATALOGUE_ATTRIBUTION
    assert imported["text"].endswith(f"Licence: Crown copyright. {CATALOGUE_ATTRIBUTION}")
    for cited in (curated, imported):  # each valid where a record answer carries it
        answer = {
            "ok": True,
            "record": {
                **base,
                "id": "w",
                "summary": "",
                "resourceType": "api",
                "accessStatus": "public",
                "collection": "ons",
                "recordUrl": cited["recordUrl"],
                "provenance": {"source": {"kind": "curated"}},
            },
            "citation": cited,
        }
        output_checks[RECORD](answer)
