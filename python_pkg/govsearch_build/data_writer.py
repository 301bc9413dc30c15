"""The data the browser runtime loads: index, record store, facets, tools, manifest.

The index is built by lunr.py. Small sites ship it whole, as a standard lunr
2.3.9 serialisation (lunr.js can load the same file); large sites ship it
split into shards (see govsearch/sharded.py) so a query fetches only what it
needs. Every data file gets a content-hashed name; the manifest, fetched
fresh, vouches for the top-level files with sha256 and size, and the shard
directory vouches for the shards. The layout's names, keys and codecs are
defined once, with the runtime that reads them, in govsearch/data_format.py.

Records are numbered in (title, id) order, which makes that the tie-break of
equal scores in every layout.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from lunr import lunr
from lunr.index import Index

from govsearch.data_format import (
    FORMAT,
    MANIFEST,
    POSTING_COUNT,
    POSTING_FIELDS,
    POSTING_ROWS,
    POSTING_SUMMARY,
    POSTING_SUMMARY_FILES,
    POSTING_TERM_INDEX,
    SHARDED,
    SHORTEST_DIGEST,
    SINGLE,
    SUMMARY_BY_VALUE,
    SUMMARY_FIELDS,
    SUMMARY_GENERAL,
    SUMMARY_NUMBERS,
    SUMMARY_ROWS,
    SUMMARY_SCORES,
    SUMMARY_TALLY,
    content_name,
    decode_codes,
    encode_column,
    encode_vocabulary,
    listed_shard_path,
    page_folder,
    profile_table,
    shard_stem,
)
from govsearch.engine import DIMENSIONS
from govsearch.facets import CHUNKS as FACET_CHUNKS
from govsearch.ranking import RankingData, flag_code, identifier_keys, rules
from govsearch.ranking.query import NO_SEARCH_TERMS, SearchTerms
from govsearch.tools import RESULT_FIELDS, RESULT_OPTIONAL, tool_definitions

from .compounds import find_compounds, other_spellings
from .config import SiteConfig
from .places import place_names
from .postings import Postings
from .records import Record
from .related_terms import related_terms

# lunr's BM25 over the boosted fields of govsearch.ranking.rules.FIELD_BOOSTS.
FIELDS = tuple({"field_name": name, "boost": boost} for name, boost in rules.FIELD_BOOSTS.items())
STORED_FIELDS = (
    "id",
    "title",
    "summary",
    "url",
    "resourceType",
    "publisher",
    "accessStatus",
    "collection",
    "accessNote",
    "licence",
    "observed",
    "updated",
    "keywords",
    "documentationUrl",
    "source",
    "evidence",
    "collections",
    "linkSecurity",
    "links",
    "formerIds",
    "alsoKnownAs",
)
SHARDED_FROM = 5_000  # records; below this one file of each kind is smaller and faster
POSTINGS_SHARD_BYTES = 32 * 1024
RECORDS_PER_SHARD = 32
# A query's results are scattered over the record numbers (a dozen or more
# shards for 20 results), so the rows a result shows live apart from full
# records, in shards a quarter of the bytes.
ROWS_PER_SHARD = 16
ROW_FIELDS = (*RESULT_FIELDS, *RESULT_OPTIONAL)
# A word in TOP_ROWS_FROM records or more also carries the rows of its best
# TOP_ROWS records (the tool's largest limit) in its postings: a one-word
# search, or a typo corrected to such words, then needs no second round of
# downloads. A browser fetches many small files slowly (a dozen row shards
# cost more than the rows' bytes), so words from 8 records carry them; a
# rarer word's results are a handful (docs/architecture.md has the figures).
TOP_ROWS_FROM = 8  # records holding the term
TOP_ROWS = 20
# The work budget (terms.MAX_SHARD_BYTES) decides from each postings shard's
# `work`: its bytes with the rows of words in fewer than BUDGETED_ROWS_FROM
# records left out, and shards are cut by that measure. The budget was set
# when only those words carried rows, so carrying rows for rarer words (a
# download saved, no work added to speak of) leaves every call's decision,
# and so every answer, as it was.
BUDGETED_ROWS_FROM = 50
# A word in SUMMARY_FROM records or more also carries its summary (data_format:
# POSTING_SUMMARY): a one-word search then answers, totals and facet counts
# exact, without scoring every record, which at 300,000 records took 100 to
# 150 ms in Chromium for a word in 100,000 of them (under 1,000 records it is
# a few ms either way, so rarer words do without and stay smaller).
SUMMARY_FROM = 1000
# Its best SUMMARY_BEST records (rows for the first TOP_ROWS; the others' rows,
# and the by-value bests' below, in one pools file): enough for a filter or two
# and a few pages of "show more" before its records are scored.
SUMMARY_BEST = 200
# ... and the best SUMMARY_VALUE_BEST of each resource type, collection and
# access status, so a search filtered on one of them is answered too (at
# 300,000 records "planning" filtered to datasets had 6 among its best 200).
SUMMARY_VALUE_FIELDS = ("resourceType", "collection", "accessStatus")
SUMMARY_VALUE_BEST = 20
IDS_PER_SHARD = 500
# The first answer must not read what grows with the estate: each record's
# profile comes in chunks by record number (a query reads those its matches
# fall in), and the directory lists shards in pages of PAGE entries.
# A word in a few hundred records already has a match in nearly every chunk
# (records are numbered by title, not by profile), so chunks are large: at
# 300,000 simulated records a common word's first answer read 37 chunks of
# 8,192 records where chunks of 2,048 made it 147 (1.6% fewer bytes); from a
# fresh start the 60 bench queries read 6% more profile bytes, 73% fewer files.
PROFILES_PER_CHUNK = 8192
# A sharded site whose profile chunks and postings and rows directory pages
# come to no more than this is sent them with the catalogue (the manifest's
# `upFront`): nearly every first search needs a postings page, the chunks
# and a rows page, and three rounds of requests cost a visitor more than
# these few kilobytes. A large estate's are far bigger and stay on demand.
UP_FRONT_BYTES = 128 * 1024
PAGE = 256
EMPTY: Mapping[str, str] = {}


def index_document(
    record: Record,
    search_terms: SearchTerms = NO_SEARCH_TERMS,
    compounds: Mapping[str, str] = EMPTY,
    related: Mapping[str, str] = EMPTY,
) -> dict[str, str]:
    """The text lunr indexes. A field holding a phrase of a synonym group also
    gets the group's token (terms.GROUP_MARK), so a query holding any phrase
    of the group finds it, in that field; a field holding a compound of
    `compounds` in one spelling ("well-being") also gets the other ("wellbeing").
    `related` (record id -> words, related_terms.py; empty unless the
    configuration turns it on) adds words of the same meaning to the body,
    the field of least weight."""
    data = record.data
    document = {
        "id": data["id"],
        "title": data["title"],
        "publisher": data["publisher"],
        "keywords": " ".join(data.get("keywords", [])),
        "summary": data["summary"],
        "body": record.body,
    }
    if data.get("alsoKnownAs"):
        _add_alias_words(document, data["alsoKnownAs"])
    for name in rules.FIELDS:
        spelt = other_spellings(document[name], compounds)
        if spelt:
            document[name] += " " + " ".join(spelt)
    if search_terms.phrases:
        for name in rules.FIELDS:
            added = search_terms.group_tokens(document[name])
            if added:
                document[name] += " " + " ".join(added)
    if record.id in related:
        document["body"] += " " + related[record.id]
    return document


_WORD = re.compile(r"\w+")


def _add_alias_words(document: dict[str, str], aliases: list[dict[str, str]]) -> None:
    """What records merged into this one said (estate.keep_names) and it does
    not: the words of their titles join its keywords, those of their summaries
    its body, each once. Only new words, so a resource listed three times is
    found by every name without counting its own words three times over."""
    said = {word.lower() for text in document.values() for word in _WORD.findall(text)}
    for field, part in (("keywords", "title"), ("body", "summary")):
        new = []
        for word in (word for alias in aliases for word in _WORD.findall(alias.get(part, ""))):
            if word.lower() not in said:
                said.add(word.lower())
                new.append(word)
        if new:
            document[field] = " ".join([document[field], *new]) if document[field] else " ".join(new)


def search_terms_of(config: SiteConfig) -> SearchTerms:
    return SearchTerms.from_lists(
        [list(group) for group in config.synonyms],
        {word: list(types) for word, types in config.intents},
        fillers=config.fillers,
    )


_LOCAL_AUTHORITY = re.compile(
    r"\b(council|borough|district|county|metropolitan|city of|unitary authority|national park authority)\b",
    re.IGNORECASE,
)
# Bulk catalogue rows named after their file format, not their content.
_FORMAT_TITLE = re.compile(
    r"^\s*(download( data)?|data|csv|xlsx?|xml|json|geojson|kml|kmz|shapefile|shp|zip|pdf|wms|wfs|wmts|esri rest|arcgis( rest)?( service)?|"
    r"ogc (wms|wfs|api)|api|web (map )?service|web page|website|html|rdf|atom feed|feed|file geodatabase|geopackage|gpkg)\s*$",
    re.IGNORECASE,
)


def record_flags(record: Record) -> list[str]:
    """The build-time evidence behind a record's ranking prior (govsearch.ranking.rules.FLAG_WEIGHTS)."""
    data = record.data
    kind = data.get("source", {}).get("kind", "curated")
    host = urlsplit(data["url"]).hostname or ""
    flags = []
    if kind == "curated" or data["collection"] == "deep-evidence" or "evidence" in data:
        flags.append("reviewed")
    if host == "www.gov.uk" or host.endswith(".service.gov.uk"):
        flags.append("official_page")
    if kind == "api-catalogue":
        flags.append("national_api_catalogue")
    if _LOCAL_AUTHORITY.search(data["publisher"]):
        flags.append("local_authority_row")
    if _FORMAT_TITLE.match(data["title"]):
        flags.append("format_only_title")
    if data["accessStatus"] == "restricted":
        flags.append("restricted_access")
    return flags


