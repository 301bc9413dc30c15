"""The directory of a sharded site: the pages listing each kind's shards
(key pages by key range, hash pages by record number), and the shards read,
kept parsed up to CACHE_BYTES."""

from __future__ import annotations

import bisect
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from functools import partial
from typing import Any

from ..data_reader import SiteUnavailable, parse, read_verified_bytes
from ..format import column_length, keys, listed_shard_path, page_folder
from ..loaders import LaterRead, Loader, gather

# Shards kept parsed, by the size of their JSON: a long session must not grow
# without bound (the worker's WebAssembly memory never shrinks). A query
# needs a few MB at most; the whole full-estate index is about 85 MB.
CACHE_BYTES = 24 * 1024 * 1024
KNOWN_ROWS = 4096  # rows kept from postings (a query's words bring 20 each) and pools files (a few hundred each)
CARRIED_KEPT = 4096  # related words' postings kept from the postings carrying them (a few per word)
ROW_FILES_KEPT = 16  # summaries' pools files on offer (each names a few hundred records)
# A pools file weighs about ten row shards (32 KB gzipped against 3 at 300,000
# records): it is downloaded when it saves this many row shards or more.
POOLS_FROM = 4


class ShardDirectory:
    """The directory file's view of the shards, with a cache of those read
    (least recently used shards leave first).

    The directory lists pages, not shards (govsearch.format: key pages, hash
    pages): a page is read the first time a query needs a shard it lists.
    """

    def __init__(self, loader: Loader, directory: Mapping[str, Any], cache_bytes: int = CACHE_BYTES):
        self.loader = loader
        self.directory = directory
        self.postings = KeyPages(self, keys.POSTINGS, directory[keys.POSTINGS])
        self.ids = KeyPages(self, keys.IDS, directory[keys.IDS])
        self.identifiers = KeyPages(self, keys.IDENTIFIERS, directory[keys.IDENTIFIERS])
        self.listed = {kind: HashPages(self, kind, directory[kind]) for kind in (keys.RECORDS, keys.ROWS)}
        self.ahead = [  # the files of rows read ahead (hold_rows)
            {keys.PATH: listed_shard_path(keys.AHEAD, number, sha256), keys.SHA256: sha256}
            for number, sha256 in enumerate(directory[keys.ROWS][keys.AHEAD])
        ]
        self.cache_bytes = cache_bytes
        self.cached_bytes = 0
        self._cache: OrderedDict[str, tuple[Any, int]] = OrderedDict()
        self._known_rows: OrderedDict[int, list[Any]] = OrderedDict()
        self._held_rows: dict[int, list[Any]] = {}  # read ahead (the store's AHEAD files), kept for good
        self._held_files: set[str] = set()
        self._carried: OrderedDict[str, Mapping[str, Any]] = OrderedDict()
        self._row_files: OrderedDict[str, tuple[Mapping[str, Any], frozenset[int]]] = OrderedDict()

    def offer_rows(self, entry: Mapping[str, Any], numbers: Iterable[int]) -> None:
        """A file holding these records' rows (a summary's pools file), read
        only if a result needs one of them: one download instead of a row
        shard per result."""
        self._row_files[entry[keys.PATH]] = (entry, frozenset(numbers))
        self._row_files.move_to_end(entry[keys.PATH])
        while len(self._row_files) > ROW_FILES_KEPT:
            self._row_files.popitem(last=False)

    def offered(self, entry: Mapping[str, Any]) -> frozenset[int]:
        """The records whose rows a file on offer holds."""
        return self._row_files[entry[keys.PATH]][1]

    def row_files(self, numbers: Iterable[int]) -> tuple[list[Mapping[str, Any]], set[int]]:
        """The files on offer worth reading for these records' rows (each
        saving POOLS_FROM row shards or more), and the records they hold."""
        per_shard = self.directory[keys.ROWS][keys.PER_SHARD]
        wanted, files, held = set(numbers), [], set()
        for entry, offered in self._row_files.values():
            theirs = (wanted & offered) - held
            if len({number // per_shard for number in theirs}) >= POOLS_FROM:
                files.append(entry)
                held |= theirs
        return files, held

    def remember_rows(self, rows: list[list[Any]]) -> None:
        """Rows a common word's postings carry ([number, *row]): its best results,
        shown without downloading their row shards."""
        for number, *values in rows:
            self._known_rows[number] = values
            self._known_rows.move_to_end(number)
        while len(self._known_rows) > KNOWN_ROWS:
            self._known_rows.popitem(last=False)

    def hold_rows(self, entry: Mapping[str, Any]) -> None:
        """Read a file of rows ([number, *row]) and keep them while the page
        lives: unlike the rows postings carry, no later read pushes them out
        (and, kept as rows, they are not kept as a file too)."""
        path = entry[keys.PATH]
        rows = parse(read_verified_bytes(self.loader, entry, keys.ROWS), path)[keys.ROWS]
        self._held_rows.update((number, values) for number, *values in rows)
        self._held_files.add(path)

    def holds(self, entry: Mapping[str, Any]) -> bool:
        return entry[keys.PATH] in self._held_files

    def known_row(self, number: int) -> list[Any] | None:
        held = self._held_rows.get(number)
        return held if held is not None else self._known_rows.get(number)

    def read(self, entry: Mapping[str, Any], role: str) -> Any:
        path = entry[keys.PATH]
        if path in self._cache:
            self._cache.move_to_end(path)
            return self._cache[path][0]
        data = read_verified_bytes(self.loader, entry, role)
        value = parse(data, path)
        if role == keys.POSTINGS and keys.TERMS in value:
            self._carry(value[keys.TERMS].values())
        self._cache[path] = (value, len(data))
        self.cached_bytes += len(data)
        while self.cached_bytes > self.cache_bytes and len(self._cache) > 1:
            self.cached_bytes -= self._cache.popitem(last=False)[1][1]
        return value

    def require(self, entries: list[Mapping[str, Any]], role: str) -> None:
        """Read every entry not read yet; a deferring loader names all that are missing at once."""
        gather(
            *(lambda entry=entry: self.read(entry, role) for entry in entries if entry[keys.PATH] not in self._cache)
        )

    def every_entry(self) -> Iterator[Mapping[str, Any]]:
        """Every shard's entry (reading every page, each checked): to check a whole site, not for queries."""
        yield self.directory[keys.VOCABULARY]
        yield self.directory[keys.SERIES]
        for pages in (self.postings, self.ids, self.identifiers):
            yield from pages
        for listed in self.listed.values():
            yield from listed.entries(list(range(listed.count)))
        yield from self.ahead
        for entry in self.postings:  # summary files by the pages, pools files by the summaries that offer them
            yield from entry.get(keys.POSTING_SUMMARY_FILES, {}).values()
            for posting in self.read(entry, keys.POSTINGS)[keys.TERMS].values():
                rows_file = posting.get(keys.POSTING_SUMMARY, {}).get(keys.SUMMARY_ROWS)
                if rows_file is not None:
                    yield rows_file

    def later_reads(self) -> list[LaterRead]:
        """The pages locating postings, row and identifier shards not read yet:
        with them at hand a query's shards are one round away, not two (a query
        naming a body or an identifier looks it up in an identifier shard)."""
        return self.postings.later_reads() + self.listed[keys.ROWS].later_reads() + self.identifiers.later_reads()

    def posting_entry(self, term: str) -> Mapping[str, Any] | None:
        return self.postings.entry(term)

    def posting_entries(self, terms: list[str]) -> list[Mapping[str, Any]]:
        """The postings shards holding these terms (their pages read in one round)."""
        return self.postings.entries(terms)

    def listed_entry(self, kind: str, index: int) -> Mapping[str, Any]:
        """Shard `index` of the record or row store: listed by sha256 alone, its path follows."""
        return self.listed[kind].entries([index])[0]

    def posting(self, term: str) -> Mapping[str, Any] | None:
        """The term's postings, or None when the index does not hold the term."""
        entry = self.postings.entry(term)
        return None if entry is None else self.read(entry, keys.POSTINGS)[keys.TERMS].get(term)

    def _carry(self, postings: Iterable[Mapping[str, Any]]) -> None:
        """Keep the related words' postings these postings carry (POSTING_RELATED_POSTINGS)."""
        for posting in postings:
            for term, carried in posting.get(keys.POSTING_RELATED_POSTINGS, {}).items():
                self._carried[term] = carried
                self._carried.move_to_end(term)
        while len(self._carried) > CARRIED_KEPT:
            self._carried.popitem(last=False)

    def carried(self, term: str) -> bool:
        """Whether a posting read already carries the term's columns: a related
        word's search then needs no download of its own shard."""
        return keys.POSTING_FIELDS in self._carried.get(term, {})

    def counted(self, term: str) -> bool:
        """Whether a posting read already says how many postings the term has."""
        return term in self._carried

    def columns(self, term: str) -> Mapping[str, Any] | None:
        """The term's term index and columns: from its shard when that is at
        hand, else as a posting read already carries them (the same values),
        else from its shard, read now. None when the index lacks the term."""
        entry = self.postings.entry(term)
        if entry is None:
            return None
        if entry[keys.PATH] not in self._cache and self.carried(term):
            return self._carried[term]
        return self.read(entry, keys.POSTINGS)[keys.TERMS].get(term)

    def count(self, term: str) -> int:
        """How many postings the term has (over every field): carried, or from its columns."""
        carried = self._carried.get(term)
        if carried is not None and keys.POSTING_COUNT in carried:
            return carried[keys.POSTING_COUNT]
        posting = self.columns(term)
        return sum(map(column_length, posting[keys.POSTING_FIELDS].values())) if posting else 0

    def summary_file(self, term: str) -> Mapping[str, Any] | None:
        """A summarised word's summary file (govsearch.format: its posting without
        the columns), unless its shard is read already: then None, and the
        shard's posting serves, as it does for every other word."""
        entry = self.postings.entry(term)
        if entry is None or entry[keys.PATH] in self._cache:
            return None
        return entry.get(keys.POSTING_SUMMARY_FILES, {}).get(term)


class _Pages:
    """Pages listing a kind's shards, each read (and checked) once, then kept
    with its shards' entries: small, and asked for by every query."""

    def __init__(self, shards: ShardDirectory, kind: str, listing: Mapping[str, Any]):
        self.shards, self.kind = shards, kind
        self.per_page, self.hashes = listing[keys.PER_PAGE], listing[keys.PAGES]
        self._pages: dict[int, tuple[Any, list[dict[str, Any]]]] = {}

    def later_reads(self) -> list[LaterRead]:
        return [
            (self._page_entry(page)[keys.PATH], partial(self._read_pages, {page}))
            for page in range(len(self.hashes))
            if page not in self._pages
        ]

    def _page_entry(self, page: int) -> dict[str, str]:
        return {
            keys.PATH: listed_shard_path(page_folder(self.kind), page, self.hashes[page]),
            keys.SHA256: self.hashes[page],
        }

    def _page(self, page: int) -> tuple[Any, list[dict[str, Any]]]:
        """The page's listing and its shards' entries."""
        kept = self._pages.get(page)
        if kept is None:
            entry = self._page_entry(page)
            listing = parse(read_verified_bytes(self.shards.loader, entry, "directory"), entry[keys.PATH])
            kept = self._pages[page] = (listing, self._entries(page, listing))
        return kept

    def _entries(self, page: int, listing: Any) -> list[dict[str, Any]]:
        first = page * self.per_page
        return [
            {keys.PATH: listed_shard_path(self.kind, first + position, sha256), keys.SHA256: sha256}
            for position, sha256 in enumerate(listing[keys.SHA256])
        ]

    def _read_pages(self, pages: set[int]) -> None:
        """Read every page not read yet; a deferring loader names all that are missing at once."""
        gather(*(lambda page=page: self._page(page) for page in sorted(pages) if page not in self._pages))


class KeyPages(_Pages):
    """A kind's key-range shards (postings, ids, identifiers), listed in pages:
    the directory holds each page's first key and hash, a page each of its
    shards' first key, hash and size."""

    def __init__(self, shards: ShardDirectory, kind: str, listing: Mapping[str, Any]):
        super().__init__(shards, kind, listing)
        self.firsts = listing[keys.FIRST]

    def _entries(self, page: int, listing: Any) -> list[dict[str, Any]]:
        if not listing[keys.FIRST] or listing[keys.FIRST][0] != self.firsts[page]:
            raise SiteUnavailable(f"{self.kind} page {page} does not start with the directory's key")
        entries = super()._entries(page, listing)
        for entry, size, work in zip(entries, listing[keys.SIZE], listing.get(keys.WORK, listing[keys.SIZE])):
            entry[keys.SIZE], entry[keys.WORK] = size, work
        for entry, files in zip(entries, listing.get(keys.POSTING_SUMMARY_FILES, ())):
            entry[keys.POSTING_SUMMARY_FILES] = files
        return entries

    def entries(self, wanted: list[str]) -> list[Mapping[str, Any]]:
        """The shards holding these keys (none for a key before the first); every page needed read in one round."""
        self._read_pages({bisect.bisect_right(self.firsts, key) - 1 for key in wanted} - {-1})
        found = {entry[keys.PATH]: entry for entry in map(self.entry, wanted) if entry is not None}
        return list(found.values())

    def entry(self, key: str) -> Mapping[str, Any] | None:
        page = bisect.bisect_right(self.firsts, key) - 1
        if page < 0:
            return None
        listing, entries = self._page(page)
        return entries[bisect.bisect_right(listing[keys.FIRST], key) - 1]

    def __iter__(self) -> Iterator[Mapping[str, Any]]:
        """Every shard's entry, page by page (reads every page: for checks, not queries)."""
        for page in range(len(self.firsts)):
            yield from self._page(page)[1]

    def shard(self, key: str, role: str) -> Any | None:
        entry = self.entry(key)
        return None if entry is None else self.shards.read(entry, role)


class HashPages(_Pages):
    """Record or row shards, listed by sha256 alone in pages (their paths follow from number and hash)."""

    def __init__(self, shards: ShardDirectory, kind: str, listing: Mapping[str, Any]):
        super().__init__(shards, kind, listing)
        self.count = listing[keys.SHARD_COUNT]

    def entries(self, indexes: list[int]) -> list[Mapping[str, Any]]:
        """The shards' entries; every page needed read in one round."""
        for index in indexes:
            if not 0 <= index < self.count:
                raise SiteUnavailable(f"{self.kind} shard {index} is not in the directory")
        self._read_pages({index // self.per_page for index in indexes})
        return [self._page(index // self.per_page)[1][index % self.per_page] for index in indexes]
