"""The adversarial call set: crafted from a built catalogue's own vocabulary
and publisher list, to find the most work a single call can cause.

Used by tests/runtime/test_adversarial.py (correctness, CPython and Pyodide)
and by bench/run.py (time: the worst of these beside the normal queries).
Shapes: the commonest and longest words up to the query's 160 characters,
the same with a publisher that exists nowhere and with every filter at
once, typos of common words (every match mode runs), near-miss publisher
names, unusual Unicode, and each lunr query-syntax character.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from govsearch.tool_schemas import ACCESS_STATUSES, COLLECTIONS, RESOURCE_TYPES

QUERY_CHARS = 160  # the schema's maxLength
SYNTAX = "*~^+-:"


def record_counts(catalogue: Any) -> Counter[str]:
    """How many records hold each index term, in either layout."""
    matcher = catalogue.engine.matcher
    counts: Counter[str] = Counter()
    if hasattr(matcher, "index"):  # single layout: lunr's inverted index
        for term, fields in matcher.index.inverted_index.items():
            refs = set()
            for field, postings in fields.items():
                if field != "_index":
                    refs.update(postings)
            counts[term] = len(refs)
        return counts
    shards = matcher.shards
    for entry in shards.postings:
        for term, posting in shards.read(entry, "postings")["terms"].items():
            counts[term] = max(sum(len(column[0]) for column in posting["f"].values()) // max(1, len(posting["f"])), 1)
    return counts


def _words(terms: list[str], limit: int = QUERY_CHARS) -> str:
    text = ""
    for term in terms:
        if len(text) + len(term) + 1 > limit:
            break
        text = f"{text} {term}".strip()
    return text


def _typo(word: str) -> str:
    middle = len(word) // 2
    return word[:middle] + ("q" if word[middle] != "q" else "z") + word[middle + 1 :]


def _near_miss(name: str) -> str:
    name = name[:99]
    return (name + "x")[:100] if len(name) < 100 else name[:-1] + "x"


def adversarial_calls(catalogue: Any) -> list[tuple[str, dict[str, Any], bool]]:
    """(label, arguments, prefix_last) for every adversarial shape."""
    counts = record_counts(catalogue)
    alphabetic = [term for term in counts if term.isalpha() and term.isascii()]
    common = sorted(alphabetic, key=lambda term: (-counts[term], term))
    common_long = [term for term in common if len(term) >= 6]
    longest = sorted(alphabetic, key=lambda term: (-len(term), term))
    publishers = sorted(catalogue.engine.facets.values("publisher"), key=lambda name: (-len(name), name))
    many_common = _words(common_long)
    every_filter = {
        "resourceTypes": RESOURCE_TYPES,
        "accessStatuses": ACCESS_STATUSES,
        "collections": COLLECTIONS,
        "publishers": publishers[:8],
    }
    calls: list[tuple[str, dict[str, Any], bool]] = [
        ("commonest long words", {"query": many_common, "limit": 20}, False),
        (
            "commonest long words, a publisher that exists nowhere",
            {"query": many_common, "publishers": ["zzzz"]},
            False,
        ),
        ("commonest long words, every filter at once", {"query": many_common, **every_filter, "limit": 20}, False),
        ("commonest words", {"query": _words(common), "limit": 20}, False),
        ("longest words", {"query": _words(longest), "limit": 20}, False),
        ("typos of the commonest long words", {"query": _words([_typo(word) for word in common_long])}, False),
        (
            "typos of common words, a publisher that exists nowhere",
            {"query": _words([_typo(word) for word in common_long]), "publishers": ["zzzz"]},
            False,
        ),
        (
            "eight near-miss publisher names",
            {"query": common[0], "publishers": [_near_miss(name) for name in publishers[:8]]},
            False,
        ),
        (
            "eight near-miss short publisher names",
            {"query": common[0], "publishers": [_typo(name) for name in publishers[-8:] if len(name) > 2] or ["zz"]},
            False,
        ),
        ("commonest prefix while typing", {"query": _words(common_long[:3]) + " " + common[0][:3], "limit": 20}, True),
        (
            "three-letter prefixes while typing",
            {"query": " ".join(term[:3] for term in common_long[:40])[:QUERY_CHARS]},
            True,
        ),
        ("160 dotted capital I", {"query": "\u0130" * 160}, False),
        ("combining accents", {"query": "e\u0301" * 80}, False),
        (
            "emoji and zero-width joiners",
            {"query": ("\U0001f468\u200d\U0001f469\u200d\U0001f467 " * 20)[:QUERY_CHARS]},
            False,
        ),
        (
            "fullwidth and right-to-left text",
            {"query": ("\uff56\uff41\uff54 \u0645\u0631\u062d\u0628\u0627 " * 12)[:QUERY_CHARS]},
            False,
        ),
        ("a lone surrogate", {"query": "\ud800 " + common[0]}, False),
        (
            "36 wildcard tokens, a publisher that exists nowhere",
            {
                "query": " ".join(f"{c}*s" for c in "abcdefghijklmnopqrstuvwxyz0123456789")[:QUERY_CHARS],
                "publishers": ["zzzz"],
            },
            False,
        ),
        ("a single inner wildcard", {"query": "s*s"}, False),
        (
            "lunr syntax on common words",
            {"query": _words([f"+{w}^10 -{w}~2 title:{w}*" for w in common_long]), "limit": 20},
            False,
        ),
    ]
    for char in SYNTAX:
        calls.append(
            (
                f"syntax character {char!r} in every position",
                {
                    "query": f"{char}{common_long[0]} {common_long[1]}{char}{common_long[2]} {common_long[3]}{char} {char}"
                },
                False,
            )
        )
    return calls
