"""What a query naming a record's identifier finds: the record itself,
before any word match (the `identifier` tier). An organisation's whole name
is its identifier too: "UK Visas and Immigration" names the body, however
many of its 400 visa pages hold the same words more often."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from . import analysis

_IDENTIFIER = re.compile(r"[a-z0-9][a-z0-9._:-]{2,119}")
_NAME_WORD = re.compile(r"\w+")


def identifier_key(text: str) -> str | None:
    """The lookup key of something that may be an identifier: one run of
    letters, digits and `._:-` holding a digit or a separator (a plain word
    is searched as a word, not looked up)."""
    key = text.strip().lower()
    if not _IDENTIFIER.fullmatch(key) or key.isalpha():
        return None
    return key


def name_key(text: str) -> str | None:
    """The lookup key of a name: its words in lower case, "&" read as "and", one
    space between ("HM Revenue & Customs" -> "hm revenue and customs"). Never
    an identifier's key, which is one run holding a digit or a separator
    (identifier_key): a name's key has a space or letters only. None for a
    name of one letter or two, or of more than 12 words (no body's name)."""
    words = [
        part
        for word in analysis.words(text.replace("&", " and "))
        for part in _NAME_WORD.findall(word.replace("'", ""))
    ]
    key = " ".join(words)
    return key if len(key) > 2 and len(words) <= 12 else None


def identifier_keys(record: Mapping[str, Any]) -> set[str]:
    """Every key a record is found by: its id, the ids of records merged into
    it (`formerIds`), its source's native id, and the last part of its URL's
    path (an ONS dataset id such as cpih01, a data.gov.uk dataset slug); and
    an organisation's name (name_key), which a query naming the body asks for."""
    url_path = str(record.get("url", "")).split("?", 1)[0].split("#", 1)[0].rstrip("/")
    candidates = [
        record["id"],
        *record.get("formerIds", ()),
        str(record.get("source", {}).get("nativeId", "")),
        url_path.rsplit("/", 1)[-1],
    ]
    keys = {key for key in map(identifier_key, candidates) if key}
    name = name_key(record["title"]) if record.get("resourceType") == "organisation" else None
    return keys | {name} if name else keys
