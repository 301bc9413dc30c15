"""Words as the index holds them: lunr's tokenizer and pipeline (trimmer,
stop words, and its English stemmer with one split mended: `stem_word`)
applied to a query's or a record's text, the same way the build indexed it,
with the shortcuts the re-ranker needs to read twenty titles and summaries
per query quickly."""

from __future__ import annotations

import re
from collections.abc import Collection
from functools import lru_cache

from lunr.pipeline import Pipeline
from lunr.stemmer import porter_stemmer
from lunr.stop_word_filter import stop_word_filter
from lunr.token import Token
from lunr.tokenizer import SEPARATOR_CHARS
from lunr.trimmer import trimmer

WORDLIKE = re.compile(r"[^\W_]")
# lunr's tokenizer splits lower-cased text at each of these characters, one by one, in Python:
# the same split by one regular expression reads a record's summary several times faster.
_SEPARATORS = re.compile("[" + re.escape(SEPARATOR_CHARS) + "]+")
_VOWELS = frozenset("aeiou")
# A phone types "children’s" (a right single quotation mark, as GOV.UK's titles write it too) where
# a keyboard types "children's": one word, whichever mark the text holds.
_APOSTROPHES = str.maketrans(dict.fromkeys("\u2019\u2018\u02bc\u0060\u00b4", "'"))


def stem_word(word: str) -> str:
    """Porter's stem of `word`, with its -y split mended (docs/ranking.md, class 2).

    Porter turns a stem's last y into i before it strips the longer suffixes,
    so "unemployed" stems to "unemploi" and "unemployment" to "unemploy", and
    neither finds the other. A stem that ends in a vowel and y once a suffix
    of two letters or more is gone ("employment", "employer", "repayment",
    "conveyance") ends in i as the word's other forms do. A vowel before the
    y is what Porter's own rule needs too (a consonant's y, "sky", stays). A
    word that lost one letter keeps its y: "PAYE" is not "pay".

    Only the last letter changes, and Porter's stems never end in y, so a
    stem still keeps all but at most the last two letters of its word from
    the start: the shortcuts that stem only words beginning as a stem does
    (`index_terms_near`, `respelling.candidate_stems`) rely on it.
    """
    stemmed = porter_stemmer.stem(word)
    if len(word) - len(stemmed) >= 2 and stemmed[-1:] == "y" and stemmed[-2:-1] in _VOWELS:
        return stemmed[:-1] + "i"
    return stemmed


def mended_stemmer(token: Token, i: int | None = None, tokens: list[Token] | None = None) -> Token:
    """stem_word as a lunr pipeline step: the index's and every query's, alike
    (not lunr's `stemmer`, which the index no longer matches)."""
    return token.update(lambda string, _metadata: stem_word(string))


def apostrophes(token: Token, i: int | None = None, tokens: list[Token] | None = None) -> Token:
    """Every apostrophe-like mark as "'", before the trimmer: the index's and every query's, alike."""
    return token.update(lambda string, _metadata: string.translate(_APOSTROPHES))


Pipeline.register_function(mended_stemmer, "govsearch-stemmer")
Pipeline.register_function(apostrophes, "govsearch-apostrophes")
PIPELINE = Pipeline()
PIPELINE.add(apostrophes, trimmer, stop_word_filter, mended_stemmer)
TRIM_ONLY = Pipeline()
TRIM_ONLY.add(apostrophes, trimmer)


@lru_cache(maxsize=4096)
def analysed(text: str) -> tuple[tuple[str, str], ...]:
    """(typed, indexed) of each word of `text` the index could hold: stop
    words and punctuation left out. Kept for recent texts: the re-ranker
    reads the same titles and summaries query after query."""
    return tuple(pair for pair in map(_analysed_word, words(text)) if pair is not None)


def words(text: str) -> list[str]:
    """The words lunr's Tokenizer makes of `text` (lower-cased, split at spaces and hyphens), each
    apostrophe-like mark as "'" (`apostrophes`)."""
    return [word for word in _SEPARATORS.split(text.lower().translate(_APOSTROPHES)) if word]


# After these, "es" is the plural's own ending ("taxes", "churches", "addresses").
_ES_PLURALS = ("sses", "xes", "zes", "ches", "shes")


def singular(word: str) -> str:
    """A lower-case word's regular plural undone, for comparing words as typed rather than
    by stem: "libraries" as "library", "taxes" as "tax", "addresses" as "address",
    "houses" as "house", "births" as "birth"; "bus" and "class" as they are. A word it
    reads wrongly ("series" as "sery", "buses" as "buse") is read so wherever it is met."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(_ES_PLURALS):
        return word[:-2]
    return word[:-1] if len(word) > 3 and word[-1] == "s" and word[-2] != "s" else word


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
    return stop_word_filter(Token(typed)) is not None and bool(WORDLIKE.search(typed))


@lru_cache(maxsize=1 << 16)
def _analysed_word(word: str) -> tuple[str, str] | None:
    # The pipeline reads only a token's text, so one analysis per distinct word does.
    # Its three steps are called in its order directly: Pipeline.run's own
    # bookkeeping cost more than the steps (the re-ranker meets hundreds of new
    # words per query, and Pyodide runs each call several times slower).
    typed = trimmer(Token(word)).string
    if not _kept(typed):
        return None
    indexed = stem_word(typed)
    return (typed, indexed) if indexed else None
