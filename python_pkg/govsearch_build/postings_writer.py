"""The postings shards of the sharded layout (govsearch.format: postings):
each term's lunr term index and columns, the rows of a common word's best
records, and a very common word's summary, ranked by the runtime's own rules."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from govsearch.format import encode_column, keys, shard_stem
from govsearch.ranking import RankingData, rules, series

from .data_files import ROW_FIELDS, DataWriter, dump, newest_of
from .postings import Postings

POSTINGS_SHARD_BYTES = 32 * 1024
# A word in TOP_ROWS_FROM records or more also carries the rows of its best
# TOP_ROWS records (the tool's largest limit) in its postings: a one-word
# search, or a typo corrected to such words, then needs no second round of
# downloads. A browser fetches many small files slowly (a dozen row shards
# cost more than the rows' bytes), so words from 8 records carry them; a
# rarer word's results are a handful (docs/architecture.md has the figures).
TOP_ROWS_FROM = 8  # records holding the term
TOP_ROWS = 20
# A word whose best rules.POOL records group (govsearch.ranking.series: "January"
# brings a monthly release's editions) into fewer than rules.WINDOW_TARGET results
# makes a one-word search read the next window of the word's records too: such a
# word carries that window's rows as well (the build groups the rows as the answer
# would), so the search still needs no row shards; a summarised word (below) too,
# whose summary file then answers without its pools file. Bytes to download only: neither the shard's cut nor its work counts
# them, so every decision of the budget, and every answer, stays as it was.
# The work budget (terms.MAX_SHARD_BYTES) decides from each postings shard's
# `work`: its bytes with the rows of words in fewer than BUDGETED_ROWS_FROM
# records left out, and shards are cut by that measure. The budget was set
# when only those words carried rows, so carrying rows for rarer words (a
# download saved, no work added to speak of) leaves every call's decision,
# and so every answer, as it was.
BUDGETED_ROWS_FROM = 50
# A word in SUMMARY_FROM records or more also carries its summary (data_format:
# keys.POSTING_SUMMARY): a one-word search then answers, totals and facet counts
# exact, without scoring every record, which at 300,000 records took 100 to
# 150 ms in Chromium for a word in 100,000 of them (under 1,000 records it is
# a few ms either way, so rarer words do without and stay smaller).
SUMMARY_FROM = 1000
# Its best SUMMARY_BEST records (rows for the first TOP_ROWS; the others' rows,
# and the by-value bests' below, in one pools file): enough for a filter or two
# and a few pages of "show more" before its records are scored.
SUMMARY_BEST = 200
# ... and the best SUMMARY_VALUE_BEST of each resource type, collection and
# access status, so a search filtered on one of them is answered too (at
# 300,000 records "planning" filtered to datasets had 6 among its best 200).
SUMMARY_VALUE_FIELDS = ("resourceType", "collection", "accessStatus")
SUMMARY_VALUE_BEST = 20


def _best(
    term: str,
    pairs_by_field: dict[str, list[tuple[int, float]]],
    fields: list[str],
    rows: list[list[Any]],
    ranking: RankingData,
    count: int | None = TOP_ROWS,
) -> list[tuple[int, float]]:
    """(number, score) of the term's best `count` records (None: all), as a one-word
    search ranks them before row evidence: lunr's score, the record prior,
    then the runtime's own rules.evidence_score (the word in the title, an
    intent word's resource types; a lone word names no place beside a topic)."""
    scores: dict[int, float] = {}
    for field in fields:  # lunr adds a one-word query's field scores in field order
        for number, weight in pairs_by_field.get(field, ()):
            scores[number] = scores.get(number, 0) + weight
    in_title = {number for number, _ in pairs_by_field.get("title", ())}
    # An index term an intent word shares ("document", of "documentation" and "documents") is
    # ranked as the intent word reads it; a topic word of that stem reads its rows again, one
    # more round of downloads, with the same answer (the carried rows are a cache).
    wanted = ranking.search_terms.intents.get(term, ())
    priors = ranking.priors_for(wanted)  # as ranking.scoring reads them, so the floats agree
    type_at = ROW_FIELDS.index("resourceType")
    for number in scores:
        base = scores[number] * priors[number]
        scores[number] = rules.evidence_score(base, number in in_title, rows[number][type_at] in wanted)
    best = sorted(scores, key=lambda number: rules.rank_key(scores[number], number))[:count]
    return [(number, scores[number]) for number in best]


def _reads_a_second_window(best: list[tuple[int, float]], rows: list[list[Any]]) -> bool:
    """Whether the word's best rules.POOL records (its first window), their
    series grouped as an answer groups them, leave fewer than
    rules.WINDOW_TARGET results."""
    first = [series.group_of(dict(zip(ROW_FIELDS, rows[number]))) for number, _ in best[: rules.POOL]]
    return len(series.grouped(first)) < rules.WINDOW_TARGET


