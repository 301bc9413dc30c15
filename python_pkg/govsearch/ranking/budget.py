"""The call's work budget (engine.Budget: postings scored, shard bytes
read) spent tier by tier: which of a tier's words it can afford."""

from __future__ import annotations

from ..engine import Budget, SearchEngine
from ..terms import Clause
from . import rules
from .query import Term


def call_budget() -> Budget:
    """A fresh budget for one call, at the settings of the moment (rules)."""
    return Budget(rules.MAX_POSTINGS, rules.MAX_SHARD_BYTES)


def fit(
    engine: SearchEngine, budget: Budget, terms: list[Term], clauses: list[Clause]
) -> tuple[list[Term], list[Clause]]:
    """The terms and clauses a tier matches within what is left of the
    budget: required words first, then optional (intent) words while it
    lasts. The words left out join `budget.dropped_words`, each once."""
    required = [clause for clause in clauses if clause.presence == "required"]
    optional = [clause for clause in clauses if clause.presence != "required"]
    budget.dropped = []
    kept = engine.within_budget(required or optional, budget)
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
    budget.dropped_words += [typed[clause] for clause in dropped if typed[clause] not in budget.dropped_words]
    pairs = [(term, clause) for term, clause in zip(terms, clauses) if clause in kept]
    return [term for term, _ in pairs], [clause for _, clause in pairs]
