"""Other words for the same thing (docs/ranking.md, class 3): in the
any_term tier, where no record holds every word, a word's related words
(the build's table, govsearch_build.related_words: "salary" -> wage,
earnings) also find and rank records, at a lower weight than the word.

Only there: a record holding every word as typed is in a stricter tier and
always comes first, and a query whose words all match somewhere is untouched;
and only while those stricter tiers hold fewer than a first page of records
(rules.RELATED_WHILE_FEWER): past it, related words would order records
after the page, for the rows of the records they bring. Their postings
come carried in their word's (govsearch.format: POSTING_RELATED_POSTINGS),
so searching them downloads nothing of their own.
Measured on the judged set's dev part (docs/meaning.md): a whole tier of
"every word or a related word" before any_term lost (its loose matches
pushed any_term's better ones down); related words inside any_term gained.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import zip_longest

from ..engine import Budget, SearchEngine
from ..terms import Clause
from . import rules
from .analysis import analysed
from .query import Term, has_topic, preference


def alternative_clauses(engine: SearchEngine, budget: Budget, terms: list[Term], clauses: list[Clause]) -> list[Clause]:
    """Optional clauses, at rules.ALTERNATIVE_BOOST, for the related terms of
    the tier's topic words that the tier does not search already; each while
    what is left of the call's work budget affords it, within their own
    share of it (rules.ALTERNATIVES words, ALTERNATIVE_POSTINGS postings: a
    related word is a guess, worth a few shards to download, not a common
    word's thousands of records; both counted alike in either layout). They
    are not the person's words: one left out needs no notice."""
    searched = {clause.term for clause in clauses}
    topic = has_topic(terms)
    # Each word's nearest related word first, then each word's second...: the call's
    # few (rules.ALTERNATIVES) go to every word before any word's farther ones.
    ranked = zip_longest(*(_related(engine, term, clause, topic) for term, clause in zip(terms, clauses)))
    wanted: list[Clause] = []
    for other in (other for row in ranked for other in row if other):
        if other not in searched and len(wanted) < rules.ALTERNATIVES:
            searched.add(other)
            wanted.append(Clause(other, "optional", boost=rules.ALTERNATIVE_BOOST, related=True))
    if not wanted:
        return []
    counts = engine.matcher.postings(wanted, budget)
    share = rules.ALTERNATIVE_POSTINGS
    kept = []
    for clause, reach in zip(wanted, counts):
        if reach <= min(budget.postings, share):
            kept.append(clause)
            budget.postings -= reach
            share -= reach
    return kept


def with_alternatives(engine: SearchEngine, words: list[tuple[Term, Clause]], searched: set[str]) -> list[Clause]:
    """Each of the query's `words` (its topic, no preferences) with those of
    its related terms the tier `searched` (alternative_clauses: what the
    budget afforded) as alternatives: a record holding one of them holds the
    word, for the tier's coverage."""
    return [
        replace(clause, alternatives=tuple(t for t in _related(engine, term, clause, True) if t in searched))
        for term, clause in words
    ]


def _related(engine: SearchEngine, term: Term, clause: Clause, topic: bool) -> tuple[str, ...]:
    """The word's related terms; none for an intent word or place (they rank,
    not find), a synonym group (its own set of words), a prefix (still being
    typed), or a word read as another (a typo's reading is a guess already:
    the related words of a guess would be a guess of a guess)."""
    if term.prefix or term.synonym or preference(term, topic) or clause.wildcard or clause.edit_distance:
        return ()
    if analysed(term.typed) != ((term.typed, term.indexed),):
        return ()
    return engine.matcher.related(clause.term)
