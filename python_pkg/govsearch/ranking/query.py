"""Plain-text queries to lunr query clauses, never through lunr's query syntax.

Characters that mean something to lunr's parser (`: + - * ~ ^` and quotes)
are just text here: the query is tokenised with lunr's tokenizer, each token
goes through the same pipeline the index was built with (ranking.analysis),
and the clauses are built programmatically. lunr's TokenSet still reads `*`
inside a term as a wildcard, so `*` separates words like a space ("s*s" once
matched 35,757 records); the only wildcard is the search box's
prefix-while-typing (`prefix_last`), which the page decides.

Query understanding lives here too: a phrase of a synonym group becomes the
group's token, intent words ask for resource types, a place beside a topic
is preferred rather than required, an optional word ("search") is required
only where no other word is, filler words ("near", and a stop
word's contraction: "isn't", "don't") are left out, and a question's opening
words are read as what they ask about ("how many people live in" ->
"population").
Typo matching applies to words of FUZZY_MIN_LENGTH to FUZZY_MAX_LENGTH
characters (the work budget, govsearch.terms) whose stems keep FUZZY_MIN_STEM.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from lunr.stop_word_filter import stop_word_filter
from lunr.token import Token
from lunr.tokenizer import Tokenizer

from ..terms import Clause
from . import rules
from .analysis import PIPELINE, TRIM_ONLY, WORDLIKE, analysed
from .vocabulary import NO_SEARCH_TERMS, SearchTerms

# In the order the engine tries them (docs/ranking.md): every word; every
# word with misspelt ones corrected; any word.
MATCH_MODES = ("all_terms", "fuzzy", "any_term")
FUZZY_MIN_LENGTH = 5
# ... and whose index term (its stem) keeps this many: one edit to the "ep" of "epping" or the
# "eal" of "ealing" reaches "e", "et", "deal" and "meal", never a typo of the place.
FUZZY_MIN_STEM = 4
# Typo matching builds an automaton as long as the word: a 320-character
# "word" (160 x "İ") cost 0.9 s. No real word a person mistypes is longer.
FUZZY_MAX_LENGTH = 24
# A prefix shorter than this is searched as a whole word: "s*" reaches a
# quarter of the vocabulary (2.5 MB of postings and a second or more of work
# at full estate) for the first key a person presses.
PREFIX_MIN_LENGTH = 3


@dataclass(frozen=True)
class Term:
    """One searchable word: what the user typed and what the index holds."""

    typed: str  # lower-cased, trimmed token as typed (a synonym phrase: its words)
    indexed: str  # after the build pipeline: the form stored in the index
    prefix: bool = False  # match any index term starting with `typed`
    intent: tuple[str, ...] = ()  # resource types the word asks for: then it is not required
    synonym: bool = False  # a phrase of a synonym group, searched as the group's token: never fuzzed
    # The place the word names, lower case ("" for none): the word itself, or the council's name
    # it is typed in ("bath and north east somerset"). Preferred, not required, beside other words.
    place: str = ""
    # The council area a town the place names lies in, as a name key ("lincolnshire" for
    # "skegness"; "" for none): the area's records and council are the town's (SearchTerms.areas).
    area: str = ""
    # A word of what the asker wants done ("search"): not required where another word is (SearchTerms.optional).
    optional: bool = False

    @property
    def fuzzable(self) -> bool:
        """Whether the fuzzy mode may match this term with one typo."""
        return (
            not self.prefix
            and not self.synonym
            and FUZZY_MIN_LENGTH <= len(self.typed) <= FUZZY_MAX_LENGTH
            and len(self.indexed) >= FUZZY_MIN_STEM
        )


def query_terms(text: str, *, prefix_last: bool = False, search_terms: SearchTerms = NO_SEARCH_TERMS) -> list[Term]:
    """The searchable terms of a query, in order, without duplicates.

    With prefix_last (the human search box, typing), the last token also
    matches as a prefix (from PREFIX_MIN_LENGTH letters), so results appear
    before a word is finished. A phrase of a synonym group becomes the
    group's word; an intent word carries the resource types it asks for; a
    place word is marked (preferred, not required, beside other words), and
    an optional word ("search": required only where no other word is).
    Filler words and phrases ("near", "next to", "latest") are left out when other words remain,
    and a question's opening words are read as what they ask about.
    """
    text = search_terms.reopened(text)
    unfilled = search_terms.without_filler_phrases(text, prefix_last)
    terms = _plain_terms(unfilled, prefix_last)
    # A sentence's framing words are fillers there ("the user wants to find ...").
    framing = search_terms.framing if len(terms) >= rules.SENTENCE_FROM else frozenset()
    asked = [term for term in terms if term.prefix or not (_filler(term.typed, search_terms) or term.typed in framing)]
    if any(not term.prefix for term in asked):
        terms = asked
    elif unfilled != text:  # nothing but fillers: the query as typed is what is asked
        terms = _plain_terms(text, prefix_last)
    finished = [term for term in terms if not term.prefix]
    pairs = [(term.typed, term.indexed) for term in finished]
    # A place of several words counts where each of its words is a finished word of the query:
    # "north yorkshire" still being typed leaves "north" a word to find. A word's pieces count:
    # "king's lynn" names "King's Lynn" (words "king", "s", "lynn"), "north yorkshire's" the county.
    finished_words = {piece for term in finished for piece in _pieces(term.typed)}
    in_place_names = {
        word: place
        for place, words in search_terms.places_named(text)
        if all(word in finished_words or _stop_word(word) for word in words)
        for word in words
    }
    combined: list[Term] = []
    position = 0
    while position < len(finished):
        hit = search_terms.find(pairs, position)
        if hit is None:
            term = finished[position]
            intent = search_terms.intent_of(term)
            place, indexed = ("", term.indexed) if intent else _named_place(term, in_place_names)
            if not place and not intent:
                place = _place(term.typed, search_terms)
            combined.append(Term(term.typed, indexed, intent=intent, place=place))
            position += 1
            continue
        length, token = hit
        typed = " ".join(term.typed for term in finished[position : position + length])
        combined.append(Term(typed, token, synonym=True))
        position += length
    combined += [term for term in terms if term.prefix]
    # A word of what the asker wants done, typed in full or still being typed (the search box).
    combined = [replace(term, optional=True) if term.typed in search_terms.optional else term for term in combined]
    # One term per index term, in the order first typed; of words sharing it, an intent word's
    # reading ("documents documentation" asks for documentation as "documentation documents" does).
    first: dict[tuple[str, bool], Term] = {}
    for term in combined:
        kept = first.setdefault((term.indexed, term.prefix), term)
        if term.intent and not kept.intent:
            first[(term.indexed, term.prefix)] = term
    unique = _in_areas(list(first.values()), search_terms.areas)
    return unique + _question(text, search_terms, unique)


def _in_areas(terms: list[Term], areas: Mapping[str, str]) -> list[Term]:
    """Each place word of a town with the council area the town lies in, unless the query
    names that area too ("skegness lincolnshire" is about Lincolnshire's records already)."""
    named = {term.place for term in terms if term.place}
    return [
        replace(term, area=area) if (area := areas.get(term.place, "")) and area not in named else term
        for term in terms
    ]


def _pieces(typed: str) -> list[str]:
    """A typed word's word characters, as a place's name is split ("king's" -> "king", "s")."""
    return re.findall(r"\w+", typed)


def _named_place(term: Term, in_place_names: dict[str, str]) -> tuple[str, str]:
    """The place of several words the query names that this word belongs to (all its pieces,
    but a possessive's "s" the name lacks), and the word as the index holds the name the estate
    writes: "somerset's" as "somerset", and "kings" of "King's Lynn" (kept as "king s lynn") as
    "king'". ("", the word's own index term) for a word of no such place."""
    pieces = _pieces(term.typed)
    owned = len(pieces) == 2 and pieces[1] == "s" and "s" not in in_place_names
    places = {in_place_names.get(piece, "") for piece in pieces[: 1 if owned else None]}
    place = places.pop() if len(places) == 1 else ""
    if not place:
        return "", term.indexed
    if owned:
        return place, analysed(pieces[0])[0][1]
    words = place.split()
    possessive = term.typed[:-1]
    if term.typed.endswith("s") and possessive in words and words[words.index(possessive) + 1 :][:1] == ["s"]:
        return place, analysed(possessive + "'s")[0][1]
    return place, term.indexed


def _stop_word(word: str) -> bool:
    return stop_word_filter(Token(word)) is None


def _place(typed: str, search_terms: SearchTerms) -> str:
    """The place a word names on its own ("" for none)."""
    return typed if typed in search_terms.places else ""


# The first word of a query, past any punctuation.
_OPENING = re.compile(r"\W*(\w+)")


def _question(text: str, search_terms: SearchTerms, terms: list[Term]) -> list[Term]:
    """The question word opening the query, as an intent term, when it asks for
    a kind of answer and the query says what about ("who regulates water
    companies": an organisation). A stop word, so no index term: it matches
    nothing and is never required (an intent word); it only prefers its types."""
    opening = _OPENING.match(text.lower())
    types = search_terms.questions.get(opening[1], ()) if opening else ()
    if not types or not any(not term.intent for term in terms):
        return []
    return [Term(opening[1], opening[1], intent=types)]


# A word with an English contraction ("isn't", "don't", "it's", "i'm"): the pipeline keeps it whole.
_CONTRACTION = re.compile(r"([a-z]+)['’](?:t|s|m|re|ve|ll|d)")


def _filler(typed: str, search_terms: SearchTerms) -> bool:
    """Whether a word says how someone asks, not what: a filler of the site's
    list, or a stop word's contraction ("isn't" is "is not": both stop words,
    yet the pipeline keeps "isn't" and a record must then hold it)."""
    if typed in search_terms.fillers:
        return True
    found = _CONTRACTION.fullmatch(typed)
    return bool(found) and any(_stop_word(base) for base in {found[1], found[1].removesuffix("n")})


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
        typed = TRIM_ONLY.run([token.clone()])
        indexed = PIPELINE.run([token.clone()])
        typed_text = str(typed[0]) if typed else ""
        if not WORDLIKE.search(typed_text):
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
    query is nothing else), place words beside a word that is neither
    ("population of Bristol" requires "population": Bristol's records come
    first, national ones still count) and optional words beside a required
    one ("dudley planning applications search" requires "planning" and
    "applications"); fuzzy lets the `misspelt` words (by default every word
    long enough) match with one typo. any_term requires none.
    """
    if mode not in MATCH_MODES:
        raise ValueError(f"unknown match mode {mode!r}")
    topic = has_topic(terms)
    needed = _needed(terms, topic)
    clauses = []
    for term, need, unneeded in zip(terms, needed, _unneeded(terms, needed)):
        required = mode != "any_term" and need and not unneeded
        presence = "required" if required else "optional"
        if term.prefix:
            clauses.append(Clause(term.indexed, presence, wildcard=True))
            continue
        fuzzy = mode == "fuzzy" and term.fuzzable and (misspelt is None or term.indexed in misspelt)
        # A place beside a topic ranks by rules.PLACE_BOOST, not by lunr's score for its name; an
        # unneeded optional word by nothing. A place is never an intent word.
        weight = rules.OPTIONAL_WEIGHT if unneeded else rules.PLACE_WEIGHT if term.place and topic else 1.0
        clauses.append(Clause(term.indexed, presence, edit_distance=1 if fuzzy else 0, boost=weight))
    return clauses


def _needed(terms: Sequence[Term], topic: bool) -> list[bool]:
    """Each word: whether all_terms would require it, were it not an optional word (an intent
    word only where the query is nothing else, a place only where it is no preference; `topic`:
    has_topic(terms))."""
    only_intents = all(term.intent for term in terms)
    return [only_intents or not preference(term, topic) for term in terms]


def unneeded_optional(terms: Sequence[Term]) -> list[bool]:
    """Each word: whether it is an optional word ("search", "official") beside a word that is
    required, so it says what the asker wants of the answer and nothing of its topic: no record
    need hold it, and none is lifted by holding it. Alone, or beside preferences only, it is the
    topic ("official search")."""
    return _unneeded(terms, _needed(terms, has_topic(terms)))


def _unneeded(terms: Sequence[Term], needed: Sequence[bool]) -> list[bool]:
    anchored = any(need and not term.optional and not term.prefix for term, need in zip(terms, needed))
    return [term.optional and anchored for term in terms]


def has_topic(terms: Sequence[Term]) -> bool:
    """Whether the query has a word that is neither an intent word nor a place: then its places
    are preferences, not words a record must hold."""
    return any(not term.intent and not term.place for term in terms)


def preference(term: Term, topic: bool) -> bool:
    """Whether a word ranks records without finding them: an intent word, or a place beside a
    topic (`topic`: has_topic of the query)."""
    return bool(term.intent) or (bool(term.place) and topic)


def named_places(terms: Sequence[Term]) -> dict[str, str]:
    """The places the query names beside its topic (preferences, not words to hold), each
    with its town's council area ("" for none: Term.area)."""
    topic = has_topic(terms)
    return {term.place: term.area for term in terms if term.place and preference(term, topic)}
