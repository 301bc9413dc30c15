"""Browsable values (a collection, type, publisher or access status) and the
records each lists, by title; publishers grouped A to Z."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .config import SiteConfig
from .labels import ACCESS_STATUSES, RESOURCE_TYPES


@dataclass(frozen=True)
class Facet:
    """One browsable value: a collection, type, publisher or access status."""

    kind: str  # collections | types | publishers | access
    token: str  # the machine value in the records
    slug: str  # the URL segment
    label: str
    records: tuple[dict[str, Any], ...]

    @property
    def path(self) -> str:
        return f"{self.kind}/{self.slug}/"


def by_letter(facets: Iterable[Facet]) -> list[tuple[str, str, list[Facet]]]:
    """Facets grouped A to Z by the first letter of their label: (letter,
    slug, facets); names starting with anything else come last, under "0-9"."""
    groups: dict[str, list[Facet]] = {}
    for facet in facets:
        first = unicodedata.normalize("NFKD", facet.label.strip()[:1]).encode("ascii", "ignore").decode().upper()
        groups.setdefault(first if "A" <= first <= "Z" else "0-9", []).append(facet)
    letters = sorted(groups, key=lambda letter: (letter == "0-9", letter))
    return [(letter, "other" if letter == "0-9" else letter.lower(), groups[letter]) for letter in letters]


def _by_title(records: Iterable[dict[str, Any]]) -> tuple[dict[str, Any], ...]:
    return tuple(sorted(records, key=lambda r: (r["title"].casefold(), r["id"])))


def facet_groups(
    config: SiteConfig, records: list[dict[str, Any]], publisher_slug: dict[str, str]
) -> dict[str, list[Facet]]:
    """Every browsable value of each kind, in the order its index page lists them."""
    groups: dict[str, list[Facet]] = {}
    groups["collections"] = [
        Facet(
            "collections",
            c.id,
            c.id,
            c.title,
            _by_title(r for r in records if c.id in r.get("collections", [r["collection"]])),
        )
        for c in config.collections
    ]
    groups["types"] = [
        Facet("types", token, token, label, _by_title(r for r in records if r["resourceType"] == token))
        for token, label in RESOURCE_TYPES.items()
    ]
    groups["access"] = [
        Facet("access", token, token, label, _by_title(r for r in records if r["accessStatus"] == token))
        for token, label in ACCESS_STATUSES.items()
    ]
    groups["publishers"] = [
        Facet("publishers", name, slug, name, _by_title(r for r in records if r["publisher"] == name))
        for name, slug in sorted(publisher_slug.items(), key=lambda item: item[0].casefold())
    ]
    return groups
