"""Rows and records of a sharded site, read from their shards (or from
the rows postings and pools files carry)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from itertools import accumulate
from typing import Any

from ..format import keys
from ..loaders import LaterRead, MissingFiles
from .directory import ShardDirectory


class ShardedStore:
    """Rows (what a result shows) for search results; full records for lookups by id."""

    def __init__(self, shards: ShardDirectory):
        self.shards = shards
        self.row_fields = list(shards.directory[keys.ROWS][keys.DIRECTORY_FIELDS])
        self.per_row_shard = shards.directory[keys.ROWS][keys.PER_SHARD]
        self.per_record_shard = shards.directory[keys.RECORDS][keys.PER_SHARD]
        self._series: dict[int, int] | None = None  # record number -> its series, once read
        self._newest: dict[int, int] | None = None  # an older dated edition -> its series' newest, once read

    def later_reads(self) -> list[LaterRead]:
        """Data files most later searches need, not read yet: the pages
        locating postings and row shards, the series table, and the rows of
        the records our authors wrote (about half of the answers' places)."""
        table = [] if self._series is not None else [(self.shards.directory[keys.SERIES][keys.PATH], self.series)]
        ahead = [
            (entry[keys.PATH], partial(self.shards.hold_rows, entry))
            for entry in self.shards.ahead
            if not self.shards.holds(entry)
        ]
        return self.shards.later_reads() + table + ahead

    def series(self) -> Mapping[int, int]:
        """Each record of a series of two or more records: its series (a number shared by the series)."""
        if self._series is None:
            table = self.shards.read(self.shards.directory[keys.SERIES], keys.SERIES)
            groups = table[keys.SERIES]
            older, newest = table.get(keys.SERIES_NEWEST, ([], []))
            self._newest = dict(zip(accumulate(older), newest))
            self._series = {number: group for group, gaps in enumerate(groups) for number in accumulate(gaps)}
        return self._series

    def series_at_hand(self) -> Mapping[int, int] | None:
        """`series`, if read already (while idle), else None."""
        return self._series

    def newest_at_hand(self) -> Mapping[int, int] | None:
        """Each older dated edition's newest edition (what its row says), if the series table is read."""
        return self._newest

    def rows_missing(self, numbers: list[int], after: list[int] | None = None) -> list[str]:
        """The files these records' rows still need once `after`'s are read
        (records a pools file for `after` brings left out): a deferring
        loader's names, those at hand read."""
        files, _ = self.shards.row_files(self._unknown(after or []))
        coming = set().union(*(self.shards.offered(entry) for entry in files))
        try:
            self.require([number for number in numbers if number not in coming])
        except MissingFiles as missing:
            return missing.names
        return []

    def _unknown(self, numbers: list[int]) -> list[int]:
        return [number for number in numbers if self.shards.known_row(number) is None]

    def require(self, numbers: list[int]) -> None:
        """Download the rows these results show, in one round: a pools file for
        those a summary's file holds (when that saves enough row shards), a
        row shard for each of the others."""
        unknown = self._unknown(numbers)
        files, held = self.shards.row_files(unknown)
        indexes = sorted({number // self.per_row_shard for number in unknown if number not in held})
        self.shards.require([*files, *self.shards.listed[keys.ROWS].entries(indexes)], keys.ROWS)
        for entry in files:
            self.shards.remember_rows(self.shards.read(entry, keys.ROWS)[keys.ROWS])

    def newest_edition(self, number: int) -> int | None:
        """Its series' newest edition, if the record is an older one: its row says (keys.ROW_NEWEST)."""
        return self.row(number).get(keys.ROW_NEWEST)

    def row(self, number: int) -> dict[str, Any]:
        values = self.shards.known_row(number)
        if values is None:
            index, offset = divmod(number, self.per_row_shard)
            values = self.shards.read(self.shards.listed_entry(keys.ROWS, index), keys.ROWS)[keys.ROWS][offset]
        return {field: value for field, value in zip(self.row_fields, values) if value is not None}

    def identified(self, key: str) -> list[int]:
        """The records an identifier key names (ranking.identifier_keys)."""
        shard = self.shards.identifiers.shard(key, keys.IDENTIFIERS)
        return [] if shard is None else list(shard[keys.IDS].get(key, []))

    def find(self, record_id: str) -> dict[str, Any] | None:
        shard = self.shards.ids.shard(record_id, keys.IDS)
        number = None if shard is None else shard[keys.IDS].get(record_id)
        if number is None:
            return None
        index, offset = divmod(number, self.per_record_shard)
        return self.shards.read(self.shards.listed_entry(keys.RECORDS, index), keys.RECORDS)[keys.RECORDS][offset]
