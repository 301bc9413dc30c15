"""The single-file layout: one lunr index and one record store, loaded whole.

Right for small sites: one request each, and lunr.js can load the same
index file.
"""

from __future__ import annotations

from typing import Any

from lunr.index import Index

from .terms import Clause, to_lunr_query, vocabulary_token_set


class LunrMatcher:
    def __init__(self, serialized: dict[str, Any], numbers: dict[str, int]):
        self.index = Index.load(serialized)
        # lunr's own vocabulary automaton can lose and invent terms (see vocabulary_token_set).
        self.index.token_set = vocabulary_token_set(list(self.index.inverted_index))
        self.numbers = numbers  # ref -> record number

    def warm(self) -> None:
        """Nothing to do: the whole index was loaded up front."""

    def match(self, clauses: list[Clause]) -> dict[int, float]:
        raw = self.index.query(to_lunr_query(self.index.create_query(), clauses))
        return {self.numbers[item["ref"]]: item["score"] for item in raw}


class ListStore:
    def __init__(self, records: list[dict[str, Any]]):
        self.records = records
        self.numbers = {record["id"]: number for number, record in enumerate(records)}

    def require(self, numbers: list[int]) -> None:
        """Nothing to do: every record is loaded."""

    def row(self, number: int) -> dict[str, Any]:
        return self.records[number]

    def find(self, record_id: str) -> dict[str, Any] | None:
        number = self.numbers.get(record_id)
        return None if number is None else self.records[number]
