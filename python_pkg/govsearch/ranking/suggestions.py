"""What a result says about itself: which fields hold which query words,
the words the fuzzy tier corrected, and "did you mean" spelt as the results spell it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..engine import SearchEngine, holds
from ..terms import Clause
from . import rules
from .analysis import analysed
from .query import Term


def matched_fields(
    engine: SearchEngine, terms: list[Term], clauses: list[Clause], number: int
) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Which fields hold which query words in one record, and the index term
    each corrected word matched instead of its own, by the word as typed."""
    matched: dict[str, list[str]] = {}
    corrected: dict[str, tuple[int, str]] = {}
    for term, clause in zip(terms, clauses):
        own = analysed(term.typed)
        for indexed, holding in _holding(engine, clause, number):
            for name in holding:
                if term.typed not in matched.setdefault(name, []):
                    matched[name].append(term.typed)
            if holding and not term.synonym and not term.prefix and own and indexed != own[0][1]:
                # The correction the record shows most plainly: in its title before its body.
                found = (rules.FIELDS.index(holding[0]), indexed)
                corrected[term.typed] = min(corrected.get(term.typed, found), found)
    return {name: matched[name] for name in rules.FIELDS if name in matched}, {
        typed: indexed for typed, (_, indexed) in corrected.items()
    }


def _holding(engine: SearchEngine, clause: Clause, number: int) -> list[tuple[str, list[str]]]:
    """Each index term the clause reaches and the fields holding it in the record."""
    known = engine.matcher.known_fields(clause, number)
    if known is not None:
        return [(clause.term, known)]
    return [
        (indexed, [name for name in rules.FIELDS if holds(fields.get(name, ()), number)])
        for indexed, fields in engine.matcher.members(clause, list(rules.FIELDS)).items()
    ]


def suggestion(
    query: str, corrected: dict[str, str], rows: Sequence[Mapping[str, Any]], places: Mapping[str, str] | None = None
) -> str | None:
    """The query with each corrected word as the results spell it ("did you mean"),
    and each word read as a place (`places`: typed -> the place, nearby.places_respelt) as the place.

    The index holds stems ("popul"), which are no words to offer a person: a
    corrected word is spelt as the results' titles, summaries or publishers
    spell it, and with no result spelling it there is no suggestion. Of the
    words they hold of that stem, the one nearest the typed word: "renewel"
    is "renewal", though "Renew or replace your passport" comes first.
    """
    if not corrected and not places:
        return None
    spelt: dict[str, list[str]] = {}
    for row in rows:
        for text in (row.get("title", ""), row.get("summary", ""), row.get("publisher", "")):
            for typed, indexed in analysed(text):
                forms = spelt.setdefault(indexed, [])
                if typed.lower() not in forms:
                    forms.append(typed.lower())
    words = []
    for word in query.split():
        typed = analysed(word)
        if places and typed and typed[0][0] in places:
            words.append(places[typed[0][0]])
        elif typed and typed[0][0] in corrected:
            forms = spelt.get(corrected[typed[0][0]])
            if not forms:
                return None
            nearest = min(forms, key=lambda form: _distance(word.lower(), form))
            if not _a_spelling_of(typed[0][0], nearest):
                return None
            words.append(nearest)
        else:
            words.append(word)
    return " ".join(words)


def _a_spelling_of(typed: str, word: str) -> bool:
    """Whether `word` could be what was meant by `typed`: most letters of the longer of the two
    in order in both (rules.SPELLING_KEEPS). A word the index lacks reached by the fuzzy tier's
    edits of its stem can be another word, and "did you mean" then changed what was asked:
    "tree preservation order harrogate" was offered "... harlow", "camden" "cadets"."""
    return _common(typed, word) >= rules.SPELLING_KEEPS * max(len(typed), len(word))


def _common(a: str, b: str) -> int:
    """The longest common subsequence's length: letters in both, in order."""
    row = [0] * (len(b) + 1)
    for char in a:
        previous = 0
        for j, other in enumerate(b, 1):
            previous, row[j] = row[j], previous + 1 if char == other else max(row[j], row[j - 1])
    return row[-1]


def _distance(a: str, b: str) -> int:
    """Levenshtein distance: insertions, deletions and substitutions."""
    row = list(range(len(b) + 1))
    for i, char in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, other in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (char != other))
    return row[-1]
