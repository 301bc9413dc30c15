"""The any_term tier's coordination: a record scores the share of the
query's information it holds, so one holding the rare word of a query comes
before one holding only its common word."""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from itertools import compress
from operator import mul, not_, or_

from ..engine import SCORE_PLACES, SearchEngine
from ..engine import idf as lunr_idf
from ..terms import Clause
from . import rules
from .index_evidence import records_holding


class Coverage:
    """The any_term tier's share: how much of the query's information a
    record holds. Each (non-intent) word weighs its idf as lunr computes it
    (lunr.idf: ln(1 + (N - df + 0.5) / (df + 0.5)), df the records holding
    the word in any field, N all records), and a record scores the idf of
    the words it holds over the idf of all of them. A record holding the rare
    word of `inflation rate` ("inflation": 2 records) then outweighs one
    holding only the common word ("rate": 71), which a title match would
    otherwise carry above it; when the words are equally rare this is k of
    n words, k / n. Each word a record lacks divides its share by COVERAGE
    once for a word of average information, more for a rarer word, less for
    a commoner one (rules.LACKING_BY_INFORMATION): holding "universal credit"
    and lacking "work", "part" and "time" is not lacking three topics. A word
    among English's commonest ("need", "time") weighs less than its idf says
    (rules.COMMON_WORD_WEIGHT). A record found only by an intent word ("api"),
    or only by the query's year or month, holds none of the subject's words:
    0, after the others."""

    def __init__(
        self,
        engine: SearchEngine,
        words: list[Clause],
        common: Sequence[bool] | None = None,
        dates: Sequence[bool] | None = None,
    ):
        """`common`: for each word, whether it is among English's commonest (its idf then weighs
        rules.COMMON_WORD_WEIGHT of itself); none is by default. `dates`: for each word, whether
        it is a year or a month: a record holding only those holds none of the subject."""
        self.holders = [records_holding(engine, clause) for clause in words]
        idf = [
            lunr_idf(len(held), engine.facets.count) * (rules.COMMON_WORD_WEIGHT if plain else 1.0)
            for held, plain in zip(self.holders, common or [False] * len(words), strict=True)
        ]
        self.weights = [weight / sum(idf) for weight in idf]
        # What lacking each word counts for: one word, by its information in part.
        blend = rules.LACKING_BY_INFORMATION
        self.lacks = [1 - blend + blend * len(words) * weight for weight in self.weights]
        # The word the most records hold (a common English word's halved idf does not make it so).
        commonest = max(range(len(words)), key=lambda word: len(self.holders[word]))
        # Most of a common word's records hold no other word of the query: they
        # share the commonest word's weight, divided for every other word they lack,
        # and are not counted word by word.
        self.commonest = self.holders[commonest]
        lacking_all_but = sum(self.lacks) - self.lacks[commonest]
        self.alone = {True: self.weights[commonest] * rules.COVERAGE**-lacking_all_but, False: 0.0}
        self.rarer = set().union(*(held for word, held in enumerate(self.holders) if word != commonest))
        # The records holding a word of the subject: not only a date ("ONSPD May 2026 csv": a record
        # whose title holds "2026" and nothing of the rest is no edition of it), unless it is all dates.
        topical = list(compress(self.holders, map(not_, dates or [False] * len(words))))
        self.subject = set().union(*(topical or self.holders))

    def scored(self, numbers: list[int], base: list[float], room: int, boost: float) -> tuple[list[int], list[float]]:
        """The records that can still reach the room best once the tier's
        other factors (at most `boost`) apply, and their base scores times
        shares. Records found by an intent word alone score 0: they are kept
        only while the others are fewer than `room`. Of the others, the room
        best by base score reach at least the room-th best of their own
        products, and no share exceeds 1: records further down are left out
        before their shares are worked out."""
        holding = list(map(self.subject.__contains__, numbers))
        subject, subject_base = list(compress(numbers, holding)), list(compress(base, holding))
        if len(subject) < room:
            rest = list(compress(numbers, map(not_, holding)))
            return subject + rest, list(map(mul, subject_base, self.shares(subject))) + [0.0] * len(rest)
        top, top_base = rules.near_top(subject, subject_base, room, 1)
        reached = heapq.nlargest(room, map(mul, top_base, self.shares(top)))[-1]
        needed = reached / boost - 2 * 10**-SCORE_PLACES  # the least base score that could reach it
        keep = list(map(needed.__le__, subject_base))
        subject, subject_base = list(compress(subject, keep)), list(compress(subject_base, keep))
        # A record holding no rarer word shares at most the commonest word's weight.
        needed_alone = needed / self.alone[True]
        keep = list(map(or_, map(needed_alone.__le__, subject_base), map(self.rarer.__contains__, subject)))
        subject, subject_base = list(compress(subject, keep)), list(compress(subject_base, keep))
        return subject, list(map(mul, subject_base, self.shares(subject)))

    def shares(self, numbers: list[int]) -> list[float]:
        """The shares of these records, in order (0: a record found by an
        intent word alone): the idf of the words held over all the words',
        divided by COVERAGE for each word lacking (as its information counts);
        added up in the query's word order, so equal holdings give equal floats."""
        counted = dict.fromkeys(filter(self.rarer.__contains__, numbers), 0.0)
        lacking = dict.fromkeys(counted, 0.0)
        for held, weight, lacks in zip(self.holders, self.weights, self.lacks):
            for number in counted:
                if number in held:
                    counted[number] += weight
                else:
                    lacking[number] += lacks
        for number, lacks in lacking.items():
            counted[number] *= rules.COVERAGE**-lacks
        shares = map(counted.get, numbers, map(self.alone.__getitem__, map(self.commonest.__contains__, numbers)))
        return [share if number in self.subject else 0.0 for number, share in zip(numbers, shares)]
