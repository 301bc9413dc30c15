"""`api-catalogue`: the co-cddo UK government API catalogue CSVs.

Inputs: `catalogue.csv`, `catalogue-from-json-source.csv` (same columns:
dateAdded, dateUpdated, url, name, description, documentation, license,
maintainer, areaServed, startDate, endDate, provider) and `organisation.csv`
(id, name, alternateName, url). A folder is searched for all three.

API rows (`api` records, id `apic-<name>`):

| source field | record field |
|---|---|
| name | title; `nativeId`; the merge key between the two catalogue CSVs |
| description | summary (plain text; `\\n` escapes to spaces; trimmed at 2,000 with "…"); when empty, "<name>: an API from <publisher> listed in the UK government API catalogue." |
| url | url, upgraded to https only for hosts known to serve it. When empty, or shared by several APIs (e.g. https://api.service.hmrc.gov.uk), the API's own `documentation` page becomes the url |
| documentation | documentationUrl (when different from url); also an `api-documentation` record |
| license | licence + accessStatus/accessNote, per the table below |
| provider | publisher: organisation.csv id -> name (catalogue.csv), or the name itself (json-source CSV), then the publisher authority |
| dateUpdated | updated |
| areaServed | keywords (split on commas and "and") |
| (file, row) | source.file `api-catalogue/catalogue.csv#row N` (N = data row, header excluded) |

Collection: `government-apis`; provider HM Land Registry -> `land-registry`,
Office for National Statistics -> `ons` (unless a collection is given).

| license value | licence | accessStatus | accessNote |
|---|---|---|---|
| (empty) | - | access-not-established | the catalogue does not state the licence or access terms |
| Open Government Licence / OGL URL / "Open Government License" / "Data under Open Government License" | Open Government Licence v3.0 | public | - |
| subscription required / "Subscription required see https://lginformplus.org/" | as given | restricted | the catalogue lists it as subscription only |
| https://osdatahub.os.uk/legal/termsConditions | OS Data Hub terms and conditions | authentication-required | OS Data Hub account and API key under the OS terms |
| ISC / "Codebase is under LGPL v3.0" | as given | access-not-established | a software licence, not the API's access terms |
| anything else | as given | access-not-established | reported under `unmapped` |

Duplicates: rows of both catalogue CSVs with the same name are one API;
fields are merged (the later `dateUpdated` wins, gaps filled from the other)
and reported as merged. APIs that share both their endpoint and their
documentation page with other APIs (38 DWP APIs) have no page of their own:
they are left out (`shared-url-listed-in-documentation-record`) and named as
keywords of the documentation record that covers them.

Documentation rows: a documentation page of one API only is that API
record's `documentationUrl`, not a record of its own (counted under
`quality.documentation-linked`), so the API is one result with two links. A
page that covers several APIs (or an API with no record of its own) is a
resource in its own right: an `api-documentation` record (id
`apic-doc-<name>`), title "<provider> API documentation", keywords = the API
names, `links` back to each API record (kind `api`, with its `recordId`),
accessStatus public.

Organisation rows (`organisation`, id `apic-org-<id>`): title = name,
publisher = the name through the authority, url = the row's https url or
else the GOV.UK organisation page from the authority (else rejected),
summary "<name> (<alternateName>) provides APIs listed in the UK government
API catalogue.", accessStatus not-applicable, keywords [alternateName].
"""

from __future__ import annotations

import csv
import re
from collections import Counter, defaultdict
from pathlib import Path

from .common import MAX_LINKS, ImportBuilder, expand, iso_date, keywords, make_id, shown

DEFAULT_COLLECTION = "government-apis"
CATALOGUE_FILES = ("catalogue.csv", "catalogue-from-json-source.csv")
OGL = "Open Government Licence v3.0"
NOT_STATED = "The UK government API catalogue does not state this API's licence or access terms."

LICENCES: dict[str, tuple[str | None, str, str | None]] = {
    "": (None, "access-not-established", NOT_STATED),
    "open government licence": (OGL, "public", None),
    "open government license": (OGL, "public", None),
    "data under open government license": (OGL, "public", None),
    "https://www.nationalarchives.gov.uk/doc/open-government-licence/version/3/": (OGL, "public", None),
    "subscription required": (
        "subscription required",
        "restricted",
        "The API catalogue lists this API's terms as 'subscription required'.",
    ),
    "subscription required see https://lginformplus.org/": (
        "Subscription required (see https://lginformplus.org/)",
        "restricted",
        "The API catalogue lists this API as subscription only, via LG Inform Plus.",
    ),
    "https://osdatahub.os.uk/legal/termsConditions": (
        "OS Data Hub terms and conditions",
        "authentication-required",
        "Ordnance Survey Data Hub APIs are used with an OS Data Hub account and API key, under the terms at https://osdatahub.os.uk/legal/termsConditions.",
    ),
    "isc": (
        "ISC",
        "access-not-established",
        "The catalogue states a software licence (ISC) for the code, not the API's access terms.",
    ),
    "codebase is under lgpl v3.0": (
        "Codebase is under LGPL v3.0",
        "access-not-established",
        "The catalogue states a software licence (LGPL v3.0) for the code, not the API's access terms.",
    ),
}


