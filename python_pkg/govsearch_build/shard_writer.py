"""The sharded layout's directory (govsearch.format: sharded layout): the
vocabulary, the series, postings, records, rows, ids and identifiers
shards, and the pages that list them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from govsearch.format import encode_gaps, encode_vocabulary, keys, listed_shard_path, page_folder, shard_stem
from govsearch.ranking import RankingData, identifier_keys, series

from .data_files import ROW_FIELDS, DataWriter, facet_members, newest_of, result_rows, stored_record
from .postings import Postings
from .postings_writer import SUMMARY_VALUE_FIELDS, postings_shards
from .records import Record

RECORDS_PER_SHARD = 32
# A query's results are scattered over the record numbers (a dozen or more
# shards for 20 results), so the rows a result shows live apart from full
# records, in shards a quarter of the bytes.
ROWS_PER_SHARD = 16
# The records our authors wrote (curated and annotated) fill about half of the
# answers' places (docs/architecture.md), scattered over the numbering by
# title: their rows also come in a few files the worker reads while idle, so a
# later answer's rows for them need no row shard. Capped, as the first visit
# pays for them after its first answer (about 1,950 rows, 160 KB gzipped at
# full estate).
AHEAD_ROWS = 4096
AHEAD_PER_FILE = 512
IDS_PER_SHARD = 500
PAGE = 256


def write_shards(
    writer: DataWriter,
    postings: Postings,
    records: list[Record],
    ranking: RankingData | None = None,
    profile_of: list[int] | None = None,
    related: Mapping[str, list[str]] | None = None,
) -> dict[str, Any]:
    """Split what lunr's scoring reads into shards; return the directory.
    `profile_of` (each record's profile): common words get summaries;
    `related`: each term's related terms, kept in its posting."""
    number_of = {record.id: number for number, record in enumerate(records)}
    terms = postings.terms()
    rows = result_rows(records)
    members = [tuple(facet_members(record, field) for field in SUMMARY_VALUE_FIELDS) for record in records]
    return {
        keys.DIRECTORY_FIELDS: list(postings.fields),
        keys.VOCABULARY: writer.write(keys.VOCABULARY, {keys.TERMS: encode_vocabulary(terms)}, len(terms)),
        keys.SERIES: _series_file(writer, rows),
        keys.POSTINGS: _key_pages(
            writer,
            keys.POSTINGS,
            postings_shards(writer, postings, terms, rows, ranking or RankingData({}), profile_of, members, related),
        ),
        keys.RECORDS: _record_shards(writer, records),
        keys.ROWS: _row_shards(writer, records, rows),
        keys.IDS: _key_pages(writer, keys.IDS, _id_shards(writer, number_of)),
        keys.IDENTIFIERS: _key_pages(writer, keys.IDENTIFIERS, _identifier_shards(writer, records)),
    }


def _series_file(writer: DataWriter, rows: list[list[Any]]) -> dict[str, Any]:
    """The record numbers of each group of two or more records, as the
    answer groups them (ranking.series.group_of of their rows), each list
    as its first number and the gaps after it; and each older dated
    edition's newest edition (keys.SERIES_NEWEST)."""
    members: dict[Any, list[int]] = {}
    for number, row in enumerate(rows):
        key = series.group_of(dict(zip(ROW_FIELDS, row)))
        if key is not None:
            members.setdefault(key, []).append(number)
    groups = [numbers for numbers in members.values() if len(numbers) > 1]
    newest = {number: newest_of(row) for number, row in enumerate(rows) if newest_of(row) is not None}
    table = {
        keys.SERIES: list(map(encode_gaps, groups)),
        keys.SERIES_NEWEST: [encode_gaps(list(newest)), list(newest.values())],
    }
    return writer.write(keys.SERIES, table, len(groups))


def _record_shards(writer: DataWriter, records: list[Record]) -> dict[str, Any]:
    hashes = [
        _listed(
            writer,
            keys.RECORDS,
            start // RECORDS_PER_SHARD,
            {keys.RECORDS: [stored_record(r) for r in records[start : start + RECORDS_PER_SHARD]]},
        )
        for start in range(0, len(records), RECORDS_PER_SHARD)
    ]
    return {keys.PER_SHARD: RECORDS_PER_SHARD, **_hash_pages(writer, keys.RECORDS, hashes)}


def _hash_pages(writer: DataWriter, kind: str, hashes: list[str]) -> dict[str, Any]:
    """Record or row shards' hashes in pages of PAGE (govsearch.format: hash pages): the directory lists the pages."""
    pages = [
        writer.write(shard_stem(page_folder(kind), start // PAGE), {keys.SHA256: hashes[start : start + PAGE]})
        for start in range(0, len(hashes), PAGE)
    ]
    return {
        keys.PER_PAGE: PAGE,
        keys.SHARD_COUNT: len(hashes),
        keys.PAGES: [page[keys.SHA256][: keys.SHORTEST_DIGEST] for page in pages],
    }


def _key_pages(writer: DataWriter, kind: str, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Key-range shards' entries in pages of PAGE (govsearch.format: key pages): the directory lists each page's first key."""
    firsts, hashes = [], []
    for start in range(0, len(entries), PAGE):
        chunk = entries[start : start + PAGE]
        for number, entry in enumerate(chunk, start):
            assert entry[keys.PATH] == listed_shard_path(kind, number, entry[keys.SHA256]), entry[keys.PATH]
        page = writer.write(
            shard_stem(page_folder(kind), start // PAGE),
            {
                keys.FIRST: [entry[keys.FIRST] for entry in chunk],
                keys.SHA256: [entry[keys.SHA256][: keys.SHORTEST_DIGEST] for entry in chunk],
                keys.SIZE: [entry[keys.SIZE] for entry in chunk],
                **({keys.WORK: [entry[keys.WORK] for entry in chunk]} if keys.WORK in chunk[0] else {}),
                **(
                    {keys.POSTING_SUMMARY_FILES: [entry[keys.POSTING_SUMMARY_FILES] for entry in chunk]}
                    if any(entry.get(keys.POSTING_SUMMARY_FILES) for entry in chunk)
                    else {}
                ),
            },
        )
        firsts.append(chunk[0][keys.FIRST])
        hashes.append(page[keys.SHA256][: keys.SHORTEST_DIGEST])
    return {keys.PER_PAGE: PAGE, keys.FIRST: firsts, keys.PAGES: hashes}


def _row_shards(writer: DataWriter, records: list[Record], rows: list[list[Any]]) -> dict[str, Any]:
    hashes = [
        _listed(writer, keys.ROWS, start // ROWS_PER_SHARD, {keys.ROWS: rows[start : start + ROWS_PER_SHARD]})
        for start in range(0, len(rows), ROWS_PER_SHARD)
    ]
    authored = [number for number, record in enumerate(records) if record.authored][:AHEAD_ROWS]
    ahead = [
        _listed(
            writer,
            keys.AHEAD,
            start // AHEAD_PER_FILE,
            {keys.ROWS: [[n, *rows[n]] for n in authored[start : start + AHEAD_PER_FILE]]},
        )
        for start in range(0, len(authored), AHEAD_PER_FILE)
    ]
    return {
        keys.PER_SHARD: ROWS_PER_SHARD,
        keys.DIRECTORY_FIELDS: list(ROW_FIELDS),
        **_hash_pages(writer, keys.ROWS, hashes),
        keys.AHEAD: ahead,
    }


def _listed(writer: DataWriter, folder: str, number: int, content: dict[str, Any]) -> str:
    """Write file `number` of a folder the directory lists by hash alone
    (listed_shard_path: records, rows, rows read ahead); its hash as listed."""
    return writer.write(shard_stem(folder, number), content)[keys.SHA256][: keys.SHORTEST_DIGEST]


def _id_shards(writer: DataWriter, number_of: dict[str, Any], folder: str = keys.IDS) -> list[dict[str, Any]]:
    ids = sorted(number_of)
    shards = []
    for start in range(0, len(ids), IDS_PER_SHARD):
        chunk = ids[start : start + IDS_PER_SHARD]
        entry = writer.write(
            shard_stem(folder, start // IDS_PER_SHARD),
            {keys.IDS: {record_id: number_of[record_id] for record_id in chunk}},
            len(chunk),
        )
        shards.append({keys.FIRST: chunk[0], **entry})
    return shards


def _identifier_shards(writer: DataWriter, records: list[Record]) -> list[dict[str, Any]]:
    """Identifier key -> record numbers (govsearch.ranking.identifier_keys), in key-range shards."""
    numbers: dict[str, list[int]] = defaultdict(list)
    for number, record in enumerate(records):
        for key in sorted(identifier_keys(record.data)):
            numbers[key].append(number)
    return _id_shards(writer, numbers, keys.IDENTIFIERS)
