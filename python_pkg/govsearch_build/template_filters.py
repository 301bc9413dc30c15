"""Values written as people read them, for the templates: dates as GOV.UK
writes them, counts with thousands separators, a rule's examples each once,
keywords each once."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
# Keywords that differ only in these are one keyword (distinct_keywords); a slug is how exports tag.
_SEPARATORS = re.compile(r"[\s/_-]+")
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+")


def govuk_date(value: Any) -> str:
    """A date as GOV.UK writes it ("14 July 2026"); anything not a date is shown as it is."""
    match = re.fullmatch(r"(\d{4})-(\d{2})(?:-(\d{2}))?(?:[T ].*)?", str(value or "").strip())
    if not match or not 1 <= int(match.group(2)) <= 12:
        return str(value)
    year, month, day = match.group(1), MONTHS[int(match.group(2)) - 1], match.group(3)
    return f"{int(day)} {month} {year}" if day else f"{month} {year}"


def thousands(value: Any) -> str:
    """A count with thousands separators ("37,816")."""
    try:
        return f"{int(value):,}"
    except (TypeError, ValueError):
        return str(value)


def unique_examples(examples: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """A rule's examples, each change (before and after) shown once: the first
    input that made it, with `also` counting the other inputs that made it too."""
    kept: dict[tuple[str, str], dict[str, Any]] = {}
    for example in examples:
        key = (str(example.get("before")), str(example.get("after") or example.get("action")))
        if key in kept:
            kept[key]["also"] += 1
        else:
            kept[key] = {**example, "also": 0}
    return list(kept.values())


def distinct_keywords(keywords: Iterable[str]) -> list[str]:
    """Each keyword once by its words: an export that tags a record "REST/HTTP" and
    "rest-http", "Government services" and "government-services" says one thing
    twice, and a visitor read the second as the first's raw form. Only case,
    spaces, hyphens, underscores and slashes are read as the same ("C++" is not
    "C"); the form written for people (not a lower-case slug) is kept, in the first's place."""
    kept: dict[str, str] = {}
    for keyword in map(str, keywords):
        words = " ".join(_SEPARATORS.split(keyword.lower())).strip()
        if words not in kept or (_SLUG.fullmatch(kept[words]) and not _SLUG.fullmatch(keyword)):
            kept[words] = keyword
    return list(kept.values())
