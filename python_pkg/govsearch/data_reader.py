"""Reading the site's data files, each checked against the sha256 that vouches for it.

The manifest vouches for the files it lists; a sharded layout's directory
vouches for its shards. A file that does not match is never used.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from .format import SHORTEST_DIGEST
from .loaders import Loader


class SiteUnavailable(Exception):
    """The site's data is missing, broken or fails its integrity check."""


def read_verified(loader: Loader, entry: Any, role: str) -> Any:
    """Parse the JSON file an entry ({path, sha256, size}) describes, after checking it."""
    return parse(read_verified_bytes(loader, entry, role), entry["path"])


def read_verified_bytes(loader: Loader, entry: Any, role: str) -> bytes:
    """The bytes of the file an entry describes, once they match its size and sha256.

    `sha256` is the hex digest, or at least its first SHORTEST_DIGEST digits.
    """
    if not isinstance(entry, Mapping) or not isinstance(entry.get("path"), str):
        raise SiteUnavailable(f"the data does not describe the {role} file")
    data = read_bytes(loader, entry["path"])
    size_differs = "size" in entry and len(data) != entry["size"]
    expected = entry.get("sha256")
    if not isinstance(expected, str) or len(expected) < SHORTEST_DIGEST:
        raise SiteUnavailable(f"the data does not vouch for {entry['path']} with a sha256")
    if size_differs or hashlib.sha256(data).hexdigest()[: len(expected)] != expected:
        raise SiteUnavailable(f"{entry['path']} failed its integrity check (size or sha256 differs from the manifest)")
    return data


def read_bytes(loader: Loader, name: str) -> bytes:
    try:
        return loader.read(name)
    except OSError as error:
        # The reason alone (an OSError's text names the file's absolute path):
        # the name inside the data folder says which file.
        raise SiteUnavailable(f"cannot read {name}: {error.strerror or error}") from None


def parse(data: bytes, name: str) -> Any:
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raise SiteUnavailable(f"{name} is not valid JSON") from None
