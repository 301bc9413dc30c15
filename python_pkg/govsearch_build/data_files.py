"""The data the browser runtime loads: lunr index, record store, tools, manifest.

The index is a standard lunr 2.3.9 serialisation built by lunr.py, so lunr.js
can load the same file. Data files get content-hashed names; the manifest,
fetched fresh, names them with their sha256, size and record count, and the
runtime refuses any file that does not match.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from lunr import lunr

from govsearch.catalogue import FORMAT, MANIFEST
from govsearch.tools import tool_definitions

from .config import SiteConfig
from .records import Record

# Title counts most, then who publishes it and its keywords, then the summary,
# then the body. Ranking is lunr's BM25 over these boosted fields.
FIELDS = (
    {"field_name": "title", "boost": 10},
    {"field_name": "publisher", "boost": 5},
    {"field_name": "keywords", "boost": 5},
    {"field_name": "summary", "boost": 3},
    {"field_name": "body", "boost": 1},
)
STORED_FIELDS = (
    "id", "title", "summary", "url", "resourceType", "publisher", "accessStatus", "collection",
    "accessNote", "licence", "observed", "updated", "keywords", "documentationUrl", "source", "evidence",
)


def index_document(record: Record) -> dict[str, str]:
    data = record.data
    return {
        "id": data["id"],
        "title": data["title"],
        "publisher": data["publisher"],
        "keywords": " ".join(data.get("keywords", [])),
        "summary": data["summary"],
        "body": record.body,
    }


def stored_record(record: Record) -> dict[str, Any]:
    stored = {name: record.data[name] for name in STORED_FIELDS if name in record.data}
    if record.body:
        stored["body"] = record.body
    return stored


def build_index(records: list[Record]) -> dict[str, Any]:
    return lunr(ref="id", fields=list(FIELDS), documents=[index_document(r) for r in records]).serialize()


def _dump(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=False).encode("utf-8")


def write_data(config: SiteConfig, records: list[Record], data_dir: Path) -> dict[str, Any]:
    """Write every data file and the manifest; return the manifest."""
    data_dir.mkdir(parents=True, exist_ok=True)
    files = {
        "index": (_dump(build_index(records)), len(records)),
        "records": (_dump({"records": [stored_record(r) for r in records]}), len(records)),
    }
    entries = {}
    for role, (payload, count) in files.items():
        digest = hashlib.sha256(payload).hexdigest()
        name = f"{role}.{digest[:12]}.json"
        (data_dir / name).write_bytes(payload)
        entries[role] = {"path": name, "sha256": digest, "size": len(payload), "count": count}
    (data_dir / "tools.json").write_bytes(_dump({"tools": tool_definitions()}))
    manifest = {
        "format": FORMAT,
        "site": {"title": config.title, "url": config.site_url, "basePath": config.base_path},
        "files": entries,
    }
    (data_dir / MANIFEST).write_bytes(_dump(manifest))
    return manifest
