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
    budget: the query's first LEADING_TERMS words (required ones first, the
    commonest left out when they cost too much), then, in the query's order
    while the budget lasts, its optional (intent) words and its later words.
    The words left out join `budget.dropped_words`, each once."""
    leading, later = clauses[:LEADING_TERMS], clauses[LEADING_TERMS:]
    required = [clause for clause in leading if clause.presence == "required"]
    optional = [clause for clause in leading if clause.presence != "required"]
    budget.dropped = []
    kept = engine.within_budget(required or optional, budget)
    dropped = list(budget.dropped)
    rest = [*(optional if required else []), *later] if kept else []
    reaches = engine.matcher.postings(rest, budget) if rest else []
    if any(clause.presence == "required" and not reach for clause, reach in zip(rest, reaches)):
        rest, kept, dropped = [], [], []  # a later required word the index lacks: no record holds every word
    for clause, reach in zip(rest, reaches):
        if reach <= budget.postings:
            kept.append(clause)
            budget.postings -= reach
        else:
            dropped.append(clause)
    typed = {clause: term.typed for term, clause in zip(terms, clauses)}
    budget.dropped_words += [typed[clause] for clause in dropped if typed[clause] not in budget.dropped_words]
    pairs = [(term, clause) for term, clause in zip(terms, clauses) if clause in kept]
    return [term for term, _ in pairs], [clause for _, clause in pairs]