def ranking_data(config: SiteConfig, records: list[Record]) -> dict[str, Any]:
    """What the re-ranker reads: every record's flags (one character each, by
    number; written into the facet profiles, not the ranking file), the
    site's synonym groups, intent words and filler words, and the estate's
    place names (govsearch_build.places)."""
    return {
        "flags": "".join(flag_code(record_flags(record)) for record in records),
        "search": {
            "synonyms": [list(group) for group in config.synonyms],
            "intents": {word: list(types) for word, types in config.intents},
            "fillers": list(config.fillers),
            "places": place_names(records),
        },
    }


def stored_record(record: Record) -> dict[str, Any]:
    stored = {name: record.data[name] for name in STORED_FIELDS if name in record.data}
    if record.body:
        stored["body"] = record.body
    return stored


def in_number_order(records: Iterable[Record]) -> list[Record]:
    return sorted(records, key=lambda record: (record.data["title"], record.id))


def build_index(
    records: list[Record],
    search_terms: SearchTerms = NO_SEARCH_TERMS,
    compounds: Mapping[str, str] = EMPTY,
    related: Mapping[str, str] = EMPTY,
) -> Index:
    """lunr.py index over records already in number order (posting order follows it)."""
    documents = [index_document(r, search_terms, compounds, related) for r in records]
    return lunr(ref="id", fields=list(FIELDS), documents=documents)


