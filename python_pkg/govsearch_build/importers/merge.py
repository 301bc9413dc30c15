"""Merging records that describe the same resource, within one import and across imports.

`records.drop_duplicates` finds them (same id, or same url within a
collection); the first is kept and each later one folded into it, so what
the duplicate alone knew (keywords, links, an access status) is not lost.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..records import Record, drop_duplicates
from .cleaning import MAX_LINKS, keywords


def merge_duplicates(records: Iterable[Record]) -> tuple[list[Record], list[tuple[Record, Record]]]:
    """The records kept, and each duplicate with the kept record it was merged into."""
    records = list(records)
    kept, duplicates = drop_duplicates(records)
    by_file = {record.file: record for record in records}
    keep_by_url = {(r.data["collection"], r.data["url"]): r for r in kept}
    keep_by_id = {r.id: r for r in kept}
    merged = []
    for duplicate in duplicates:
        record = by_file[duplicate.file]
        target = keep_by_url.get((record.data["collection"], record.data["url"])) or keep_by_id[record.id]
        merge_into(target, record)
        merged.append((record, target))
    return kept, merged


def merge_into(target: Record, other: Record, *, reviewed: bool = False) -> None:
    """Fold a duplicate into the record kept: keywords and links united, gaps filled.

    A `reviewed` record (with evidence) keeps its access and licence facts as they are.
    """
    data = target.data
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
        if len(links) < MAX_LINKS and link["url"] != data["url"] and all(link["url"] != mine["url"] for mine in links):
            links.append(link)
    if links:
        data["links"] = links