def _licence(raw: str, builder: ImportBuilder, file: str) -> tuple[str | None, str, str | None]:
    value = raw.strip()
    key = value if value.startswith("http") else value.lower()
    if key in LICENCES:
        return LICENCES[key]
    builder.note_unmapped("license", value, file)
    return (
        value[:200],
        "access-not-established",
        f"The catalogue gives the licence as '{value[:200]}'; the access terms are not established.",
    )


def _read(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return [{k: (v or "").strip() for k, v in row.items() if k is not None} for row in csv.DictReader(handle)]


def import_paths(paths: list[Path], builder: ImportBuilder) -> None:
    files = expand(paths, ("catalogue*.csv", "organisation.csv"))
    orgs: dict[str, dict[str, str]] = {}
    org_files: list[tuple[Path, list[dict[str, str]]]] = []
    api_rows: list[tuple[str, dict[str, str]]] = []
    for path in files:
        rows = _read(path)
        if path.name == "organisation.csv":
            org_files.append((path, rows))
            for row in rows:
                orgs[row.get("id", "")] = row
        else:
            for number, row in enumerate(rows, start=1):
                api_rows.append((f"{shown(path)}#row {number}", row))
    builder.input(len(api_rows) + sum(len(rows) for _, rows in org_files))
    for path, rows in org_files:
        for number, row in enumerate(rows, start=1):
            _organisation(row, f"{shown(path)}#row {number}", builder)
    _apis(api_rows, orgs, builder)


def _organisation(row: dict[str, str], file: str, builder: ImportBuilder) -> None:
    name = row.get("name", "")
    if not name:
        builder.reject(file, "name", "the organisation row has no name")
        return
    publisher = builder.publisher(name) or name
    url, problem = builder.url(row.get("url")) if row.get("url") else (None, "no URL given")
    if url is None and builder.authority is not None:
        org = builder.authority.organisation(publisher)
        if org is not None and org.web_url:
            url, problem = org.web_url, None
    if url is None:
        builder.reject(file, "url", f"{problem}, and the organisation is not on GOV.UK to link to instead")
        return
    alt = row.get("alternateName", "")
    shown_name = f"{name} ({alt})" if alt and alt != name else name
    builder.add(
        {
            "id": make_id("apic-org", row.get("id") or name),
            "title": builder.text(name, "title"),
            "summary": f"{shown_name} provides APIs listed in the UK government API catalogue.",
            "url": url,
            "resourceType": "organisation",
            "publisher": publisher,
            "accessStatus": "not-applicable",
            "accessNote": "An organisation record: there is nothing to access.",
            "collection": builder.route(publisher, DEFAULT_COLLECTION),
            "licence": OGL,
            "keywords": keywords([alt]),
            "source": builder.provenance(file, row.get("id") or name),
        },
        file,
    )


def _merge_rows(rows: list[tuple[str, dict[str, str]]], builder: ImportBuilder) -> list[tuple[str, dict[str, str]]]:
    by_name: dict[str, int] = {}
    merged: list[tuple[str, dict[str, str]]] = []
    for file, row in rows:
        key = " ".join(row.get("name", "").lower().split())
        if key and key in by_name:
            index = by_name[key]
            first_file, first = merged[index]
            newer, older = (row, first) if row.get("dateUpdated", "") > first.get("dateUpdated", "") else (first, row)
            combined = {k: newer.get(k) or older.get(k, "") for k in set(newer) | set(older)}
            merged[index] = (first_file, combined)
            builder.merged_before_build(file, first_file, f"same API name {row.get('name')!r} in both catalogue CSVs")
            continue
        if key:
            by_name[key] = len(merged)
        merged.append((file, row))
    return merged


def _apis(rows: list[tuple[str, dict[str, str]]], orgs: dict[str, dict[str, str]], builder: ImportBuilder) -> None:
    builder.learn_https_hosts(row.get(k, "") for _, row in rows for k in ("url", "documentation"))
    rows = _merge_rows(rows, builder)
    url_counts = Counter(row.get("url") for _, row in rows if row.get("url"))
    doc_counts = Counter(row.get("documentation") for _, row in rows if row.get("documentation"))
    doc_groups: dict[str, list[tuple[str, dict[str, str], str]]] = defaultdict(list)
    pending_left_out: list[str] = []
    for file, row in rows:
        name = row.get("name", "")
        if not name:
            builder.reject(file, "name", "the API row has no name")
            continue
        publisher = _publisher(row, orgs, builder, file)
        if not publisher:
            builder.reject(file, "provider", "the API row names no provider")
            continue
        raw_url, raw_doc = row.get("url", ""), row.get("documentation", "")
        doc_url, _ = builder.url(raw_doc) if raw_doc else (None, None)
        own_url = raw_url if raw_url and url_counts[raw_url] == 1 else ""
        if own_url:
            url, problem = builder.url(own_url)
        elif doc_url and doc_counts[raw_doc] == 1:
            url, problem = doc_url, None
        elif doc_url:
            pending_left_out.append(file)
            doc_groups[doc_url].append((file, row, publisher, None))
            continue
        else:
            why = "shared with other APIs" if raw_url else "empty"
            builder.reject(file, "url", f"the API's url is {why} and it has no documentation page of its own")
            continue
        if url is None:
            builder.reject(file, "url", problem or "no URL")
            continue
        documentation = doc_url if doc_url and doc_url != url else None
        if documentation:
            doc_groups[documentation].append((file, row, publisher, url))
        _add_api(file, row, publisher, url, documentation, builder)
    for file in pending_left_out:
        builder.leave_out("shared-url-listed-in-documentation-record", file)
    for doc_url, members in doc_groups.items():
        _documentation(doc_url, members, builder)


def _add_api(
    file: str, row: dict[str, str], publisher: str, url: str, documentation: str | None, builder: ImportBuilder
) -> None:
    """One API row as a record: its own URL, its documentation page beside it."""
    name = row.get("name", "")
    licence, access, note = _licence(row.get("license", ""), builder, file)
    summary = (
        builder.summary(row.get("description"), file, name)
        or f"{name}: an API from {publisher} listed in the UK government API catalogue."
    )
    builder.add(
        {
            "id": make_id("apic", name),
            "title": builder.text(name, "title"),
            "summary": summary,
            "url": url,
            "resourceType": "api",
            "publisher": publisher,
            "accessStatus": access,
            "accessNote": note,
            "collection": builder.route(publisher, DEFAULT_COLLECTION),
            "licence": licence,
            "updated": iso_date(row.get("dateUpdated")),
            "keywords": keywords(part for part in re.split(r",|\band\b", row.get("areaServed", "")) if part.strip()),
            "documentationUrl": documentation,
            "source": builder.provenance(file, name),
        },
        file,
    )


def _publisher(row: dict[str, str], orgs: dict[str, dict[str, str]], builder: ImportBuilder, file: str) -> str | None:
    """The row's provider: an organisation.csv id's name, or the name itself, through the authority."""
    provider = row.get("provider", "")
    provider_name = orgs.get(provider, {}).get("name") or provider
    if provider and provider not in orgs and "-" in provider and " " not in provider:
        builder.note_unmapped("provider", provider, file)
    return builder.publisher(provider_name) if provider_name else None


def _documentation(
    doc_url: str, members: list[tuple[str, dict[str, str], str, str | None]], builder: ImportBuilder
) -> None:
    """A documentation page covering several APIs is a record of its own, linking
    back to each API; the page of one API is that API record's documentation link."""
    file, row, publisher, api_url = members[0]
    names = [member[1].get("name", "") for member in members]
    if len(members) == 1 and api_url:
        builder.quality.note(
            "documentation-linked",
            "merged",
            f"{file} (documentation)",
            f"{names[0]} documentation",
            f"documentationUrl of {file}",
        )
        return
    publishers = {member[2] for member in members}
    owner = publisher if len(publishers) == 1 else "UK government"
    title = f"{owner} API documentation" if len(members) > 1 else f"{names[0]} documentation"
    shown_names = ", ".join(names[:8]) + (" and others" if len(names) > 8 else "")
    summary = (
        f"Documentation covering {len(names)} APIs from {owner} listed in the UK government API catalogue: {shown_names}."
        if len(names) > 1
        else f"Documentation for the {names[0]} API from {publisher}, as linked from the UK government API catalogue."
    )
    links = [
        {
            "title": member[1].get("name", ""),
            "url": member[3],
            "kind": "api",
            "recordId": make_id("apic", member[1].get("name", "")),
        }
        for member in members
        if member[3]
    ][:MAX_LINKS]
    if links:
        builder.quality.note(
            "documentation-linked", "changed", f"{file} (documentation)", title, f"links to {len(links)} API records"
        )
    builder.add(
        {
            "id": make_id("apic-doc", names[0]),
            "title": builder.text(title, "title"),
            "summary": builder.text(summary, "summary"),
            "url": doc_url,
            "resourceType": "api-documentation",
            "publisher": publisher,
            "accessStatus": "public",
            "collection": builder.route(publisher, DEFAULT_COLLECTION),
            "keywords": keywords(names),
            "links": links,
            "source": builder.provenance(f"{file} (documentation)", names[0]),
        },
        f"{file} (documentation)",
        primary=False,
    )
