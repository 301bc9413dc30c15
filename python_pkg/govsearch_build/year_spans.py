"""Spans of two years, however the records write them, are one phrase to search.

GOV.UK writes a tax or financial year "2025 to 2026"; departments' statistics
write "2025-26", "2025/26" or "2025-2026". lunr reads these as different words
("2025/26" is one token, "2025-26" the tokens "2025" and "26"), so a visitor's
"council tax increase 2025/26" found only the few records writing it with a
slash, and none of GOV.UK's "2025 to 2026". Each span the records write, in
any of these forms, becomes a synonym group (as the site's own groups and the
acronyms the records define do: docs/ranking.md, class 3), so every spelling
finds the records written in the others.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .records import Record

# A year and the next, as "2025 to 2026", "2025-26", "2025/26", "2025–26" or "2025-2026".
_SPAN = re.compile(r"\b((?:19|20)\d\d)\s*(?:/|-|–|to)\s*((?:19|20)?\d\d)\b")


def spans_written(texts: Iterable[str]) -> list[int]:
    """The first years of the spans `texts` write (the second the year after), in order."""
    found: set[int] = set()
    for text in texts:
        for first, second in _SPAN.findall(text):
            start = int(first)
            if second in (f"{(start + 1) % 100:02d}", str(start + 1)):
                found.add(start)
    return sorted(found)


def year_span_groups(records: Iterable[Record]) -> list[list[str]]:
    """A synonym group of each span the records' titles, summaries or keywords write,
    led by its short form ("2025/26"): the ways a span is written, each once as the
    index reads it ("2025-2026" is "2025 to 2026" there)."""
    texts = (f"{r.data['title']} {r.data['summary']} {' '.join(r.data.get('keywords', []))}" for r in records)
    return [_spellings(start) for start in spans_written(texts)]


def _spellings(start: int) -> list[str]:
    end, short = start + 1, f"{(start + 1) % 100:02d}"
    return [f"{start}/{short}", f"{start}-{short}", f"{start}–{short}", f"{start} to {end}", f"{start}/{end}"]
