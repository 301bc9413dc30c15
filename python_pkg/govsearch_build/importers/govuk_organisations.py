"""`govuk-organisations`: the GOV.UK organisations API (`{"results": [...]}`).

Each result becomes an `organisation` record (id `govuk-org-<slug>`):

| source field | record field |
|---|---|
| title | title and publisher (an organisation publishes its own record) |
| details.slug (else the last part of `id`) | id `govuk-org-<slug>`; `nativeId` |
| web_url | url |
| format, details.govuk_status, details.govuk_closed_status, details.closed_at, parent_organisations, superseding_organisations | summary, from our own template: "<format>[, <status phrase>]." e.g. "Executive agency; part of Department for Transport." / "Public corporation, has a separate website." / "Other organisation, closed (changed name) in 2024; replaced by X." |
| details.abbreviation | keywords (with format and status, but for live and exempt) |
| updated_at | updated |
| - | accessStatus `not-applicable`, accessNote "An organisation record: there is nothing to access."; licence Open Government Licence v3.0 (GOV.UK data) |

Closed organisations are kept (status in the summary and keywords, e.g.
"closed"). Collection: `government-apis`; HM Land Registry -> `land-registry`,
Office for National Statistics -> `ons` (unless a collection is given).

Status phrases (details.govuk_status): live (none: the ordinary state), exempt
("has a separate website"), joining ("joining GOV.UK"), transitioning, closed;
govuk_closed_status: no_longer_exists, replaced, devolved, changed_name,
merged, split, left_gov. Unknown values are reported under `unmapped`.

The same file provides the publisher authority:
`govsearch_build.publishers.PublisherAuthority.from_govuk_json(path)`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .common import ImportBuilder, expand, iso_date, keywords, make_id, read_json, shown

DEFAULT_COLLECTION = "government-apis"
OGL = "Open Government Licence v3.0"

# An organisation's state on GOV.UK, in words. The ordinary states say little
# about the organisation and their words ("live", "exempt", "publishing") are
# words people search for other things with, in hundreds of records: "live"
# says nothing; "exempt" says it has a website of its own, as GOV.UK puts it.
STATUS = {
    "live": "",
    "exempt": "has a separate website",
    "joining": "joining GOV.UK",
    "transitioning": "transitioning to GOV.UK",
    "closed": "closed",
}
QUIET = frozenset({"live", "exempt"})  # states not kept as keywords
CLOSED = {
    "no_longer_exists": "no longer exists",
    "replaced": "replaced",
    "devolved": "devolved",
    "changed_name": "changed name",
    "merged": "merged",
    "split": "split",
    "left_gov": "left government",
}


def _slug_of(url: Any) -> str:
    return str(url or "").rstrip("/").rsplit("/", 1)[-1]


def import_paths(paths: list[Path], builder: ImportBuilder) -> None:
    for path in expand(paths, ("*.json",)):
        data = read_json(path, builder)
        if data is None:
            continue
        results = data.get("results") if isinstance(data, dict) else data
        if not isinstance(results, list):
            builder.input()
            builder.reject(shown(path), "results", "expected a `results` list")
            continue
        titles = {item.get("id"): item.get("title") for item in results if isinstance(item, dict)}
        builder.input(len(results))
        for number, item in enumerate(results, start=1):
            _one(item, f"{shown(path)}#result {number}", titles, builder)


def _names(links: Any, titles: dict[Any, Any]) -> list[str]:
    out = []
    for link in links or []:
        if isinstance(link, dict):
            out.append(titles.get(link.get("id")) or _slug_of(link.get("web_url")))
    return [name for name in out if name]


def _one(item: Any, file: str, titles: dict[Any, Any], builder: ImportBuilder) -> None:
    if not isinstance(item, dict) or not isinstance(item.get("title"), str) or not item["title"].strip():
        builder.reject(file, "title", "the organisation has no title")
        return
    details = item.get("details") or {}
    title = builder.text(item["title"], "title")
    slug = details.get("slug") or _slug_of(item.get("id") or item.get("web_url"))
    url, problem = builder.url(item.get("web_url"))
    if url is None:
        builder.reject(file, "web_url", problem or "no URL")
        return
    fmt = str(item.get("format") or "Organisation")
    status = str(details.get("govuk_status") or "")
    closed = str(details.get("govuk_closed_status") or "")
    summary = _summary(item, fmt, status, closed, titles, builder, file)
    abbreviation = str(details.get("abbreviation") or "").strip()
    # Publisher of an organisation record is the organisation itself, under
    # its exact GOV.UK name (the title), so no authority look-up is needed.
    builder.add(
        {
            "id": make_id("govuk-org", slug or title),
            "title": title,
            "summary": builder.text(summary, "summary"),
            "url": url,
            "resourceType": "organisation",
            "publisher": builder.text(item["title"], "publisher"),
            "accessStatus": "not-applicable",
            "accessNote": "An organisation record: there is nothing to access.",
            "collection": builder.route(item["title"].strip(), DEFAULT_COLLECTION),
            "licence": OGL,
            "updated": iso_date(item.get("updated_at")),
            "keywords": keywords(
                [
                    abbreviation if abbreviation != item["title"] else None,
                    fmt,
                    status if status not in QUIET else None,
                    CLOSED.get(closed) if closed else None,
                ]
            ),
            "source": builder.provenance(
                file,
                slug or item.get("id"),
                url=item.get("id") if str(item.get("id", "")).startswith("https://") else None,
            ),
        },
        file,
    )


def _summary(
    item: dict[str, Any], fmt: str, status: str, closed: str, titles: dict[Any, Any], builder: ImportBuilder, file: str
) -> str:
    """What the organisation is and its state, in words: "Ministerial department, closed (merged) in 2016; part of X."."""
    details = item.get("details") or {}
    if status and status not in STATUS:
        builder.note_unmapped("details.govuk_status", status, file)
    if closed and closed not in CLOSED:
        builder.note_unmapped("details.govuk_closed_status", closed, file)
    phrase = STATUS.get(status, status or "status not stated")
    if status == "closed":
        if closed:
            phrase += f" ({CLOSED.get(closed, closed.replace('_', ' '))})"
        year = (iso_date(details.get("closed_at")) or "")[:4]
        if year:
            phrase += f" in {year}"
    kind = fmt if fmt != "Other" else "Other organisation"
    parts = [f"{kind}, {phrase}" if phrase else kind]
    parents = _names(item.get("parent_organisations"), titles)
    if parents:
        parts.append("part of " + ", ".join(parents[:3]))
    successors = _names(item.get("superseding_organisations"), titles)
    if successors:
        parts.append("replaced by " + ", ".join(successors[:3]))
    return "; ".join(parts) + "."