def _with_newest(carried: list[list[Any]], rows: list[list[Any]]) -> list[list[Any]]:
    """Carried rows, then the rows of their series' newest editions that are not
    among them (a row's last field: keys.ROW_NEWEST)."""
    skip = {None, *(row[0] for row in carried)}
    newest = dict.fromkeys(newest_of(row) for row in carried)
    return carried + [[number, *rows[number]] for number in newest if number not in skip]


def _summary(
    pairs_by_field: dict[str, list[tuple[int, float]]],
    fields: list[str],
    ranked: list[tuple[int, float]],
    profile_of: list[int],
    members: list[tuple[tuple[str, ...], ...]],
    rows: list[list[Any]],
) -> dict[str, Any]:
    """What a one-word search shows of a common word without scoring its records
    (govsearch.format: keys.POSTING_SUMMARY): its records per profile; its best records
    (`ranked`: all of them, best first), that is the best SUMMARY_BEST and the
    best SUMMARY_VALUE_BEST of each value of the SUMMARY_VALUE_FIELDS
    (`members`: each record's values of those fields), in rank order, with
    their scores and the fields holding the word in each."""
    tally = Counter(profile_of[number] for number, _ in ranked)
    chosen = {number for number, _ in ranked[:SUMMARY_BEST]}
    for at in range(len(SUMMARY_VALUE_FIELDS)):
        taken: Counter[str] = Counter()
        for number, _ in ranked:
            for value in members[number][at]:
                if taken[value] < SUMMARY_VALUE_BEST:
                    taken[value] += 1
                    chosen.add(number)
    pool = [(number, score) for number, score in ranked if number in chosen]
    holding = {field: {number for number, _ in pairs_by_field.get(field, ())} for field in fields}

    def mask(number: int) -> int:
        """The fields holding the word in the record, a bit each."""
        return sum(1 << at for at, field in enumerate(fields) if number in holding[field])

    newest = [newest_of(rows[number]) for number, _ in pool]
    newest = [number for number in dict.fromkeys(newest) if number is not None and number not in chosen]
    return {
        keys.SUMMARY_TALLY: [value for profile in sorted(tally) for value in (profile, tally[profile])],
        keys.SUMMARY_NUMBERS: [number for number, _ in pool],
        keys.SUMMARY_SCORES: [score for _, score in pool],
        keys.SUMMARY_FIELDS: [mask(number) for number, _ in pool],
        # The newest editions of those records' series that are not among them, and their masks
        # (ranking.stages._newest_leads shows them; their result says where the word is).
        keys.SUMMARY_NEWEST: [[number, mask(number)] for number in newest],
        keys.SUMMARY_GENERAL: min(SUMMARY_BEST, len(ranked)),
        keys.SUMMARY_BY_VALUE: {
            keys.BY_VALUE_FIELDS: list(SUMMARY_VALUE_FIELDS),
            keys.BY_VALUE_BEST: SUMMARY_VALUE_BEST,
        },
    }


