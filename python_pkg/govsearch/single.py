"""The single-file layout: one lunr index and one record store, loaded whole.

Right for small sites: one request each, and lunr.js can load the same
index file.
"""

from __future__ import annotations

from typing import Any

from lunr.index import Index
from lunr.pipeline import Pipeline
from lunr.token_set import TokenSet
from lunr.vector import Vector

from .engine import Budget
from .format import INDEX_RELATED
from .loaders import LaterRead
from .ranking.identifiers import identifier_keys
from .ranking.series import newest_editions
from .terms import (
    Clause,
    begins_any,
    budgeted,
    expand,
    intersection,
    to_lunr_query,
    typo_expansion,
    vocabulary_token_set,
)


def _loaded(serialized: dict[str, Any]) -> Index:
    """The index as lunr's Index.load makes it, but with our vocabulary trie,
    built when first needed: lunr's own automaton can lose and invent terms
    (see vocabulary_token_set), and building it only to replace it was half
    the time a small site took to open."""
    inverted_index = dict(serialized["invertedIndex"])
    return Index(
        fields=serialized["fields"],
        field_vectors={ref: Vector(elements) for ref, elements in serialized["fieldVectors"]},
        inverted_index=inverted_index,
        token_set=_Budgeted(inverted_index),
        pipeline=Pipeline.load(serialized["pipeline"]),
    )


class LunrMatcher:
    def __init__(self, serialized: dict[str, Any], numbers: dict[str, int]):
        self.index = _loaded(serialized)
        self._related: dict[str, list[str]] = serialized.get(INDEX_RELATED, {})
        self.numbers = numbers  # ref -> record number
        self._sorted_terms: list[str] | None = None
        self.limited: tuple[str, ...] = ()  # clause terms whose expansions the last match cut to the budget

    def warm(self) -> None:
        """Build the vocabulary trie now, before a typo or a wildcard needs it."""
        self.index.token_set.vocabulary  # noqa: B018 - the property builds and keeps it

    def summary(self, clause: Clause) -> None:
        """None: a small site's words are scored in a few ms (the build summarises only a sharded site's)."""
        return None

    def known_fields(self, clause: Clause, number: int) -> None:
        return None  # the index is in memory: members() answers at once

    def related(self, term: str) -> tuple[str, ...]:
        """The term's related index terms (the build's related words)."""
        return tuple(self._related.get(term, ()))

    def frequency(self, term: str) -> int:
        """How many records hold the term in its commonest field (0: not in the index)."""
        entry = self.index.inverted_index.get(term)
        return max((len(refs) for field, refs in entry.items() if field != "_index"), default=0) if entry else 0

    def expand(self, clause: Clause) -> list[str]:
        """The index terms a clause reaches, as lunr expands them (over a correct automaton)."""
        return expand(
            clause, self.index.inverted_index.__contains__, self._vocabulary, lambda: self.index.token_set.vocabulary
        )

    def has_term(self, term: str) -> bool:
        """Whether the index holds the term (a word with no `*`): `expand` of its exact clause is not empty."""
        return term in self.index.inverted_index

    def has_prefix(self, prefix: str) -> bool:
        """Whether an index term begins with `prefix` (no `*`): `expand` of its wildcard clause is not empty."""
        return begins_any(self._vocabulary(), prefix)

    def _vocabulary(self) -> list[str]:
        if self._sorted_terms is None:
            self._sorted_terms = sorted(self.index.inverted_index)
        return self._sorted_terms

    def members(self, clause: Clause, fields: list[str]) -> dict[str, dict[str, list[int]]]:
        """For each index term the clause reaches: per field, its records (sorted numbers)."""
        found: dict[str, dict[str, list[int]]] = {}
        for term in budgeted(self.expand(clause), clause):
            entry = self.index.inverted_index[term]
            found[term] = {
                field: sorted(map(self.numbers.__getitem__, entry[field])) for field in fields if entry.get(field)
            }
        return found

    def postings(self, clauses: list[Clause], budget: Budget) -> list[int]:
        """Postings each clause reaches (the whole index is loaded: nothing to read)."""
        counts = []
        for clause in clauses:
            fields = (self.index.inverted_index[term] for term in budgeted(self.expand(clause), clause))
            counts.append(
                sum(len(postings) for field in fields for name, postings in field.items() if name != "_index")
            )
        return counts

    def match(self, clauses: list[Clause]) -> dict[int, float]:
        # lunr intersects the vocabulary once per clause, in clause order.
        self.index.token_set.clauses, self.index.token_set.cut = list(clauses), []
        raw = self.index.query(to_lunr_query(self.index.create_query(), clauses))
        self.limited = tuple(self.index.token_set.cut)
        return {self.numbers[item["ref"]]: item["score"] for item in raw}


