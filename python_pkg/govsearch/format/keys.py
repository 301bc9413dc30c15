"""Every name and key of the data layout (described in govsearch.format):
file names, manifest roles, directory and page keys, posting and summary keys,
so that the writer (govsearch_build) and the reader (govsearch.sharded,
single, catalogue) use one spelling of each."""

from __future__ import annotations

__all__ = [
    "FORMAT",
    "DATA_FOLDER",
    "MANIFEST",
    "SINGLE",
    "SHARDED",
    "SHORTEST_DIGEST",
    "HASH_IN_NAME",
    "POSTING_TERM_INDEX",
    "POSTING_FIELDS",
    "POSTING_ROWS",
    "POSTING_SUMMARY",
    "POSTING_COUNT",
    "POSTING_SUMMARY_FILES",
    "POSTING_RELATED",
    "POSTING_RELATED_POSTINGS",
    "INDEX_RELATED",
    "SERIES",
    "SERIES_NEWEST",
    "SUMMARY_TALLY",
    "SUMMARY_NUMBERS",
    "SUMMARY_GENERAL",
    "SUMMARY_BY_VALUE",
    "SUMMARY_SCORES",
    "SUMMARY_FIELDS",
    "SUMMARY_NEWEST",
    "SUMMARY_ROWS",
    "BY_VALUE_FIELDS",
    "BY_VALUE_BEST",
    "PATH",
    "SHA256",
    "SIZE",
    "COUNT",
    "POSTINGS",
    "RECORDS",
    "ROWS",
    "IDS",
    "IDENTIFIERS",
    "POOLS",
    "ROW_NEWEST",
    "AHEAD",
    "SUMMARIES",
    "VOCABULARY",
    "TERMS",
    "CODES",
    "DIRECTORY_FIELDS",
    "PER_PAGE",
    "PAGES",
    "FIRST",
    "SHARD_COUNT",
    "PER_SHARD",
    "WORK",
    "COLUMNS",
    "VALUES",
    "PROFILES",
    "WIDTHS",
    "FLAGS",
    "ONE",
    "WIDTH",
    "PER_CHUNK",
    "PROFILE_CHUNKS",
    "content_name",
    "listed_shard_path",
    "page_folder",
    "shard_stem",
]

FORMAT = "govsearch-site/7"
DATA_FOLDER = "data"
MANIFEST = "manifest.json"

SINGLE = "single"
SHARDED = "sharded"

# Thousands of shards are listed by the first 128 bits of their sha256 (a
# second preimage still takes 2**128 work), which halves the directory.
SHORTEST_DIGEST = 32  # hex digits
HASH_IN_NAME = 12  # hex digits of the sha256 in a content-hashed file name

# A term's posting
POSTING_TERM_INDEX = "i"
POSTING_FIELDS = "f"
POSTING_ROWS = "r"
POSTING_SUMMARY = "s"
POSTING_COUNT = "p"
POSTING_SUMMARY_FILES = "summaries"
POSTING_RELATED = "w"  # a term's related index terms (govsearch_build.related_words)
POSTING_RELATED_POSTINGS = "a"  # their postings, carried beside the term's (postings_writer)
INDEX_RELATED = "related"  # single layout: {term: [related terms]} beside lunr's own keys
SUMMARY_TALLY = "t"
SUMMARY_NUMBERS = "n"
SUMMARY_GENERAL = "g"
SUMMARY_BY_VALUE = "v"
SUMMARY_SCORES = "s"
SUMMARY_FIELDS = "f"
SUMMARY_NEWEST = "e"  # [[number, fields mask], ...]: newest editions of the numbers' series, not among them
SUMMARY_ROWS = "r"
BY_VALUE_FIELDS = "fields"  # in SUMMARY_BY_VALUE: the fields whose values have bests of their own
BY_VALUE_BEST = "best"  # in SUMMARY_BY_VALUE: how many best records each value has

# Keys of an entry (manifest files, directory listings): the file it vouches for.
PATH = "path"
SHA256 = "sha256"
SIZE = "size"
COUNT = "count"

# Shard kinds: each is the directory's key for its shard list and the folder
# of its shards (shard_stem); a postings shard's content is `{TERMS: ...}`,
# the others' `{their kind: ...}` (records, rows, ids; identifiers hold IDS).
POSTINGS = "postings"
RECORDS = "records"
ROWS = "rows"
IDS = "ids"
IDENTIFIERS = "identifiers"
POOLS = "pools"  # a summarised word's other rows (SUMMARY_ROWS)
# A row's last field (sharded layout): the number of its series' newest edition, for an older
# dated edition (govsearch.ranking.series.newest_editions), else null. No result shows it.
ROW_NEWEST = "newest"
# In the directory's rows: the hashes of `ahead/<n>.<hash>.json`, {ROWS: [[number, *row], ...]},
# the rows of the records our authors wrote, read while idle (govsearch.sharded.store).
AHEAD = "ahead"
SUMMARIES = "summaries"  # a summarised word's posting without its columns
VOCABULARY = "vocabulary"
# The directory's entry of `series.<hash>.json`, {SERIES: [[first, gap, ...], ...]}: the record
# numbers of each series of two or more records (govsearch.ranking.series), as gaps.
SERIES = "series"
# ... and {SERIES_NEWEST: [[older, gap, ...], [newest, ...]]}: each older dated edition (ROW_NEWEST) and
# its series' newest edition, so a call can fetch the newest's row with its window's rows.
SERIES_NEWEST = "newest"
TERMS = "terms"  # the vocabulary's front-coded text; a postings shard's postings
CODES = "codes"  # a profile chunk's codes (facets)

# The directory (sharded layout)
DIRECTORY_FIELDS = "fields"  # lunr's fields, in index order; in `rows`, the fields of a row
# A shard list: key pages carry FIRST, hash pages SHARD_COUNT; both PER_PAGE and PAGES.
PER_PAGE = "perPage"
PAGES = "pages"
FIRST = "first"  # each page's first key (in the directory); each shard's (in a page)
SHARD_COUNT = "shards"
PER_SHARD = "perShard"  # records (rows) per shard of records (rows)
# A page of a shard list: FIRST (key pages), SHA256, SIZE and, for postings, WORK.
WORK = "work"  # a postings shard's size as the work budget counts it

# The facets file (codes.profile_table; read by govsearch.facets). RECORDS
# is both the per-profile record counts (in PROFILES) and the records' codes
# (at the top, with COUNT, ONE, WIDTH and either CODES or PER_CHUNK and SHA256).
COLUMNS = "columns"
VALUES = "values"
PROFILES = "profiles"
WIDTHS = "widths"
FLAGS = "flags"
ONE = "one"  # profiles below this take one base-64 digit (codes.profile_code_shape)
WIDTH = "width"  # the digits of every other profile's code
PER_CHUNK = "perChunk"
PROFILE_CHUNKS = "profiles"  # the folder of the sharded layout's profile chunks


def content_name(stem: str, sha256: str) -> str:
    """The name of a content-hashed data file."""
    return f"{stem}.{sha256[:HASH_IN_NAME]}.json"


def shard_stem(kind: str, number: int) -> str:
    """Shard `number` of a kind (postings, records, rows, pools, ids, identifiers), before its hash."""
    return f"{kind}/{number:05d}"


def listed_shard_path(kind: str, number: int, sha256: str) -> str:
    """The path of a record or row shard, which the directory lists by hash alone."""
    return content_name(shard_stem(kind, number), sha256)


def page_folder(kind: str) -> str:
    """Where the pages listing a kind's shards live (the directory names their hashes)."""
    return f"directory/{kind}"
