"""Hyphenated compounds and their joined spelling are one word to search.

lunr splits "well-being" into "well" and "being", so a record saying
"well-being" was not found by "wellbeing", nor one saying "wellbeing" by
"well-being" (ONS titles its personal well-being statistics with the hyphen;
people type both). The build finds every compound the estate writes with a
hyphen, and each indexed field holding either spelling also gets the other:
"wellbeing" after "well-being", "well being" after "wellbeing". Only the
index changes, so lunr's query parsing and scores stay lunr.js's, and a query
in either spelling finds both.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

# two parts of letters, at least two each, not part of a longer hyphenated run
_HYPHENATED = re.compile(r"(?<![\w-])([A-Za-z]{2,})-([A-Za-z]{2,})(?![\w-])")
_WORD = re.compile(r"[A-Za-z]+")


def find_compounds(texts: Iterable[str]) -> dict[str, str]:
    """Every compound written with a hyphen in `texts`: joined spelling -> its parts."""
    found: dict[str, str] = {}
    for text in texts:
        for first, second in _HYPHENATED.findall(text):
            found.setdefault((first + second).lower(), f"{first.lower()} {second.lower()}")
    return found


def other_spellings(text: str, compounds: Mapping[str, str]) -> list[str]:
    """For each compound `text` holds, its other spelling (joined for a hyphenated
    one, parts for a joined one), each once, in order."""
    if not compounds:
        return []
    added: dict[str, None] = {}
    for first, second in _HYPHENATED.findall(text):
        added.setdefault((first + second).lower())
    for word in _WORD.findall(text):
        parts = compounds.get(word.lower())
        if parts is not None:
            added.setdefault(parts)
    return list(added)
