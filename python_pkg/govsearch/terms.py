"""Clauses and what they reach in the index: a lunr clause as both lunr.py
and lunr.js accept it, its expansion over the vocabulary (prefixes and typos,
as lunr expands them, without lunr's slow automata), and the limits of the
work one call may cause.

The work a call may cause is bounded (docs/architecture.md, "Work budget"):
at most MAX_QUERY_TERMS distinct terms are searched (those past the first
LEADING_TERMS while the postings and shard-bytes budgets last), typo matching
applies to words of ranking.query.FUZZY_MIN_LENGTH to FUZZY_MAX_LENGTH characters, a
prefix or typo reaches at most MAX_EXPANSIONS index terms (the closest ones),
and one match scores at most MAX_POSTINGS postings (the commonest words are
left out). What a query's words become is ranking.query's.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lunr.query import Query, QueryPresence
from lunr.token_set import TokenSet

# Distinct terms searched per call (the rest are named in a notice): 24 long
# common words ran three match modes over most of the index. The first
# LEADING_TERMS share the postings budget as ever; a sentence's later words
# are searched while what is left of it lasts (ranking.budget.fit): its topic
# often comes last ("A user wants to know whether a single-storey rear
# extension ... needs planning permission").
MAX_QUERY_TERMS = 16
LEADING_TERMS = 8
# Index terms one prefix or typo may reach ("sta" reaches hundreds): the
# closest (shortest for a prefix, nearest in length for a typo) are kept.
MAX_EXPANSIONS = 64
# Postings one match may score (a record counts once per field holding the
# term). Scoring costs about this much work: four of the commonest words
# (50,000 postings each at full estate) took 1.5 s, the slowest benchmark
# query 30,690. A single clause is always searched; beyond this, clauses
# reaching the most postings are left out (the rarer words decide anyway).
MAX_POSTINGS = 48_000
# Postings shard bytes one call may read to learn how many postings its words
# reach (sharded layout): parsing is work too. The heaviest normal benchmark
# query reads 395 KB; the largest shard is 423 KB, so one word always fits.
MAX_SHARD_BYTES = 600_000


@dataclass(frozen=True)
class Clause:
    """A lunr clause in a form both lunr.py and lunr.js accept unchanged."""

    term: str
    presence: str  # "required" | "optional"
    edit_distance: int = 0
    wildcard: bool = False
    boost: float = 1.0  # lunr's clause boost: what its terms count for in the query vector
    # Index terms a record may hold in the term's place (ranking.related, for
    # coverage): our extension, which lunr's query cannot say, so no as_dict.
    alternatives: tuple[str, ...] = ()
    # A related word of a query word (ranking.related): its postings come carried by that
    # word's (govsearch.format: POSTING_RELATED_POSTINGS), so its own shard need not be read.
    related: bool = False

    def as_dict(self) -> dict[str, object]:
        # lunr.js turns on fuzzy matching (which reads "*" literally) whenever
        # the key editDistance is present, even at 0: leave it out then.
        if self.alternatives:
            raise ValueError("lunr has no clause with alternatives")
        clause: dict[str, object] = {"term": self.term, "presence": self.presence, "wildcard": self.wildcard}
        if self.boost != 1:
            clause["boost"] = self.boost
        if self.edit_distance:
            clause["editDistance"] = self.edit_distance
        return clause


def budgeted(expanded: list[str], clause: Clause) -> list[str]:
    """At most MAX_EXPANSIONS of a clause's expansions, in their own order:
    the shortest for a prefix, the nearest in length for a typo (then
    alphabetical), so the words a person most likely meant stay."""
    if len(expanded) <= MAX_EXPANSIONS:
        return expanded
    closest = set(sorted(expanded, key=lambda term: (abs(len(term) - len(clause.term)), term))[:MAX_EXPANSIONS])
    return [term for term in expanded if term in closest]


def to_lunr_query(query: Query, clauses: list[Clause]) -> Query:
    """Add clauses to a lunr.py Query, bypassing its pipeline (terms are final)."""
    for clause in clauses:
        query.term(
            clause.term,
            use_pipeline=False,
            presence=QueryPresence.REQUIRED if clause.presence == "required" else QueryPresence.OPTIONAL,
            edit_distance=clause.edit_distance,
            wildcard=Query.WILDCARD_TRAILING if clause.wildcard else Query.WILDCARD_NONE,
            boost=clause.boost,
        )
    return query


def vocabulary_token_set(terms: list[str]) -> TokenSet:
    """The index's vocabulary as a lunr TokenSet (a plain trie), for wildcard
    and typo expansion with lunr's own intersect.

    lunr's TokenSet.from_list minimises the automaton with node keys made of
    edge labels and node ids run together, so with digits in terms two
    different nodes can share a key and be merged: the vocabulary then holds
    words the index lacks and misses words it has (at full estate "ppg13),"
    appears and "ppg13" and "ppg17" vanish; lunr.js issue #503). A trie has
    no merging, builds faster, and visits edges in the same order, so every
    expansion comes out as lunr's would with a correct automaton.
    """
    root = TokenSet()
    for term in sorted(terms):
        node = root
        for char in term:
            child = node.edges.get(char)
            if child is None:
                child = node.edges[char] = TokenSet()
            node = child
        node.final = True
    return root


def expand(
    clause: Clause,
    holds: Callable[[str], bool],
    sorted_terms: Callable[[], list[str]],
    token_set: Callable[[], TokenSet],
) -> list[str]:
    """The index terms a clause reaches, as lunr expands them (over a correct
    automaton), asking for the vocabulary only when the clause needs it."""
    term = clause.term + "*" if clause.wildcard and not clause.term.endswith("*") else clause.term
    if not clause.edit_distance and "*" not in term:
        # An exact term reaches itself, if the index holds it, and its alternatives.
        return [word for word in (term, *clause.alternatives) if holds(word)]
    if not clause.edit_distance and term.index("*") == len(term) - 1:
        return prefixed(sorted_terms(), term[:-1])  # what the search box sends while typing: no automaton needed
    if clause.edit_distance and "*" not in term:
        return typo_expansion(token_set(), term, clause.edit_distance)
    query = fuzzy_token_set(term, clause.edit_distance) if clause.edit_distance else TokenSet.from_string(term)
    return intersection(token_set(), query)


def typo_expansion(vocabulary: TokenSet, term: str, edit_distance: int) -> list[str]:
    """vocabulary.intersect(TokenSet.from_fuzzy_string(term, edit_distance)).to_list(),
    found without walking lunr's automaton over the vocabulary.

    Which terms lunr's automaton accepts is worked out by `_within_edits`,
    one pass over the vocabulary; lunr's order (which decides how lunr adds
    up scores) comes from lunr's own walk over those few terms alone. A
    misspelt word usually reaches none or one, and then no automaton is built.
    """
    found = _within_edits(vocabulary, term, edit_distance)
    if len(found) < 2:
        return found
    return intersection(vocabulary_token_set(found), fuzzy_token_set(term, edit_distance))


# A state of lunr's typo automaton: (a character moved by a transposition or "",
# position in the term, edits left); what is still to be matched is the moved
# character, then the term from that position.
_State = tuple[str, int, int]


def _within_edits(vocabulary: TokenSet, term: str, edits: int) -> list[str]:
    """The terms of the vocabulary (a trie) that lunr's from_fuzzy_string automaton accepts.

    Its steps, for what is left to match (`rest`): emit rest[0] (no edit);
    emit any character (insertion); drop rest[0] while more follow
    (deletion); emit any character for rest[0] (substitution); emit rest[1]
    and keep rest[0] in front (transposition). Each edit costs one. A word
    is accepted where some run has no more characters left than edits (the
    rest can be deleted). States are walked as sets, one pass over the trie;
    a set with no edits left follows only the characters it still expects.
    """
    sets: list[frozenset[_State]] = []
    ids: dict[frozenset[_State], int] = {}
    steps: list[dict[str, int]] = []
    accepting: list[bool] = []
    expected: list[tuple[str, ...] | None] = []  # None: any character may follow (edits are left)

    def number(states: frozenset[_State]) -> int:
        if not states:
            return -1
        if states not in ids:
            ids[states] = len(sets)
            sets.append(states)
            steps.append({})
            remaining = [((1 if moved else 0) + len(term) - at, moved, at, left) for moved, at, left in states]
            accepting.append(any(length <= left for length, _, _, left in remaining))
            exact = all(not left for *_, left in remaining)
            firsts = {moved or term[at] for length, moved, at, _ in remaining if length}
            expected.append(tuple(sorted(firsts)) if exact else None)
        return ids[states]

    found: list[str] = []
    walk = [(vocabulary, "", number(_closure(term, {("", 0, edits)})))]
    while walk:
        node, prefix, at = walk.pop()
        row, chars = steps[at], expected[at]
        edges = node.edges
        children = edges.items() if chars is None else [(c, edges[c]) for c in chars if c in edges]
        for char, child in children:
            after = row.get(char)
            if after is None:
                after = row[char] = number(_step(term, sets[at], char))
            if after < 0:
                continue
            if child.final and accepting[after]:
                found.append(prefix + char)
            walk.append((child, prefix + char, after))
    return found


def _step(term: str, states: frozenset[_State], char: str) -> frozenset[_State]:
    """The states after emitting `char` (then any deletions)."""
    after: set[_State] = set()
    for moved, at, left in states:
        length = (1 if moved else 0) + len(term) - at
        first = moved or (term[at] if length else "")
        consumed = ("", at, left) if moved else ("", at + 1, left)  # rest[0] matched or substituted
        if length and char == first:
            after.add(consumed)
        if left:
            after.add((moved, at, left - 1))  # insertion
            if length:
                after.add((consumed[0], consumed[1], left - 1))  # substitution
            if length > 1 and char == (term[at] if moved else term[at + 1]):  # transposition
                after.add((moved, at + 1, left - 1) if moved else (term[at], at + 2, left - 1))
    return _closure(term, after)


def _closure(term: str, states: set[_State]) -> frozenset[_State]:
    """The states with any deletions (of rest[0], while more follow) added."""
    todo = list(states)
    while todo:
        moved, at, left = todo.pop()
        if left and (1 if moved else 0) + len(term) - at > 1:
            deleted = ("", at, left - 1) if moved else ("", at + 1, left - 1)
            if deleted not in states:
                states.add(deleted)
                todo.append(deleted)
    return frozenset(states)


def fuzzy_token_set(string: str, edit_distance: int) -> TokenSet:
    """lunr's TokenSet.from_fuzzy_string(string, edit_distance), node for node.

    lunr's builder pushes the same step (node, edits left, rest of the
    string) many times over (a deletion then an insertion meets a
    substitution); a repeated step only finds the edges and flags it sets
    already there, so it is done once. Ten letters with two edits: a
    fraction of the steps.
    """
    root = TokenSet()
    stack: list[tuple[TokenSet, int, str]] = [(root, edit_distance, string)]
    done: set[tuple[int, int, str]] = set()
    while stack:
        node, edits, rest = stack.pop()
        key = (id(node), edits, rest)
        if key in done:
            continue
        done.add(key)
        if rest:  # no edit
            stack.append((_edge(node, rest[0], len(rest) == 1), edits, rest[1:]))
        if not edits:
            continue
        stack.append((_edge(node, "*", not rest), edits - 1, rest))  # insertion
        if len(rest) > 1:  # deletion
            stack.append((node, edits - 1, rest[1:]))
        if len(rest) == 1:  # deleting the last character
            node.final = True
        if rest:  # substitution
            stack.append((_edge(node, "*", len(rest) == 1), edits - 1, rest[1:]))
        if len(rest) > 1:  # transposition
            stack.append((_edge(node, rest[1], False), edits - 1, rest[0] + rest[2:]))
    return root


def _edge(node: TokenSet, char: str, final: bool) -> TokenSet:
    """The node's child along `char` (made if missing), marked final if `final`."""
    child = node.edges.get(char)
    if child is None:
        child = node.edges[char] = TokenSet()
    if final:
        child.final = True
    return child


