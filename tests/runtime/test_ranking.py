"""Ranking, filtering and facet counts equal their plain definitions.

The engine takes shortcuts for speed on common words (it rounds and sorts
only the records near the cut-off, counts through decoded columns); these
tests hold it to the slow, obvious computation, including scores that tie
only after rounding to six places.
"""

import random
from collections import Counter

import pytest

from govsearch.engine import DIMENSIONS, SCORE_PLACES, FacetTable, Matches, SearchEngine
from govsearch.format import profile_table

VALUES = {
    "resourceType": ["dataset", "api", "guidance"],
    "accessStatus": ["public", "restricted"],
    # A record of one resource in several collections has the list as its value.
    "collection": ["land-registry", "ons", "uk-living", ["land-registry", "ons"], ["ons", "uk-living"]],
    # More than 64 values: two-character codes.
    "publisher": [f"Publisher {number:03d}" for number in range(70)],
}


def table(rng, count):
    rows = [{field: rng.choice(values) for field, values in VALUES.items()} for _ in range(count)]
    columns = {field: (values, [values.index(row[field]) for row in rows]) for field, values in VALUES.items()}
    return FacetTable.from_json(profile_table(columns, [0] * count)[0]), rows


def near_ties(rng, count):
    """Scores bunched around a few values, many equal after rounding but not before."""
    centres = [rng.uniform(0.5, 9) for _ in range(5)]
    scores = {}
    for number in rng.sample(range(count), count // 2):
        scores[number] = round(rng.choice(centres), SCORE_PLACES) + rng.choice(
            [-4e-7, -1e-7, 0.0, 1e-7, 4.9e-7, 1.2e-6]
        )
    return scores


def plain_best(scores, numbers, limit):
    ordered = sorted(numbers, key=lambda number: (-round(scores[number], SCORE_PLACES), number))
    return [(number, round(scores[number], SCORE_PLACES)) for number in ordered[:limit]]


def members(value):
    return value if isinstance(value, list) else [value]


def plain_counts(rows, numbers, field):
    tally = Counter(member for number in numbers for member in members(rows[number][field]))
    return sorted(tally.items(), key=lambda item: (-item[1], item[0]))


@pytest.mark.parametrize("seed", range(40))
def test_best_equals_a_full_sort(seed):
    rng = random.Random(seed)
    facets, _ = table(rng, 400)
    engine = SearchEngine(matcher=None, facets=facets)
    scores = near_ties(rng, 400)
    numbers = list(scores)
    rng.shuffle(numbers)
    for limit in (1, 3, 8, 20):
        best = [(hit.number, hit.score) for hit in engine.best(Matches(scores), numbers, limit)]
        assert best == plain_best(scores, numbers, limit)


@pytest.mark.parametrize("seed", range(20))
def test_filters_and_facet_counts_equal_their_definitions(seed):
    rng = random.Random(100 + seed)
    facets, rows = table(rng, 300)
    engine = SearchEngine(matcher=None, facets=facets)
    scores = near_ties(rng, 300)
    filters = {}
    for name, field in DIMENSIONS.items():
        if rng.random() < 0.5:
            filters[name] = frozenset(rng.sample([v for v in VALUES[field] if isinstance(v, str)], rng.randint(1, 2)))

    def passes(number, names):
        return all(set(members(rows[number][DIMENSIONS[name]])) & filters[name] for name in names)

    matches = Matches(scores)
    assert sorted(engine.filter(matches, filters)) == sorted(n for n in scores if passes(n, filters))
    counts = engine.facet_counts(matches, filters)
    for name, field in DIMENSIONS.items():
        others = [other for other in filters if other != name]
        expected = plain_counts(rows, [n for n in scores if passes(n, others)], field)
        assert list(counts[name].items()) == expected, name


def test_every_record_reads_back_its_own_values():
    rng = random.Random(5)
    facets, rows = table(rng, 200)
    assert len(facets.names["publisher"]) > 64  # two-character codes
    facets.require(range(len(rows)))
    of_record, values = facets.profiles
    for number, row in enumerate(rows):
        assert values[of_record[number]] == tuple(tuple(members(row[field])) for field in DIMENSIONS.values())