def compounds_of(records: Iterable[Record]) -> dict[str, str]:
    """The hyphenated compounds the records write (govsearch_build.compounds)."""
    data = (record.data for record in records)
    return find_compounds(text for d in data for text in (d["title"], d["summary"], " ".join(d.get("keywords", []))))


def facet_table(
    writer: DataWriter, records: list[Record], flags: str, per_chunk: int | None = None
) -> tuple[dict[str, Any], list[int]]:
    """The facets file (data_format.profile_table): per dimension its distinct
    values, every profile, and each record's profile code; inline, or (with
    `per_chunk`) in chunk files by record number that the file vouches for.
    And each record's profile."""
    columns = {}
    for field in DIMENSIONS.values():
        of_record = [_facet_value(record, field) for record in records]
        # single values first, then the lists of a record's several collections
        values = sorted(set(of_record), key=lambda value: (isinstance(value, tuple), value))
        code = {value: number for number, value in enumerate(values)}
        shown = [list(value) if isinstance(value, tuple) else value for value in values]
        columns[field] = (shown, [code[value] for value in of_record])
    table, chunks, profile_of = profile_table(columns, decode_codes(flags, 1), per_chunk)
    if per_chunk is not None:
        table["records"]["sha256"] = [
            writer.write(shard_stem(FACET_CHUNKS, number), {"codes": codes})["sha256"][:SHORTEST_DIGEST]
            for number, codes in enumerate(chunks)
        ]
    return table, profile_of


