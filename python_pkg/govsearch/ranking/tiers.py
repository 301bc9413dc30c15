"""The match modes an answer uses (docs/ranking.md): stricter first, looser
ones while the answer is short and the work budget lasts; the fuzzy tier's
reading of misspelt words; a common word's tier from the build's summary."""

from __future__ import annotations

from dataclasses import replace

from ..engine import Budget, Matches, SearchEngine
from ..loaders import MissingFiles
from ..terms import Clause
from . import respelling, rules
from .budget import fit
from .query import Term, clauses_for
from .related import alternative_clauses
from .scoring import reasons
from .state import QueryState, Ranked, Tier


def tiers(state: QueryState, budget: Budget) -> list[Tier]:
    """The modes the answer uses: stricter first, looser ones while it holds
    fewer than TIER_TARGET records and the work budget lasts. A common word
    alone is answered from its summary when that holds the `depth` best.

    A looser mode that needs downloads (its words' related words' postings)
    has the stricter modes' records' rows fetched in the same round: fewer
    than TIER_TARGET, they all lead the first window, whose rows the answer
    reads next."""
    found: list[Tier] = []
    try:
        return _tiers(state, budget, found)
    except MissingFiles as missing:
        if state.start or not found:
            raise
        raise state.with_rows(missing, lambda: [number for tier in found for number in tier.numbers]) from None


def _tiers(state: QueryState, budget: Budget, found: list[Tier]) -> list[Tier]:
    engine, terms = state.engine, state.terms
    seen: set[int] = set()
    if state.identified:
        identified = Matches(dict.fromkeys(state.identified, 0.0))
        seen.update(engine.filter(identified, state.filters))
        found.append(Tier("identifier", terms, clauses_for(terms, "all_terms"), identified, sorted(seen)))
    tried: set[tuple[Clause, ...]] = set()
    reached: set[int] = set(state.identified)  # under filters: every record the tiers so far matched, unfiltered
    modes = ["all_terms"] if state.strict_only else ["all_terms", "fuzzy", "any_term"]
    corrected: tuple[list[Term], list[Clause]] | None = None  # the fuzzy tier's reading of misspelt words
    for position, mode in enumerate(modes):
        if mode != "all_terms" and budget.spent:
            budget.skipped = [later for later in modes[position:] if later != "any_term" or len(terms) > 1]
            break
        tier_terms, clauses = _mode_clauses(engine, terms, mode)
        if mode == "fuzzy" and clauses:
            corrected = tier_terms, clauses
        elif mode == "any_term" and clauses and corrected:
            tier_terms, clauses = _with_corrections(engine, terms, clauses, corrected)
        if not clauses or tuple(clauses) in tried:
            continue
        tried.add(tuple(clauses))
        tier_terms, clauses = fit(engine, budget, tier_terms, clauses)
        if mode == "any_term" and _held(state, seen, reached) < rules.RELATED_WHILE_FEWER:
            # Beyond the tier's terms: scoring reads terms and clauses in pairs, so these count for lunr's score only.
            clauses = clauses + alternative_clauses(engine, budget, tier_terms, clauses)
        summary = None if seen or mode != "all_terms" else summarised(state, tier_terms, clauses)
        if summary:
            return [summary]
        matches = engine.match(clauses)
        fresh = engine.filter(matches, state.filters)
        if seen:
            fresh = [number for number in fresh if number not in seen]
        found.append(Tier(mode, tier_terms, clauses, matches, fresh))
        if state.filters:
            reached.update(matches.scores)
        if _enough(state, reached, len(seen) + len(fresh)):
            break
        seen.update(fresh)  # fewer than TIER_TARGET: a common word's matches never make a set here
    return found


def _held(state: QueryState, seen: set[int], reached: set[int]) -> int:
    """The records the stricter tiers hold, as the query decides (unfiltered: see _enough)."""
    return len(reached) if state.filters else len(seen)


def _enough(state: QueryState, reached: set[int], passing: int) -> bool:
    """Whether the tiers so far make the answer, so no looser mode is tried.

    The query decides: filters only narrow the records its tiers match, so a
    filter value's count (facets, over the same tiers) is what choosing it
    gives. A filtered answer is not widened because the filters left fewer
    than TIER_TARGET ("flood risk" has 3 APIs among 29 matches: ticking API
    once gave 14, most of them APIs holding "risk" or "flood" alone, and
    every other count jumped with them), only when they left nothing."""
    if not state.filters:
        return passing >= rules.TIER_TARGET
    return passing > 0 and len(reached) >= rules.TIER_TARGET


def _with_corrections(
    engine: SearchEngine, terms: list[Term], clauses: list[Clause], corrected: tuple[list[Term], list[Clause]]
) -> tuple[list[Term], list[Clause]]:
    """The any_term tier's terms and clauses with each word the index lacks
    read as the fuzzy tier read it, respelt or within its edits; not as an
    index term it merely begins with ("markup" is no typo of "mark")."""
    if len(corrected[0]) != len(terms):
        return terms, clauses
    pairs = [
        (fixed, replace(fixed_clause, presence="optional"))
        if engine.matcher.frequency(term.indexed) == 0
        and (fixed_clause.edit_distance or (fixed != term and _respelt(engine, term, 0) == fixed.indexed))
        else (term, clause)
        for term, clause, fixed, fixed_clause in zip(terms, clauses, *corrected)
    ]
    return [term for term, _ in pairs], [clause for _, clause in pairs]


