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
    """The lookup key of a name of two words or more (`name_words`). Never an
    identifier's key (identifier_key), which holds no space. None for one word
    (a one-word name's own records lead already) or more than 12 (no body's name)."""
    key = name_words(text)
    return key if 2 <= key.count(" ") + 1 <= 12 else None


def name_words(text: str) -> str:
    """A name's words in lower case, "&" read as "and", apostrophes dropped, one space
    between: "HM Revenue & Customs" -> "hm revenue and customs"."""
    words = analysis.words(text.replace("&", " and "))
    return " ".join(part for word in words for part in _NAME_WORD.findall(word.replace("'", "")))


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
