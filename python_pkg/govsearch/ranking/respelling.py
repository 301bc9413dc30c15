"""A misspelt word read as the word the person meant, by one edit of what they typed.

The index holds stems, and a typo often breaks the suffix the stemmer would
remove: "popluation" stems to "popluat", three edits from "popul" (what
"population" stems to) and two from "pollut", so comparing stems reads it
as "pollution". Comparing what was typed with real words keeps the
meaning: one transposition turns "popluation" into "population".

Every string one edit (a deletion, transposition, substitution or insertion
of a letter) from the typed word is stemmed; the stems the index holds are
the candidates, and the commonest wins (when the typed word is itself in
a few records, as their own typo, only if it is clearly commoner).
It runs only for a rare word no index term is one edit from, in the fuzzy
tier, which is reached only when the words as typed found too little.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache, partial
from string import ascii_lowercase

from ..loaders import gather
from . import rules
from .analysis import stem_word

_VOWEL = re.compile("[aeiouy]")


def one_edit(word: str) -> set[str]:
    """Every string of letters one edit from `word` (Norvig's four kinds of edit)."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deleted = {left + right[1:] for left, right in splits if right}
    swapped = {left + right[1] + right[0] + right[2:] for left, right in splits if len(right) > 1}
    replaced = {left + char + right[1:] for left, right in splits if right for char in ascii_lowercase}
    inserted = {left + char + right for left, right in splits for char in ascii_lowercase}
    return (deleted | swapped | replaced | inserted) - {word}


def candidate_stems(
    typed: str, own: str, known: Callable[[str], bool], begins: Callable[[str], bool] = lambda prefix: True
) -> list[str]:
    """The index terms (stems the index holds, `known`) of the words one edit
    from `typed`, but its own stem `own`. Porter's stemmer keeps a word's first
    three letters (it rewrites endings), so a word is stemmed only if some
    index term `begins` with them: most of the ~500 strings are not, and
    stemming them all cost what the rest of a search costs."""
    if not _VOWEL.search(typed):
        return []  # no misspelt English word: a code or an acronym ("qvzngthkc"), where the checks cost most
    held = frozenset(prefix for prefix in _edit_prefixes(typed) if begins(prefix))
    stems = sorted(stem for stem in _edit_stems(typed, held) if stem and stem != own)
    # Every stem's postings in one round of downloads (a deferring loader names them all).
    return [stem for stem, holds in zip(stems, gather(*(partial(known, stem) for stem in stems))) if holds]


# A call's words are few, and a call is asked again after each round of downloads (and
# people repeat queries): the last few words' edits and their stems are kept, not stemmed
# again (~1 ms in CPython per word). Each entry holds a few hundred short strings.
KEPT_WORDS = 4


@lru_cache(maxsize=KEPT_WORDS)
def _edits(typed: str) -> tuple[frozenset[str], frozenset[str]]:
    """The strings one edit from `typed`, and their first three letters."""
    edits = frozenset(one_edit(typed))
    return edits, frozenset(word[:3] for word in edits)


def _edit_prefixes(typed: str) -> frozenset[str]:
    return _edits(typed)[1]


@lru_cache(maxsize=KEPT_WORDS)
def _edit_stems(typed: str, held: frozenset[str]) -> frozenset[str]:
    """The stems of the strings one edit from `typed` that begin with a `held` prefix."""
    return frozenset(stem_word(word) for word in _edits(typed)[0] if word[:3] in held)


def meant(own_frequency: int, candidates: Iterable[tuple[str, int]]) -> str | None:
    """The candidate stem the person meant: the commonest (then the first
    alphabetically); for a word the index holds, only if it is in COMMONER
    times as many records (rules.COMMONER)."""
    best = max(candidates, key=lambda item: (item[1], [-ord(char) for char in item[0]]), default=None)
    if best is None or best[1] < max(rules.COMMONER * own_frequency, 1):
        return None
    return best[0]