def _mode_clauses(engine: SearchEngine, terms: list[Term], mode: str) -> tuple[list[Term], list[Clause]]:
    """A mode's terms (the fuzzy mode's as it reads misspelt words) and
    clauses (none when the mode could find nothing new)."""
    if mode != "fuzzy":
        return terms, clauses_for(terms, mode) if mode == "all_terms" or len(terms) > 1 else []
    tier_terms, misspelt, wider = typo_terms(engine, terms)
    clauses = clauses_for(tier_terms, mode, misspelt) if misspelt or tier_terms != terms else []
    return tier_terms, [
        Clause(clause.term, clause.presence, 2, clause.wildcard)
        if clause.edit_distance and clause.term in wider
        else clause
        for clause in clauses
    ]


def summarised(state: QueryState, terms: list[Term], clauses: list[Clause]) -> Tier | None:
    """The all_terms tier of a one-word search for a common word, from the
    build's summary (engine.Summary): exactly what scoring its records would
    give (the build ranks them by the same rules, and the tally makes totals
    and facet counts exact), or None when the summary cannot tell: another
    kind of query, a page beyond its best, or filters that leave too few of them."""
    if len(terms) != 1 or terms[0].intent or terms[0].prefix or terms[0].synonym:
        return None
    engine, filters, depth = state.engine, state.filters, state.depth
    summary = engine.matcher.summary(clauses[0])
    if summary is None:
        return None
    passing = engine.passing(summary.tally, filters) if filters else set(summary.tally)
    count = sum(summary.tally[profile] for profile in passing)
    if count < rules.TIER_TARGET:
        return None  # looser modes would be tried
    candidates = summary.best[: summary.trusted(filters, depth) if filters else min(depth, summary.general)]
    engine.facets.require([number for number, _, _ in candidates])
    profile_of = engine.facets.profiles[0]
    best = [item for item in candidates if profile_of[item[0]] in passing][:depth]
    if len(best) < depth:
        return None
    title = 1 << summary.fields.index("title") if "title" in summary.fields else 0
    ranked = [
        Ranked(number, score, "all_terms", reasons(state.ranking, "all_terms", number, bool(mask & title), False))
        for number, score, mask in best
    ]
    matches = Matches(tally=summary.tally, score=lambda: engine.match(clauses).scores)
    return Tier("all_terms", terms, clauses, matches, [], ranked, count)


def typo_terms(engine: SearchEngine, terms: list[Term]) -> tuple[list[Term], frozenset[str], frozenset[str]]:
    """The fuzzy tier's terms, the words among them that may differ by one
    edit, and those of them that may differ by two.

    A word of 5+ letters in fewer than RARE records may be misspelt. The index
    holds stems, so a typo that breaks the suffix the stemmer removes
    ("popluation": no stem is one edit from it) is read as the word one edit
    from what was typed that the person meant (respelling: "population",
    so "popul"), else as the longest index term it begins with, if that
    keeps most of the word. When no
    such term exists either ("drivng": the stem "drive" is two edits away),
    a word of TWO_EDITS_FROM letters or more may differ by two edits (letters
    only, and at most MAX_TWO_EDIT_WORDS words of a call: the work budget).
    """
    misspelt: set[str] = set()
    wider: set[str] = set()
    fixed = []
    for term in terms:
        frequency = engine.matcher.frequency(term.indexed) if term.fuzzable else rules.RARE
        if frequency < rules.RARE:
            if engine.matcher.expand(Clause(term.indexed, "required", edit_distance=1)):
                misspelt.add(term.indexed)
            else:
                prefix = _respelt(engine, term, frequency) or _known_prefix(engine, term.typed)
                if prefix is None and len(wider) < rules.MAX_TWO_EDIT_WORDS and _two_edits_away(engine, term):
                    misspelt.add(term.indexed)
                    wider.add(term.indexed)
                term = replace(term, indexed=prefix or term.indexed)
        fixed.append(term)
    return fixed, frozenset(misspelt), frozenset(wider)


def _two_edits_away(engine: SearchEngine, term: Term) -> bool:
    """Whether a word of letters, of TWO_EDITS_FROM to TWO_EDITS_TO, is two edits from an index term."""
    return (
        term.indexed.isalpha()
        and rules.TWO_EDITS_FROM <= len(term.indexed) <= rules.TWO_EDITS_TO
        and bool(engine.matcher.expand(Clause(term.indexed, "required", edit_distance=2)))
    )


def _respelt(engine: SearchEngine, term: Term, frequency: int) -> str | None:
    """The index term of the word, one typed edit from a rare word, that the person meant (respelling).

    Kept for the next few calls (a few hundred lookups a word): a call asked
    again once its shards have arrived works out its tiers again."""
    key = ("respelt", term.typed, term.indexed, frequency, rules.COMMONER)
    return engine.remembered(key, lambda: _respelling(engine, term, frequency))


def _respelling(engine: SearchEngine, term: Term, frequency: int) -> str | None:
    # Asked as words, not clauses: what was typed holds no `*` (query_terms splits at it), nor do
    # the stems of its edits, and clauses would cost more than the stemming.
    held = respelling.candidate_stems(
        term.typed,
        term.indexed,
        engine.matcher.has_term,
        engine.matcher.has_prefix,
    )
    return respelling.meant(frequency, [(stem, engine.matcher.frequency(stem)) for stem in held])


def _known_prefix(engine: SearchEngine, typed: str) -> str | None:
    for length in range(len(typed) - 1, max(4, len(typed) - 4) - 1, -1):
        if engine.matcher.has_term(typed[:length]):
            return typed[:length]
    return None
