"""Titles written as codes: spelled as words (`code-title-spelled`) or
qualified from the row's own facts (`code-title-qualified`)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .summaries import comparable, is_stand_in_summary
from .titles import MINOR_WORDS, is_generic_title

# --- code titles ----------------------------------------------------------
_HUMPS = re.compile(r"[A-Z][a-z]+")


# parts joined by "_" (and by "." or "-" beside one: "COMMON.PLAN_ARTICLE_4", "PLAN_2003-CORE_AREAS")
_CODE = re.compile(r"(?<!\S)[A-Za-z0-9]+(?:[.-][A-Za-z0-9]+)*(?:_[A-Za-z0-9]+(?:[.-][A-Za-z0-9]+)*)+(?!\S)")


def spell_out_code(title: str) -> str:
    """ "air_quality_management_areas" -> "Air quality management areas": the words of
    a title written as a code (letters and digits joined by underscores, each run
    together in capitals or not) spelled as words, so that a search for any one
    of them finds it. Any other text, underscores and all, is left as it is."""
    spelled = _CODE.sub(lambda code: " ".join(_words_of(code.group())), title)
    if spelled == title:
        return title
    return spelled[:1].upper() + spelled[1:]


def _words_of(code: str) -> list[str]:
    words = []
    for word in re.split(r"[_.-]", code):
        humps = _HUMPS.findall(word)
        words.extend(humps if len(humps) >= 3 and "".join(humps) == word else [word])
    if code.isupper() and len(words) >= 3:
        # a code in capitals is words in capitals: "CORE_RETAIL_AREAS" is "core retail areas"
        # (an acronym of three letters or fewer, "CIL", stays)
        words = [w.lower() if w.isalpha() and (len(w) > 3 or w.lower() in MINOR_WORDS | {"to"}) else w for w in words]
    return words


# A title that is one lower-case word of letters and digits ("aqmz", "article4",
# "councilpropertyregister"): a layer's or table's code, not a name.
_CODE_WORD = re.compile(r"[a-z][a-z0-9]{2,}")
_RUN = re.compile(r"[A-Za-z]+|[0-9]+")


def is_code_word(title: str) -> bool:
    """True for a title that is one lower-case word, as layer and table codes are."""
    return bool(_CODE_WORD.fullmatch(title))


def spell_code_word(
    code: str, *, dataset_title: str = "", summary: str = "", vocabulary: frozenset[str] = frozenset()
) -> str | None:
    """A one-word code title spelled from what its row offers, or None: its
    dataset's title; the words of its summary that spell it, run together
    ("Article 4" for "article4") or by their initials ("Air Quality Management
    Areas" for "aqma"); else the code split into words of the vocabulary
    ("council property register"), or the one word it is ("Cycleway")."""
    if dataset_title and not is_code_word(dataset_title) and not is_generic_title(dataset_title):
        return dataset_title
    spelled = _spelled_in(code, summary) or _split(code, vocabulary)
    return spelled[:1].upper() + spelled[1:] if spelled else None


def _spelled_in(code: str, summary: str) -> str | None:
    """The words of a summary that, run together or by their initials, are the code."""
    if summary.strip().lower() == code:
        return None  # the summary only repeats the code
    runs = list(_RUN.finditer(summary))
    for start in range(len(runs)):
        joined, initial = "", ""
        for end in range(start, len(runs)):
            word = runs[end].group().lower()
            joined += word
            if end == start or word not in MINOR_WORDS:
                initial += word[0] if word.isalpha() else word
            if code in (joined, initial) and (end > start or len(code) > 3):
                return summary[runs[start].start() : runs[end].end()]
            if not (code.startswith(joined) or code.startswith(initial)):
                break
    return None


def _split(code: str, vocabulary: frozenset[str]) -> str | None:
    """The code as the fewest words of the vocabulary (digits a word of their own), or None."""
    best: list[list[str] | None] = [[]] + [None] * len(code)
    for end in range(1, len(code) + 1):
        for start in range(end):
            piece, before = code[start:end], best[start]
            if before is None or not (
                piece.isdigit() or piece in vocabulary and (len(piece) > 2 or piece in MINOR_WORDS)
            ):
                continue
            if best[end] is None or len(before) + 1 < len(best[end]):
                best[end] = [*before, piece]
    return " ".join(best[-1]) if best[-1] else None


def title_vocabulary(titles: Iterable[str]) -> frozenset[str]:
    """The words of a collection's titles of several words, in lower case, acronyms
    ("AQMZ") left out: what a run-together code is split by. A one-word title
    ("tpo", "Tpo") is no evidence that its word is a word."""
    return frozenset(
        word.lower()
        for title in titles
        for word in (re.findall(r"[A-Za-z]+", title) if len(title.split()) > 1 else ())
        if not word.isupper()
    )


# --- titles that are codes --------------------------------------------------------
_CODE_TOKEN = re.compile(r"[A-Za-z0-9]+")


def is_bare_code(title: str) -> bool:
    """True for a title that is only a code: no word in lower case, and letters run
    into digits ("LWLS20131120", "C3"), parts joined by "_" or "." ("COMMON.PLAN_ARTICLE_4"),
    or a letter or two and a number ("Q 9"). "ONS ASHE 2019" names things and is not one."""
    tokens = _CODE_TOKEN.findall(title)
    if not tokens or any(re.search(r"[a-z]", token) for token in tokens):
        return False
    mixed = any(re.search(r"[A-Z]", t) and re.search(r"[0-9]", t) for t in tokens)
    short = len(tokens) <= 2 and any(t.isdigit() for t in tokens) and all(len(t) <= 2 or t.isdigit() for t in tokens)
    return mixed or short or bool(re.search(r"[A-Za-z0-9][_.][A-Za-z0-9]", title))


def qualify_code_title(
    title: str, *, layer: str = "", dataset: str = "", summary: str = "", publisher: str = ""
) -> str:
    """A code title qualified from the row's own facts: the layer its service names,
    else its dataset's title, else its summary when that is one short sentence
    ("Q 9: PDF map of quadrant 9"), else its publisher ("LWLS20131120, a dataset of
    Gateshead Council"); the code stays in the title, so a search for it still finds it."""
    for name in (layer, dataset):
        if name and not is_bare_code(name) and comparable(name) != comparable(title):
            return f"{name} ({title})"
    sentence = summary.strip()
    if sentence and len(sentence) <= 100 and sentence.count(". ") == 0 and not is_stand_in_summary(sentence, title):
        return f"{title}: {sentence.rstrip('.')}"
    return f"{title}, from {publisher}" if publisher else title
