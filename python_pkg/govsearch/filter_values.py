"""The `list_filter_values` tool: the exact values each search filter accepts.

Filters are matched exactly, and the full estate has well over a thousand
publishers: an agent that guesses a name gets nothing but a notice. This
tool lets it look the name up first. Counts come from the facet table, by
the same code that counts a search's facets (over every record, with no
filters), so they agree with search facets in every index layout.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from .engine import Matches, SearchEngine
from .validation import echo

if TYPE_CHECKING:
    from .catalogue import Catalogue

DEFAULT_LIMIT = 20
SUGGESTIONS = 5

_counts: WeakKeyDictionary[SearchEngine, dict[str, dict[str, int]]] = WeakKeyDictionary()


def catalogue_counts(engine: SearchEngine) -> dict[str, dict[str, int]]:
    """Records per value of each filter dimension over the whole catalogue,
    most first, then by value; worked out once per opened site from the
    build's count of each profile."""
    if engine not in _counts:
        everything = Matches({})
        everything._tally = engine.facets.catalogue_tally()  # counted at build time: no profile chunk is read
        _counts[engine] = engine.facet_counts(everything, {})
    return _counts[engine]


def list_filter_values(catalogue: Catalogue, arguments: dict[str, Any]) -> dict[str, Any]:
    """Answer an already validated call."""
    dimension = arguments["dimension"]
    limit = int(arguments.get("limit", DEFAULT_LIMIT))
    counts = catalogue_counts(catalogue.engine)[dimension]
    answer: dict[str, Any] = {"ok": True, "dimension": dimension}
    notices: list[dict[str, Any]] = []
    matching = list(counts.items())
    if "prefix" in arguments:
        prefix = arguments["prefix"]
        answer["prefix"] = prefix
        folded = _fold(prefix)
        matching = [(value, count) for value, count in matching if _fold(value).startswith(folded)]
        if not matching:
            notices.append(_no_match(dimension, prefix, folded, counts))
    answer.update(
        limit=limit,
        total=len(matching),
        returned=min(limit, len(matching)),
        values=[{"value": value, "count": count} for value, count in matching[:limit]],
        notices=notices,
    )
    return answer


def _fold(text: str) -> str:
    """Case-insensitive and indifferent to how accents are encoded."""
    return unicodedata.normalize("NFC", text).casefold()


def _no_match(dimension: str, prefix: str, folded: str, counts: dict[str, int]) -> dict[str, Any]:
    """No value starts with the prefix: offer values that contain it anywhere."""
    text = folded.strip()
    inside = [value for value in counts if text and text in _fold(value)][:SUGGESTIONS]
    hint = (
        f" Values that contain it: {'; '.join(inside)}."
        if inside
        else " Try a shorter prefix, or omit it to see the most common values."
    )
    return {
        "code": "no_prefix_match",
        "message": f"No {dimension} value starts with {echo(prefix)} (ignoring case).{hint}",
        "path": "/prefix",
        "suggestions": inside,
    }
