"""A query about where the asker is ("libraries near me", "crime in my area",
"flood risk for my postcode") that names no place: the search cannot know
where they are, so its answer is the whole country's records. The answer
says so (tools.py: notice `place_not_named`), so a person adds a town and an
agent asks for one, instead of reading national records as local ones."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .query import Term

# The asker's own whereabouts, as people write them; "near Leeds" names a place instead.
_HERE = re.compile(
    r"\b(?:near(?:by|est)?\s+(?:me|us|here|my\s+\w+)|nearby|nearest|closest|(?:around|local\s+to)\s+(?:me|us|here)"
    r"|my\s+(?:local|area|town|city|street|road|village|neighbourhood|postcode|post\s+code)|where\s+i\s+live)\b",
    re.IGNORECASE,
)


def asks_for_here(text: str, terms: Sequence[Term]) -> bool:
    """Whether the query asks about the asker's own place without naming one the estate knows."""
    return _HERE.search(text) is not None and not any(term.place for term in terms)
