"""The data the browser runtime loads: index, record store, facets, tools, manifest.

The index is built by lunr.py. Small sites ship it whole, as a standard lunr
2.3.9 serialisation (lunr.js can load the same file); large sites ship it
split into shards (see govsearch/sharded/) so a query fetches only what it
needs. Every data file gets a content-hashed name; the manifest, fetched
fresh, vouches for the top-level files with sha256 and size, and the shard
directory vouches for the shards. The layout's names, keys and codecs are
defined once, with the runtime that reads them, in govsearch/format/.

Records are numbered in (title, id) order, which makes that the tie-break of
equal scores in every layout.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from lunr import get_default_builder, lunr
from lunr.builder import Builder
from lunr.index import Index

from govsearch.engine import DIMENSIONS
from govsearch.format import (
    CODES,
    FORMAT,
    INDEX_RELATED,
    MANIFEST,
    POSTINGS,
    PROFILE_CHUNKS,
    RECORDS,
    ROWS,
    SHA256,
    SHARDED,
    SHORTEST_DIGEST,
    SINGLE,
    SIZE,
    decode_codes,
    page_folder,
    profile_table,
    shard_stem,
)
from govsearch.ranking import RankingData, flag_code, rules
from govsearch.ranking.analysis import PIPELINE
from govsearch.ranking.series import LOCAL_AUTHORITY
from govsearch.ranking.vocabulary import NO_SEARCH_TERMS, SearchTerms
from govsearch.tools import tool_definitions

from .acronyms import defined_acronyms, other_meanings
from .compounds import find_compounds, other_spellings
from .config import SiteConfig
from .data_files import DataWriter, dump, facet_value, stored_record
from .most_visited import visited
from .places import gazetteer, gazetteer_areas, place_names, town_areas
from .postings import Postings
from .records import Record
from .related_words import related_for, word_usage
from .shard_writer import write_shards
from .year_spans import year_span_groups

# lunr's BM25 over the boosted fields of govsearch.ranking.rules.FIELD_BOOSTS.
FIELDS = tuple({"field_name": name, "boost": boost} for name, boost in rules.FIELD_BOOSTS.items())
SHARDED_FROM = 5_000  # records; below this one file of each kind is smaller and faster
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
EMPTY: Mapping[str, str] = {}


def index_document(
    record: Record,
    search_terms: SearchTerms = NO_SEARCH_TERMS,
    compounds: Mapping[str, str] = EMPTY,
) -> dict[str, str]:
    """The text lunr indexes. A field holding a phrase of a synonym group also
    gets the group's token (terms.GROUP_MARK), so a query holding any phrase
    of the group finds it, in that field; a field holding a compound of
    `compounds` in one spelling ("well-being") also gets the other ("wellbeing")."""
    data = record.data
    document = {
        "id": data["id"],
        "title": data["title"],
        "publisher": data["publisher"],
        "keywords": " ".join(data.get("keywords", [])),
        "summary": _our_summary_topic(data),
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
    return document


_WORD = re.compile(r"\w+")
# How a summary in our words opens: a verb about the page, not its topic ("Walks through applying
# for a UK visa" is no walk, "Works out child maintenance" no work, "Lists the ..." no listed building).
# An export's summary is not ours: "Points showing the location of tree preservation orders".
_FRAMING = re.compile(
    r"^\s*(?:Explains|Lets|Helps|Points|Lists|Describes|Gives|Returns|Guides|Shows|Tells"
    r"|Sets\s+out|Works\s+out|Walks\s+(?:you\s+)?through)(?=\s)"
)
_OUR_WORDS = frozenset({"curated", "annotated"})


def _our_summary_topic(data: Mapping[str, Any]) -> str:
    """The summary as lunr indexes it: one in our words without the verb it opens with."""
    ours = (data.get("source") or {}).get("kind") in _OUR_WORDS
    return _FRAMING.sub("", data["summary"]) if ours else data["summary"]


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


def _usage(records: list[Record]) -> Mapping[str, int]:
    """How often the records' text uses each word: which sense of a stem related words follow."""
    return word_usage(
        " ".join([r.data["title"], r.data["summary"], " ".join(r.data.get("keywords", [])), r.body]) for r in records
    )


