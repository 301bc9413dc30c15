"""Ranked matching and exact filtering over the prebuilt index.

Scoring is lunr's own (BM25 with the field boosts the build chose); this
module adds only what lunr lacks: exact filters applied to every match before
the limit, facet counts, and a deterministic order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from lunr.index import Index

from .terms import Clause, to_lunr_query

# Tool filter property -> record field it filters on.
DIMENSIONS = {
    "resourceTypes": "resourceType",
    "accessStatuses": "accessStatus",
    "collections": "collection",
    "publishers": "publisher",
}
SCORE_PLACES = 6


@dataclass(frozen=True)
class Hit:
    ref: str
    score: float  # rounded to SCORE_PLACES, so order is stable across platforms


class SearchEngine:
    """A lunr index plus a column of filter values for every record."""

    def __init__(self, index: Index, facets: Mapping[str, Mapping[str, str]], titles: Mapping[str, str]):
        self.index = index
        self.facets = facets  # ref -> {record field -> value}
        self.titles = titles  # ref -> title, the first tie-breaker

    @classmethod
    def from_serialized(cls, serialized: dict[str, Any], records: Iterable[Mapping[str, Any]]) -> "SearchEngine":
        facets: dict[str, dict[str, str]] = {}
        titles: dict[str, str] = {}
        for record in records:
            facets[record["id"]] = {field: record[field] for field in DIMENSIONS.values()}
            titles[record["id"]] = record["title"]
        return cls(Index.load(serialized), facets, titles)

    def match(self, clauses: list[Clause]) -> list[Hit]:
        """Every record the clauses match, best first: score, then title, then id."""
        if not clauses:
            return []
        raw = self.index.query(to_lunr_query(self.index.create_query(), clauses))
        hits = [Hit(item["ref"], round(item["score"], SCORE_PLACES)) for item in raw]
        hits.sort(key=lambda hit: (-hit.score, self.titles.get(hit.ref, ""), hit.ref))
        return hits

    def passes(self, ref: str, filters: Mapping[str, frozenset[str]], skip: str | None = None) -> bool:
        values = self.facets[ref]
        return all(values[DIMENSIONS[name]] in wanted for name, wanted in filters.items() if name != skip)

    def filter(self, hits: list[Hit], filters: Mapping[str, frozenset[str]]) -> list[Hit]:
        return [hit for hit in hits if self.passes(hit.ref, filters)] if filters else hits

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
                if self.passes(hit.ref, filters, skip=name):
                    value = self.facets[hit.ref][field]
                    tally[value] = tally.get(value, 0) + 1
            counts[name] = dict(sorted(tally.items(), key=lambda item: (-item[1], item[0])))
        return counts

    def values(self, field: str) -> set[str]:
        return {values[field] for values in self.facets.values()}
