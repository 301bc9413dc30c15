"""The sharded layout: fetch only what a query needs.

A single lunr index does not scale (about 69 MB of JSON at 50,000 records).
Here the build splits what lunr's scoring reads into small files (their
format is defined in govsearch/format/):

- the vocabulary, so wildcard and typo expansion use lunr's own TokenSet;
- postings shards keyed by term range: for each term, its lunr term index
  and, per field, the records holding it with the term's weight in that
  record's field vector (lunr's BM25 score, already boosted and rounded);
- row shards (what a search result shows) and record shards, by record
  number, and id shards for lookups by id.

`ShardedMatcher.match` repeats lunr 2.3.9's query algorithm over those
postings, so refs, order and scores equal lunr on the single-file index.

Its rooms: `directory` (the shard lists and the cache of shards read),
`matcher` (lunr's query algorithm over postings), `store` (rows and records).
"""

from .directory import CACHE_BYTES, KNOWN_ROWS, POOLS_FROM, HashPages, KeyPages, ShardDirectory
from .matcher import ShardedMatcher
from .store import ShardedStore

__all__ = [
    "CACHE_BYTES",
    "KNOWN_ROWS",
    "POOLS_FROM",
    "HashPages",
    "KeyPages",
    "ShardDirectory",
    "ShardedMatcher",
    "ShardedStore",
]
