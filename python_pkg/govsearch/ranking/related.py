"""Other words for the same thing (docs/ranking.md, class 3): in the
any_term tier, where no record holds every word, a word's related words
(the build's table, govsearch_build.related_words: "salary" -> wage,
earnings) also find and rank records, at a lower weight than the word.

Only there: a record holding every word as typed is in a stricter tier and
always comes first, and a query whose words all match somewhere is untouched.
Measured on the judged set's dev part (docs/meaning.md): a whole tier of
"every word or a related word" before any_term lost (its loose matches
pushed any_term's better ones down); related words inside any_term gained.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from itertools import zip_longest

from ..engine import Budget, SearchEngine
from ..terms import Clause
from . import rules
from .analysis import analysed
from .query import Term, clauses_for, has_topic, preference


def alternative_clauses(engine: SearchEngine, budget: Budget, terms: list[Term], clauses: list[Clause]) -> list[Clause]:
    """Optional clauses, at rules.ALTERNATIVE_BOOST, for the related terms of
    the tier's topic words that the tier does not search already; each while
    what is left of the call's work budget affords it, within their own
    share of it (rules.ALTERNATIVES words, ALTERNATIVE_POSTINGS postings: a
    related word is a guess, worth a few shards to download, not a common
    word's thousands of records; both counted alike in either layout). They
    are not the person's words: one left out needs no notice."""
    others = _alternatives(terms, clauses, engine.matcher.related)
    wanted = [Clause(other, "optional", boost=rules.ALTERNATIVE_BOOST) for other in others]
    if not wanted:
        return []
    counts, read = engine.matcher.postings(wanted, max(budget.shard_bytes, 0))
    budget.shard_bytes -= read
    share = rules.ALTERNATIVE_POSTINGS
    kept = []
    for clause, reach in zip(wanted, counts):
        if reach <= min(budget.postings, share):
            kept.append(clause)
            budget.postings -= reach
            share -= reach
    return kept


def likely_alternatives(engine: SearchEngine, terms: list[Term]) -> list[str]:
    """The related terms the any_term tier would search for a query of
    several words, if the related table is at hand (read while idle), else
    none: their postings can ride along with a round of downloads the call
    makes anyway (tools: the words' own postings), not a round of their own."""
    if len(terms) < 2:
        return []
    clauses = clauses_for(terms, "any_term")
    at_hand = engine.matcher.related_at_hand
    if any(at_hand(clause.term) is None for clause in clauses):
        return []  # the table has not arrived: the tier reads them from the postings, a round later
    return _alternatives(terms, clauses, lambda term: at_hand(term) or ())


def _alternatives(terms: list[Term], clauses: list[Clause], related: Callable[[str], tuple[str, ...]]) -> list[str]:
    """The related terms the tier searches beside its words (`related`: a
    term's related terms): at most rules.ALTERNATIVES, each word's nearest
    first, then each word's second...: the call's few go to every word
    before any word's farther ones; none the tier searches already."""
    searched = {clause.term for clause in clauses}
    topic = has_topic(terms)
    ranked = zip_longest(*(_related(related, term, clause, topic) for term, clause in zip(terms, clauses)))
    wanted: list[str] = []
    for other in (other for row in ranked for other in row if other):
        if other not in searched and len(wanted) < rules.ALTERNATIVES:
            searched.add(other)
            wanted.append(other)
    return wanted


def with_alternatives(engine: SearchEngine, words: list[tuple[Term, Clause]], searched: set[str]) -> list[Clause]:
    """Each of the query's `words` (its topic, no preferences) with those of
    its related terms the tier `searched` (alternative_clauses: what the
    budget afforded) as alternatives: a record holding one of them holds the
    word, for the tier's coverage."""
    return [
        replace(
            clause, alternatives=tuple(t for t in _related(engine.matcher.related, term, clause, True) if t in searched)
        )
        for term, clause in words
    ]


def _related(related: Callable[[str], tuple[str, ...]], term: Term, clause: Clause, topic: bool) -> tuple[str, ...]:
    """The word's related terms; none for an intent word or place (they rank,
    not find), a synonym group (its own set of words), a prefix (still being
    typed), or a word read as another (a typo's reading is a guess already:
    the related words of a guess would be a guess of a guess)."""
    if term.prefix or term.synonym or preference(term, topic) or clause.wildcard or clause.edit_distance:
        return ()
    if analysed(term.typed) != ((term.typed, term.indexed),):
        return ()
    return related(clause.term)
