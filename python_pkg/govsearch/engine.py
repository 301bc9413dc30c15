"""Ranked matching and exact filtering, whatever the index layout.

Scoring is lunr's own (BM25 with the field boosts the build chose). This
module adds only what lunr lacks: exact filters applied to every match before
the limit, facet counts, and a deterministic order.

Records are numbered by the build in (title, id) order, so "score, then
title, then id" is simply "score, then record number", in every layout.
"""

from __future__ import annotations

from collections import Counter
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

    def warm(self) -> None:
        """Prepare what later queries will need, while nobody is waiting."""


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

    def column(self, field: str, numbers: list[int]) -> list[str]:
        """The field's value for each of the records, in order (the hot path of facets)."""
        names, codes = self.names[field], self.codes[field]
        if self.widths[field] == 1:
            return [names[_CODE_VALUE[codes[number]]] for number in numbers]
        return [self.value(number, field) for number in numbers]

    def values(self, field: str) -> set[str]:
        return set(self.names[field])


class SearchEngine:
    def __init__(self, matcher: Matcher, facets: FacetTable):
        self.matcher = matcher
        self.facets = facets

    def warm(self) -> None:
        self.matcher.warm()

    def match(self, clauses: list[Clause]) -> list[Hit]:
        """Every record the clauses match, best first: score, then title, then id."""
        if not clauses:
            return []
        hits = [Hit(number, round(score, SCORE_PLACES)) for number, score in self.matcher.match(clauses)]
        hits.sort(key=lambda hit: (-hit.score, hit.number))
        return hits

    def filter(self, hits: list[Hit], filters: Mapping[str, frozenset[str]]) -> list[Hit]:
        if not filters:
            return hits
        keep = _all_true([self._passing(hits, name, wanted) for name, wanted in filters.items()], len(hits))
        return [hit for hit, kept in zip(hits, keep) if kept]

    def facet_counts(self, hits: list[Hit], filters: Mapping[str, frozenset[str]]) -> dict[str, dict[str, int]]:
        """Counts per value of each dimension over the query's matches.

        Each dimension is counted with the other dimensions' filters applied
        but not its own, so its counts show what choosing another value of
        that dimension would give.
        """
        numbers = [hit.number for hit in hits]
        columns = {name: self.facets.column(field, numbers) for name, field in DIMENSIONS.items()}
        passing = {name: [value in wanted for value in columns[name]] for name, wanted in filters.items()}
        counts: dict[str, dict[str, int]] = {}
        for name in DIMENSIONS:
            keep = _all_true([mask for other, mask in passing.items() if other != name], len(numbers))
            tally = Counter(value for value, kept in zip(columns[name], keep) if kept)
            counts[name] = dict(sorted(tally.items(), key=lambda item: (-item[1], item[0])))
        return counts

    def _passing(self, hits: list[Hit], name: str, wanted: frozenset[str]) -> list[bool]:
        return [value in wanted for value in self.facets.column(DIMENSIONS[name], [hit.number for hit in hits])]

    def values(self, field: str) -> set[str]:
        return self.facets.values(field)


def _all_true(masks: list[list[bool]], length: int) -> list[bool]:
    """Element-wise AND of the masks (all True when there are none)."""
    if not masks:
        return [True] * length
    return [all(flags) for flags in zip(*masks)]
