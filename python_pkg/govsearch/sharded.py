"""The sharded layout: fetch only what a query needs.

A single lunr index does not scale (about 69 MB of JSON at 50,000 records).
Here the build splits what lunr's scoring reads into small files:

- the vocabulary, so wildcard and typo expansion use lunr's own TokenSet;
- postings shards keyed by term range: for each term, its lunr term index
  and, per field, the records holding it with the term's weight in that
  record's field vector (lunr's BM25 score, already boosted and rounded);
- record shards by record number, and id shards for lookups by id.

`ShardedMatcher.match` repeats lunr 2.3.9's query algorithm over those
postings, so refs, order and scores equal lunr on the single-file index.
"""

from __future__ import annotations

import bisect
import math
from typing import Any, Mapping

from lunr.query import Clause as LunrClause
from lunr.token_set import TokenSet

from .datafiles import SiteUnavailable, read_verified
from .loaders import Loader, MissingFiles
from .terms import Clause

_COMPLETE = None  # lunr's "complete set": every record


class ShardDirectory:
    """The directory file's view of the shards, with a cache of those read."""

    def __init__(self, loader: Loader, directory: Mapping[str, Any]):
        self.loader = loader
        self.directory = directory
        self.postings = directory["postings"]
        self.posting_firsts = [entry["first"] for entry in self.postings]
        self.id_shards = directory["ids"]
        self.id_firsts = [entry["first"] for entry in self.id_shards]
        self.per_record_shard = directory["records"]["perShard"]
        self._cache: dict[str, Any] = {}

    def read(self, entry: Mapping[str, Any], role: str) -> Any:
        path = entry["path"]
        if path not in self._cache:
            self._cache[path] = read_verified(self.loader, entry, role)
        return self._cache[path]

    def require(self, entries: list[Mapping[str, Any]], role: str) -> None:
        """Read every entry not read yet; a deferring loader names all that are missing at once."""
        missing: list[str] = []
        for entry in entries:
            if entry["path"] not in self._cache:
                try:
                    self.read(entry, role)
                except MissingFiles as error:
                    missing.extend(error.names)
        if missing:
            raise MissingFiles(sorted(set(missing)))

    def posting_entry(self, term: str) -> Mapping[str, Any] | None:
        position = bisect.bisect_right(self.posting_firsts, term) - 1
        return None if position < 0 else self.postings[position]

    def record_entry(self, index: int) -> Mapping[str, Any]:
        hashes = self.directory["records"]["sha256"]
        if not 0 <= index < len(hashes):
            raise SiteUnavailable(f"record shard {index} is not in the directory")
        return {"path": f"records/{index:05d}.{hashes[index][:12]}.json", "sha256": hashes[index]}

    def shard_for(self, firsts: list[str], shards: list[Mapping[str, Any]], key: str, role: str) -> Any | None:
        position = bisect.bisect_right(firsts, key) - 1
        return None if position < 0 else self.read(shards[position], role)

    def posting(self, term: str) -> Mapping[str, Any] | None:
        """The term's postings, or None when the index does not hold the term."""
        shard = self.shard_for(self.posting_firsts, self.postings, term, "postings")
        return None if shard is None else shard["terms"].get(term)

    def record_shard(self, index: int) -> Any:
        return self.read(self.record_entry(index), "records")


