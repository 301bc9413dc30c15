"""`okf-uk-living`: okf-uk-living `resources-N.json` (official links by topic).

Each element of the JSON list is one official link. id `living-<id>`.

| source field | record field |
|---|---|
| id (`resource:<dataset>:<name>`) | id `living-<dataset>-<name>` (hash-suffixed past 120 chars); `nativeId` |
| name | title |
| description | summary (the project's own MIT-licensed summary, plain text) |
| url, else source_access.url | url |
| host | resourceType: `govuk-content` on www.gov.uk, else `guidance` |
| provenance.owner | publisher through the authority |
| provenance.observed_at | observed, source.observed |
| dataset | keywords (the topic, hyphens to spaces) |
| - | accessStatus `public` (official public web pages, linked not copied); no licence (the linked page's terms are its publisher's) |

Collection `uk-living` (unless a collection is given). The same official
page is often linked from several topics (e.g. one GOV.UK page for four
nations): those links are merged into one record whose keywords list every
topic, and reported as duplicates.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .common import ImportBuilder, expand, iso_date, keywords, make_id, page_type, read_json, shown

DEFAULT_COLLECTION = "uk-living"


def import_paths(paths: list[Path], builder: ImportBuilder) -> None:
    for path in expand(paths, ("resources-*.json",)):
        data = read_json(path, builder)
        if data is None:
            continue
        if isinstance(data, dict):
            data = data.get("resources", data.get("results"))
        if not isinstance(data, list):
            builder.input()
            builder.reject(shown(path), "(file)", "expected a JSON list of resources")
            continue
        builder.input(len(data))
        for index, item in enumerate(data):
            _one(item, f"{shown(path)}#{index}", builder)


def _one(item: Any, file: str, builder: ImportBuilder) -> None:
    if not isinstance(item, dict):
        builder.reject(file, "(record)", "not a JSON object")
        return
    title = builder.text(item.get("name") or (item.get("source_access") or {}).get("label"), "title")
    if not title:
        builder.reject(file, "name", "the resource has no name")
        return
    url, problem = builder.url(item.get("url") or (item.get("source_access") or {}).get("url"))
    if url is None:
        builder.reject(file, "url", problem or "no url")
        return
    provenance = item.get("provenance") if isinstance(item.get("provenance"), dict) else {}
    publisher = builder.publisher(provenance.get("owner"))
    if not publisher:
        builder.reject(file, "provenance.owner", "the resource names no owner")
        return
    native = str(item.get("id") or f"{item.get('dataset')}:{title}")
    observed = iso_date(provenance.get("observed_at"))
    summary = builder.summary(item.get("description"), file, title) or f"Official page from {publisher}."
    dataset = str(item.get("dataset") or "")
    builder.add(
        {
            "id": make_id("living", native.removeprefix("resource:")),
            "title": title,
            "summary": summary,
            "url": url,
            "resourceType": page_type(url),
            "publisher": publisher,
            "accessStatus": "public",
            "collection": builder.collection or DEFAULT_COLLECTION,
            "keywords": keywords([dataset.replace("-", " ")] if dataset else []),
            "source": builder.provenance(file, native, observed=observed),
        },
        file,
    )
