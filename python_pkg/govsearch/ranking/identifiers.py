"""What a query naming a record's identifier finds: the record itself,
before any word match (the `identifier` tier)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_IDENTIFIER = re.compile(r"[a-z0-9][a-z0-9._:-]{2,119}")


def identifier_key(text: str) -> str | None:
    """The lookup key of something that may be an identifier: one run of
    letters, digits and `._:-` holding a digit or a separator (a plain word
    is searched as a word, not looked up)."""
    key = text.strip().lower()
    if not _IDENTIFIER.fullmatch(key) or key.isalpha():
        return None
    return key


def identifier_keys(record: Mapping[str, Any]) -> set[str]:
    """Every key a record is found by: its id, the ids of records merged into
    it (`formerIds`), its source's native id, and the last part of its URL's
    path (an ONS dataset id such as cpih01, a data.gov.uk dataset slug)."""
    url_path = str(record.get("url", "")).split("?", 1)[0].split("#", 1)[0].rstrip("/")
    candidates = [
        record["id"],
        *record.get("formerIds", ()),
        str(record.get("source", {}).get("nativeId", "")),
        url_path.rsplit("/", 1)[-1],
    ]
    return {key for key in map(identifier_key, candidates) if key}