class _Node:
    __slots__ = ("final", "edges")

    def __init__(self, final: bool):
        self.final = final
        self.edges: dict[str, _Node] = {}


def intersection(vocabulary: TokenSet, query: TokenSet) -> list[str]:
    """vocabulary.intersect(query).to_list(): the same terms in the same order.

    lunr's intersect visits the same (query node, output node) pair again
    and again (the typo automaton reaches a node by many paths); a repeated
    visit only finds its output edges made already, so each pair is visited
    once. It also scans every vocabulary edge for each letter of the query
    where one look-up does. Output edges are made in lunr's order, so the
    list (lunr's depth-first walk) comes out in lunr's order.
    """
    output = _Node(False)
    stack: list[tuple[TokenSet, TokenSet, _Node]] = [(vocabulary, query, output)]
    visited: set[tuple[int, int]] = set()
    while stack:
        node, q_node, out = stack.pop()
        key = (id(q_node), id(out))
        if key in visited:
            continue
        visited.add(key)
        n_edges, out_edges = node.edges, out.edges
        for q_edge, q_next in q_node.edges.items():
            if q_edge == "*":
                pairs: Any = n_edges.items()
            elif q_edge in n_edges:
                pairs = ((q_edge, n_edges[q_edge]),)
            else:
                continue
            for n_edge, child in pairs:
                final = child.final and q_next.final
                next_out = out_edges.get(n_edge)
                if next_out is None:
                    next_out = out_edges[n_edge] = _Node(final)
                elif final:
                    next_out.final = True
                stack.append((child, q_next, next_out))
    found: list[str] = []
    walk: list[tuple[str, _Node]] = [("", output)]
    while walk:
        prefix, out = walk.pop()
        if out.final:
            found.append(prefix)
        walk.extend((prefix + edge, child) for edge, child in out.edges.items())
    return found


def begins_any(sorted_terms: list[str], prefix: str) -> bool:
    """Whether `prefixed` finds any term, without listing them: respelling asks
    this of a hundred prefixes per rare word, and a short prefix has thousands."""
    low = bisect.bisect_left(sorted_terms, prefix)
    return bisect.bisect_left(sorted_terms, prefix + chr(0x10FFFF), low) > low


def prefixed(sorted_terms: list[str], prefix: str) -> list[str]:
    """The terms starting with `prefix`, in the order lunr's TokenSet lists a
    trailing-wildcard expansion, found without building the automaton.

    lunr lists an automaton depth first from a stack, so each node's word
    comes before its longer words and children come last letter first: that
    is the order of the terms' code points negated.
    """
    low = bisect.bisect_left(sorted_terms, prefix)
    high = bisect.bisect_left(sorted_terms, prefix + chr(0x10FFFF), low)
    return sorted(sorted_terms[low:high], key=lambda term: [-ord(char) for char in term])