class _Budgeted:
    """The vocabulary automaton with the expansion budget (terms.budgeted)
    applied to what lunr's query reads from each intersection.

    An exact term reaches itself if the index holds it, so the trie is built
    only for the first typo or wildcard (or when search is idle): most first
    queries never need it."""

    def __init__(self, inverted_index: dict[str, Any]):
        self._inverted_index = inverted_index
        self._vocabulary: TokenSet | None = None
        self.clauses: list[Clause] = []
        self.cut: list[str] = []

    @property
    def vocabulary(self) -> TokenSet:
        if self._vocabulary is None:
            self._vocabulary = vocabulary_token_set(list(self._inverted_index))
        return self._vocabulary

    def intersect(self, other: TokenSet) -> _Expansions:
        clause = self.clauses.pop(0) if self.clauses else None
        if clause is not None and not clause.wildcard and "*" not in clause.term:
            if not clause.edit_distance:
                return _Expansions([clause.term] if clause.term in self._inverted_index else [])
            reached = typo_expansion(self.vocabulary, clause.term, clause.edit_distance)  # what `other` accepts
        else:
            reached = intersection(self.vocabulary, other)
        kept = budgeted(reached, clause) if clause else reached
        if len(kept) < len(reached):
            self.cut.append(clause.term)
        return _Expansions(kept)


class _Expansions:
    __slots__ = ("terms",)

    def __init__(self, terms: list[str]):
        self.terms = terms

    def to_list(self) -> list[str]:
        return self.terms


class ListStore:
    def __init__(self, records: list[dict[str, Any]]):
        self.records = records
        self.numbers = {record["id"]: number for number, record in enumerate(records)}
        self._identifiers: dict[str, list[int]] | None = None
        self._newest: dict[int, int] | None = None

    def later_reads(self) -> list[LaterRead]:
        return []  # every record is loaded

    def require(self, numbers: list[int]) -> None:
        """Nothing to do: every record is loaded."""

    def rows_missing(self, numbers: list[int], after: list[int] | None = None) -> list[str]:
        """None: every row is at hand."""
        return []

    def series_at_hand(self) -> None:
        """None: every row is at hand, so no window's rows need foretelling."""
        return None

    def newest_at_hand(self) -> None:
        """None: every row is at hand, so no newest edition's row needs foretelling."""
        return None

    def row(self, number: int) -> dict[str, Any]:
        return self.records[number]

    def newest_edition(self, number: int) -> int | None:
        """Its series' newest edition, if the record is an older one (worked out on first use,
        by the rule the build writes into the sharded layout's rows)."""
        if self._newest is None:
            self._newest = newest_editions(self.records)
        return self._newest.get(number)

    def find(self, record_id: str) -> dict[str, Any] | None:
        number = self.numbers.get(record_id)
        return None if number is None else self.records[number]

    def identified(self, key: str) -> list[int]:
        """The records an identifier key names (ranking.identifier_keys), worked out on first use."""
        if self._identifiers is None:
            self._identifiers = {}
            for number, record in enumerate(self.records):
                for found in identifier_keys(record):
                    self._identifiers.setdefault(found, []).append(number)
        return self._identifiers.get(key, [])
