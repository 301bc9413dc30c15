"""The site's search vocabulary (`[search]` in the site config): synonym groups,
intent words, fillers, question openings, the estate's places and its towns'
council areas. The build applies it to records (group tokens) and the query to
what is typed (ranking.query), the same way, so the two always agree."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .analysis import analysed

if TYPE_CHECKING:
    from .query import Term

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
    # Words as typed, and phrases, that say how, where or when someone asks, not what
    # about ("near", "nearest", "next to", "latest", "last year").
    fillers: frozenset[str] = frozenset()
    # Words as typed that name a place, and councils' names of several words (govsearch_build.places).
    places: frozenset[str] = frozenset()
    # Question words (lunr's stop words, so never index terms) that ask for a kind of answer
    # when they open a query: "who runs prisons" asks for a body -> resource types.
    questions: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # A question's opening words (lower case, single spaces) -> the words that say what it
    # asks about, searched instead: "how many people live in" asks for a population.
    openings: dict[str, str] = field(default_factory=dict)
    # Intent words (index terms) that name their kind of resource and nothing else ("api", never
    # a topic as "data" is in "data protection"): the answer's first result is of that kind.
    leading: frozenset[str] = frozenset()
    # Intent words as typed, and each with an "s" added ("api", "apis"): a word sharing only the
    # stem asks for nothing ("documents" is no "documentation", "figure out" no "figures"), nor
    # does the singular of a word the site lists in the plural ("statistic", "figure", "doc").
    intent_forms: frozenset[str] = frozenset()
    # Words as typed that say what the asker wants done with the answer, not what it is about
    # ("planning applications search"): a record the query's other words find need not hold them.
    optional: frozenset[str] = frozenset()
    # Towns no council of the estate is named after -> the council area each lies in, as name keys
    # ("skegness" -> "lincolnshire"; govsearch_build.places.town_areas).
    areas: Mapping[str, str] = field(default_factory=dict)
    # Words as typed that are among English's commonest ("need", "time", "new", "years"): in a
    # question they say little of its topic, so the any-term tier's share counts them for less.
    common: frozenset[str] = frozenset()
    # A group's acronyms that alone do not say a record is about the group's thing (lower case)
    # -> the group's token. One that is also an everyday word is written in capitals in the
    # site's group ("SEND": "send a form") and joins where a record writes it in capitals (in
    # `capitals`, as written); one the estate also defines with another meaning ("High Potential
    # Individual (HPI)") never alone. A query and a title read either as a plain word, and a field
    # holding another of the group's phrases gets it too, so the word as typed finds that field.
    guarded: Mapping[str, str] = field(default_factory=dict)
    capitals: frozenset[str] = frozenset()
    # Words as typed with which an agent's sentence frames someone's need ("the user wants",
    # "I'm helping", "find ..."): in a sentence (rules.SENTENCE_FROM words or more) they are
    # left out as fillers are; in a short query they may be its topic ("find a job").
    framing: frozenset[str] = frozenset()
    longest: int = field(init=False)  # words in the longest phrase: asked for every word of every title read
    # Each opening's pattern and what it asks about, longest first.
    _openings: tuple[tuple[re.Pattern[str], str], ...] = field(init=False, repr=False, compare=False)
    # The fillers of two or more words, anywhere in a query, as whole words.
    _filler_phrases: re.Pattern[str] | None = field(init=False, repr=False, compare=False)
    # The places of several words, anywhere in a query, as whole words ("and" or "&" or neither),
    # and each one's name by its words less "and" (how a match finds the name it matched).
    _place_phrases: re.Pattern[str] | None = field(init=False, repr=False, compare=False)
    _place_names: dict[tuple[str, ...], str] = field(init=False, repr=False, compare=False)
    # The `capitals` acronyms as whole words, in capitals only.
    _capitals: re.Pattern[str] | None = field(init=False, repr=False, compare=False)

    # First words that can start a phrase: a one-word phrase as typed, a longer one by index term.
    starts: tuple[frozenset[str], frozenset[str]] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "longest", max(map(len, self.phrases), default=0))
        typed = frozenset(key[0] for key in self.phrases if len(key) == 1)
        object.__setattr__(self, "starts", (typed, frozenset(key[0] for key in self.phrases if len(key) > 1)))
        object.__setattr__(self, "_openings", _opening_patterns(self.openings))
        object.__setattr__(self, "_filler_phrases", _phrase_pattern(f for f in self.fillers if " " in f))
        names = [place for place in self.places if " " in place]
        object.__setattr__(self, "_place_phrases", _place_pattern(names))
        object.__setattr__(self, "_place_names", {_name_key(name.split()): name for name in names})
        words = "|".join(map(re.escape, sorted(self.capitals)))
        object.__setattr__(self, "_capitals", re.compile(rf"\b(?:{words})\b") if words else None)

    @classmethod
    def from_lists(
        cls,
        synonyms: list[list[str]],
        intents: dict[str, list[str]],
        *,
        fillers: Collection[str] = (),
        optional: Collection[str] = (),
        places: Collection[str] = (),
        openings: dict[str, str] | None = None,
        leading: Collection[str] = (),
        areas: Mapping[str, str] | None = None,
        common: Collection[str] = (),
        ambiguous: Collection[str] = (),
        framing: Collection[str] = (),
    ) -> SearchTerms:
        phrases: dict[tuple[str, ...], str] = {}
        guarded: dict[str, str] = {}
        capitals: set[str] = set()
        for group in synonyms:
            for phrase in group:
                word = phrase.strip()
                if _in_capitals(word) or word.lower() in ambiguous:
                    guarded.setdefault(word.lower(), group[0].lower() + GROUP_MARK)
                    if _in_capitals(word) and word.lower() not in ambiguous:
                        capitals.add(word)
                    continue
                pairs = analysed(phrase)
                key = tuple(typed for typed, _ in pairs) if len(pairs) == 1 else tuple(indexed for _, indexed in pairs)
                if key:
                    phrases.setdefault(key, group[0].lower() + GROUP_MARK)
        intent_terms, questions, leading_terms, forms = {}, {}, set(), set()
        for word, types in intents.items():
            pairs = analysed(word)
            if pairs:
                intent_terms[pairs[0][1]] = tuple(types)
                forms.update((pairs[0][0], pairs[0][0] + "s"))
                if word in leading:
                    leading_terms.add(pairs[0][1])
            else:  # a stop word: the pipeline drops it, so it is read where it opens a query
                questions[word.strip().lower()] = tuple(types)
        return cls(
            phrases,
            intent_terms,
            frozenset(fillers),
            frozenset(places),
            questions,
            dict(openings or {}),
            frozenset(leading_terms),
            frozenset(forms),
            frozenset(optional),
            dict(areas or {}),
            frozenset(common),
            guarded,
            frozenset(capitals),
            frozenset(framing),
        )

    def common_word(self, term: Term) -> bool:
        """Whether a word, as typed and finished, is among English's commonest ("work"; not
        "working", nor "time" while it may still grow into "timetable")."""
        return term.typed in self.common and not term.prefix

    def intent_of(self, term: Term) -> tuple[str, ...]:
        """The resource types a word asks for: an intent word's, where it is typed as one."""
        return self.intents.get(term.indexed, ()) if term.typed in self.intent_forms else ()

    def kinds_leading(self, terms: Sequence[Term]) -> frozenset[str]:
        """The resource types the query's leading intent words ask for ("api": api, api-documentation)."""
        return frozenset(kind for term in terms if term.indexed in self.leading for kind in term.intent)

    def places_named(self, text: str) -> list[tuple[str, list[str]]]:
        """The places of several words the query names, each as the estate writes
        it, with its words as typed: "North" of "Bath and North East Somerset" is
        part of a name, though alone it names no place (four councils share it)."""
        if self._place_phrases is None:
            return []
        found = []
        for match in self._place_phrases.finditer(text):
            words = re.findall(r"\w+", match[0].lower())
            found.append((self._place_names[_name_key(words)], words))
        return found

    def reopened(self, text: str) -> str:
        """The query with its opening words (the longest of the site's openings) put
        as what they ask about, when more words follow them: "how many people are
        homeless" counts people, so "people" is no topic; alone, an opening is kept."""
        for pattern, asks in self._openings:
            found = pattern.match(text)
            if found:
                return f"{asks} {text[found.end() :]}"
        return text

    def without_filler_phrases(self, text: str, prefix_last: bool = False) -> str:
        """The query without its filler phrases ("land next to my house": "land my
        house"), except one ending a query still being typed (its last word may
        grow into another)."""
        if self._filler_phrases is None:
            return text
        return self._filler_phrases.sub(
            lambda found: found[0] if prefix_last and not text[found.end() :].strip() else " ", text
        )

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
        return frozenset(self.in_order(pairs))

    def in_order(self, pairs: Sequence[tuple[str, str]]) -> list[str]:
        """`collapsed_pairs` in the words' order, repeats kept."""
        found: list[str] = []
        position = 0
        while position < len(pairs):
            hit = self.find(pairs, position)
            found.append(hit[1] if hit else pairs[position][1])
            position += hit[0] if hit else 1
        return found

    def group_tokens(self, text: str) -> list[str]:
        """The tokens of every group with a phrase in `text`, in order (each
        once): what the build adds to a record's field so the group finds it.
        A `guarded` acronym says so only in capitals, if it is in `capitals`,
        and a field holding another of its group's phrases gets the acronym
        too, which a query reads as a plain word."""
        pairs = analysed(text)
        found: list[str] = []
        for start in range(len(pairs)):
            hit = self.find(pairs, start)
            if hit and hit[1] not in found:
                found.append(hit[1])
        if not self.guarded:
            return found
        written = {word.lower() for word in self._capitals.findall(text)} if self._capitals else set()
        for acronym, token in self.guarded.items():
            if token in found:
                found.append(acronym)
            elif acronym in written:
                found.append(token)
        return found