def _members(record: Record, field: str) -> tuple[str, ...]:
    """The record's values of a filter field, each one a filter naming it passes."""
    value = _facet_value(record, field)
    return value if isinstance(value, tuple) else (value,)


def _facet_value(record: Record, field: str) -> str | tuple[str, ...]:
    """The record's value; for a resource in several collections, the tuple of them."""
    if field == "collection" and len(record.data.get("collections", ())) > 1:
        return tuple(record.data["collections"])
    return record.data[field]


def dump(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class DataWriter:
    """Writes content-hashed files and returns the entries that vouch for them."""

    def __init__(self, data_dir: Path):
        self.data_dir = data_dir
        self.written: list[tuple[str, dict[str, Any]]] = []  # (stem, entry) of every file, in order

    def write(self, stem: str, value: Any, count: int | None = None) -> dict[str, Any]:
        payload = dump(value)
        digest = hashlib.sha256(payload).hexdigest()
        name = content_name(stem, digest)
        path = self.data_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(payload)
        entry: dict[str, Any] = {"path": name, "sha256": digest, "size": len(payload)}
        self.written.append((stem, entry))
        if count is not None:
            entry["count"] = count
        return entry


def choose_layout(config: SiteConfig, count: int) -> str:
    if config.index_layout != "auto":
        return config.index_layout
    return SHARDED if count >= SHARDED_FROM else SINGLE


def write_data(config: SiteConfig, records: list[Record], data_dir: Path, layout: str | None = None) -> dict[str, Any]:
    """Write every data file and the manifest; return the manifest."""
    data_dir.mkdir(parents=True, exist_ok=True)
    ordered = in_number_order(records)
    layout = layout or choose_layout(config, len(ordered))
    writer = DataWriter(data_dir)
    search_terms = search_terms_of(config)
    compounds = compounds_of(ordered)
    related = related_terms(ordered, config.related_terms) if config.related_terms else EMPTY
    ranking = ranking_data(config, ordered)
    chunked = PROFILES_PER_CHUNK if layout == SHARDED else None
    up_front: list[dict[str, Any]] = []
    facets, profile_of = facet_table(writer, ordered, ranking["flags"], chunked)
    files = {
        "facets": writer.write("facets", facets, len(ordered)),
        "ranking": writer.write("ranking", {"search": ranking["search"]}),
    }
    if layout == SHARDED:
        postings = Postings.build((index_document(r, search_terms, compounds, related) for r in ordered), list(FIELDS))
        files["directory"] = writer.write(
            "directory", write_shards(writer, postings, ordered, RankingData(ranking), profile_of), len(ordered)
        )
        up_front = small_indexes(writer.written)
    else:
        index = build_index(ordered, search_terms, compounds, related)
        files["index"] = writer.write("index", index.serialize(), len(ordered))
        files["records"] = writer.write("records", {"records": [stored_record(r) for r in ordered]}, len(ordered))
    manifest = {
        "format": FORMAT,
        "layout": layout,
        "site": {"title": config.title, "url": config.site_url, "basePath": config.base_path},
        "records": len(ordered),
        "built": build_date(),  # the snapshot's date, in every citation of a record
        "files": files,
        # The page's tool definitions, vouched for here but kept out of `files`
        # (the catalogue's own): the page checks them before registering a tool.
        "tools": writer.write("tools", {"tools": tool_definitions()}),
    }
    if up_front:
        manifest["upFront"] = up_front
    (data_dir / MANIFEST).write_bytes(dump(manifest))
    return manifest


def build_date() -> str:
    """Today's date (UTC), or SOURCE_DATE_EPOCH's (a reproducible build's fixed time)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    moment = datetime.fromtimestamp(int(epoch), UTC) if epoch.isdigit() else datetime.now(UTC)
    return moment.date().isoformat()


def small_indexes(written: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The profile chunks and the pages naming the postings and rows shards,
    if together no more than UP_FRONT_BYTES (else none): what the worker
    downloads with the catalogue, as a search's first rounds need them."""
    wanted = (f"{FACET_CHUNKS}/", f"{page_folder('postings')}/", f"{page_folder('rows')}/")
    chosen = [entry for stem, entry in written if stem.startswith(wanted)]
    return chosen if sum(entry["size"] for entry in chosen) <= UP_FRONT_BYTES else []


def write_shards(
    writer: DataWriter,
    postings: Postings,
    records: list[Record],
    ranking: RankingData | None = None,
    profile_of: list[int] | None = None,
) -> dict[str, Any]:
    """Split what lunr's scoring reads into shards; return the directory.
    `profile_of` (each record's profile): common words get summaries."""
    number_of = {record.id: number for number, record in enumerate(records)}
    terms = postings.terms()
    rows = [_row(record) for record in records]
    return {
        "fields": list(postings.fields),
        "vocabulary": writer.write("vocabulary", {"terms": encode_vocabulary(terms)}, len(terms)),
        "postings": _key_pages(
            writer,
            "postings",
            _postings_shards(
                writer,
                postings,
                terms,
                rows,
                ranking or RankingData({}),
                profile_of,
                [tuple(_members(record, field) for field in SUMMARY_VALUE_FIELDS) for record in records],
            ),
        ),
        "records": {
            "perShard": RECORDS_PER_SHARD,
            **_hash_pages(
                writer,
                "records",
                [
                    writer.write(
                        shard_stem("records", start // RECORDS_PER_SHARD),
                        {"records": [stored_record(r) for r in records[start : start + RECORDS_PER_SHARD]]},
                    )["sha256"][:SHORTEST_DIGEST]
                    for start in range(0, len(records), RECORDS_PER_SHARD)
                ],
            ),
        },
        "rows": _row_shards(writer, records),
        "ids": _key_pages(writer, "ids", _id_shards(writer, number_of)),
        "identifiers": _key_pages(writer, "identifiers", _identifier_shards(writer, records)),
    }


def _hash_pages(writer: DataWriter, kind: str, hashes: list[str]) -> dict[str, Any]:
    """Record or row shards' hashes in pages of PAGE (data_format: hash pages): the directory lists the pages."""
    pages = [
        writer.write(shard_stem(page_folder(kind), start // PAGE), {"sha256": hashes[start : start + PAGE]})
        for start in range(0, len(hashes), PAGE)
    ]
    return {"perPage": PAGE, "shards": len(hashes), "pages": [page["sha256"][:SHORTEST_DIGEST] for page in pages]}


def _key_pages(writer: DataWriter, kind: str, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Key-range shards' entries in pages of PAGE (data_format: key pages): the directory lists each page's first key."""
    firsts, hashes = [], []
    for start in range(0, len(entries), PAGE):
        chunk = entries[start : start + PAGE]
        for number, entry in enumerate(chunk, start):
            assert entry["path"] == listed_shard_path(kind, number, entry["sha256"]), entry["path"]
        page = writer.write(
            shard_stem(page_folder(kind), start // PAGE),
            {
                "first": [entry["first"] for entry in chunk],
                "sha256": [entry["sha256"][:SHORTEST_DIGEST] for entry in chunk],
                "size": [entry["size"] for entry in chunk],
                **({"work": [entry["work"] for entry in chunk]} if "work" in chunk[0] else {}),
                **(
                    {POSTING_SUMMARY_FILES: [entry[POSTING_SUMMARY_FILES] for entry in chunk]}
                    if any(entry.get(POSTING_SUMMARY_FILES) for entry in chunk)
                    else {}
                ),
            },
        )
        firsts.append(chunk[0]["first"])
        hashes.append(page["sha256"][:SHORTEST_DIGEST])
    return {"perPage": PAGE, "first": firsts, "pages": hashes}


def _row(record: Record) -> list[Any]:
    """What a search result shows of a record, in ROW_FIELDS order (absent optional fields as null)."""
    return [record.data.get(field) for field in ROW_FIELDS]


def _row_shards(writer: DataWriter, records: list[Record]) -> dict[str, Any]:
    hashes = []
    for start in range(0, len(records), ROWS_PER_SHARD):
        rows = [_row(record) for record in records[start : start + ROWS_PER_SHARD]]
        hashes.append(
            writer.write(shard_stem("rows", start // ROWS_PER_SHARD), {"rows": rows})["sha256"][:SHORTEST_DIGEST]
        )
    return {"perShard": ROWS_PER_SHARD, "fields": list(ROW_FIELDS), **_hash_pages(writer, "rows", hashes)}


def _best(
    term: str,
    pairs_by_field: dict[str, list[tuple[int, float]]],
    fields: list[str],
    rows: list[list[Any]],
    ranking: RankingData,
    count: int | None = TOP_ROWS,
) -> list[tuple[int, float]]:
    """(number, score) of the term's best `count` records (None: all), as a one-word
    search ranks them before row evidence: lunr's score, the record prior,
    then the runtime's own rules.evidence_score (the word in the title, an
    intent word's resource types; a lone word names no place beside a topic)."""
    scores: dict[int, float] = {}
    for field in fields:  # lunr adds a one-word query's field scores in field order
        for number, weight in pairs_by_field.get(field, ()):
            scores[number] = scores.get(number, 0) + weight
    in_title = {number for number, _ in pairs_by_field.get("title", ())}
    wanted = ranking.search_terms.intents.get(term, ())
    type_at = ROW_FIELDS.index("resourceType")
    for number in scores:
        base = scores[number] * ranking.prior(number)  # as ranking.scoring's base, so the floats agree
        scores[number] = rules.evidence_score(base, number in in_title, rows[number][type_at] in wanted)
    best = sorted(scores, key=lambda number: rules.rank_key(scores[number], number))[:count]
    return [(number, scores[number]) for number in best]


def _summary(
    pairs_by_field: dict[str, list[tuple[int, float]]],
    fields: list[str],
    ranked: list[tuple[int, float]],
    profile_of: list[int],
    members: list[tuple[tuple[str, ...], ...]],
) -> dict[str, Any]:
    """What a one-word search shows of a common word without scoring its records
    (data_format: POSTING_SUMMARY): its records per profile; its best records
    (`ranked`: all of them, best first), that is the best SUMMARY_BEST and the
    best SUMMARY_VALUE_BEST of each value of the SUMMARY_VALUE_FIELDS
    (`members`: each record's values of those fields), in rank order, with
    their scores and the fields holding the word in each."""
    tally = Counter(profile_of[number] for number, _ in ranked)
    chosen = {number for number, _ in ranked[:SUMMARY_BEST]}
    for at in range(len(SUMMARY_VALUE_FIELDS)):
        taken: Counter[str] = Counter()
        for number, _ in ranked:
            for value in members[number][at]:
                if taken[value] < SUMMARY_VALUE_BEST:
                    taken[value] += 1
                    chosen.add(number)
    pool = [(number, score) for number, score in ranked if number in chosen]
    holding = {field: {number for number, _ in pairs_by_field.get(field, ())} for field in fields}
    return {
        SUMMARY_TALLY: [value for profile in sorted(tally) for value in (profile, tally[profile])],
        SUMMARY_NUMBERS: [number for number, _ in pool],
        SUMMARY_SCORES: [score for _, score in pool],
        SUMMARY_FIELDS: [
            sum(1 << at for at, field in enumerate(fields) if number in holding[field]) for number, _ in pool
        ],
        SUMMARY_GENERAL: min(SUMMARY_BEST, len(ranked)),
        SUMMARY_BY_VALUE: {"fields": list(SUMMARY_VALUE_FIELDS), "best": SUMMARY_VALUE_BEST},
    }


def _postings_shards(
    writer: DataWriter,
    postings: Postings,
    terms: list[str],
    rows: list[list[Any]],
    ranking: RankingData,
    profile_of: list[int] | None = None,
    members: list[tuple[tuple[str, ...], ...]] | None = None,
) -> list[dict[str, Any]]:
    """Per term: its lunr term index and, per field, (record gaps, weights);
    for a word in at least TOP_ROWS_FROM records, also its best rows; for one
    in SUMMARY_FROM records or more (not an intent word), its summary, the
    rest of whose records' rows go to a pools file of their own, and a
    summary file: its posting without the columns, all a one-word search reads.

    Weights are lunr's (govsearch_build/postings.py): the term's boosted BM25
    score in that record's field, which is all lunr's similarity needs.
    """
    shards, current, counted, size, pools, summarised_count = [], {}, {}, 0, 0, 0
    summary_files: dict[str, dict[str, Any]] = {}  # the current shard's summarised words' summary files
    for term in terms:
        pairs_by_field = postings.of(term)
        fields = {
            field: encode_column([number for number, _ in pairs], [weight for _, weight in pairs])
            for field, pairs in pairs_by_field.items()
        }
        current[term] = counted[term] = {POSTING_TERM_INDEX: postings.term_index(term), POSTING_FIELDS: fields}
        holders = len({number for pairs in pairs_by_field.values() for number, _ in pairs})
        if holders >= TOP_ROWS_FROM:
            summarised = (
                holders >= SUMMARY_FROM
                and profile_of is not None
                and members is not None
                and term not in ranking.search_terms.intents
            )
            best = _best(term, pairs_by_field, postings.fields, rows, ranking, None if summarised else TOP_ROWS)
            current[term] = {**current[term], POSTING_ROWS: [[number, *rows[number]] for number, _ in best[:TOP_ROWS]]}
            if holders >= BUDGETED_ROWS_FROM:
                counted[term] = current[term]
            if summarised and profile_of is not None and members is not None:
                # A new dict, not counted as work: the budget's decisions stay as they were.
                summary = _summary(pairs_by_field, postings.fields, best, profile_of, members)
                carried = {number for number, _ in best[:TOP_ROWS]}
                pooled = [number for number in summary[SUMMARY_NUMBERS] if number not in carried]
                if pooled:
                    rows_file = {"rows": [[number, *rows[number]] for number in pooled]}
                    summary[SUMMARY_ROWS] = writer.write(shard_stem("pools", pools), rows_file)
                    pools += 1
                current[term] = {**current[term], POSTING_SUMMARY: summary}
                # The posting without its columns: what a one-word search reads.
                without_columns = {key: value for key, value in current[term].items() if key != POSTING_FIELDS}
                without_columns[POSTING_COUNT] = sum(map(len, pairs_by_field.values()))
                summary_files[term] = writer.write(shard_stem("summaries", summarised_count), without_columns)
                summarised_count += 1
        size += len(dump(counted[term])) + len(term) + 4
        if size >= POSTINGS_SHARD_BYTES:
            shards.append(_close_shard(writer, len(shards), current, counted, summary_files))
            current, counted, size, summary_files = {}, {}, 0, {}
    if current:
        shards.append(_close_shard(writer, len(shards), current, counted, summary_files))
    return shards


def _close_shard(
    writer: DataWriter,
    number: int,
    terms: dict[str, Any],
    counted: dict[str, Any],
    summary_files: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    """The shard's entry, with its `work` (its size as the work budget
    counts it: TOP_ROWS_FROM) and its summarised words' summary files."""
    entry = writer.write(shard_stem("postings", number), {"terms": terms}, len(terms))
    return {
        "first": next(iter(terms)),
        **entry,
        "work": len(dump({"terms": counted})),
        POSTING_SUMMARY_FILES: summary_files,
    }


def _id_shards(writer: DataWriter, number_of: dict[str, Any], folder: str = "ids") -> list[dict[str, Any]]:
    ids = sorted(number_of)
    shards = []
    for start in range(0, len(ids), IDS_PER_SHARD):
        chunk = ids[start : start + IDS_PER_SHARD]
        entry = writer.write(
            shard_stem(folder, start // IDS_PER_SHARD),
            {"ids": {record_id: number_of[record_id] for record_id in chunk}},
            len(chunk),
        )
        shards.append({"first": chunk[0], **entry})
    return shards


def _identifier_shards(writer: DataWriter, records: list[Record]) -> list[dict[str, Any]]:
    """Identifier key -> record numbers (govsearch.ranking.identifier_keys), in key-range shards."""
    numbers: dict[str, list[int]] = defaultdict(list)
    for number, record in enumerate(records):
        for key in sorted(identifier_keys(record.data)):
            numbers[key].append(number)
    return _id_shards(writer, numbers, "identifiers")
