"""The call's work budget (engine.Budget: postings scored, shard bytes
read) spent tier by tier: which of a tier's words it can afford."""

from __future__ import annotations

from ..engine import Budget, SearchEngine
from ..terms import LEADING_TERMS, Clause
from . import rules
from .query import Term


def call_budget() -> Budget:
    """A fresh budget for one call, at the settings of the moment (rules)."""
    return Budget(rules.MAX_POSTINGS, rules.MAX_SHARD_BYTES)


def fit(
    engine: SearchEngine, budget: Budget, terms: list[Term], clauses: list[Clause]
) -> tuple[list[Term], list[Clause]]:
    """The terms and clauses a tier matches within what is left of the
    budget: the query's first LEADING_TERMS words (the required ones, or
    else the optional ones: the commonest left out when they cost too much),
    then its later words in the query's order while what those leave affords
    them, then its leading words that only rank (intent words, places, optional words). The
    words left out join `budget.dropped_words` or, past the leading ones,
    `budget.later_words`, each once."""
    leading, later = clauses[:LEADING_TERMS], clauses[LEADING_TERMS:]
    required = [clause for clause in leading if clause.presence == "required"]
    optional = [clause for clause in leading if clause.presence != "required"]
    budget.dropped, budget.later = [], []
    kept = engine.within_budget(required or optional, budget, after=later)
    dropped = list(budget.dropped)
    if required and optional and kept:
        counts = engine.matcher.postings(optional, budget)
        for clause, reach in zip(optional, counts):
            if reach <= budget.postings:
                kept.append(clause)
                budget.postings -= reach
            else:
                dropped.append(clause)
    typed = {clause: term.typed for term, clause in zip(terms, clauses)}
    for words, cut in ((budget.dropped_words, dropped), (budget.later_words, budget.later)):
        words += [word for word in dict.fromkeys(typed[clause] for clause in cut) if word not in words]
    pairs = [(term, clause) for term, clause in zip(terms, clauses) if clause in kept]
    return [term for term, _ in pairs], [clause for _, clause in pairs]
