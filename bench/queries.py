"""The query set: drawn from the sampled records with a fixed seed.

Five kinds, equally many of each: plain (one title word), multi-term (two or
three words of one title), filtered (a title word plus a collection or type
filter taken from that record), no-hit (made-up words absent from the corpus)
and typo (a title word of six or more letters with one letter changed, the
result absent from the corpus).
"""

from __future__ import annotations

import random
import re
from collections import Counter

KINDS = ("plain", "multi", "filtered", "nohit", "typo")
STOP = set(
    """a about above after again all also an and any are as at be because been but by can could did do does for from
had has have he her here his how if in into is it its just more most no nor not of on once only or other our out over own
same she should so some such than that the their them then there these they this those through to too under until up very
was we were what when where which while who whom why will with would you your new using use data uk gov
able across almost among cannot dear either else ever every hers however least like likely might must neither often
rather said says since twas wants""".split()
)  # with lunr's English stop words
WORD = re.compile(r"[a-z]+")


def _title_words(record) -> list[str]:
    return [w for w in WORD.findall(record.data["title"].lower()) if len(w) >= 4 and w not in STOP]


def make_queries(records, per_kind: int, seed: int = 11) -> list[dict]:
    rng = random.Random(seed)
    vocabulary: Counter[str] = Counter()
    for record in records:
        text = " ".join(
            [
                record.data["title"],
                record.data["summary"],
                record.data["publisher"],
                " ".join(record.data.get("keywords", [])),
                record.body,
            ]
        ).lower()
        vocabulary.update(WORD.findall(text))
    titled = [r for r in records if _title_words(r)]
    # Prefer words that occur in several records, like real queries do.
    common = sorted(w for w, n in vocabulary.items() if n >= 3 and len(w) >= 4 and w not in STOP)
    queries: list[dict] = []

    def add(kind: str, text: str, filters: dict | None = None) -> None:
        queries.append({"kind": kind, "query": text, "filters": filters or {}})

    for _ in range(per_kind):
        record = rng.choice(titled)
        add("plain", rng.choice(_title_words(record)))
    for _ in range(per_kind):
        record = rng.choice(titled)
        words = list(dict.fromkeys(_title_words(record)))
        if len(words) < 2:
            words.append(rng.choice(common))
        add("multi", " ".join(words[: rng.choice((2, 3))]))
    for index in range(per_kind):
        record = rng.choice(titled)
        if index % 2 == 0:
            add("filtered", rng.choice(_title_words(record)), {"collections": [record.data["collection"]]})
        else:
            add("filtered", rng.choice(_title_words(record)), {"resourceTypes": [record.data["resourceType"]]})
    letters = "bcdfghjklmnpqrstvwxz"
    for _ in range(per_kind):
        while True:
            word = "".join(rng.choice(letters) for _ in range(rng.randint(6, 9)))
            if word not in vocabulary:
                break
        add("nohit", word)
    long_words = [w for w in common if len(w) >= 6]
    for _ in range(per_kind):
        for _attempt in range(100):
            word = rng.choice(long_words)
            position = rng.randint(1, len(word) - 2)
            typo = (
                word[:position]
                + rng.choice([c for c in "aeioubcdfgklmnprst" if c != word[position]])
                + word[position + 1 :]
            )
            if typo not in vocabulary:
                break
        add("typo", typo)
    return queries


def warmup_queries(records, count: int = 3, seed: int = 5) -> list[dict]:
    """A few different queries run before timing, so first-call overheads are not counted."""
    return [dict(q, kind="warmup") for q in make_queries(records, 1, seed)[:count]]