class ShardedMatcher:
    def __init__(self, shards: ShardDirectory):
        self.shards = shards
        self.fields = list(shards.directory["fields"])
        self._token_set: TokenSet | None = None
        self._vocabulary: frozenset[str] = frozenset()

    @property
    def token_set(self) -> TokenSet:
        """lunr's TokenSet of the whole vocabulary, read only when a query needs expansion."""
        if self._token_set is None:
            vocabulary = self.shards.read(self.shards.directory["vocabulary"], "vocabulary")["terms"]
            self._token_set = TokenSet.from_list(vocabulary)
            self._vocabulary = frozenset(vocabulary)
        return self._token_set

    def warm(self) -> None:
        """Build the vocabulary's TokenSet now: the search box's prefix and typo
        matching need it on the first keystroke."""
        self.token_set  # noqa: B018 - the property builds and keeps it

    def expand(self, clause: Clause) -> list[str]:
        """The index terms a clause reaches, exactly as lunr expands them."""
        term = clause.term + "*" if clause.wildcard and not clause.term.endswith("*") else clause.term
        if not clause.edit_distance and "*" not in term:
            # An exact term reaches itself if the index holds it: no vocabulary needed.
            return [term] if self._known(term) and self.shards.posting(term) is not None else []
        lunr_clause = LunrClause(term=term, edit_distance=clause.edit_distance)
        return self.token_set.intersect(TokenSet.from_clause(lunr_clause)).to_list()

    def _known(self, term: str) -> bool:
        """False only when the vocabulary is loaded and lacks the term: no shard to fetch."""
        return self._token_set is None or term in self._vocabulary

    def _require_postings(self, terms: list[str]) -> None:
        terms = [term for term in terms if self._known(term)]
        entries = {entry["path"]: entry for entry in map(self.shards.posting_entry, terms) if entry is not None}
        self.shards.require(list(entries.values()), "postings")

    def match(self, clauses: list[Clause]) -> list[tuple[int, float]]:
        # Everything the query reads is asked for in two batches (exact terms,
        # then expansions), so a deferring loader can fetch each in parallel.
        self._require_postings([c.term for c in clauses if not c.edit_distance and not c.wildcard and "*" not in c.term])
        expansions = [self.expand(clause) for clause in clauses]
        self._require_postings([term for terms in expansions for term in terms])
        query: dict[str, dict[int, float]] = {field: {} for field in self.fields}
        required: dict[str, set[int] | None] = {}
        matching: dict[tuple[int, str], list[tuple[int, float]]] = {}
        seen: set[tuple[str, str]] = set()
        for clause, expanded in zip(clauses, expansions):
            is_required = clause.presence == "required"
            clause_matches: set[int] = set()
            for term in expanded:
                posting = self.shards.posting(term)
                if posting is None:
                    raise SiteUnavailable(f"the postings for a vocabulary term are missing ({term[:40]!r})")
                term_index = posting["i"]
                for field in self.fields:
                    numbers, weights = _decode(posting["f"].get(field))
                    if is_required:
                        clause_matches.update(numbers)
                        required.setdefault(field, _COMPLETE)
                    query[field][term_index] = query[field].get(term_index, 0) + 1
                    if (term, field) in seen:
                        continue
                    seen.add((term, field))
                    for number, weight in zip(numbers, weights):
                        entries = matching.get((number, field))
                        if entries is None:
                            matching[(number, field)] = [(term_index, weight)]
                        else:
                            entries.append((term_index, weight))
            if is_required:
                for field in self.fields:
                    current = required.get(field, _COMPLETE)
                    required[field] = set(clause_matches) if current is _COMPLETE else current & clause_matches
        allowed = _intersect_all(required.values())
        magnitudes = {field: math.sqrt(sum(value * value for _, value in sorted(vector.items()))) for field, vector in query.items()}
        scores: dict[int, float] = {}
        for (number, field), entries in matching.items():
            if allowed is not _COMPLETE and number not in allowed:
                continue
            vector = query[field]
            # lunr's dot product adds term by term in term-index order.
            if len(entries) == 1:
                dot = vector[entries[0][0]] * entries[0][1]
            else:
                dot = sum(vector[index] * weight for index, weight in sorted(entries))
            score = dot / magnitudes[field] if magnitudes[field] else 0
            scores[number] = scores.get(number, 0) + score
        return list(scores.items())


class ShardedStore:
    def __init__(self, shards: ShardDirectory):
        self.shards = shards

    def require(self, numbers: list[int]) -> None:
        indexes = sorted({number // self.shards.per_record_shard for number in numbers})
        self.shards.require([self.shards.record_entry(index) for index in indexes], "records")

    def get(self, number: int) -> dict[str, Any]:
        index, offset = divmod(number, self.shards.per_record_shard)
        return self.shards.record_shard(index)["records"][offset]

    def find(self, record_id: str) -> dict[str, Any] | None:
        shard = self.shards.shard_for(self.shards.id_firsts, self.shards.id_shards, record_id, "ids")
        number = None if shard is None else shard["ids"].get(record_id)
        return None if number is None else self.get(number)


def _decode(column: Any) -> tuple[list[int], list[float]]:
    """A field's postings: record numbers are stored as gaps, weights as they are."""
    if not column:
        return [], []
    gaps, weights = column
    numbers, total = [], 0
    for gap in gaps:
        total += gap
        numbers.append(total)
    return numbers, weights


def _intersect_all(sets) -> set[int] | None:
    result = _COMPLETE
    for current in sets:
        if current is _COMPLETE:
            continue
        result = set(current) if result is _COMPLETE else result & current
    return result