def vocabulary_of(config: SiteConfig, records: list[Record]) -> dict[str, list[Any]]:
    """The site's synonym groups with the acronyms its records define, and those of their
    acronyms the records also give another meaning (acronyms.other_meanings): worked out
    once a build, for the index and the ranking file alike."""
    groups = synonym_groups(config, records)
    return {"synonyms": groups, "ambiguous": other_meanings(records, groups)}


def search_terms_of(
    config: SiteConfig, records: list[Record] | None = None, vocabulary: Mapping[str, list[Any]] | None = None
) -> SearchTerms:
    vocabulary = vocabulary or vocabulary_of(config, records or [])
    return SearchTerms.from_lists(
        vocabulary["synonyms"],
        {word: list(types) for word, types in config.intents},
        leading=config.leading_intents,
        fillers=config.fillers,
        optional=config.optional_words,
        openings=dict(config.openings),
        common=config.common_words,
        framing=config.framing_words,
        ambiguous=vocabulary["ambiguous"],
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
    kind = record.kind
    host = urlsplit(data["url"]).hostname or ""
    flags = []
    # An annotated record's words are ours but its facts are the export's, unchecked.
    if kind == "curated" or data["collection"] == "deep-evidence" or "evidence" in data:
        flags.append("reviewed")
    if host == "www.gov.uk" or host.endswith(".service.gov.uk"):
        flags.append("official_page")
    if kind == "api-catalogue":
        flags.append("national_api_catalogue")
    # A body's own record is no row of its catalogue; and "council" names national bodies too
    # (Arts Council England, the Medical Research Council), whose records are organisations.
    if LOCAL_AUTHORITY.search(data["publisher"]) and data["resourceType"] != "organisation":
        flags.append("local_authority_row")
    if _FORMAT_TITLE.match(data["title"]):
        flags.append("format_only_title")
    if data["accessStatus"] == "restricted":
        flags.append("restricted_access")
    return flags


def synonym_groups(config: SiteConfig, records: list[Record]) -> list[list[str]]:
    """The site's synonym groups, then the acronyms its records define (govsearch_build.acronyms)
    and the spans of years they write (govsearch_build.year_spans)."""
    own = [list(group) for group in config.synonyms]
    return own + defined_acronyms(records, [phrase for group in own for phrase in group]) + year_span_groups(records)


def ranking_data(
    config: SiteConfig, records: list[Record], vocabulary: Mapping[str, list[Any]] | None = None
) -> dict[str, Any]:
    """What the re-ranker reads: every record's flags (one character each, by
    number; written into the facet profiles, not the ranking file), the
    site's synonym groups, intent words, filler words and question openings, the estate's
    place names and the council areas of its towns (govsearch_build.places), and the records on GOV.UK's most
    visited pages with their places there (govsearch_build.most_visited)."""
    places = place_names(records, gazetteer(), gazetteer_areas())
    vocabulary = vocabulary or vocabulary_of(config, records)
    return {
        "flags": "".join(flag_code(record_flags(record)) for record in records),
        "visited": visited(records),
        "search": {
            # The groups, and their acronyms the records also define with another meaning (SearchTerms.guarded).
            **vocabulary,
            "intents": {word: list(types) for word, types in config.intents},
            "leading_intents": list(config.leading_intents),
            "fillers": list(config.fillers),
            "optional_words": list(config.optional_words),
            "common_words": list(config.common_words),
            "framing_words": list(config.framing_words),
            "openings": dict(config.openings),
            "places": places,
            "areas": town_areas(records, gazetteer_areas(), places),
        },
    }


def in_number_order(records: Iterable[Record]) -> list[Record]:
    return sorted(records, key=lambda record: (record.data["title"], record.id))


def build_index(
    records: list[Record],
    search_terms: SearchTerms = NO_SEARCH_TERMS,
    compounds: Mapping[str, str] = EMPTY,
) -> Index:
    """lunr.py index over records already in number order (posting order follows it)."""
    documents = [index_document(r, search_terms, compounds) for r in records]
    return lunr(ref="id", fields=list(FIELDS), documents=documents, builder=index_builder())


def index_builder() -> Builder:
    """lunr.py's builder, indexing with the runtime's pipeline (its stemmer mends one
    of Porter's splits). The serialised search pipeline stays lunr's `stemmer`, so
    lunr.js loads the file; but a query run through it ("unemployment" to
    "unemploy") misses the mended terms: the runtime gives lunr final terms, and
    any other reader of the index must stem with govsearch.ranking.analysis."""
    builder = get_default_builder()
    builder.pipeline = PIPELINE
    return builder


def compounds_of(records: Iterable[Record]) -> dict[str, str]:
    """The hyphenated compounds the records write (govsearch_build.compounds)."""
    data = (record.data for record in records)
    return find_compounds(text for d in data for text in (d["title"], d["summary"], " ".join(d.get("keywords", []))))


def facet_table(
    writer: DataWriter, records: list[Record], flags: str, per_chunk: int | None = None
) -> tuple[dict[str, Any], list[int]]:
    """The facets file (govsearch.format.profile_table): per dimension its distinct
    values, every profile, and each record's profile code; inline, or (with
    `per_chunk`) in chunk files by record number that the file vouches for.
    And each record's profile."""
    columns = {}
    for field in DIMENSIONS.values():
        of_record = [facet_value(record, field) for record in records]
        # single values first, then the lists of a record's several collections
        values = sorted(set(of_record), key=lambda value: (isinstance(value, tuple), value))
        code = {value: number for number, value in enumerate(values)}
        shown = [list(value) if isinstance(value, tuple) else value for value in values]
        columns[field] = (shown, [code[value] for value in of_record])
    table, chunks, profile_of = profile_table(columns, decode_codes(flags, 1), per_chunk)
    if per_chunk is not None:
        table[RECORDS][SHA256] = [
            writer.write(shard_stem(PROFILE_CHUNKS, number), {CODES: codes})[SHA256][:SHORTEST_DIGEST]
            for number, codes in enumerate(chunks)
        ]
    return table, profile_of


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
    vocabulary = vocabulary_of(config, ordered)
    search_terms = search_terms_of(config, ordered, vocabulary)
    compounds = compounds_of(ordered)
    ranking = ranking_data(config, ordered, vocabulary)
    chunked = PROFILES_PER_CHUNK if layout == SHARDED else None
    up_front: list[dict[str, Any]] = []
    facets, profile_of = facet_table(writer, ordered, ranking["flags"], chunked)
    files = {
        "facets": writer.write("facets", facets, len(ordered)),
        "ranking": writer.write("ranking", {"search": ranking["search"], "visited": ranking["visited"]}),
    }
    if layout == SHARDED:
        postings = Postings.build((index_document(r, search_terms, compounds) for r in ordered), list(FIELDS))
        words = related_for(postings.terms(), usage=_usage(ordered))
        files["directory"] = writer.write(
            "directory", write_shards(writer, postings, ordered, RankingData(ranking), profile_of, words), len(ordered)
        )
        up_front = small_indexes(writer.written)
    else:
        index = build_index(ordered, search_terms, compounds)
        words = related_for(index.inverted_index, usage=_usage(ordered))
        files["index"] = writer.write("index", {**index.serialize(), INDEX_RELATED: words}, len(ordered))
        files[RECORDS] = writer.write(RECORDS, {RECORDS: [stored_record(r) for r in ordered]}, len(ordered))
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
    wanted = (f"{PROFILE_CHUNKS}/", f"{page_folder(POSTINGS)}/", f"{page_folder(ROWS)}/")
    chosen = [entry for stem, entry in written if stem.startswith(wanted)]
    return chosen if sum(entry[SIZE] for entry in chosen) <= UP_FRONT_BYTES else []