def postings_shards(
    writer: DataWriter,
    postings: Postings,
    terms: list[str],
    rows: list[list[Any]],
    ranking: RankingData,
    profile_of: list[int] | None = None,
    members: list[tuple[tuple[str, ...], ...]] | None = None,
    related: Mapping[str, list[str]] | None = None,
) -> list[dict[str, Any]]:
    """Per term: its lunr term index and, per field, (record gaps, weights);
    its `related` terms, if any; for a word in at least TOP_ROWS_FROM records, also its best rows (two
    windows' when its first groups into too few results: _reads_a_second_window); for one
    in SUMMARY_FROM records or more (not an intent word), its summary, the
    rest of whose records' rows go to a pools file of their own, and a
    summary file: its posting without the columns, all a one-word search reads.

    Weights are lunr's (govsearch_build/postings.py): the term's boosted BM25
    score in that record's field, which is all lunr's similarity needs.
    """
    shards, current, counted, size, pools, summarised_count = [], {}, {}, 0, 0, 0
    summary_files: dict[str, dict[str, Any]] = {}  # the current shard's summarised words' summary files
    for term in terms:
        pairs_by_field = postings.of(term)
        fields = _columns(pairs_by_field)
        current[term] = counted[term] = {
            keys.POSTING_TERM_INDEX: postings.term_index(term),
            keys.POSTING_FIELDS: fields,
        }
        holders = len({number for pairs in pairs_by_field.values() for number, _ in pairs})
        if holders >= TOP_ROWS_FROM:
            summarised = (
                holders >= SUMMARY_FROM
                and profile_of is not None
                and members is not None
                and term not in ranking.search_terms.intents
            )
            windows = rules.POOL * rules.WINDOWS  # a one-word search reads at most these records' rows
            best = _best(term, pairs_by_field, postings.fields, rows, ranking, None if summarised else windows)
            current[term] = {
                **current[term],
                keys.POSTING_ROWS: [[number, *rows[number]] for number, _ in best[:TOP_ROWS]],
            }
            if holders >= BUDGETED_ROWS_FROM:
                counted[term] = current[term]
            if holders > rules.POOL and _reads_a_second_window(best, rows):
                current[term] = {
                    **current[term],
                    keys.POSTING_ROWS: [[number, *rows[number]] for number, _ in best[:windows]],
                }
            # The newest editions of the carried records' series (ranking.stages._newest_leads
            # may show them in their place): bytes only, in a new dict, so no work is counted.
            current[term] = {
                **current[term],
                keys.POSTING_ROWS: _with_newest(current[term][keys.POSTING_ROWS], rows),
            }
            if summarised and profile_of is not None and members is not None:
                # A new dict, not counted as work: the budget's decisions stay as they were.
                summary = _summary(pairs_by_field, postings.fields, best, profile_of, members, rows)
                carried = {row[0] for row in current[term][keys.POSTING_ROWS]}
                pooled = [number for number in summary[keys.SUMMARY_NUMBERS] if number not in carried]
                if pooled:
                    rows_file = {keys.ROWS: [[number, *rows[number]] for number in pooled]}
                    summary[keys.SUMMARY_ROWS] = writer.write(shard_stem(keys.POOLS, pools), rows_file)
                    pools += 1
                current[term] = {**current[term], keys.POSTING_SUMMARY: summary}
                # The posting without its columns: what a one-word search reads.
                without_columns = {key: value for key, value in current[term].items() if key != keys.POSTING_FIELDS}
                without_columns[keys.POSTING_COUNT] = sum(map(len, pairs_by_field.values()))
                summary_files[term] = writer.write(shard_stem(keys.SUMMARIES, summarised_count), without_columns)
                summarised_count += 1
        size += len(dump(counted[term])) + len(term) + 4
        if related and term in related:
            # Bytes to download, so in the shard's size; not work the budget counts (a list read once).
            current[term] = {**current[term], keys.POSTING_RELATED: related[term]}
            size += len(dump(related[term])) + 4
            # Their postings too, so that searching them costs no round of downloads of its own.
            # Left out of the size: shards are cut, and the budget decides, as without them.
            current[term] = {**current[term], keys.POSTING_RELATED_POSTINGS: _carried(postings, related[term])}
        if size >= POSTINGS_SHARD_BYTES:
            shards.append(_close_shard(writer, len(shards), current, counted, summary_files))
            current, counted, size, summary_files = {}, {}, 0, {}
    if current:
        shards.append(_close_shard(writer, len(shards), current, counted, summary_files))
    return shards


def _carried(postings: Postings, related: list[str]) -> dict[str, dict[str, Any]]:
    """The postings a term carries for its related terms (govsearch.format:
    POSTING_RELATED_POSTINGS): a related term's term index and columns when the
    runtime can afford them (rules.ALTERNATIVE_POSTINGS postings or fewer),
    else only how many postings it has, which is all the runtime asks of it."""
    carried = {}
    for other in related:
        pairs_by_field = postings.of(other)
        count = sum(map(len, pairs_by_field.values()))
        if count > rules.ALTERNATIVE_POSTINGS:
            carried[other] = {keys.POSTING_COUNT: count}
            continue
        carried[other] = {
            keys.POSTING_TERM_INDEX: postings.term_index(other),
            keys.POSTING_FIELDS: _columns(pairs_by_field),
        }
    return carried


def _columns(pairs_by_field: Mapping[str, list[tuple[int, float]]]) -> dict[str, list[str]]:
    """A posting's columns: per field, its records and weights (encode_column)."""
    return {
        field: encode_column([number for number, _ in pairs], [weight for _, weight in pairs])
        for field, pairs in pairs_by_field.items()
    }


def _close_shard(
    writer: DataWriter,
    number: int,
    terms: dict[str, Any],
    counted: dict[str, Any],
    summary_files: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    """The shard's entry, with its `work` (its size as the work budget
    counts it: TOP_ROWS_FROM) and its summarised words' summary files."""
    entry = writer.write(shard_stem(keys.POSTINGS, number), {keys.TERMS: terms}, len(terms))
    return {
        keys.FIRST: next(iter(terms)),
        **entry,
        keys.WORK: len(dump({keys.TERMS: counted})),
        keys.POSTING_SUMMARY_FILES: summary_files,
    }
