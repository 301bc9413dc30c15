"""Publisher names: the GOV.UK organisations list as the authority for exact names.

Sources spell publishers differently ("HM Revenue and Customs", "HM Revenue
Customs", "hm-revenue-customs", "HMRC"). `PublisherAuthority.resolve(name)`
returns the exact GOV.UK `title` for any of those spellings, or None when the
name cannot be matched with confidence (the importers then keep the source's
own name and report it as unmatched).

A name is matched, in this order, by:

1. the explicit alias table `publisher_aliases.toml` (reviewed by hand);
2. an exact GOV.UK `title`;
3. a loose key of the title: case, "&"/"and", "the", punctuation and spacing
   ignored ("Department for Work And Pensions", "HM Revenue Customs");
4. the GOV.UK slug (`details.slug`, or the last part of an organisation URL
   such as https://www.gov.uk/government/organisations/land-registry);
5. the abbreviation GOV.UK gives (`details.abbreviation`, case-sensitive).

Loose keys and abbreviations shared by several organisations are ambiguous:
when exactly one of them is not closed it wins, otherwise the key is not
used at all (never guessed).
"""

from __future__ import annotations

import json
import re
import tomllib
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from .text_repair import repair_mojibake

_SLUG_URL = re.compile(r"^https?://(?:www\.)?gov\.uk/(?:government/organisations|api/organisations)/([a-z0-9-]+)/?$")


def loose_key(name: str) -> str:
    """Case, '&'/'and', 'the', punctuation and spacing folded away."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    text = text.replace("&", " and ")
    words = re.findall(r"[a-z0-9]+", text)
    return " ".join(word for word in words if word not in ("and", "the"))


def load_alias_table(path: Path | None = None) -> dict[str, str]:
    """The explicit alias table: {source spelling: exact GOV.UK title}."""
    if path is None:
        text = resources.files("govsearch_build").joinpath("publisher_aliases.toml").read_text("utf-8")
    else:
        text = Path(path).read_text("utf-8")
    table = tomllib.loads(text).get("aliases", {})
    return {str(key): str(value) for key, value in table.items()}


@dataclass(frozen=True)
class Organisation:
    title: str
    slug: str
    web_url: str
    status: str
    abbreviation: str = ""


@dataclass
class PublisherAuthority:
    """Exact publisher names, and the spellings that lead to them."""

    organisations: dict[str, Organisation] = field(default_factory=dict)  # by exact title
    aliases: dict[str, str] = field(default_factory=dict)  # explicit table
    _loose: dict[str, str] = field(default_factory=dict)
    _slugs: dict[str, str] = field(default_factory=dict)
    _abbreviations: dict[str, str] = field(default_factory=dict)
    ambiguous: dict[str, list[str]] = field(default_factory=dict)
    _alias_loose: dict[str, str] = field(default_factory=dict)
    _cache: dict[str, str | None] = field(default_factory=dict)

    @classmethod
    def from_govuk_json(cls, path: Path, *, alias_table: Path | None = None) -> PublisherAuthority:
        """Build from a GOV.UK organisations API export (`{"results": [...]}`)."""
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        results = data.get("results", []) if isinstance(data, dict) else data
        return cls.from_results(results, aliases=load_alias_table(alias_table))

    @classmethod
    def from_results(
        cls, results: Iterable[dict[str, Any]], *, aliases: dict[str, str] | None = None
    ) -> PublisherAuthority:
        authority = cls(aliases=dict(aliases if aliases is not None else load_alias_table()))
        loose: dict[str, list[Organisation]] = {}
        abbreviations: dict[str, list[Organisation]] = {}
        for item in results:
            if not isinstance(item, dict) or not isinstance(item.get("title"), str):
                continue
            details = item.get("details") or {}
            org = Organisation(
                # six titles in the real export are UTF-8 decoded twice ("Solicitorâ\x80\x99s")
                title=unicodedata.normalize("NFC", repair_mojibake(" ".join(item["title"].split()))),
                slug=str(details.get("slug") or ""),
                web_url=str(item.get("web_url") or ""),
                status=str(details.get("govuk_status") or ""),
                abbreviation=str(details.get("abbreviation") or "").strip(),
            )
            authority.organisations.setdefault(org.title, org)
            loose.setdefault(loose_key(org.title), []).append(org)
            if org.slug:
                authority._slugs.setdefault(org.slug, org.title)
            match = _SLUG_URL.match(org.web_url)
            if match:
                authority._slugs.setdefault(match.group(1), org.title)
            if org.abbreviation and org.abbreviation != org.title:
                abbreviations.setdefault(org.abbreviation, []).append(org)
        authority._loose = authority._pick(loose, "loose")
        authority._abbreviations = authority._pick(abbreviations, "abbreviation")
        authority._alias_loose = {loose_key(alias): target for alias, target in authority.aliases.items()}
        return authority

    def _pick(self, table: dict[str, list[Organisation]], what: str) -> dict[str, str]:
        out: dict[str, str] = {}
        for key, orgs in table.items():
            titles = {org.title for org in orgs}
            if len(titles) == 1:
                out[key] = orgs[0].title
                continue
            open_orgs = {org.title for org in orgs if org.status != "closed"}
            if len(open_orgs) == 1:
                out[key] = open_orgs.pop()
            else:
                self.ambiguous[f"{what}:{key}"] = sorted(titles)
        return out

    def resolve(self, name: str | None) -> str | None:
        """The exact GOV.UK title for this spelling, or None."""
        if not name or not isinstance(name, str):
            return None
        if name not in self._cache:
            self._cache[name] = self._resolve(name)
        return self._cache[name]

    def _resolve(self, name: str) -> str | None:
        text = unicodedata.normalize("NFC", " ".join(name.split()))
        if not text:
            return None
        if text in self.aliases:
            target = self.aliases[text]
            # An alias may name a body that is not on GOV.UK (see
            # docs/publisher-exceptions.md); it is still the exact name to use.
            return target
        if text in self.organisations:
            return text
        key = loose_key(text)
        if key in self._loose:
            return self._loose[key]
        if key in self._alias_loose:
            return self._alias_loose[key]
        slug = text.lower()
        match = _SLUG_URL.match(text)
        if match:
            slug = match.group(1)
        if slug in self._slugs:
            return self._slugs[slug]
        if text in self._abbreviations:
            return self._abbreviations[text]
        return None

    def organisation(self, title: str) -> Organisation | None:
        return self.organisations.get(title)

    def __len__(self) -> int:
        return len(self.organisations)
