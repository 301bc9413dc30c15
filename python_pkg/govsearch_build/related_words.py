"""Related words: for each word of the index, other index words that mean
nearly the same ("salary": earnings, wages), so a query whose every word
no record holds can still find records that say it another way
(ranking.related; docs/meaning.md).

The table comes from `related_words.tsv` beside this module: one English
word per line, then its nearest words by all-MiniLM-L6-v2 with their cosine
similarity, made once by `python -m govsearch_build.related_words_model`
(which needs the model; building a site does not). Here the table is read
through the index's own pipeline: a word and its neighbours become stems,
and only pairs of stems the index holds are kept, so what a site ships
depends on its own vocabulary.

Words of one stem can mean different things: "inflation" (monetary) and
"inflated" (balloon, air, pump) are both `inflat`. A stem takes the
neighbours of the words its records use (`usage`: how often each word
occurs in the estate's text), those used at least half as often as its
most used one, so "inflation" in a catalogue of statistics never reaches
the records about air. A stem has one list, so where the estate uses
another sense more ("important" over "import"), that sense is the one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path

from govsearch.ranking.analysis import analysed

TABLE = Path(__file__).with_name("related_words.tsv")
# Neighbours at least this similar (cosine of the words' MiniLM vectors)
# count; fewer, nearer ones per word, because each one a query reaches is
# one more way to find a record that is not about what was asked.
MIN_SIMILARITY = 0.6
MAX_RELATED = 3
# A word of a stem counts if the estate uses it at least this share as often as the stem's most used word.
USED_SHARE = 0.5
_WORD = re.compile(r"[a-z]+")


def read_table(lines: Iterable[str], where: str = str(TABLE)) -> dict[str, list[tuple[str, float]]]:
    """word -> [(neighbour, similarity)], nearest first. A malformed line names its place."""
    table: dict[str, list[tuple[str, float]]] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        word, _, rest = line.rstrip("\n").partition("\t")
        neighbours = []
        for pair in rest.split():
            other, _, similarity = pair.rpartition(":")
            try:
                neighbours.append((other, float(similarity)))
            except ValueError:
                raise ValueError(f"{where}:{number}: {pair!r} is not word:similarity") from None
        table[word] = neighbours
    return table


def related_stems(
    table: Mapping[str, list[tuple[str, float]]],
    vocabulary: Collection[str],
    min_similarity: float = MIN_SIMILARITY,
    most: int = MAX_RELATED,
    usage: Mapping[str, int] | None = None,
) -> dict[str, list[str]]:
    """index term -> at most `most` other index terms whose words are at least
    `min_similarity` similar to one of its words, most similar first (then
    alphabetical): the same for any order of the table. With `usage`, only
    the words of a stem the estate uses (`USED_SHARE`) lend it neighbours."""
    vocabulary = frozenset(vocabulary)
    stems = {word: stem_of(word) for word in table}
    used = _used_words(stems, usage) if usage else None
    found: dict[str, dict[str, float]] = {}
    for word, neighbours in table.items():
        key = stems[word]
        if key is None or key not in vocabulary or (used is not None and word not in used):
            continue
        for other, similarity in neighbours:
            stem = stem_of(other)
            if similarity >= min_similarity and stem is not None and stem != key and stem in vocabulary:
                slot = found.setdefault(key, {})
                slot[stem] = max(similarity, slot.get(stem, 0.0))
    return {
        key: [stem for stem, _ in sorted(near.items(), key=lambda item: (-item[1], item[0]))[:most]]
        for key, near in sorted(found.items())
    }


def _used_words(stems: Mapping[str, str | None], usage: Mapping[str, int]) -> frozenset[str]:
    """The table's words (`stems`: each word's stem) that speak for their stem:
    used at least USED_SHARE as often as its most used word (all of them when
    the estate uses none)."""
    most: dict[str | None, int] = {}
    for word, key in stems.items():
        most[key] = max(most.get(key, 0), usage.get(word, 0))
    return frozenset(word for word, key in stems.items() if usage.get(word, 0) >= USED_SHARE * most[key])


def word_usage(texts: Iterable[str]) -> Counter[str]:
    """How often each lower-case word occurs in these texts."""
    usage: Counter[str] = Counter()
    for text in texts:
        usage.update(_WORD.findall(text.lower()))
    return usage


def related_for(
    vocabulary: Collection[str], path: Path = TABLE, usage: Mapping[str, int] | None = None
) -> dict[str, list[str]]:
    """The related stems of an index's vocabulary, from the table at `path`
    (`usage`: how often the estate uses each word, see `related_stems`)."""
    with path.open(encoding="utf-8") as lines:
        return related_stems(read_table(lines, str(path)), vocabulary, usage=usage)


def stem_of(word: str) -> str | None:
    """The index term of a single word (None for a stop word or more than one word)."""
    pairs = analysed(word)
    return pairs[0][1] if len(pairs) == 1 else None
