"""Rules over the whole estate, once every source is read: one record per resource.

Importers see one export at a time; the same resource can still arrive from
several (a curated `deep-evidence` record and the API catalogue's row for the
same API, an ONS dataset also listed for land and property). Here records
whose URLs name the same resource (`quality.normalised_url`, which sets
aside an API's trailing version) become one record that belongs to every
collection they were in, and keeps what the others called it (`keep_names`). One exception: curated
records our own authors gave titles with no word in common are different
resources at one address (APIs behind one gateway, such as DWP's 38 at
api.engineering.dwp.gov.uk), and stay apart.

Which record's facts win: a reviewed record (one with `evidence`, the
`deep-evidence` tier) first, then curated records, then imports in the order
of `[[sources]]`. The winner keeps its title, summary, url, publisher, type,
access status, access note and licence; a reviewed record never takes access
or licence facts from an import (they are what its review checked). The
others add their keywords and links, and fill a missing documentation link,
update date or (for unreviewed records) licence.
"""

from __future__ import annotations

import re
from collections import defaultdict

from .config import COLLECTION_IDS
from .importers.cleaning import keywords
from .importers.merge import merge_into
from .quality import QualityLog, normalised_url, spell_out_code
from .records import Record
from .service_titles import service_titles

OGL = "Open Government Licence v3.0"


def _rank(record: Record, position: int) -> tuple[int, int]:
    return (0 if "evidence" in record.data else 1 if _curated(record) else 2, position)


# words that say what kind of thing a title names, not which one
_KIND_WORDS = frozenset({"api", "apis", "the", "of", "and", "for", "service", "data"})


def _title_words(record: Record) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", record.data["title"].lower())) - _KIND_WORDS


def _curated(record: Record) -> bool:
    return record.data.get("source", {}).get("kind", "curated") == "curated"


def _resources(members: list[tuple[int, Record]]) -> list[list[tuple[int, Record]]]:
    """The resources among records at one URL: a curated record whose title shares
    no word with an earlier curated one's is a resource of its own; every import
    joins the first resource (an import's title is no evidence either way)."""
    resources: list[list[tuple[int, Record]]] = []
    for position, record in sorted(members, key=lambda pair: not _curated(pair[1])):
        home = next(
            (
                resource
                for resource in resources
                if not _curated(record) or any(_title_words(r) & _title_words(record) for _, r in resource)
            ),
            None,
        )
        if home is None:
            resources.append([(position, record)])
        else:
            home.append((position, record))
    return resources


MAX_ALIASES = 20


def _plain(text: str) -> str:
    return " ".join(text.lower().split())


def keep_names(winner: Record, other: Record) -> None:
    """What a merged record called the resource stays searchable (`alsoKnownAs`,
    indexed with the winner's words and shown on its page): its title and its
    summary, each only when the winner does not already say it, and its URL
    when it spells the resource's another way (`.../places/v1`). Otherwise
    "address lookup" would lose OS Places, whose reviewed record says
    "address search" and whose catalogue entry says "address look-up"."""
    data = other.data
    known = winner.data.get("alsoKnownAs", [])
    titles = {_plain(winner.data["title"]), *(_plain(alias["title"]) for alias in known)}
    summaries = {_plain(winner.data["summary"]), *(_plain(alias.get("summary", "")) for alias in known)}
    alias = {"title": data["title"]}
    if _plain(data["summary"]) not in summaries:
        alias["summary"] = data["summary"]
    if data["url"] != winner.data["url"] and all(data["url"] != other.get("url") for other in known):
        alias["url"] = data["url"]
    if (len(alias) > 1 or _plain(data["title"]) not in titles) and len(known) < MAX_ALIASES:
        winner.data["alsoKnownAs"] = [*known, alias]


def merge_same_resources(records: list[Record], log: QualityLog, moved: dict[str, str] | None = None) -> list[Record]:
    """One record per normalised URL, in the order the first of each came;
    every record gets `collections` (its own first, then the others').
    `moved` gets merged record id -> the id of the record it is now part of."""
    groups: dict[str, list[tuple[int, Record]]] = defaultdict(list)
    for position, record in enumerate(records):
        groups[normalised_url(record.data["url"])].append((position, record))
    kept: list[tuple[int, Record]] = []
    for members in (resource for group in groups.values() for resource in _resources(group)):
        ordered = sorted(members, key=lambda pair: _rank(pair[1], pair[0]))
        winner = ordered[0][1]
        collections = {winner.data["collection"]}
        for _, other in ordered[1:]:
            merge_into(winner, other, reviewed="evidence" in winner.data)
            keep_names(winner, other)
            if moved is not None and other.id != winner.id:
                moved[other.id] = winner.id
            collections.update(other.data.get("collections") or [other.data["collection"]])
            log.note(
                "same-resource-merged",
                "merged",
                other.file,
                f"{other.data['collection']}: {other.data['title']}",
                f"{winner.id} ({winner.data['collection']})",
            )
        others = sorted(collections - {winner.data["collection"]}, key=COLLECTION_IDS.index)
        winner.data["collections"] = [winner.data["collection"], *others]
        kept.append((min(position for position, _ in members), winner))
    return [record for _, record in sorted(kept, key=lambda pair: pair[0])]


def link_records(records: list[Record]) -> None:
    """Links to another record name it only if that record was built."""
    ids = {record.id for record in records}
    for record in records:
        for link in record.data.get("links", []):
            if link.get("recordId") and link["recordId"] not in ids:
                del link["recordId"]


def govuk_licence(records: list[Record], log: QualityLog) -> None:
    """GOV.UK states that all its content is under the OGL v3.0 unless otherwise
    stated: a GOV.UK page with no licence of its own says so."""
    for record in records:
        data = record.data
        if data["url"].startswith("https://www.gov.uk/") and "licence" not in data and "evidence" not in data:
            data["licence"] = OGL
            log.note("licence-from-govuk", "changed", record.file, "not stated", OGL)


def api_titles(records: list[Record], log: QualityLog) -> None:
    """An API titled only with its publisher's name ("Companies House") names the
    organisation, not the API: it is titled "<publisher> API"."""
    for record in records:
        data = record.data
        if data["resourceType"] == "api" and data["title"] == data["publisher"]:
            log.note("generic-title", "changed", record.file, data["title"], f"{data['title']} API")
            data["title"] = f"{data['title']} API"


def code_titles(records: list[Record], log: QualityLog) -> None:
    """A title still written as a code once services have their dataset's title
    ("OCC_Gritting_Routes") is spelled as words; the code stays a keyword."""
    for record in records:
        data = record.data
        spelled = spell_out_code(data["title"])
        if spelled != data["title"] and "evidence" not in data:
            log.note("code-title-spelled", "changed", record.file, data["title"], spelled)
            data["keywords"] = keywords([*data.get("keywords", []), data["title"]])
            data["title"] = spelled


def record_former_ids(records: list[Record], moved: dict[str, str]) -> None:
    """Each record lists the ids of the records merged into it (`formerIds`),
    so an id an agent kept from an earlier build still finds and fetches it."""
    by_id = {record.id: record for record in records}
    for old, new in sorted(moved.items()):
        by_id[new].data.setdefault("formerIds", []).append(old)


def finish_estate(records: list[Record], log: QualityLog, moved: dict[str, str] | None = None) -> list[Record]:
    """The whole-estate rules, in order; returns the records to build."""
    records = merge_same_resources(records, log, moved)
    link_records(records)
    service_titles(records, log)
    code_titles(records, log)
    govuk_licence(records, log)
    api_titles(records, log)
    return records