def _in_capitals(phrase: str) -> bool:
    """Whether a group's phrase is one word in capitals: an acronym that is also an everyday word."""
    word = phrase.strip()
    return word.isalpha() and word.isupper() and len(word) > 1


def _opening_patterns(openings: dict[str, str]) -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each opening (longest first) at the start of a query, as whole words with a word after them, and
    what it asks about. Matched without regard to case, which Unicode also takes from some letters of
    other alphabets ("ı" for "i"): the match, not its text, says which opening it was."""
    patterns = []
    for opening in sorted(openings, key=len, reverse=True):
        patterns.append((re.compile(rf"\W*{_spaced(opening)}\b(?=\W*\w)", re.IGNORECASE), openings[opening]))
    return tuple(patterns)


def _phrase_pattern(phrases: Iterable[str]) -> re.Pattern[str] | None:
    """Any of these phrases as whole words, however spaced or cased (longest first)."""
    words = [_spaced(phrase) for phrase in sorted(phrases, key=len, reverse=True)]
    return re.compile(rf"\b(?:{'|'.join(words)})\b", re.IGNORECASE) if words else None


def _spaced(phrase: str) -> str:
    """A phrase's words as a pattern, however many spaces part them."""
    return r"\s+".join(map(re.escape, phrase.split()))


def _place_pattern(names: Collection[str]) -> re.Pattern[str] | None:
    """Places of several words as whole words, however spaced, cased or punctuated
    ("Newcastle-under-Lyme"), an "and" written as "&" or left out ("Telford & Wrekin")."""
    patterns = []
    for name in sorted(names, key=len, reverse=True):
        first, *rest = (word for word in name.split() if word != "and")
        join = r"(?:\W+and\W+|\W*&\W*|\W+)" if "and" in name.split() else r"\W+"
        # A possessive's "s" ("King's Lynn", written "king s lynn") with its apostrophe or without.
        patterns.append(
            re.escape(first) + "".join((r"\W?" if word == "s" else join) + re.escape(word) for word in rest)
        )
    return re.compile(rf"\b(?:{'|'.join(patterns)})\b", re.IGNORECASE) if patterns else None


def _name_key(words: Iterable[str]) -> tuple[str, ...]:
    """A place's words as a key, whatever its "and" or possessive: "king s lynn" and "kings lynn" alike."""
    key: list[str] = []
    for word in words:
        if word == "s" and key:
            key[-1] += word
        elif word != "and":
            key.append(word)
    return tuple(key)


NO_SEARCH_TERMS = SearchTerms({}, {})
