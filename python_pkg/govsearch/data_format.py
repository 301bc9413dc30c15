"""The site's data layout, defined once: the build writes it with these names
and codecs (govsearch_build/data_writer.py), the runtime reads it with the
same ones (catalogue, data_reader, sharded, single, engine). Change the layout
here, and bump FORMAT, or the two sides drift apart.

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

ranking: `{"search": {"synonyms": [[...]], "intents": {word: [types]}}}`
  (the records' flags are in their profiles).

single layout: `index` is lunr 2.3.9's own serialisation (lunr.js can load
  it); `records` is `{"records": [stored record, ...]}`.

sharded layout: `directory` is
  `{"fields": [lunr fields], "vocabulary": entry, "postings": key pages,
  "ids": key pages, "identifiers": key pages, "records": {"perShard": n,
  **hash pages}, "rows": {"perShard": n, "fields": [...], **hash pages}}`.

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

  - vocabulary: `{"terms": "..."}`, every index term, sorted, front-coded
    (encode_vocabulary / decode_vocabulary): separated by spaces (lunr splits
    words at whitespace, so no term holds one), each term as the number of
    leading characters it shares with the term before (a CODE_ALPHABET
    digit, at most 63) then the rest of it: a gzip a quarter smaller than a
    JSON list of the terms;
  - postings: `{"terms": {term: posting}}`. A posting maps POSTING_TERM_INDEX
    to lunr's term index, POSTING_FIELDS to `{field: [record gaps, weights]}`
    (encode_column: two comma-separated strings, decoded only when a query
    reads the column) and, for common words only, POSTING_ROWS to `[[number, *row], ...]`: the
    rows of the word's best records, so a one-word search needs no row
    shards. A word in very many records (and no intent word) also has
    POSTING_SUMMARY: SUMMARY_TALLY `[profile, records, ...]` (how many of
    its records have each profile, by profile); SUMMARY_NUMBERS, some of its
    records in rank order (as a one-word search ranks them before row
    evidence; POSTING_ROWS has the first of them): its best SUMMARY_GENERAL
    records, then any others among the best SUMMARY_BY_VALUE["best"] records
    holding each value of each of SUMMARY_BY_VALUE["fields"]; SUMMARY_SCORES
    (their scores) and SUMMARY_FIELDS (a mask per record of the fields
    holding the word, bit i for the directory's i-th field): a one-word
    search answers from these without scoring every record. SUMMARY_ROWS is
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
  - rows: `{"rows": [[value per rows.fields, null when absent], ...]}`;
  - records: `{"records": [stored record, ...]}`;
  - ids: `{"ids": {record id: number}}`;
  - identifiers: `{"ids": {identifier key: [numbers]}}`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import accumulate, compress
from typing import Any

FORMAT = "govsearch-site/4"
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
SUMMARY_TALLY = "t"
SUMMARY_NUMBERS = "n"
SUMMARY_GENERAL = "g"
SUMMARY_BY_VALUE = "v"
SUMMARY_SCORES = "s"
SUMMARY_FIELDS = "f"
SUMMARY_ROWS = "r"

CODE_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"
_CODE_BYTES = bytes.maketrans(CODE_ALPHABET.encode(), bytes(range(64)))
_CODE_VALUES = {char: value for value, char in enumerate(CODE_ALPHABET)}
_DIGIT_CHARS = bytes.maketrans(bytes(range(64)), CODE_ALPHABET.encode())


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


def code_width(count: int) -> int:
    """Base-64 characters needed to give each of `count` values its own code."""
    width = 1
    while count > 64**width:
        width += 1
    return width


def encode_codes(codes: Iterable[int], width: int) -> str:
    """Fixed-width base-64 codes, concatenated."""
    return "".join(_base64(code, width) for code in codes)


def _base64(number: int, width: int) -> str:
    digits = []
    for _ in range(width):
        number, digit = divmod(number, 64)
        digits.append(CODE_ALPHABET[digit])
    return "".join(reversed(digits))


def decode_codes(text: str, width: int) -> list[int]:
    """The codes encode_codes wrote, in order."""
    digits = text.encode("ascii").translate(_CODE_BYTES)
    codes = list(digits[0::width])
    for place in range(1, width):
        codes = [code * 64 + digit for code, digit in zip(codes, digits[place::width])]
    return codes


def profile_code_shape(profiles: int) -> tuple[int, int]:
    """(one, width) of the prefix code for `profiles` profiles, numbered
    commonest first: profiles below `one` take one digit, the rest `width`
    digits whose first is at least `one` (as many one-digit codes as fit)."""
    width = code_width(profiles)
    if width == 1:
        return 64, 1
    return min(63, (64**width - profiles) // (64 ** (width - 1) - 1)), width


def encode_profile_codes(codes: Sequence[int], one: int, width: int) -> str:
    """Every code's first digit, then the other digits of the codes from `one` up."""
    span = 64 ** (width - 1)  # codes behind each first digit from `one` up
    first = bytes(code if code < one else one + (code - one) // span for code in codes)
    rest = [_base64((code - one) % span, width - 1) for code in codes if code >= one]
    return first.translate(_DIGIT_CHARS).decode("ascii") + "".join(rest)


def decode_profile_codes(text: str, count: int, one: int, width: int) -> list[int]:
    """The `count` codes encode_profile_codes wrote."""
    digits = text.encode("ascii").translate(_CODE_BYTES)
    codes = list(digits[:count])
    longer = list(compress(range(count), map(one.__le__, codes)))
    rest = digits[count:]
    if len(codes) != count or len(rest) != len(longer) * (width - 1):
        raise ValueError(f"profile codes of {len(text)} characters do not hold {count} records")
    low = [0] * len(longer)
    for place in range(width - 1):
        low = [value * 64 + digit for value, digit in zip(low, rest[place :: width - 1])]
    span = 64 ** (width - 1)
    for at, value in zip(longer, low):
        codes[at] = one + (codes[at] - one) * span + value
    return codes


def encode_vocabulary(terms: Sequence[str]) -> str:
    """Sorted terms, front-coded: each the length it shares with the term before (one digit), then the rest."""
    coded, previous = [], ""
    for term in terms:
        if not term or " " in term:
            raise ValueError(f"not an index term: {term!r}")
        shared = 0
        limit = min(len(term), len(previous), 63)
        while shared < limit and term[shared] == previous[shared]:
            shared += 1
        coded.append(CODE_ALPHABET[shared] + term[shared:])
        previous = term
    return " ".join(coded)


def decode_vocabulary(text: str) -> list[str]:
    """The terms encode_vocabulary wrote, in order."""
    terms, previous = [], ""
    for coded in text.split(" ") if text else ():
        previous = previous[: _CODE_VALUES[coded[0]]] + coded[1:]
        terms.append(previous)
    return terms


def encode_gaps(numbers: Sequence[int]) -> list[int]:
    """Ascending record numbers as the first, then the differences."""
    return [numbers[0], *(b - a for a, b in zip(numbers, numbers[1:]))] if numbers else []


def decode_gaps(gaps: Iterable[int]) -> list[int]:
    return list(accumulate(gaps))


def encode_column(numbers: Sequence[int], weights: Sequence[float]) -> list[str]:
    """A field's postings as two strings, the record gaps and the weights, each
    comma-separated: JSON reads a string without parsing its numbers, so a
    shard costs little to open and only the columns a query uses are decoded
    (a word in 137,000 of 300,000 records made its shard 90 ms of JSON)."""
    return [",".join(map(str, encode_gaps(numbers))), ",".join(map(repr, weights))]


def decode_column(column: Any) -> tuple[list[int], list[float]]:
    """A field's postings (encode_column) as record numbers and their weights,
    read by JSON's own scanner (a little faster than splitting the strings),
    so each weight is the float a JSON list of the same digits gives."""
    gaps, weights = column
    if not gaps:
        return [], []
    return decode_gaps(json.loads(f"[{gaps}]")), json.loads(f"[{weights}]")


def column_length(column: Any) -> int:
    """How many records a column holds, without decoding it."""
    return column[0].count(",") + 1 if column[0] else 0


def profile_table(
    columns: Mapping[str, tuple[list[Any], list[int]]], flags: Sequence[int], per_chunk: int | None = None
) -> tuple[dict[str, Any], list[str], list[int]]:
    """The facets file's content from every record's value code per field
    (field -> (values, codes by record number)) and flag mask; when
    `per_chunk` is given, the records' profile codes chunk by chunk (written
    as separate files, whose hashes the caller adds as records.sha256); and
    each record's profile."""
    fields = list(columns)
    keys = list(zip(*(columns[field][1] for field in fields), flags))
    counts = Counter(keys)
    order = sorted(counts, key=lambda key: (-counts[key], key))
    profile = {key: number for number, key in enumerate(order)}
    widths = {field: code_width(len(columns[field][0])) for field in fields}
    table = {
        "columns": {field: {"values": columns[field][0]} for field in fields},
        "profiles": {
            "widths": widths,
            "codes": {
                field: encode_codes((key[at] for key in order), widths[field]) for at, field in enumerate(fields)
            },
            "flags": encode_codes((key[-1] for key in order), 1),
            "records": [counts[key] for key in order],
        },
    }
    one, width = profile_code_shape(len(order))
    codes = [profile[key] for key in keys]
    records: dict[str, Any] = {"count": len(codes), "one": one, "width": width}
    table["records"] = records
    if per_chunk is None:
        records["codes"] = encode_profile_codes(codes, one, width)
        return table, [], codes
    records["perChunk"] = per_chunk
    chunks = [
        encode_profile_codes(codes[start : start + per_chunk], one, width) for start in range(0, len(codes), per_chunk)
    ]
    return table, chunks, codes
