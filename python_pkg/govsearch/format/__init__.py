"""The site's data layout, defined once: the build writes it with these names,
keys and codecs (govsearch_build/data_writer.py and the writers it calls),
the runtime reads it with the same ones (catalogue, data_reader, sharded,
single, facets). Change the layout here, and bump FORMAT, or the two sides
drift apart. `keys` holds every file name and key, `codes` the base-64 codes
of the facet profiles, `columns` the vocabulary and postings columns.

Everything lives in the site's `data/` folder (DATA_FOLDER):

- `manifest.json` (MANIFEST), fetched fresh, never content-hashed:
  `{"format": FORMAT, "layout": "single" | "sharded", "site": {title, url,
  basePath}, "records": n, "files": {role: entry}, "tools": entry}`. An entry
  is `{"path", "sha256", "size", "count"?}`; it vouches for the file it names.
  Roles: `facets` and `ranking` always; `index` and `records` in the single
  layout, `directory` in the sharded one. `tools` names the tools'
  definitions as agents are shown them (`tools.<hash>.json`), which the page
  checks before registering any tool. The worker downloads every `files`
  entry at start, so none of them may grow with the number of records:
  what does (each record's profile, the shard lists) comes in chunks and
  pages that a query reads on first need.
- Every other file is content-named: `<stem>.<first HASH_IN_NAME hex digits
  of its sha256>.json` (content_name). Files listed by a sha256 prefix alone
  (at least SHORTEST_DIGEST hex digits) have a path that follows from kind,
  number and hash (shard_stem, listed_shard_path); each is vouched for by the
  file that lists it, down from the manifest.

Records are numbered in (title, id) order; every per-record list below is
indexed by that number.

facets (govsearch/facets.py; written by profile_table):
  `{"columns": {field: {"values": [...]}}, "profiles": {"widths": {field: w},
  "codes": {field: "..."}, "flags": "...", "records": [n, ...]}, "records":
  {"count": n, "one": o, "width": w, "codes": "..."} | {"count": n, "one": o,
  "width": w, "perChunk": c, "sha256": [...]}}`. A *profile* is a distinct
  combination of the four filter values and the ranking flags
  (ranking.rules.FLAG_WEIGHTS as a bit mask): `profiles` gives each profile's value
  index per field, its flag mask (one character) and how many records have
  it, commonest first. Fixed-width codes (`widths`, `flags`) are base-64
  characters of CODE_ALPHABET, most significant first, concatenated
  (encode_codes / decode_codes). A value may be a list: a resource in
  several collections.
  Each record's profile number is a prefix code (profile_code_shape,
  encode_profile_codes / decode_profile_codes): the `one` commonest profiles
  take one base-64 digit, the others `width` digits, the first of them at
  least `one`. A text holds every record's first digit, in record order,
  then the other digits of each longer code, in the same order: about 1.1
  characters a record where fixed-width codes take 2, and a gzip a seventh
  smaller. The texts are inline (`codes`, single layout) or in chunks of
  `perChunk` records, `profiles/<number>.<hash>.json` = `{"codes": "..."}`,
  listed by hash (sharded layout); a query reads the chunks its matches fall
  in.

ranking: `{"search": {"synonyms": [[...]], "intents": {word: [types]}},
  "visited": [[number, place], ...]}` (the records' flags are in their
  profiles; `visited`: each record at one of GOV.UK's most visited pages and
  its place on that list, 1 the most, for ranking.rules.visit_factor).

single layout: `index` is lunr 2.3.9's own serialisation (lunr.js can load
  it, and ignores the one key added: INDEX_RELATED, `{term: [related
  terms]}`, what POSTING_RELATED holds in the sharded layout); `records` is
  `{"records": [stored record, ...]}`.

sharded layout: `directory` is
  `{"fields": [lunr fields], "vocabulary": entry, "series": entry, "postings": key pages,
  "ids": key pages, "identifiers": key pages, "records": {"perShard": n,
  **hash pages}, "rows": {"perShard": n, "fields": [...], "ahead": [sha256],
  **hash pages}}`.

  Shard lists come in pages of `perPage` (page_folder: `directory/<kind>/
  <number>.<hash>.json`), each listed by hash, so the directory grows with
  the pages, not the shards:
  - key pages (postings, ids, identifiers: shards by key range) are
    `{"perPage": p, "first": [first key of each page], "pages": [sha256]}`;
    a page is `{"first": [...], "sha256": [...], "size": [...]}` for its
    shards (postings pages also `"work": [...]`, each shard's size as the
    work budget counts it), shard `page * perPage + i` being
    `<kind>/<number>.<hash>.json`. A postings page whose shards hold a
    summarised word also has POSTING_SUMMARY_FILES, `[{word: entry}, ...]`
    per shard: the entry (path, sha256, size) of the word's summary file.
    Keys are found by bisection, in the directory, then in the page;
  - hash pages (records, rows: shards by record number) are `{"perPage": p,
    "shards": n, "pages": [sha256]}`; a page is `{"sha256": [...]}`.

  The files:
  - ahead (AHEAD): `ahead/<n>.<hash>.json`, `{"rows": [[number, *row], ...]}`,
    the rows of the records our authors wrote (curated and annotated; at
    most shard_writer.AHEAD_ROWS), listed by hash in "ahead": read while
    idle and kept, they spare a later answer the row shards of about half
    its results (docs/architecture.md);
  - series (SERIES): `{"series": [[first, gap, ...], ...], "newest":
    [[older, gap, ...], [newest, ...]]}`, the record numbers of every group
    of two or more records (ranking.series.group_of of their rows), each as
    its first number and the gaps to the next, and (SERIES_NEWEST) every
    older dated edition with the newest edition of the same thing
    (ranking.series.newest_editions; 6 KB gzipped at full estate): read
    while idle, it tells a search before its rows arrive whether its first
    window's records group into too few results and which newest editions
    may lead its groups, so those rows come in the same round
    (ranking.stages);
  - vocabulary: `{"terms": "..."}`, every index term, sorted, front-coded
    (encode_vocabulary / decode_vocabulary): separated by spaces (lunr splits
    words at whitespace, so no term holds one), each term as the number of
    leading characters it shares with the term before (a CODE_ALPHABET
    digit, at most 63) then the rest of it: a gzip a quarter smaller than a
    JSON list of the terms;
  - postings: `{"terms": {term: posting}}`. A posting maps POSTING_TERM_INDEX
    to lunr's term index, POSTING_FIELDS to `{field: [record gaps, weights]}`
    (encode_column: two comma-separated strings, decoded only when a query
    reads the column), POSTING_RELATED to the term's related index terms
    when it has any (govsearch_build.related_words: other words for the
    same thing, read by ranking.related) and POSTING_RELATED_POSTINGS to
    theirs, `{related term: posting}`, each with POSTING_TERM_INDEX and
    POSTING_FIELDS as its own shard has them when it has ALTERNATIVE_POSTINGS
    (ranking.rules) postings or fewer, else only POSTING_COUNT (more than a
    call's related words may reach): a query falling to any_term searches its
    words' related words without a round of downloads of their own; these
    bytes are not counted in where shards are cut nor in their `work`, so
    every decision of the work budget is as without them. For common words
    only, POSTING_ROWS to `[[number, *row], ...]`: the
    rows of the word's best records (two windows' worth when its first
    window groups into too few results), then those of their series'
    newest editions not among them, so a one-word search needs no row
    shards. A word in very many records (and no intent word) also has
    POSTING_SUMMARY: SUMMARY_TALLY `[profile, records, ...]` (how many of
    its records have each profile, by profile); SUMMARY_NUMBERS, some of its
    records in rank order (as a one-word search ranks them before row
    evidence; POSTING_ROWS has the first of them): its best SUMMARY_GENERAL
    records, then any others among the best SUMMARY_BY_VALUE["best"] records
    holding each value of each of SUMMARY_BY_VALUE["fields"]; SUMMARY_SCORES
    (their scores) and SUMMARY_FIELDS (a mask per record of the fields
    holding the word, bit i for the directory's i-th field): a one-word
    search answers from these without scoring every record; SUMMARY_NEWEST,
    `[[number, mask], ...]`, the same masks for the newest editions of
    those records' series that are not among them (an answer may show
    them in an older edition's place). SUMMARY_ROWS is
    the entry (path, sha256, size) of `pools/<n>.<hash>.json`,
    `{"rows": [[number, *row], ...]}`: the rows of SUMMARY_NUMBERS' records
    that POSTING_ROWS leaves out, so a filtered search or a later page of
    the word can download one file, not a row shard per result. The
    summary file, `summaries/<n>.<hash>.json`, is the word's posting
    without its columns, POSTING_FIELDS giving way to POSTING_COUNT (its
    records over all fields, what the columns hold): a one-word search reads
    it instead of the shard (a fifth of its bytes at the median at 300,000
    records, a seventieth for the commonest words).
    Record numbers are ascending and stored as gaps (encode_gaps /
    decode_gaps): the first number, then differences. A weight is the term's
    boosted BM25 score in that record's field (lunr's field vector);
  - rows: `{"rows": [[value per rows.fields, null when absent], ...]}`:
    what a result shows, then ROW_NEWEST (an older dated edition's series'
    newest edition, by number; govsearch.ranking.series.newest_editions);
  - records: `{"records": [stored record, ...]}`;
  - ids: `{"ids": {record id: number}}`;
  - identifiers: `{"ids": {identifier key: [numbers]}}`.
"""

from .codes import (
    CODE_ALPHABET,
    code_width,
    decode_codes,
    decode_profile_codes,
    encode_codes,
    encode_profile_codes,
    profile_code_shape,
    profile_table,
)
from .columns import (
    column_length,
    decode_column,
    decode_gaps,
    decode_vocabulary,
    encode_column,
    encode_gaps,
    encode_vocabulary,
)
from .keys import *  # noqa: F403 (every name and key of the layout)
from .keys import __all__ as _keys

__all__ = [
    *_keys,
    "CODE_ALPHABET",
    "code_width",
    "column_length",
    "decode_codes",
    "decode_column",
    "decode_gaps",
    "decode_profile_codes",
    "decode_vocabulary",
    "encode_codes",
    "encode_column",
    "encode_gaps",
    "encode_profile_codes",
    "encode_vocabulary",
    "profile_code_shape",
    "profile_table",
]
