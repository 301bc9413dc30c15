"""Merging records that describe the same resource, within one import and across imports.

`records.drop_duplicates` finds them (same id, or same url within a
collection); the first is kept and each later one folded into it, so what
the duplicate alone knew (keywords, links, an access status) is not lost.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..quality import QualityLog
from ..records import Record, drop_duplicates
from ..summaries import is_stand_in_summary
from .cleaning import MAX_ALIASES, MAX_LINKS, keywords, loose_text


def merge_duplicates(
    records: Iterable[Record], log: QualityLog | None = None
) -> tuple[list[Record], list[tuple[Record, Record]]]:
    """The records kept, and each duplicate with the kept record it was merged into
    (its facts, names and summary kept: `merge_into`, `keep_names`)."""
    records = list(records)
    kept, duplicates = drop_duplicates(records)
    by_file = {record.file: record for record in records}
    keep_by_url = {(r.data["collection"], r.data["url"]): r for r in kept}
    keep_by_id = {r.id: r for r in kept}
    merged = []
    for duplicate in duplicates:
        record = by_file[duplicate.file]
        target = keep_by_url.get((record.data["collection"], record.data["url"])) or keep_by_id[record.id]
        merge_into(target, record, log=log)
        keep_names(target, record)
        merged.append((record, target))
    return kept, merged


def merge_into(target: Record, other: Record, *, reviewed: bool = False, log: QualityLog | None = None) -> None:
    """Fold a duplicate into the record kept: keywords and links united, gaps filled,
    and the most informative summary kept (`_better_summary`).

    A `reviewed` record (with evidence) keeps its access and licence facts as they are.
    """
    data = target.data
    _better_summary(target, other, log)
    words = keywords(list(data.get("keywords", [])) + list(other.data.get("keywords", [])))
    if words:
        data["keywords"] = words
    # an access status the kept record could not establish is taken from the duplicate
    if (
        not reviewed
        and data.get("accessStatus") == "access-not-established"
        and other.data.get("accessStatus") not in (None, "access-not-established")
    ):
        data["accessStatus"] = other.data["accessStatus"]
        if other.data.get("accessNote"):
            data["accessNote"] = other.data["accessNote"]
        else:
            data.pop("accessNote", None)
    for name in ("documentationUrl", "updated") if reviewed else ("licence", "documentationUrl", "updated"):
        if name not in data and name in other.data and other.data[name] != data["url"]:
            data[name] = other.data[name]
    links = list(data.get("links", []))
    for link in other.data.get("links", []):
        if link["url"] == data["url"] or any(link["url"] == mine["url"] for mine in links):
            continue  # the same address, listed once
        if len(links) < MAX_LINKS:
            links.append(link)
        elif log is not None:
            log.drop_link(link["url"], f"the record already lists {MAX_LINKS} links", other.file, link["url"])
    if links:
        data["links"] = links
    _exact_place(target, other)


def _exact_place(target: Record, other: Record) -> None:
    """An annotation names its export by the file's pattern ("results-N.json"); the import
    it annotates (of the same export version) knows the very file and row, which the record
    page gives as its place. The first such import gives it; another export's row never does."""
    mine, theirs = target.data.get("source") or {}, other.data.get("source") or {}
    if (
        mine.get("kind") == "annotated"
        and "-N." in str(mine.get("file", ""))
        and not other.authored
        and theirs.get("file")
        and _same_version(str(theirs.get("revision", "")), str(mine.get("revision", "")))
    ):
        target.data["source"] = {**mine, "file": theirs["file"]}


def _same_version(one: str, other: str) -> bool:
    """Two names of one commit: an annotation writes the 8 characters people quote, an import all 40."""
    return bool(one and other) and (one.startswith(other) or other.startswith(one))


def _better_summary(target: Record, other: Record, log: QualityLog | None) -> None:
    """An imported record's summary that no person wrote (a placeholder, its title
    again, or the importer's own "X from Y, listed in Z.") gives way to the merged
    record's own; the one given way is kept among the other names (`keep_names`)."""
    data, theirs = target.data, other.data
    if target.authored or not is_stand_in_summary(data["summary"], data["title"]):
        return
    says_only_our_title = loose_text(theirs["summary"]) == loose_text(data["title"])
    if is_stand_in_summary(theirs["summary"], theirs["title"]) or says_only_our_title:
        return
    if log is not None:
        log.note("summary-from-merged", "changed", target.file, data["summary"], theirs["summary"])
    data["summary"] = theirs["summary"]


def keep_names(winner: Record, other: Record) -> None:
    """What a merged record called the resource stays searchable (`alsoKnownAs`,
    indexed with the winner's words and shown on its page), with where it came
    from (`source`: its source kind and file): its title and its summary, each
    only when the winner does not already say it, and its URL when it spells the
    resource's another way (`.../places/v1`). Otherwise "address lookup" would
    lose OS Places, whose reviewed record says "address search" and whose
    catalogue entry says "address look-up"."""
    data = other.data
    known = winner.data.get("alsoKnownAs", [])
    titles = {loose_text(winner.data["title"]), *(loose_text(alias["title"]) for alias in known)}
    summaries = {loose_text(winner.data["summary"]), *(loose_text(alias.get("summary", "")) for alias in known)}
    alias = {"title": data["title"]}
    if loose_text(data["summary"]) not in summaries and not is_stand_in_summary(data["summary"], data["title"]):
        alias["summary"] = data["summary"]
    if data["url"] != winner.data["url"] and all(data["url"] != other.get("url") for other in known):
        alias["url"] = data["url"]
    if (len(alias) > 1 or loose_text(data["title"]) not in titles) and len(known) < MAX_ALIASES:
        alias["source"] = source_of(other)
        known = [*known, alias]
    # what the merged record was already also known as stays too (A merged into B, B into C)
    for theirs in data.get("alsoKnownAs", []):
        new_title = loose_text(theirs["title"]) not in {loose_text(mine["title"]) for mine in known} | {
            loose_text(winner.data["title"])
        }
        if new_title and len(known) < MAX_ALIASES:
            known = [*known, dict(theirs)]
    if known:
        winner.data["alsoKnownAs"] = known


def source_of(record: Record) -> str:
    """Where a record came from, as an other name's `source` says it: "okf-markdown: okf-uk-living/services/x.md"."""
    return f"{record.data.get('source', {}).get('kind', 'curated')}: {record.file}"[:400]
