"""The sharded layout: fetch only what a query needs.

A single lunr index does not scale (about 69 MB of JSON at 50,000 records).
Here the build splits what lunr's scoring reads into small files (their
format is defined in govsearch/data_format.py):

- the vocabulary, so wildcard and typo expansion use lunr's own TokenSet;
- postings shards keyed by term range: for each term, its lunr term index
  and, per field, the records holding it with the term's weight in that
  record's field vector (lunr's BM25 score, already boosted and rounded);
- row shards (what a search result shows) and record shards, by record
  number, and id shards for lookups by id.

`ShardedMatcher.match` repeats lunr 2.3.9's query algorithm over those
postings, so refs, order and scores equal lunr on the single-file index.
"""

from __future__ import annotations

import bisect
import math
from collections import Counter, OrderedDict
from collections.abc import Collection, Iterable, Iterator, Mapping
from functools import partial
from itertools import chain, compress
from typing import Any

from lunr.token_set import TokenSet

from .data_format import (
    POSTING_COUNT,
    POSTING_FIELDS,
    POSTING_ROWS,
    POSTING_SUMMARY,
    POSTING_SUMMARY_FILES,
    POSTING_TERM_INDEX,
    SUMMARY_BY_VALUE,
    SUMMARY_FIELDS,
    SUMMARY_GENERAL,
    SUMMARY_NUMBERS,
    SUMMARY_ROWS,
    SUMMARY_SCORES,
    SUMMARY_TALLY,
    column_length,
    decode_column,
    decode_vocabulary,
    listed_shard_path,
    page_folder,
)
from .data_reader import SiteUnavailable, parse, read_verified_bytes
from .engine import Summary, holds
from .loaders import LaterRead, Loader, gather
from .terms import MAX_SHARD_BYTES, Clause, budgeted, expand, vocabulary_token_set

# Shards kept parsed, by the size of their JSON: a long session must not grow
# without bound (the worker's WebAssembly memory never shrinks). A query
# needs a few MB at most; the whole full-estate index is about 85 MB.
CACHE_BYTES = 24 * 1024 * 1024
KNOWN_ROWS = 4096  # rows kept from postings (a query's words bring 20 each) and pools files (a few hundred each)
ROW_FILES_KEPT = 16  # summaries' pools files on offer (each names a few hundred records)
# A pools file weighs about ten row shards (32 KB gzipped against 3 at 300,000
# records): it is downloaded when it saves this many row shards or more.
POOLS_FROM = 4
UNREAD = 10**9  # what a clause whose shards the budget left unread is said to reach
DECODED_KEPT = 64  # (term, field) record lists kept decoded for the re-ranker's evidence


