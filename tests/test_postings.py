"""The sharded layout's postings are exactly what one lunr.py index gives.

govsearch_build/postings.py computes lunr's BM25 field weights without
lunr's builder (whose memory grows by about 8 KB a record). Its oracle is the
real lunr.py: every term, term index, field order, record and weight must be
the ones lunr.py's field vectors hold, on the curated corpus and on documents
made to hit the edges (empty fields, stop words only, repeated and unicode words).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from govsearch_build.config import load_config
from govsearch_build.data_writer import (
    FIELDS,
    build_index,
    in_number_order,
    index_builder,
    index_document,
    search_terms_of,
)
from govsearch_build.postings import Postings
from govsearch_build.records import load_content

REPO = Path(__file__).resolve().parents[1]


def lunr_postings(index) -> dict[str, tuple[int, list]]:
    """term -> (lunr term index, [(field, [(record number, weight)])]) from lunr.py's own field vectors."""
    numbers: dict[str, int] = {}
    by_index: dict[int, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for field_ref, vector in index.field_vectors.items():  # lunr's order: record by record, field by field
        field, ref = field_ref.split("/", 1)
        number = numbers.setdefault(ref, len(numbers))
        for position in range(0, len(vector.elements), 2):
            by_index[vector.elements[position]][field].append((number, vector.elements[position + 1]))
    out = {}
    for term, posting in index.inverted_index.items():
        fields = by_index[posting["_index"]]
        out[term] = (posting["_index"], [(field, sorted(pairs)) for field, pairs in fields.items()])
    return out


def ours(postings: Postings) -> dict[str, tuple[int, list]]:
    return {term: (postings.term_index(term), list(postings.of(term).items())) for term in postings.terms()}


def check_same(documents: list[dict[str, str]]) -> Postings:
    expected = lunr_postings(build_index_of(documents))
    postings = Postings.build(documents, list(FIELDS))
    assert postings.terms() == sorted(expected)
    got = ours(postings)
    for term in sorted(expected):
        assert got[term] == expected[term], term
    return postings


def build_index_of(documents: list[dict[str, str]]):
    from lunr import lunr

    return lunr(ref="id", fields=list(FIELDS), documents=documents, builder=index_builder())


@pytest.fixture(scope="module")
def curated_documents():
    config = load_config(REPO / "site" / "site.toml")
    records = in_number_order(load_content(config.content_dir).records)
    terms = search_terms_of(config)
    return records, terms, [index_document(record, terms) for record in records]


def test_curated_corpus_postings_are_lunrs(curated_documents):
    records, terms, documents = curated_documents
    postings = check_same(documents)
    assert len(postings.terms()) > 1000  # the corpus really was indexed
    # and build_index (the single layout's lunr index) is the same index
    assert ours(postings) == lunr_postings(build_index(records, terms))


def test_edge_documents_postings_are_lunrs():
    def doc(number, **fields):
        return {"id": f"r{number}", **{f["field_name"]: fields.get(f["field_name"], "") for f in FIELDS}}

    documents = [
        doc(0, title="Tax tax TAX taxes taxing", body="the and of to a"),
        doc(1),  # every field empty
        doc(2, publisher="HM Revenue & Customs", keywords="tax-free ISA; Ünïcode naïve café", summary="x " * 300),
        doc(3, title="the", body="Tax"),  # a stop word alone; a term first met in a later field
        doc(4, body="word " * 70000),  # a count too large for 16 bits
        doc(5, title="rare", summary="rare rare", body="ISA café"),
        doc(6, title="İstanbul\xa0ISTANBUL--x \t\r\n\f\vy", summary="-- - \xa0", body="Straße STRASSE ǅ ß"),
    ]
    postings = check_same(documents)
    assert [number for number, _ in postings.of("tax")["title"]] == [0]
    # fields in the order first met: record 0's title, record 2's keywords ("tax-free"), record 3's body
    assert list(postings.of("tax")) == ["title", "keywords", "body"]
