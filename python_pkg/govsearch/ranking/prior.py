"""The record prior: what the build found out about each record (its flags,
rules.FLAG_WEIGHTS, and its place among GOV.UK's most visited pages,
rules.visit_factor) as a factor on its lunr score, and the site's search
terms (synonym groups, intent words, fillers, question openings, places) the
ranking file holds."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..format import CODE_ALPHABET
from . import rules
from .vocabulary import SearchTerms

_CODES = {char: number for number, char in enumerate(CODE_ALPHABET)}


class RankingData:
    """What the build worked out for the re-ranker: each record's flags and
    place among GOV.UK's most visited pages, and the site's synonym groups and intent words."""

    def __init__(self, data: Mapping[str, Any], records: int = 0):
        codes = data.get("flags", "")
        self.flags = [_CODES[char] for char in codes] or [0] * records
        self._weights = [self._weight(mask) for mask in range(64)]
        # Only the places that raise a prior: none when VISITED_BOOST is 0, nor at VISITED_PAGES or past it.
        factors = ((number, rules.visit_factor(place)) for number, place in data.get("visited", ()))
        self.visit_factors = {number: factor for number, factor in factors if factor > 1.0}
        self.flag_priors = [self._weights[mask] for mask in self.flags]
        self.priors = self._with_visits(0, self.flag_priors)
        search = data.get("search", {})
        self.search_terms = SearchTerms.from_lists(
            search.get("synonyms", []),
            search.get("intents", {}),
            leading=search.get("leading_intents", ()),
            fillers=search.get("fillers", ()),
            optional=search.get("optional_words", ()),
            openings=search.get("openings", {}),
            places=search.get("places", ()),
            areas=search.get("areas", {}),
            common=search.get("common_words", ()),
            framing=search.get("framing_words", ()),
            ambiguous=search.get("ambiguous", ()),
        )

    @staticmethod
    def _weight(mask: int) -> float:
        weight = 1.0
        for bit, (_, factor) in enumerate(rules.FLAG_WEIGHTS):
            if mask >> bit & 1:
                weight *= factor
        return weight

    def set_flags(self, start: int, masks: list[int]) -> None:
        """Records' flags from their facet profiles (govsearch.facets), read on first need."""
        end = start + len(masks)
        plain = [self._weights[mask] for mask in masks]
        self.flags[start:end] = masks
        self.flag_priors[start:end] = plain
        self.priors[start:end] = self._with_visits(start, plain)

    def _with_visits(self, start: int, plain: list[float]) -> list[float]:
        """The flags' priors of the records from `start`, each raised by its visit factor (a new list)."""
        raised = list(plain)
        for number, factor in self.visit_factors.items():
            if start <= number < start + len(raised):
                raised[number - start] *= factor
        return raised

    @staticmethod
    def visits_apply(kinds: Iterable[str]) -> bool:
        """Whether GOV.UK's visits order records for a query whose intent words ask for these
        resource types: not for data or an API (rules.VISITS_NOT_FOR), which the people behind
        the visits were not after."""
        return rules.VISITS_NOT_FOR.isdisjoint(kinds)

    def priors_for(self, kinds: Iterable[str]) -> list[float]:
        """Every record's prior, for a query whose intent words ask for `kinds` (`visits_apply`):
        the runtime's tiers and the build's best records of a common word both read it."""
        return self.priors if self.visits_apply(kinds) else self.flag_priors

    def prior_names(self, number: int, visits: bool = True) -> list[str]:
        """The reasons a record's prior gives: its flags, and `most_visited` where its place raised it."""
        mask = self.flags[number] if number < len(self.flags) else 0
        names = [name for bit, (name, _) in enumerate(rules.FLAG_WEIGHTS) if mask >> bit & 1]
        return names + ["most_visited"] if visits and number in self.visit_factors else names


def flag_code(names: Sequence[str]) -> str:
    """The one-character code of a record's flags (used by the build)."""
    known = [name for name, _ in rules.FLAG_WEIGHTS]
    return CODE_ALPHABET[sum(1 << known.index(name) for name in names)]