class ShardDirectory:
    """The directory file's view of the shards, with a cache of those read
    (least recently used shards leave first).

    The directory lists pages, not shards (data_format: key pages, hash
    pages): a page is read the first time a query needs a shard it lists.
    """

    def __init__(self, loader: Loader, directory: Mapping[str, Any], cache_bytes: int = CACHE_BYTES):
        self.loader = loader
        self.directory = directory
        self.postings = KeyPages(self, "postings", directory["postings"])
        self.ids = KeyPages(self, "ids", directory["ids"])
        self.identifiers = KeyPages(self, "identifiers", directory["identifiers"])
        self.listed = {kind: HashPages(self, kind, directory[kind]) for kind in ("records", "rows")}
        self.cache_bytes = cache_bytes
        self.cached_bytes = 0
        self._cache: OrderedDict[str, tuple[Any, int]] = OrderedDict()
        self._known_rows: OrderedDict[int, list[Any]] = OrderedDict()
        self._row_files: OrderedDict[str, tuple[Mapping[str, Any], frozenset[int]]] = OrderedDict()

    def offer_rows(self, entry: Mapping[str, Any], numbers: Iterable[int]) -> None:
        """A file holding these records' rows (a summary's pools file), read
        only if a result needs one of them: one download instead of a row
        shard per result."""
        self._row_files[entry["path"]] = (entry, frozenset(numbers))
        self._row_files.move_to_end(entry["path"])
        while len(self._row_files) > ROW_FILES_KEPT:
            self._row_files.popitem(last=False)

    def row_files(self, numbers: Iterable[int]) -> tuple[list[Mapping[str, Any]], set[int]]:
        """The files on offer worth reading for these records' rows (each
        saving POOLS_FROM row shards or more), and the records they hold."""
        per_shard = self.directory["rows"]["perShard"]
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

    def known_row(self, number: int) -> list[Any] | None:
        return self._known_rows.get(number)

    def read(self, entry: Mapping[str, Any], role: str) -> Any:
        path = entry["path"]
        if path in self._cache:
            self._cache.move_to_end(path)
            return self._cache[path][0]
        data = read_verified_bytes(self.loader, entry, role)
        value = parse(data, path)
        self._cache[path] = (value, len(data))
        self.cached_bytes += len(data)
        while self.cached_bytes > self.cache_bytes and len(self._cache) > 1:
            self.cached_bytes -= self._cache.popitem(last=False)[1][1]
        return value

    def require(self, entries: list[Mapping[str, Any]], role: str) -> None:
        """Read every entry not read yet; a deferring loader names all that are missing at once."""
        gather(*(lambda entry=entry: self.read(entry, role) for entry in entries if entry["path"] not in self._cache))

    def every_entry(self) -> Iterator[Mapping[str, Any]]:
        """Every shard's entry (reading every page, each checked): to check a whole site, not for queries."""
        yield self.directory["vocabulary"]
        for pages in (self.postings, self.ids, self.identifiers):
            yield from pages
        for listed in self.listed.values():
            yield from listed.entries(list(range(listed.count)))
        for entry in self.postings:  # summary files by the pages, pools files by the summaries that offer them
            yield from entry.get(POSTING_SUMMARY_FILES, {}).values()
            for posting in self.read(entry, "postings")["terms"].values():
                rows_file = posting.get(POSTING_SUMMARY, {}).get(SUMMARY_ROWS)
                if rows_file is not None:
                    yield rows_file

    def later_reads(self) -> list[LaterRead]:
        """The pages locating postings and row shards not read yet: with them
        at hand a query's shards are one round away, not two."""
        return self.postings.later_reads() + self.listed["rows"].later_reads()

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
        return None if entry is None else self.read(entry, "postings")["terms"].get(term)

    def summary_file(self, term: str) -> Mapping[str, Any] | None:
        """A summarised word's summary file (data_format: its posting without
        the columns), unless its shard is read already: then None, and the
        shard's posting serves, as it does for every other word."""
        entry = self.postings.entry(term)
        if entry is None or entry["path"] in self._cache:
            return None
        return entry.get(POSTING_SUMMARY_FILES, {}).get(term)


