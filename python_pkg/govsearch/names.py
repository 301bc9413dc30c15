"""Closest exact names for a name that matches none (publisher suggestions).

Comparing a 100-character near miss with difflib against all 1,469
publishers took about half a second per name in the browser, eight names a
call. The names are indexed once by character trigram (while the worker is idle); a
query is compared with difflib only against the CANDIDATES names most like
it by shared trigrams, so a suggestion costs a few milliseconds whatever
the list's length.
"""

from __future__ import annotations

import difflib
from collections import defaultdict

CANDIDATES = 6  # names difflib compares per request (the work budget)
NAME_CHARS = 100  # the schema's longest publisher name
# Trigrams of a name that gather the names compared with it: its rarest.
# A long near miss shares most of its trigrams with the name it misses, so
# its rarest reach that name; its commonest (" of", "the") reach most of the
# list, and counting them for every name made eight 100-character near
# misses the costliest valid call there was (5x the slowest ordinary one).
GATHERING = 24


def _trigrams(text: str) -> set[str]:
    padded = f"  {text} "
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


class NameIndex:
    """Exact names, folded for comparison and indexed by trigram."""

    def __init__(self, names: list[str]):
        self.exact = frozenset(names)
        self.folded = {name.casefold(): name for name in sorted(names)}
        self.keys = list(self.folded)
        self.trigrams: list[frozenset[str]] = []
        self.by_trigram: dict[str, list[int]] = defaultdict(list)
        for number, key in enumerate(self.keys):
            trigrams = frozenset(_trigrams(key))
            self.trigrams.append(trigrams)
            for trigram in trigrams:
                self.by_trigram[trigram].append(number)

    def candidates(self, folded: str) -> list[str]:
        """The CANDIDATES names most like `folded` by shared trigrams (Dice), best first,
        among the names holding one of its GATHERING rarest trigrams."""
        trigrams = _trigrams(folded)
        held = [self.by_trigram[trigram] for trigram in trigrams if trigram in self.by_trigram]
        gathered = set().union(*sorted(held, key=len)[:GATHERING])
        size = len(trigrams)
        dice = {
            number: 2 * len(trigrams & self.trigrams[number]) / (size + len(self.trigrams[number]))
            for number in gathered
        }
        ranked = sorted(dice, key=lambda number: (-dice[number], number))
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
