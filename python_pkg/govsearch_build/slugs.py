"""URL slugs for names: every publisher's page address, unique."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable


def slugify(name: str) -> str:
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    text = text.replace("&", " and ")
    slug = re.sub(r"[^a-z0-9]+", "-", text).strip("-")
    return slug or "publisher"


def publisher_slugs(names: Iterable[str]) -> dict[str, str]:
    """A unique URL slug for every publisher name (a number added on collision)."""
    slugs: dict[str, str] = {}
    used: set[str] = set()
    for name in sorted(set(names)):
        base = slugify(name)
        slug, number = base, 2
        while slug in used:
            slug, number = f"{base}-{number}", number + 1
        used.add(slug)
        slugs[name] = slug
    return slugs
