"""Writing the site's data files: each content-hashed, with the entry that
vouches for it; and what of a record the files hold (stored records, result
rows, facet values)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from govsearch.format import COUNT, PATH, SHA256, SIZE, content_name, keys
from govsearch.ranking.series import newest_editions
from govsearch.tools import RESULT_FIELDS, RESULT_OPTIONAL

from .records import Record

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
ROW_FIELDS = (*RESULT_FIELDS, *RESULT_OPTIONAL, keys.ROW_NEWEST)


def stored_record(record: Record) -> dict[str, Any]:
    stored = {name: record.data[name] for name in STORED_FIELDS if name in record.data}
    if record.body:
        stored["body"] = record.body
    return stored


def result_rows(records: list[Record]) -> list[list[Any]]:
    """What a search result shows of each record, in ROW_FIELDS order (absent
    optional fields as null), and last the number of its series' newest edition."""
    newest = newest_editions([record.data for record in records])
    return [
        [*(record.data.get(field) for field in ROW_FIELDS[:-1]), newest.get(number)]
        for number, record in enumerate(records)
    ]


def newest_of(row: list[Any]) -> int | None:
    """A row's last field (keys.ROW_NEWEST): its series' newest edition, if it is an older
    one. The same for a row carried with its number first ([number, *row])."""
    return row[-1]


def facet_members(record: Record, field: str) -> tuple[str, ...]:
    """The record's values of a filter field, each one a filter naming it passes."""
    value = facet_value(record, field)
    return value if isinstance(value, tuple) else (value,)


def facet_value(record: Record, field: str) -> str | tuple[str, ...]:
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
        entry: dict[str, Any] = {PATH: name, SHA256: digest, SIZE: len(payload)}
        self.written.append((stem, entry))
        if count is not None:
            entry[COUNT] = count
        return entry
