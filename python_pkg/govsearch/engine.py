"""Ranked matching and exact filtering, whatever the index layout.

Scoring is lunr's own (BM25 with the field boosts the build chose). This
module adds only what lunr lacks: exact filters applied to every match before
the limit, facet counts, and a deterministic order.

Records are numbered by the build in (title, id) order, so "score, then
title, then id" is simply "score, then record number", in every layout.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Protocol

from .terms import Clause

# Tool filter property -> record field it filters on.
DIMENSIONS = {
    "resourceTypes": "resourceType",
    "accessStatuses": "accessStatus",
    "collections": "collection",
    "publishers": "publisher",
}
SCORE_PLACES = 6


class Matcher(Protocol):
    def match(self, clauses: list[Clause]) -> list[tuple[int, float]]:
        """(record number, lunr score) for every record the clauses match."""


@dataclass(frozen=True)
class Hit:
    number: int  # the record's position in (title, id) order
    score: float  # rounded to SCORE_PLACES, so order is stable across platforms


CODE_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"
_CODE_VALUE = {char: number for number, char in enumerate(CODE_ALPHABET)}


class FacetTable:
    """One column per filter dimension: every record's value, as a code.

    Codes are fixed-width base-64 strings (one character for up to 64
    distinct values), read on demand: opening a large site decodes nothing.
    """

    def __init__(self, columns: Mapping[str, Mapping[str, Any]]):
        self.names = {field: list(column["values"]) for field, column in columns.items()}
        self.codes = {field: column["codes"] for field, column in columns.items()}
        self.widths = {field: column["width"] for field, column in columns.items()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "FacetTable":
        missing = set(DIMENSIONS.values()) - set(data.get("columns", {}))
        if missing:
            raise ValueError(f"the facet table lacks {', '.join(sorted(missing))}")
        return cls(data["columns"])

    def value(self, number: int, field: str) -> str:
        width = self.widths[field]
        code = 0
        for char in self.codes[field][number * width : number * width + width]:
            code = code * 64 + _CODE_VALUE[char]
        return self.names[field][code]

    def values(self, field: str) -> set[str]:
        return set(self.names[field])


class SearchEngine:
    def __init__(self, matcher: Matcher, facets: FacetTable):
        self.matcher = matcher
        self.facets = facets

    def match(self, clauses: list[Clause]) -> list[Hit]:
        """Every record the clauses match, best first: score, then title, then id."""
        if not clauses:
            return []
        hits = [Hit(number, round(score, SCORE_PLACES)) for number, score in self.matcher.match(clauses)]
        hits.sort(key=lambda hit: (-hit.score, hit.number))
        return hits

    def passes(self, number: int, filters: Mapping[str, frozenset[str]], skip: str | None = None) -> bool:
        return all(self.facets.value(number, DIMENSIONS[name]) in wanted for name, wanted in filters.items() if name != skip)

    def filter(self, hits: list[Hit], filters: Mapping[str, frozenset[str]]) -> list[Hit]:
        return [hit for hit in hits if self.passes(hit.number, filters)] if filters else hits

    def facet_counts(self, hits: list[Hit], filters: Mapping[str, frozenset[str]]) -> dict[str, dict[str, int]]:
        """Counts per value of each dimension over the query's matches.

        Each dimension is counted with the other dimensions' filters applied
        but not its own, so its counts show what choosing another value of
        that dimension would give.
        """
        counts: dict[str, dict[str, int]] = {}
        for name, field in DIMENSIONS.items():
            tally: dict[str, int] = {}
            for hit in hits:
                if self.passes(hit.number, filters, skip=name):
                    value = self.facets.value(hit.number, field)
                    tally[value] = tally.get(value, 0) + 1
            counts[name] = dict(sorted(tally.items(), key=lambda item: (-item[1], item[0])))
        return counts

    def values(self, field: str) -> set[str]:
        return self.facets.values(field)
