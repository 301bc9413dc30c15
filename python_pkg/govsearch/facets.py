"""Every record's filter values and ranking flags, read as queries need them.

A *profile* is one distinct combination of the four filter values and the
record's ranking flags (a few thousand at most, however many records). The
facets file (govsearch.format: facets) lists every profile and how many records
have it; each record's profile code comes inline (single layout) or in chunks
by record number (sharded layout), each chunk read the first time a query
matches one of its records. So opening a site reads what grows with the
profiles, not with the records, and a query reads the chunks its matches
fall in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping
from functools import partial
from typing import Any

from .data_reader import SiteUnavailable, read_verified
from .format import decode_codes, decode_profile_codes, keys, listed_shard_path
from .loaders import LaterRead, Loader, gather

# Tool filter property -> record field it filters on.
DIMENSIONS = {
    "resourceTypes": "resourceType",
    "accessStatuses": "accessStatus",
    "collections": "collection",
    "publishers": "publisher",
}


class FacetTable:
    """Filters and facet counts work on profiles (`profiles`: each record's
    profile id, and each profile's values in DIMENSIONS order, each a tuple):
    a query's matches are read once whatever the filters.

    A value may be a list: a record of one resource that belongs to several
    collections has the list of them as its one value, and passes a filter
    naming any of them. `require` makes records' profiles readable (a
    deferring loader raises MissingFiles naming every chunk still needed);
    whoever reads `profiles[0]` or the flags of a record requires it first.
    """

    def __init__(self, data: Mapping[str, Any], loader: Loader | None = None):
        columns, profiles, records = data[keys.COLUMNS], data[keys.PROFILES], data[keys.RECORDS]
        fields = list(DIMENSIONS.values())
        # every value as a tuple of the values it stands for (one, or a record's several)
        self.names = {
            field: [tuple(value) if isinstance(value, list) else (value,) for value in columns[field][keys.VALUES]]
            for field in fields
        }
        # Each profile's values in DIMENSIONS order; zip and map over whole
        # columns, not a generator per profile (this runs at every start).
        columns_of_values = [
            map(self.names[field].__getitem__, decode_codes(profiles[keys.CODES][field], profiles[keys.WIDTHS][field]))
            for field in fields
        ]
        self.profile_values = list(zip(*columns_of_values))
        self.profile_flags = decode_codes(profiles[keys.FLAGS], 1)
        self.profile_records = [int(count) for count in profiles[keys.RECORDS]]
        self.count = int(records[keys.COUNT])
        self.code_shape = int(records[keys.ONE]), int(records[keys.WIDTH])
        self.inline = records.get(keys.CODES)
        self.per_chunk = max(1, int(records.get(keys.PER_CHUNK, self.count)))
        # Chunks come through the loader, each vouched for by its sha256 here.
        self.chunk_hashes: list[str] | None = records.get(keys.SHA256) if loader is not None else None
        self.loader = loader
        # Unread records have no profile (None): using one before `require` fails loudly.
        self.of_record: list[Any] = [None] * self.count
        self.listeners: list[Callable[[int, list[int]], None]] = []  # (first record, flag masks) per chunk read
        self._unread = set(range((self.count + self.per_chunk - 1) // self.per_chunk))
        self._values: dict[str, list[str]] = {}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], loader: Loader | None = None) -> FacetTable:
        missing = set(DIMENSIONS.values()) - set(data.get(keys.COLUMNS, {}))
        if missing:
            raise ValueError(f"the facet table lacks {', '.join(sorted(missing))}")
        return cls(data, loader)

    @property
    def profiles(self) -> tuple[list[Any], list[tuple[tuple[str, ...], ...]]]:
        """Each record's profile id (None until required), and each profile's values."""
        return self.of_record, self.profile_values

    def require(self, numbers: Iterable[int]) -> None:
        """Read the profiles of these records, every missing chunk in one round."""
        if not self._unread:
            return
        per_chunk = self.per_chunk
        wanted = sorted({number // per_chunk for number in numbers} & self._unread)
        gather(*(lambda index=index: self._read(index) for index in wanted))

    def later_reads(self) -> list[LaterRead]:
        """The profile chunks not read yet (none when the codes are inline)."""
        if not self.chunk_hashes:
            return []
        per_chunk = self.per_chunk
        return [
            (self._chunk_entry(index)[keys.PATH], partial(self.require, [index * per_chunk]))
            for index in sorted(self._unread)
        ]

    def _chunk_entry(self, index: int) -> dict[str, str]:
        hashes = self.chunk_hashes or []
        if not 0 <= index < len(hashes):
            raise SiteUnavailable(f"facet chunk {index} is not listed")
        return {keys.PATH: listed_shard_path(keys.PROFILE_CHUNKS, index, hashes[index]), keys.SHA256: hashes[index]}

    def _read(self, index: int) -> None:
        start = index * self.per_chunk
        if self.inline is not None:
            text, start, self._unread = self.inline, 0, set()
        else:
            text = read_verified(self.loader, self._chunk_entry(index), "facets")[keys.CODES]
        try:
            codes = decode_profile_codes(text, min(self.per_chunk, self.count - start), *self.code_shape)
        except ValueError as error:
            raise SiteUnavailable(f"facet chunk {index}: {error}") from None
        self.of_record[start : start + len(codes)] = codes
        self._unread.discard(index)
        flags = list(map(self.profile_flags.__getitem__, codes))
        for listener in self.listeners:
            listener(start, flags)

    def tally(self, numbers: Collection[int]) -> Counter[int]:
        """How many of the records have each profile."""
        self.require(numbers)
        profile_of = self.of_record
        return Counter([profile_of[number] for number in numbers])

    def publishers(self, numbers: Iterable[int]) -> dict[int, tuple[str, ...]]:
        """Each of the records' publishers (one, or a merged record's several), their profiles read first."""
        numbers = set(numbers)
        self.require(numbers)
        field = list(DIMENSIONS.values()).index("publisher")
        return {number: self.profile_values[self.of_record[number]][field] for number in numbers}

    def catalogue_tally(self) -> Counter[int]:
        """Every record's profile, counted at build time: no chunk is read."""
        return Counter({profile: count for profile, count in enumerate(self.profile_records) if count})

    def values(self, field: str) -> list[str]:
        """Every distinct value of the field, sorted; one list per table, so
        indexes built over it (publisher suggestions) are built once."""
        kept = self._values.get(field)
        if kept is None:
            kept = self._values[field] = sorted({member for value in self.names[field] for member in value})
        return kept
