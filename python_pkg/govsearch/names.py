"""Closest exact names for a name that matches none (publisher suggestions).

Comparing a 100-character near miss with difflib against all 1,469
publishers took about half a second per name in the browser, eight names a
call. The names are indexed once by character trigram; a query is compared
only with the CANDIDATES names sharing the most trigrams with it, so a
suggestion costs a few milliseconds whatever the list's length.
"""

from __future__ import annotations

import difflib
from collections import Counter, defaultdict

CANDIDATES = 24  # names difflib compares per request (the work budget)
NAME_CHARS = 100  # the schema's longest publisher name


def _trigrams(text: str) -> set[str]:
    padded = f"  {text} "
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


class NameIndex:
    """Exact names, folded for comparison and indexed by trigram."""

    def __init__(self, names: list[str]):
        self.exact = frozenset(names)
        self.folded = {name.casefold(): name for name in sorted(names)}
        self.keys = list(self.folded)
        self.by_trigram: dict[str, list[int]] = defaultdict(list)
        for number, key in enumerate(self.keys):
            for trigram in _trigrams(key):
                self.by_trigram[trigram].append(number)

    def candidates(self, folded: str) -> list[str]:
        """The CANDIDATES names sharing most trigrams with `folded` (ties: nearer length, then name)."""
        shared: Counter[int] = Counter()
        for trigram in _trigrams(folded):
            shared.update(self.by_trigram.get(trigram, ()))
        ranked = sorted(shared, key=lambda number: (-shared[number], abs(len(self.keys[number]) - len(folded)), number))
        return [self.keys[number] for number in ranked[:CANDIDATES]]

    def closest(self, name: str, count: int = 3, cutoff: float = 0.5) -> list[str]:
        folded = name.casefold()[:NAME_CHARS]
        matches = difflib.get_close_matches(folded, self.candidates(folded), n=count, cutoff=cutoff)
        return [self.folded[match] for match in matches]


_INDEXES: dict[int, tuple[list[str], NameIndex]] = {}


def name_index(names: list[str]) -> NameIndex:
    """The index of this list of names, built once (the list lives as long as its catalogue)."""
    kept = _INDEXES.get(id(names))
    if kept is None or kept[0] is not names:
        kept = _INDEXES[id(names)] = (names, NameIndex(names))
        while len(_INDEXES) > 4:
            _INDEXES.pop(next(iter(_INDEXES)))
    return kept[1]
