"""`okf-hmlr-csv`: the okf-LandRegistry catalogue CSV (schema `okf-hmlr-record.v2`).

One row per record; collection `land-registry` (unless a collection is given).

| source field | record field |
|---|---|
| id (`hmlr-<24 hex>`) | id (kept: already a stable slug with the `hmlr-` prefix) |
| source_native_id | source.nativeId |
| title | title |
| description | summary (plain text); when empty, "<record type> from <publisher>, listed in the HM Land Registry catalogue." |
| url, else canonical_source_url | url |
| publisher, publisher_id (GOV.UK organisation URL) | publisher through the authority |
| kind (+ url host) | resourceType (table below) |
| access_state (+ access_model, authentication) | accessStatus / accessNote (table below) |
| licence (when stated; not NOASSERTION) | licence |
| publisher_last_updated | updated |
| observed_at | observed, source.observed |
| topics, formats, audience | keywords |
| (file, row) | source.file `okf-land-registry/catalogue.csv#row N` |

| kind | resourceType |
|---|---|
| news, corporate, form, statistics (on www.gov.uk) | govuk-content |
| statistics (elsewhere), dataset | dataset |
| guidance, legislation | guidance |
| API | api |
| service | govuk-content on www.gov.uk, else guidance |
| repository | left out (`software-repository`: GitHub repository rows) |
| anything else | guidance (reported under `unmapped`) |

| access_state | accessStatus | accessNote |
|---|---|---|
| public | public | - |
| authenticated | authentication-required | "<access_model>; <authentication>" |
| approved-professional-users | restricted | same |
| documentation-public-service-restricted | restricted | same |
| mixed | access-not-established | same |
| anything else | access-not-established | reported under `unmapped` |

Rows whose `source_family` is `github` or whose kind/record type is a
software repository are left out and counted (290 in the 2026-08-18 export).
"""

from __future__ import annotations

import csv
from pathlib import Path
from urllib.parse import urlsplit

from .common import ImportBuilder, expand, iso_date, keywords, make_id, shown, slug, split_list

DEFAULT_COLLECTION = "land-registry"
GOVUK_KINDS = {"news", "corporate", "form"}
ACCESS = {
    "public": "public",
    "authenticated": "authentication-required",
    "approved-professional-users": "restricted",
    "documentation-public-service-restricted": "restricted",
    "mixed": "access-not-established",
}
NO_LICENCE = {"", "noassertion", "none", "unknown"}


def _is_repository(row: dict[str, str]) -> bool:
    return (
        row.get("source_family") == "github"
        or row.get("kind") == "repository"
        or row.get("record_type") == "software-repository"
    )


def _resource_type(kind: str, on_govuk: bool, builder: ImportBuilder, file: str) -> str:
    if kind in GOVUK_KINDS:
        return "govuk-content" if on_govuk else "guidance"
    if kind == "statistics":
        return "govuk-content" if on_govuk else "dataset"
    if kind == "dataset":
        return "dataset"
    if kind in ("guidance", "legislation"):
        return "guidance"
    if kind == "API":
        return "api"
    if kind == "service":
        return "govuk-content" if on_govuk else "guidance"
    builder.note_unmapped("kind", kind, file)
    return "guidance"


def import_paths(paths: list[Path], builder: ImportBuilder) -> None:
    for path in expand(paths, ("*.csv",)):
        with open(path, encoding="utf-8-sig", newline="") as handle:
            rows = list(csv.DictReader(handle))
        builder.input(len(rows))
        for number, raw in enumerate(rows, start=1):
            row = {k: (v or "").strip() for k, v in raw.items() if k is not None}
            _one(row, f"{shown(path)}#row {number}", builder)


def _one(row: dict[str, str], file: str, builder: ImportBuilder) -> None:
    if row.get("schema") and row["schema"] != "okf-hmlr-record.v2":
        builder.note_unmapped("schema", row["schema"], file)
    if _is_repository(row):
        builder.leave_out("software-repository", file)
        return
    title = builder.text(row.get("title"), "title")
    if not title:
        builder.reject(file, "title", "the row has no title")
        return
    url, problem = builder.url(row.get("url") or row.get("canonical_source_url"))
    if url is None:
        builder.reject(file, "url", problem or "no url")
        return
    native = row.get("id") or row.get("record_id") or row.get("source_native_id") or title
    record_id = slug(native) if slug(native).startswith("hmlr-") else make_id("hmlr", native)
    publisher = builder.publisher(row.get("publisher"), row.get("publisher_id")) or "HM Land Registry"
    kind = row.get("kind", "")
    resource_type = _resource_type(kind, urlsplit(url).hostname == "www.gov.uk", builder, file)
    state = row.get("access_state", "")
    access = ACCESS.get(state)
    if access is None:
        builder.note_unmapped("access_state", state, file)
        access = "access-not-established"
    note = None
    if access != "public":
        parts = [row.get("access_model", ""), row.get("authentication", "")]
        note = (
            builder.text("; ".join(part for part in parts if part) + ".", "accessNote")
            if any(parts)
            else "The catalogue does not say how access is granted."
        )
    licence = row.get("licence", "")
    record_type = (row.get("record_type") or kind or "Record").replace("_", " ")
    summary = (
        builder.summary(row.get("description"), file, title)
        or f"{record_type[:1].upper()}{record_type[1:]} from {publisher}, listed in the HM Land Registry catalogue."
    )
    observed = iso_date(row.get("observed_at"))
    builder.add(
        {
            "id": record_id,
            "title": title,
            "summary": summary,
            "url": url,
            "resourceType": resource_type,
            "publisher": publisher,
            "accessStatus": access,
            "accessNote": note,
            "collection": builder.collection or DEFAULT_COLLECTION,
            "licence": builder.text(licence, "licence") if licence.lower() not in NO_LICENCE else None,
            "updated": iso_date(row.get("publisher_last_updated")),
            "keywords": keywords(
                split_list(row.get("topics")) + split_list(row.get("formats")) + split_list(row.get("audience"))
            ),
            "source": builder.provenance(file, row.get("source_native_id") or native, observed=observed),
        },
        file,
    )
