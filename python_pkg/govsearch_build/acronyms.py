"""Acronyms the estate itself defines: "Tree Preservation Order (TPO)",
"Index of Multiple Deprivation (IMD)", "Air Quality Management Area (AQMA)".

A visitor types either form ("TPO Sheffield", "index of multiple deprivation
2019") and records are written with one or the other, so each acronym the
records define becomes a synonym group like the site's own ([search]
synonyms in site.toml): either form finds and ranks records holding the
other (docs/ranking.md, class 3). Built from the records, so a new source
brings its acronyms with it; the site's own groups come first.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Iterator, Sequence

from govsearch.ranking.analysis import analysed

from .records import Record

# "Words Of The Name (ABC)": up to eight words (capitalised, or the small words names hold) before
# an acronym of two to six capitals in brackets, a plural "s" allowed after it ("(TPOs)").
_SMALL = r"and|of|for|the|in|on|&"
_DEFINED = re.compile(
    rf"((?:[A-Z][A-Za-z]+|{_SMALL})(?:[\s-]+(?:[A-Z][A-Za-z]+|{_SMALL})){{1,7}})\s*\(([A-Z]{{2,6}})s?\)"
)
_SPLIT = re.compile(r"[\s-]+")
# A pair seen once may be a one-off spelling; the estate must define it this many times.
MIN_DEFINITIONS = 2


def defined_acronyms(records: Iterable[Record], known: Collection[str] = ()) -> list[list[str]]:
    """Each acronym the records' titles and summaries define at least
    MIN_DEFINITIONS times, with its expansions: [acronym, expansion, ...],
    lower case, by acronym. `known`: phrases of the site's own groups (an
    acronym among them is the site's already)."""
    seen: Counter[tuple[str, str]] = Counter()
    for record in records:
        for text in (record.data["title"], record.data["summary"]):
            for acronym, expansion in definitions(text):
                seen[acronym, expansion] += 1
    taken = {phrase.lower() for phrase in known}
    groups: defaultdict[str, list[str]] = defaultdict(list)
    for (acronym, expansion), count in sorted(seen.items()):
        if count >= MIN_DEFINITIONS and acronym not in taken:
            groups[acronym].append(expansion)
    return [[acronym, *expansions] for acronym, expansions in sorted(groups.items())]


def other_meanings(records: Iterable[Record], groups: Iterable[Sequence[str]]) -> list[str]:
    """The groups' one-word acronyms that the records' titles and summaries also
    define, even once, as a name sharing no word with the group's phrases
    ("High Potential Individual (HPI)" beside "house price index"): alone,
    such an acronym does not say which it means (SearchTerms.guarded). A
    variant of the group's own name ("World Feature Service" for "web
    feature service") shares a word and is no other meaning."""
    words = {}
    for group in groups:
        named = {term for phrase in group if " " in phrase.strip() for _, term in analysed(phrase)}
        for phrase in group:
            if " " not in phrase.strip() and named:
                words[phrase.strip().lower()] = named
    found = set()
    for record in records:
        for text in (record.data["title"], record.data["summary"]):
            for acronym, expansion in definitions(text):
                if acronym in words and words[acronym].isdisjoint(term for _, term in analysed(expansion)):
                    found.add(acronym)
    return sorted(found)


def definitions(text: str) -> Iterator[tuple[str, str]]:
    """(acronym, expansion) for each "Name Of Thing (NOT)" in `text` whose
    last capitalised words' initials spell the acronym, lower case."""
    for name, acronym in _DEFINED.findall(text):
        words = [word for word in _SPLIT.split(name) if word]
        capitals = [at for at, word in enumerate(words) if word[0].isupper()]
        if len(capitals) < len(acronym):
            continue
        named = words[capitals[-len(acronym)] :]
        if "".join(word[0] for word in named if word[0].isupper()) == acronym:
            yield acronym.lower(), " ".join(named).lower()
