"""lunr.py's field weights for a large estate, held in a few flat arrays.

The sharded layout needs, per term, its lunr term index and, per field, the
records holding it with lunr's BM25 weight there: what one lunr index over
all records would give (the runtime and the lunr.js parity tests rely on the
exact floats). lunr.py's builder keeps a dict per posting, a dict per field of
every record and a vector per field: about 8 KB a record, 2.4 GB at 300,000
records. Here each posting costs about 20 bytes.

Two passes over the documents, both in record-number order:
1. words split as lunr's tokenizer splits them, through the runtime's pipeline (cached per word: every
   pipeline step depends on the word alone); per field of each record its
   length and its (term, count) pairs; per term its index (lunr's: the order
   terms are first met) and its document frequency;
2. lunr's weight of each pair, placed straight into its term's run (a
   counting sort by term), so a term's postings are in record order.
The arithmetic is lunr.builder.Builder's, operation for operation.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Iterator
from typing import Any

from lunr.token import Token
from lunr.tokenizer import SEPARATOR_CHARS

from govsearch.engine import idf as lunr_idf
from govsearch.ranking.analysis import PIPELINE

K1 = 1.2  # lunr.Builder's defaults (govsearch never changes them)
B = 0.75
# lunr's tokenizer, without its character-by-character loop (a third of the time):
# the lower-cased text split at each of lunr's separator characters, empty pieces dropped.
_SEPARATOR = re.compile("[" + re.escape(SEPARATOR_CHARS) + "]")
_CACHE_LIMIT = 2_000_000  # words; past it the cache starts again (memory stays bounded)


class Postings:
    """Every (term, field, record) of an estate with lunr's BM25 weight."""

    def __init__(self, fields: list[dict[str, Any]]):
        self.fields = [field["field_name"] for field in fields]
        self.boosts = [field.get("boost", 1) for field in fields]
        self.term_ids: dict[str, int] = {}
        self.documents = 0
        self._pipeline = PIPELINE
        self._cache: dict[str, tuple[str, ...]] = {}
        self._df = array("I")  # per term id: fields of records holding it (lunr's idf counts these)
        self._start = array("Q")  # per term id: where its run starts in the arrays below
        self._numbers = array("I")
        self._weights = array("d")
        self._field = array("B")

    @classmethod
    def build(cls, documents: Iterable[dict[str, str]], fields: list[dict[str, Any]]) -> Postings:
        """Index `documents` (in record-number order; each has every field)."""
        postings = cls(fields)
        pairs, lengths = postings._count(documents)
        postings._place(pairs, lengths)
        return postings

    def terms(self) -> list[str]:
        return sorted(self.term_ids)

    def term_index(self, term: str) -> int:
        return self.term_ids[term]

    def of(self, term: str) -> dict[str, list[tuple[int, float]]]:
        """Field -> [(record number, weight)] in record order; fields in the order
        the term is first met (record by record, field by field), as lunr's vectors give them."""
        term_id = self.term_ids[term]
        out: dict[str, list[tuple[int, float]]] = {}
        names, numbers, weights, field = self.fields, self._numbers, self._weights, self._field
        for position in range(self._start[term_id], self._start[term_id + 1]):
            out.setdefault(names[field[position]], []).append((numbers[position], weights[position]))
        return out

    def _terms(self, text: str) -> Iterator[str]:
        cache = self._cache
        for word in _SEPARATOR.split(text.lower()):
            if not word:
                continue
            found = cache.get(word)
            if found is None:
                if len(cache) >= _CACHE_LIMIT:
                    cache.clear()
                found = cache[word] = tuple(str(term) for term in self._pipeline.run([Token(word)]))
            yield from found

    def _count(self, documents: Iterable[dict[str, str]]) -> tuple[array, array]:
        """Pass 1: per field of each record its length, distinct terms and their counts."""
        pairs = array("I")  # term id, count, term id, count, ... per field of each record in turn
        lengths = array("I")  # per field of each record: tokens, distinct terms
        term_ids, df = self.term_ids, self._df
        for document in documents:
            self.documents += 1
            for name in self.fields:
                counts: dict[str, int] = {}
                length = 0
                for term in self._terms(document[name]):
                    counts[term] = counts.get(term, 0) + 1
                    length += 1
                lengths.extend((length, len(counts)))
                for term, count in counts.items():
                    term_id = term_ids.get(term)
                    if term_id is None:
                        term_id = term_ids[term] = len(df)
                        df.append(0)
                    df[term_id] += 1
                    pairs.extend((term_id, count))
        self._cache.clear()
        return pairs, lengths

    def _place(self, pairs: array, lengths: array) -> None:
        """Pass 2: each pair's weight into its term's run."""
        width, documents = len(self.fields), self.documents
        totals = [0] * width
        for position in range(0, len(lengths), 2):
            totals[(position // 2) % width] += lengths[position]
        average = [total / documents for total in totals]  # lunr: integer sum / documents with the field
        idf = [lunr_idf(df, documents) for df in self._df]
        start = array("Q", [0])
        for df in self._df:
            start.append(start[-1] + df)
        self._start = start
        size = start[-1]
        self._numbers = array("I", bytes(4 * size))
        self._weights = array("d", bytes(8 * size))
        self._field = array("B", bytes(size))
        cursor = array("Q", start)
        at = 0
        for ref in range(len(lengths) // 2):
            number, field = divmod(ref, width)
            length, distinct = lengths[2 * ref], lengths[2 * ref + 1]
            norm = K1 * (1 - B + B * (length / average[field])) if distinct else 0.0
            boost = self.boosts[field]
            for _ in range(distinct):
                term_id, tf = pairs[at], pairs[at + 1]
                at += 2
                score = idf[term_id] * ((K1 + 1) * tf) / (norm + tf)
                score *= boost  # (lunr's document boost is 1 here: multiplying by it changes nothing)
                place = cursor[term_id]
                cursor[term_id] = place + 1
                self._numbers[place] = number
                self._weights[place] = round(score, 3)
                self._field[place] = field