class _Pages:
    """Pages listing a kind's shards, each read (and checked) once, then kept
    with its shards' entries: small, and asked for by every query."""

    def __init__(self, shards: ShardDirectory, kind: str, listing: Mapping[str, Any]):
        self.shards, self.kind = shards, kind
        self.per_page, self.hashes = listing["perPage"], listing["pages"]
        self._pages: dict[int, tuple[Any, list[dict[str, Any]]]] = {}

    def later_reads(self) -> list[LaterRead]:
        return [
            (self._page_entry(page)["path"], partial(self._read_pages, {page}))
            for page in range(len(self.hashes))
            if page not in self._pages
        ]

    def _page_entry(self, page: int) -> dict[str, str]:
        return {"path": listed_shard_path(page_folder(self.kind), page, self.hashes[page]), "sha256": self.hashes[page]}

    def _page(self, page: int) -> tuple[Any, list[dict[str, Any]]]:
        """The page's listing and its shards' entries."""
        kept = self._pages.get(page)
        if kept is None:
            entry = self._page_entry(page)
            listing = parse(read_verified_bytes(self.shards.loader, entry, "directory"), entry["path"])
            kept = self._pages[page] = (listing, self._entries(page, listing))
        return kept

    def _entries(self, page: int, listing: Any) -> list[dict[str, Any]]:
        first = page * self.per_page
        return [
            {"path": listed_shard_path(self.kind, first + position, sha256), "sha256": sha256}
            for position, sha256 in enumerate(listing["sha256"])
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
        self.firsts = listing["first"]

    def _entries(self, page: int, listing: Any) -> list[dict[str, Any]]:
        if not listing["first"] or listing["first"][0] != self.firsts[page]:
            raise SiteUnavailable(f"{self.kind} page {page} does not start with the directory's key")
        entries = super()._entries(page, listing)
        for entry, size, work in zip(entries, listing["size"], listing.get("work", listing["size"])):
            entry["size"], entry["work"] = size, work
        for entry, files in zip(entries, listing.get(POSTING_SUMMARY_FILES, ())):
            entry[POSTING_SUMMARY_FILES] = files
        return entries

    def entries(self, keys: list[str]) -> list[Mapping[str, Any]]:
        """The shards holding these keys (none for a key before the first); every page needed read in one round."""
        self._read_pages({bisect.bisect_right(self.firsts, key) - 1 for key in keys} - {-1})
        found = {entry["path"]: entry for entry in map(self.entry, keys) if entry is not None}
        return list(found.values())

    def entry(self, key: str) -> Mapping[str, Any] | None:
        page = bisect.bisect_right(self.firsts, key) - 1
        if page < 0:
            return None
        listing, entries = self._page(page)
        return entries[bisect.bisect_right(listing["first"], key) - 1]

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
        self.count = listing["shards"]

    def entries(self, indexes: list[int]) -> list[Mapping[str, Any]]:
        """The shards' entries; every page needed read in one round."""
        for index in indexes:
            if not 0 <= index < self.count:
                raise SiteUnavailable(f"{self.kind} shard {index} is not in the directory")
        self._read_pages({index // self.per_page for index in indexes})
        return [self._page(index // self.per_page)[1][index % self.per_page] for index in indexes]


class ShardedMatcher:
    def __init__(self, shards: ShardDirectory):
        self.shards = shards
        self.fields = list(shards.directory["fields"])
        self._terms: list[str] | None = None
        self._term_set: frozenset[str] = frozenset()
        self._token_set: TokenSet | None = None
        self._columns: OrderedDict[tuple[str, str], tuple[list[int], list[float]]] = OrderedDict()
        self._masks: OrderedDict[str, dict[int, int]] = OrderedDict()  # per summarised word: record -> fields mask
        self.limited: tuple[str, ...] = ()  # clause terms whose expansions the last match cut to the budget
        self._expanded: dict[Clause, list[str]] = {}

    @property
    def vocabulary(self) -> list[str]:
        """Every index term, sorted; read only when a query needs expansion."""
        if self._terms is None:
            terms = decode_vocabulary(self.shards.read(self.shards.directory["vocabulary"], "vocabulary")["terms"])
            self._terms, self._term_set = terms, frozenset(terms)
        return self._terms

    @property
    def token_set(self) -> TokenSet:
        """The vocabulary as a TokenSet (terms.vocabulary_token_set), for typo expansion."""
        if self._token_set is None:
            self._token_set = vocabulary_token_set(self.vocabulary)
        return self._token_set

    def frequency(self, term: str) -> int:
        """How many records hold the term in its commonest field (0: not in the index)."""
        posting = self.shards.posting(term) if self._known(term) else None
        return max(map(column_length, posting[POSTING_FIELDS].values()), default=0) if posting else 0

    def members(self, clause: Clause, fields: list[str]) -> dict[str, dict[str, list[int]]]:
        """For each index term the clause reaches: per field, its records (sorted numbers)."""
        found: dict[str, dict[str, list[int]]] = {}
        for term in budgeted(self.expand(clause), clause):
            posting = self.shards.posting(term)
            if posting is None:
                continue
            columns = posting[POSTING_FIELDS]
            found[term] = {field: self._column(term, field, columns[field])[0] for field in fields if field in columns}
        return found

    def _column(self, term: str, field: str, column: Any) -> tuple[list[int], list[float]]:
        """The term's records and weights in the field, decoded once for the next few calls."""
        key = (term, field)
        if key not in self._columns:
            self._columns[key] = decode_column(column)
            while len(self._columns) > DECODED_KEPT:
                self._columns.popitem(last=False)
        return self._columns[key]

    def summary(self, clause: Clause) -> Summary | None:
        """The build's summary of a common word's one-word search (data_format: POSTING_SUMMARY)."""
        if not self._exact(clause) or not self._known(clause.term):
            return None
        posting = self._summary_posting(clause.term)
        summary = posting.get(POSTING_SUMMARY) if posting else None
        if summary is None:
            return None
        self.shards.remember_rows(posting[POSTING_ROWS])  # what the results show, as matching would
        if SUMMARY_ROWS in summary:
            carried = {row[0] for row in posting[POSTING_ROWS]}
            self.shards.offer_rows(summary[SUMMARY_ROWS], set(summary[SUMMARY_NUMBERS]) - carried)
        tally = summary[SUMMARY_TALLY]
        by_value = summary[SUMMARY_BY_VALUE]
        return Summary(
            Counter(dict(zip(tally[::2], tally[1::2]))),
            list(zip(summary[SUMMARY_NUMBERS], summary[SUMMARY_SCORES], summary[SUMMARY_FIELDS])),
            self.fields,
            summary[SUMMARY_GENERAL],
            tuple(by_value["fields"]),
            by_value["best"],
        )

    def known_fields(self, clause: Clause, number: int) -> list[str] | None:
        """The fields holding the clause's word in the record, when the build's
        summary knows (one of a common word's best records): its columns then
        need no decoding. None when it does not."""
        if not self._exact(clause) or not self._known(clause.term):
            return None
        posting = self._summary_posting(clause.term)
        if not posting or POSTING_SUMMARY not in posting:
            return None
        masks = self._masks.get(clause.term)
        if masks is None:  # asked for each result: a dict, not a scan of a few hundred records each time
            summary = posting[POSTING_SUMMARY]
            masks = self._masks[clause.term] = dict(zip(summary[SUMMARY_NUMBERS], summary[SUMMARY_FIELDS]))
            while len(self._masks) > DECODED_KEPT:
                self._masks.popitem(last=False)
        mask = masks.get(number)
        return None if mask is None else [field for at, field in enumerate(self.fields) if mask >> at & 1]

    def _summary_posting(self, term: str) -> Mapping[str, Any] | None:
        """What a one-word search of the term reads: a common word's summary
        file (a fifth of its shard at the median, far less for the commonest
        words), else its shard's posting."""
        file = self.shards.summary_file(term)
        return self.shards.read(file, "postings") if file is not None else self.shards.posting(term)

    def warm(self) -> None:
        """Build the vocabulary's TokenSet now (~150 ms in Pyodide at full
        estate), before a typo needs it."""
        self.token_set  # noqa: B018 - the property builds and keeps it

    def expand(self, clause: Clause) -> list[str]:
        """The index terms a clause reaches, as lunr expands them (over a correct automaton).

        Kept for the next few calls: the work budget asks before matching."""
        if clause not in self._expanded:
            if len(self._expanded) >= 256:
                self._expanded.clear()
            self._expanded[clause] = expand(
                clause,
                lambda term: self._known(term) and self.shards.posting(term) is not None,
                lambda: self.vocabulary,
                lambda: self.token_set,
            )
        return self._expanded[clause]

    def _known(self, term: str) -> bool:
        """False only when the vocabulary is loaded and lacks the term: no shard to fetch."""
        return self._terms is None or term in self._term_set

    def _require_postings(self, terms: list[str]) -> None:
        terms = [term for term in terms if self._known(term)]
        self.shards.require(self.shards.posting_entries(terms), "postings")

    def _expansions(self, clauses: list[Clause]) -> tuple[list[list[str]], tuple[str, ...]]:
        """Each clause's index terms within the expansion budget (their
        postings read), and the clause terms the budget cut.

        Everything is asked for in two batches (exact terms, then
        expansions), so a deferring loader can fetch each in parallel."""
        self._require_postings(
            [c.term for c in clauses if not c.edit_distance and not c.wildcard and "*" not in c.term]
        )
        reached = [self.expand(clause) for clause in clauses]
        expansions = [budgeted(terms, clause) for terms, clause in zip(reached, clauses)]
        self._require_postings([term for terms in expansions for term in terms])
        return expansions, tuple(
            clause.term for clause, terms, kept in zip(clauses, reached, expansions) if len(kept) < len(terms)
        )

    def postings(self, clauses: list[Clause], byte_budget: int = MAX_SHARD_BYTES) -> tuple[list[int], int]:
        """Postings each clause reaches, and the shard bytes read to learn it.

        Reading a common word's shard is itself work (parsing 400 KB of
        JSON), so shards are read only up to `byte_budget`, smallest first,
        decided from the directory's sizes; a clause left unread counts as
        reaching more than any budget."""
        reached = [[c.term] if self._exact(c) else budgeted(self.expand(c), c) for c in clauses]
        self.shards.posting_entries([term for terms in reached for term in terms])  # their pages, in one round
        # Sizes from the directory, whatever is cached or loaded already: the
        # same call decides the same way in the CLI and in a long page session.
        needs = [self._shard_bytes(terms) for terms in reached]
        fits, spent = set(), 0
        for position in sorted(range(len(clauses)), key=needs.__getitem__):
            if spent + needs[position] <= byte_budget:
                fits.add(position)
                spent += needs[position]
        alone = len(clauses) == 1 and fits and self._exact(clauses[0])
        summary_file = self.shards.summary_file(clauses[0].term) if alone else None
        if summary_file is not None:
            # A common word alone: its search answers from the summary file, which says how many postings it holds.
            return [self.shards.read(summary_file, "postings")[POSTING_COUNT]], spent
        self._require_postings([term for position in sorted(fits) for term in reached[position]])
        counts = []
        for position, terms in enumerate(reached):
            found = (self.shards.posting(term) for term in terms if self._known(term)) if position in fits else ()
            counts.append(
                sum(
                    column_length(column) for posting in found if posting for column in posting[POSTING_FIELDS].values()
                )
                if position in fits
                else UNREAD + needs[position]
            )
        return counts, spent

    @staticmethod
    def _exact(clause: Clause) -> bool:
        return not clause.edit_distance and not clause.wildcard and "*" not in clause.term

    def _shard_bytes(self, terms: list[str]) -> int:
        # A shard's work (data_writer.BUDGETED_ROWS_FROM), not its download size.
        return sum(entry.get("work", 0) for entry in self.shards.posting_entries(terms))

    def match(self, clauses: list[Clause]) -> dict[int, float]:
        expansions, self.limited = self._expansions(clauses)
        gathered = self._gather(clauses, expansions)
        if gathered.terms == 1:
            # One index term: its query vector is 1 in every field (magnitude 1),
            # so a field's scores are the term's weights there, summed as they come.
            return _summed(
                [(posting.numbers, posting.weights) for postings in gathered.postings.values() for posting in postings]
            )
        per_field = [
            (field, _field_scores(gathered.query[field], postings))
            for field, postings in gathered.postings.items()
            if postings
        ]
        scores = _summed([(field_scores.keys(), field_scores.values()) for _, field_scores in per_field])
        _resum_out_of_order(scores, per_field, gathered.postings)
        return scores

    def _gather(self, clauses: list[Clause], expansions: list[list[str]]) -> _Gathered:
        """lunr's first pass: query vectors, and each field's postings of the records that can match."""
        gathered = _Gathered({field: {} for field in self.fields}, {field: [] for field in self.fields})
        seen: set[tuple[str, str]] = set()
        required: list[list[list[int]]] = []  # per required clause: the record numbers of each of its postings
        for clause, expanded in zip(clauses, expansions):
            clause_numbers: list[list[int]] = []
            for term in expanded:
                posting = self.shards.posting(term)
                if posting is None:
                    raise SiteUnavailable(f"the postings for a vocabulary term are missing ({term[:40]!r})")
                term_index = posting[POSTING_TERM_INDEX]
                gathered.terms += 1
                if POSTING_ROWS in posting:
                    self.shards.remember_rows(posting[POSTING_ROWS])
                for field in self.fields:
                    vector = gathered.query[field]
                    vector[term_index] = vector.get(term_index, 0) + 1
                    column = posting[POSTING_FIELDS].get(field)
                    if not column:
                        continue
                    numbers, weights = self._column(term, field, column)
                    clause_numbers.append(numbers)
                    if (term, field) not in seen:
                        seen.add((term, field))
                        gathered.postings[field].append(_Posting(len(seen), term_index, numbers, weights))
            if clause.presence == "required":
                required.append(clause_numbers)
        if required and not (len(required) == 1 == len(clauses)):
            # Only records every required clause matches can score (a lone
            # required clause already holds every record it scores).
            allowed = set.intersection(*sorted((set(chain.from_iterable(lists)) for lists in required), key=len))
            for field, postings in gathered.postings.items():
                gathered.postings[field] = [
                    kept for kept in (posting.restricted(allowed) for posting in postings) if kept.numbers
                ]
        return gathered


class _Posting:
    """One term's records in one field, with `rank`: when lunr first meets the pair."""

    __slots__ = ("rank", "term_index", "numbers", "weights")

    def __init__(self, rank: int, term_index: int, numbers: list[int], weights: list[float]):
        self.rank, self.term_index, self.numbers, self.weights = rank, term_index, numbers, weights

    def restricted(self, allowed: set[int]) -> _Posting:
        """The same posting with only the records in `allowed`."""
        keep = [number in allowed for number in self.numbers]
        return _Posting(
            self.rank, self.term_index, list(compress(self.numbers, keep)), list(compress(self.weights, keep))
        )

    def __contains__(self, number: int) -> bool:
        # A search (the numbers ascend), not a set of a common word's 100,000
        # records built for a few look-ups.
        return holds(self.numbers, number)


class _Gathered:
    __slots__ = ("query", "postings", "terms")

    def __init__(self, query: dict[str, dict[int, float]], postings: dict[str, list[_Posting]]):
        self.query = query  # field -> lunr's query vector (term index -> boost sum)
        self.postings = postings  # field -> postings in the order lunr meets them
        self.terms = 0  # index terms the query reached


def _field_scores(vector: dict[int, float], postings: list[_Posting]) -> dict[int, float]:
    """lunr's similarity in one field: query vector . field vector / |query vector|.

    The dot product adds term by term in term-index order, as lunr's does.
    """
    magnitude = math.sqrt(sum(value * value for _, value in sorted(vector.items())))
    ordered = sorted(postings, key=lambda posting: posting.term_index)
    dots = _summed([(posting.numbers, _boosted(vector[posting.term_index], posting.weights)) for posting in ordered])
    if magnitude == 1:  # x / 1.0 == x
        return dots
    if not magnitude:
        return dict.fromkeys(dots, 0)
    return {number: dot / magnitude for number, dot in dots.items()}


def _add_into(total: dict[int, float], numbers: Iterable[int], values: Iterable[float]) -> None:
    """Add each record's value to its total, in place (a record new to
    `total` gets its value as a float: 0.0 + v == v).

    In place: a common word's lists reach 100,000 records, and merging a new
    dict per list took twice as long. A plain loop, not map over bound
    methods: in Pyodide each bound-method call costs more than the loop's own
    bytecode (for 137,000 records 34 ms against 40; CPython 18 against 20)."""
    if not total:
        total.update(zip(numbers, map(float, values)))
        return
    get = total.get
    for number, value in zip(numbers, values):
        total[number] = get(number, 0.0) + value


def _boosted(boost: float, weights: list[float]) -> list[float]:
    """A term's weights times its value in the query vector."""
    return weights if boost == 1 else [boost * weight for weight in weights]


def _summed(parts: list[tuple[Collection[int], Iterable[float]]]) -> dict[int, float]:
    """Each record's values from these (records, values) lists, added in list
    order: a field's terms in term-index order, a record's fields in field order.

    The longest list is taken whole (one C call) rather than added record by
    record: the lists before it are summed on their own, then it is added to
    that sum (a + b == b + a), then the lists after it in turn, so each
    record's sum is still added in list order. For `plan` at 300,000 records
    that adds 48,000 scores one by one instead of 145,000."""
    if not parts:
        return {}
    longest = max(range(len(parts)), key=lambda at: len(parts[at][0]))
    before: dict[int, float] = {}
    for numbers, values in parts[:longest]:
        _add_into(before, numbers, values)
    summed: dict[int, float] = {}
    _add_into(summed, *parts[longest])
    _add_into(summed, before.keys(), before.values())
    for numbers, values in parts[longest + 1 :]:
        _add_into(summed, numbers, values)
    return summed


def _resum_out_of_order(
    scores: dict[int, float], per_field: list[tuple[str, dict[int, float]]], postings: dict[str, list[_Posting]]
) -> None:
    """Re-add, in lunr's order, the scores of records it meets field by field in another order.

    lunr adds a record's field scores in the order it first meets each
    (record, field) pair: term by term, then field by field. With one term
    that is field order; with several it can differ, and with three or more
    fields the floating-point sum can then differ in the last bit.
    """
    fields_matched = Counter(chain.from_iterable(field_scores for _, field_scores in per_field))
    for number, count in fields_matched.items():
        if count < 3:
            continue  # a + b == b + a: order cannot matter
        parts = sorted(
            (_first_rank(postings[field], number), field_scores[number])
            for field, field_scores in per_field
            if number in field_scores
        )
        total: float = 0
        for _, score in parts:
            total += score
        scores[number] = total


def _first_rank(postings: list[_Posting], number: int) -> int:
    """The rank of the first of a field's postings that holds a record it scored
    (so one of them does: the last needs no look-up)."""
    for posting in postings[:-1]:
        if number in posting:
            return posting.rank
    return postings[-1].rank


class ShardedStore:
    """Rows (what a result shows) for search results; full records for lookups by id."""

    def __init__(self, shards: ShardDirectory):
        self.shards = shards
        self.row_fields = list(shards.directory["rows"]["fields"])
        self.per_row_shard = shards.directory["rows"]["perShard"]
        self.per_record_shard = shards.directory["records"]["perShard"]

    def later_reads(self) -> list[LaterRead]:
        """Data files most later searches need, not read yet: the pages locating postings and row shards."""
        return self.shards.later_reads()

    def require(self, numbers: list[int]) -> None:
        """Download the rows these results show, in one round: a pools file for
        those a summary's file holds (when that saves enough row shards), a
        row shard for each of the others."""
        unknown = [number for number in numbers if self.shards.known_row(number) is None]
        files, held = self.shards.row_files(unknown)
        indexes = sorted({number // self.per_row_shard for number in unknown if number not in held})
        self.shards.require([*files, *self.shards.listed["rows"].entries(indexes)], "rows")
        for entry in files:
            self.shards.remember_rows(self.shards.read(entry, "rows")["rows"])

    def row(self, number: int) -> dict[str, Any]:
        values = self.shards.known_row(number)
        if values is None:
            index, offset = divmod(number, self.per_row_shard)
            values = self.shards.read(self.shards.listed_entry("rows", index), "rows")["rows"][offset]
        return {field: value for field, value in zip(self.row_fields, values) if value is not None}

    def identified(self, key: str) -> list[int]:
        """The records an identifier key names (ranking.identifier_keys)."""
        shard = self.shards.identifiers.shard(key, "identifiers")
        return [] if shard is None else list(shard["ids"].get(key, []))

    def find(self, record_id: str) -> dict[str, Any] | None:
        shard = self.shards.ids.shard(record_id, "ids")
        number = None if shard is None else shard["ids"].get(record_id)
        if number is None:
            return None
        index, offset = divmod(number, self.per_record_shard)
        return self.shards.read(self.shards.listed_entry("records", index), "records")["records"][offset]
