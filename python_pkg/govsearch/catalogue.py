"""A built site's catalogue: opened once, integrity-checked, then queried.

The manifest names every data file with its sha256 and size. A file that does
not match is never used: opening fails closed with `SiteUnavailable`, and the
tools answer `site_unavailable` rather than searching tampered data.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from .engine import SearchEngine
from .loaders import Loader
from .tools import call_tool

MANIFEST = "manifest.json"
FORMAT = "govsearch-site/1"


class SiteUnavailable(Exception):
    """The site's data is missing, broken or fails its integrity check."""


class Catalogue:
    """The records and search engine of one built site."""

    def __init__(self, manifest: dict[str, Any], records: list[dict[str, Any]], engine: SearchEngine):
        self.manifest = manifest
        self.records = {record["id"]: record for record in records}
        self.engine = engine
        site = manifest.get("site", {})
        self.record_base = site.get("url", "").rstrip("/") + site.get("basePath", "/") + "records/"

    @classmethod
    def open(cls, loader: Loader) -> "Catalogue":
        manifest = _read_json(loader, MANIFEST)
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise SiteUnavailable(f"{MANIFEST} is not a {FORMAT} manifest")
        files = manifest.get("files", {})
        records = _read_json(loader, "records", files.get("records"))["records"]
        serialized = _read_json(loader, "index", files.get("index"))
        return cls(manifest, records, SearchEngine.from_serialized(serialized, records))

    def record_url(self, record_id: str) -> str:
        return f"{self.record_base}{record_id}/"

    def call(self, tool: str, arguments: Any, *, prefix_last: bool = False) -> dict[str, Any]:
        """Answer one tool call. Bad arguments give an error result, never an exception."""
        return call_tool(self, tool, arguments, prefix_last=prefix_last)


def _read_json(loader: Loader, role: str, entry: Any = MANIFEST) -> Any:
    """Read one data file: the manifest itself, or one it describes (checked first)."""
    name = entry if entry == MANIFEST else (entry.get("path") if isinstance(entry, dict) else None)
    if not isinstance(name, str):
        raise SiteUnavailable(f"the manifest does not describe the {role} file")
    try:
        data = loader.read(name)
    except OSError as error:
        raise SiteUnavailable(f"cannot read {name}: {error}") from None
    if isinstance(entry, dict):
        if len(data) != entry.get("size") or hashlib.sha256(data).hexdigest() != entry.get("sha256"):
            raise SiteUnavailable(f"{name} failed its integrity check (size or sha256 differs from the manifest)")
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raise SiteUnavailable(f"{name} is not valid JSON") from None
