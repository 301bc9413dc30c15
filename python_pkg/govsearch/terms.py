"""Plain-text queries to lunr query clauses, never through lunr's query syntax.

Characters that mean something to lunr's parser (`: + - * ~ ^` and quotes)
are just text here: the query is tokenised with lunr's tokenizer, each token
goes through the same pipeline the index was built with (trimmer, stop words,
English stemmer), and the clauses are built programmatically. lunr's
TokenSet still reads `*` inside a term as a wildcard, so `*` separates words
like a space ("s*s" once matched 35,757 records); the only wildcard is the
search box's prefix-while-typing (`prefix_last`), which the page decides.

The work a call may cause is bounded (docs/architecture.md, "Work budget"):
at most MAX_QUERY_TERMS distinct terms are searched, typo matching applies to
words of FUZZY_MIN_LENGTH to FUZZY_MAX_LENGTH characters, a prefix or typo
reaches at most MAX_EXPANSIONS index terms (the closest ones), and one match
scores at most MAX_POSTINGS postings (the commonest words are left out).
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from lunr.pipeline import Pipeline
from lunr.query import Query, QueryPresence
from lunr.stemmer import stemmer
from lunr.stop_word_filter import stop_word_filter
from lunr.token import Token
from lunr.token_set import TokenSet
from lunr.tokenizer import SEPARATOR_CHARS, Tokenizer
from lunr.trimmer import trimmer

# In the order the engine tries them (docs/ranking.md): every word; every
# word with misspelt ones corrected; any word.
MATCH_MODES = ("all_terms", "fuzzy", "any_term")
FUZZY_MIN_LENGTH = 5
# Typo matching builds an automaton as long as the word: a 320-character
# "word" (160 x "İ") cost 0.9 s. No real word a person mistypes is longer.
FUZZY_MAX_LENGTH = 24
# Distinct terms searched per call (the rest are named in a notice): 24 long
# common words ran three match modes over most of the index.
MAX_QUERY_TERMS = 8
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
# A prefix shorter than this is searched as a whole word: "s*" reaches a
# quarter of the vocabulary (2.5 MB of postings and a second or more of work
# at full estate) for the first key a person presses.
PREFIX_MIN_LENGTH = 3
_WORDLIKE = re.compile(r"[^\W_]")
# lunr's tokenizer splits lower-cased text at each of these characters, one by one, in Python:
# the same split by one regular expression reads a record's summary several times faster.
_SEPARATORS = re.compile("[" + re.escape(SEPARATOR_CHARS) + "]+")

_PIPELINE = Pipeline()
_PIPELINE.add(trimmer, stop_word_filter, stemmer)
_TRIM_ONLY = Pipeline()
_TRIM_ONLY.add(trimmer)


@dataclass(frozen=True)
class Term:
    """One searchable word: what the user typed and what the index holds."""

    typed: str  # lower-cased, trimmed token as typed (a synonym phrase: its words)
    indexed: str  # after the build pipeline: the form stored in the index
    prefix: bool = False  # match any index term starting with `typed`
    intent: tuple[str, ...] = ()  # resource types the word asks for: then it is not required
    synonym: bool = False  # a phrase of a synonym group, searched as the group's token: never fuzzed
    place: bool = False  # a place the estate knows: preferred, not required, beside other words

    @property
    def fuzzable(self) -> bool:
        """Whether the fuzzy mode may match this term with one typo."""
        return not self.prefix and not self.synonym and FUZZY_MIN_LENGTH <= len(self.typed) <= FUZZY_MAX_LENGTH


# A synonym group is indexed and searched as its first word with this mark
# ("ons_"): no word of any text stems to it ("ons" itself stems to "on",
# as "one" does), and lunr's pipeline leaves it as it is.
GROUP_MARK = "_"


@dataclass(frozen=True)
class SearchTerms:
    """The site's synonym groups and intent words (site config [search]), so
    the build and the query apply them the same way."""

    # A group's phrase -> the group's token. A phrase of several words is
    # compared by index terms (stems, no stop words: "HM Revenue & Customs" =
    # "hm revenue and customs"); a single word as typed, since stems of short
    # words collide ("ons" and "one" both stem to "on").
    phrases: dict[tuple[str, ...], str]
    intents: dict[str, tuple[str, ...]]  # index term -> resource types it asks for
    fillers: frozenset[str] = frozenset()  # words as typed that say how someone asks ("near", "nearest")
    places: frozenset[str] = frozenset()  # words as typed that name a place (govsearch_build.places)
    longest: int = field(init=False)  # words in the longest phrase: asked for every word of every title read

    # First words that can start a phrase: a one-word phrase as typed, a longer one by index term.
    starts: tuple[frozenset[str], frozenset[str]] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "longest", max(map(len, self.phrases), default=0))
        typed = frozenset(key[0] for key in self.phrases if len(key) == 1)
        object.__setattr__(self, "starts", (typed, frozenset(key[0] for key in self.phrases if len(key) > 1)))

    @classmethod
    def from_lists(
        cls,
        synonyms: list[list[str]],
        intents: dict[str, list[str]],
        *,
        fillers: Collection[str] = (),
        places: Collection[str] = (),
    ) -> SearchTerms:
        phrases: dict[tuple[str, ...], str] = {}
        for group in synonyms:
            for phrase in group:
                pairs = analysed(phrase)
                key = tuple(typed for typed, _ in pairs) if len(pairs) == 1 else tuple(indexed for _, indexed in pairs)
                if key:
                    phrases.setdefault(key, group[0].lower() + GROUP_MARK)
        intent_terms = {}
        for word, types in intents.items():
            for _, indexed in analysed(word)[:1]:
                intent_terms[indexed] = tuple(types)
        return cls(phrases, intent_terms, frozenset(fillers), frozenset(places))

    def find(self, pairs: Sequence[tuple[str, str]], start: int) -> tuple[int, str] | None:
        """The longest group phrase starting at `start` of (typed, indexed)
        words: (its length, the group's token)."""
        if pairs[start][0] not in self.starts[0] and pairs[start][1] not in self.starts[1]:
            return None  # most words of a title start no phrase
        for length in range(min(self.longest, len(pairs) - start), 0, -1):
            words = pairs[start : start + length]
            key = (words[0][0],) if length == 1 else tuple(indexed for _, indexed in words)
            token = self.phrases.get(key)
            if token is not None:
                return length, token
        return None

    def collapsed(self, text: str) -> frozenset[str]:
        """The index terms of `text`, each group phrase as its group's token."""
        return self.collapsed_pairs(analysed(text))

    def collapsed_pairs(self, pairs: Sequence[tuple[str, str]]) -> frozenset[str]:
        """The index terms of (typed, indexed) words, each group phrase as its group's token."""
        found: set[str] = set()
        position = 0
        while position < len(pairs):
            hit = self.find(pairs, position)
            found.add(hit[1] if hit else pairs[position][1])
            position += hit[0] if hit else 1
        return frozenset(found)

    def group_tokens(self, text: str) -> list[str]:
        """The tokens of every group with a phrase in `text`, in order (each
        once): what the build adds to a record's field so the group finds it."""
        pairs = analysed(text)
        found: list[str] = []
        for start in range(len(pairs)):
            hit = self.find(pairs, start)
            if hit and hit[1] not in found:
                found.append(hit[1])
        return found


NO_SEARCH_TERMS = SearchTerms({}, {})


@lru_cache(maxsize=4096)
def analysed(text: str) -> tuple[tuple[str, str], ...]:
    """(typed, indexed) of each word of `text` the index could hold: stop
    words and punctuation left out. Kept for recent texts: the re-ranker
    reads the same titles and summaries query after query."""
    return tuple(pair for pair in map(_analysed_word, words(text)) if pair is not None)


def words(text: str) -> list[str]:
    """The words lunr's Tokenizer makes of `text` (lower-cased, split at spaces and hyphens)."""
    return [word for word in _SEPARATORS.split(text.lower()) if word]


def index_terms_near(text: str, stems: Collection[str]) -> list[str]:
    """The index terms of `text`'s words, as `analysed` gives them, except
    that a word which cannot stem to any of `stems` is "" (not stemmed).

    Porter's stemmer keeps all but at most the last two letters of a stem
    from the start of its word (its rules swap a suffix for one at most two
    letters longer; no word of the full estate or of 300,000 simulated
    records breaks this), so a word starting with none of the stems less
    their last two letters cannot be one. Most words of a title or summary
    are not: the re-ranker reads twenty of them per query, and stemming a
    new word costs ~25 µs in CPython, several times that in Pyodide.
    """
    starts = tuple(stem[:-2] for stem in stems)
    found = []
    for word in words(text):
        typed = word if word.isalnum() else trimmer(Token(word)).string  # the trimmer strips only non-word ends
        if typed.startswith(starts):
            pair = _analysed_word(word)
            if pair is not None:
                found.append(pair[1])
        elif _kept(typed):
            found.append("")
    return found


@lru_cache(maxsize=1 << 16)
def _kept(typed: str) -> bool:
    """Whether the pipeline keeps a trimmed word (not a stop word, not
    punctuation); a kept word always has a stem (a short word is its own)."""
    return stop_word_filter(Token(typed)) is not None and bool(_WORDLIKE.search(typed))


@lru_cache(maxsize=1 << 16)
def _analysed_word(word: str) -> tuple[str, str] | None:
    # The pipeline reads only a token's text, so one analysis per distinct word does.
    # Its three steps are called in its order directly: Pipeline.run's own
    # bookkeeping cost more than the steps (the re-ranker meets hundreds of new
    # words per query, and Pyodide runs each call several times slower).
    typed = trimmer(Token(word)).string
    if not _kept(typed):
        return None
    indexed = stemmer(Token(typed)).string
    return (typed, indexed) if indexed else None


@dataclass(frozen=True)
class Clause:
    """A lunr clause in a form both lunr.py and lunr.js accept unchanged."""

    term: str
    presence: str  # "required" | "optional"
    edit_distance: int = 0
    wildcard: bool = False

    def as_dict(self) -> dict[str, object]:
        # lunr.js turns on fuzzy matching (which reads "*" literally) whenever
        # the key editDistance is present, even at 0: leave it out then.
        clause: dict[str, object] = {"term": self.term, "presence": self.presence, "wildcard": self.wildcard}
        if self.edit_distance:
            clause["editDistance"] = self.edit_distance
        return clause


def query_terms(text: str, *, prefix_last: bool = False, search_terms: SearchTerms = NO_SEARCH_TERMS) -> list[Term]:
    """The searchable terms of a query, in order, without duplicates.

    With prefix_last (the human search box, typing), the last token also
    matches as a prefix (from PREFIX_MIN_LENGTH letters), so results appear
    before a word is finished. A phrase of a synonym group becomes the
    group's word; an intent word carries the resource types it asks for; a
    place word is marked (preferred, not required, beside other words).
    Filler words ("near", "nearest") are left out when other words remain.
    """
    terms = _plain_terms(text, prefix_last)
    asked = [term for term in terms if term.prefix or term.typed not in search_terms.fillers]
    terms = asked if any(not term.prefix for term in asked) else terms
    finished = [term for term in terms if not term.prefix]
    pairs = [(term.typed, term.indexed) for term in finished]
    combined: list[Term] = []
    position = 0
    while position < len(finished):
        hit = search_terms.find(pairs, position)
        if hit is None:
            term = finished[position]
            intent = search_terms.intents.get(term.indexed, ())
            place = not intent and term.typed in search_terms.places
            combined.append(Term(term.typed, term.indexed, intent=intent, place=place))
            position += 1
            continue
        length, token = hit
        typed = " ".join(term.typed for term in finished[position : position + length])
        combined.append(Term(typed, token, synonym=True))
        position += length
    combined += [term for term in terms if term.prefix]
    unique: list[Term] = []
    seen: set[tuple[str, bool]] = set()
    for term in combined:
        if (term.indexed, term.prefix) not in seen:
            seen.add((term.indexed, term.prefix))
            unique.append(term)
    return unique


def _plain_terms(text: str, prefix_last: bool) -> list[Term]:
    """Each word as the index holds it (stop words and punctuation left out)."""
    # "*" separates words: plain text never asks for a wildcard.
    tokens = [
        Token(piece, dict(token.metadata)) for token in Tokenizer(text) for piece in token.string.split("*") if piece
    ]
    terms: list[Term] = []
    for position, token in enumerate(tokens):
        is_last = position == len(tokens) - 1
        # lunr.py pipelines update tokens in place: give each run its own copy.
        typed = _TRIM_ONLY.run([token.clone()])
        indexed = _PIPELINE.run([token.clone()])
        typed_text = str(typed[0]) if typed else ""
        if not _WORDLIKE.search(typed_text):
            continue  # punctuation only: nothing a person could be searching for
        stem = str(indexed[0]) if indexed and str(indexed[0]) else typed_text
        # Still being typed: match as a prefix. The index holds stems, and a
        # stem is not always a prefix of its word ("companies" -> "compani",
        # "happy" -> "happi"), so use what the word and its stem share.
        prefix = os.path.commonprefix([typed_text, stem]) or typed_text
        if prefix_last and is_last and len(prefix) >= PREFIX_MIN_LENGTH:
            terms.append(Term(typed=typed_text, indexed=prefix, prefix=True))
        elif indexed and str(indexed[0]):
            terms.append(Term(typed=typed_text, indexed=str(indexed[0])))
        # else a stop word
    return terms


def clauses_for(terms: list[Term], mode: str, misspelt: frozenset[str] | None = None) -> list[Clause]:
    """The clauses that search `terms` in one match mode.

    all_terms and fuzzy require every word but intent words (unless the
    query is nothing else) and place words beside a word that is neither
    ("population of Bristol" requires "population": Bristol's records come
    first, national ones still count); fuzzy lets the `misspelt` words (by
    default every word long enough) match with one typo. any_term requires none.
    """
    if mode not in MATCH_MODES:
        raise ValueError(f"unknown match mode {mode!r}")
    only_intents = all(term.intent for term in terms)
    topic = has_topic(terms)
    clauses = []
    for term in terms:
        required = mode != "any_term" and (only_intents or not preference(term, topic))
        presence = "required" if required else "optional"
        if term.prefix:
            clauses.append(Clause(term.indexed, presence, wildcard=True))
            continue
        fuzzy = mode == "fuzzy" and typo_tolerant(term) and (misspelt is None or term.indexed in misspelt)
        clauses.append(Clause(term.indexed, presence, edit_distance=1 if fuzzy else 0))
    return clauses


def has_topic(terms: Sequence[Term]) -> bool:
    """Whether the query has a word that is neither an intent word nor a place: then its places
    are preferences, not words a record must hold."""
    return any(not term.intent and not term.place for term in terms)


def preference(term: Term, topic: bool) -> bool:
    """Whether a word ranks records without finding them: an intent word, or a place beside a
    topic (`topic`: has_topic of the query)."""
    return bool(term.intent) or (term.place and topic)


def typo_tolerant(term: Term) -> bool:
    """Whether the fuzzy mode matches this term with one typo."""
    return term.fuzzable


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
        return [term] if holds(term) else []  # an exact term reaches itself, if the index holds it
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
