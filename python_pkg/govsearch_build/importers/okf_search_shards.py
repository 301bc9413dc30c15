"""`okf-search-shards`: okf-uk-government-apis search shards `results-N.json(.gz)`.

Each shard is a JSON list of flat search records. id `okf-<name>`.

| source field | record field |
|---|---|
| name | id `okf-<name>`; `nativeId` |
| title | title |
| notes | summary (plain text, trimmed at 2,000 with "…"; a trailing "…" from the source is kept); when empty, "<record type> from <publisher>, listed in the okf-uk-government-apis catalogue." |
| url | url (https; http upgraded only for hosts known to serve https). When empty, or shared by several API Products (e.g. https://api.service.hmrc.gov.uk), the record's own `documentation` page |
| documentation | documentationUrl, when different from url |
| record_type | resourceType (table below) |
| publisher_title, publisher (slug) | publisher through the authority |
| license_id / license_title | licence + accessStatus (table below) |
| access_model, context_note | accessStatus / accessNote refinements (below) |
| tags, topics, formats | keywords |
| updated_at, else timestamp | updated |
| (shard, index) | source.file `okf-uk-government-apis/results-3.json.gz#7` |

Collection: `government-apis`; publisher Office for National Statistics ->
`ons`, HM Land Registry -> `land-registry` (unless a collection is given).

| record_type | resourceType |
|---|---|
| Data Product | dataset |
| Data Access API Endpoint, API Product, API Operation | api |
| Capability Document, Contract, Schema | api-documentation |
| Provider API Portal | catalogue-record |
| anything else | catalogue-record (reported under `unmapped`) |

| license_id | licence | accessStatus | accessNote |
|---|---|---|---|
| open-government-licence-v3, open-government-license, data-under-open-government-license | Open Government Licence v3.0 | public | - |
| cc-by, other-open, other-pd, other-at | license_title | public | - |
| not-specified | - | access-not-established | no licence stated by the source catalogue |
| ordnance-survey-licence-required, osdatahub-os-uk | license_title | authentication-required | OS Data Hub account/API key under an OS licence |
| other-nc | Other (Non-Commercial) | restricted | non-commercial use only |
| other-closed | Other (Not Open) | restricted | licence is not open |
| subscription-required, subscription-required-see-https | license_title | restricted | subscription required |
| isc, codebase-is-under-lgpl-v3-0 | license_title | access-not-established | a software licence, not access terms |
| anything else | license_title | access-not-established | reported under `unmapped` |

access_model then refines it: `api-key`/`oauth2` -> authentication-required
(when the licence gave public or not-established); `approval-required` ->
restricted; `unknown` turns a `public` into access-not-established (open
licence, access route not stated). A `context_note` (e.g. "Prototype
evidence only…") is added to the accessNote.

Duplicates: contract-discovery records (Capability Document / Contract /
Schema) carry the url of the record they describe (a data.gov.uk dataset
page, an ONS dataset); they are merged into that record (their formats join
its keywords) and reported. Records are ordered so the described record is
kept.

Formats of one dataset (`quality.formats-merged`): data.gov.uk lists each
download (CSV, GeoJSON, KML, Shapefile…) and service (Esri REST, WFS, WMS) of
a dataset as a row titled only by its format, whose `documentation` is the
dataset's page. A row whose title names nothing beyond its format (a generic
title), its server ("Runnymede Borough Council WMS Service") or its dataset's
title again with a format ("Conservation Areas (download as CSV)"), and
whose documentation page is the url of a Data Product row, is folded into
that record: its link joins the record's `links` (`{title, url, kind:
download|service}`, at most 40; titled by its format or kind of service) and
the row is reported as merged. Every such link is accounted for
(`quality.links-accounted`): kept (a plain-http one on any host kept, flagged
`linkSecurity: "http-only"` and labelled "(not encrypted)"), or dropped with
its reason (an address that cannot be used, the same address as a link
already listed, the limit of 40 links). A dataset row whose own address
cannot be used is rejected alone: nothing is folded into it, so its formats
and services stay records of their own. Rows of one dataset
page whose URLs differ only by a format (`url_identity.format_free_url`: a format
query parameter such as outputFormat=csv|shape-zip or f=json|geojson, or a
file extension) are the same data in several formats and are folded whatever
their titles say (Runnymede's "Local Centre Boundaries - Local Plan Policy
(download as SHP)", Sheffield's "SuDS Links ESRI Geoservice" and "SuDS Links
GeoJSON"); each is linked under its own title when it names more than the
dataset, and that name, without its format, becomes one of the record's
`alsoKnownAs`. In the 2026-07-21 export this folds about 28,200 rows into
their dataset records (51 of them by their format-only URLs alone).

Code titles (`quality.code-title-spelled`): a row titled by one lower-case
word ("aqmz", "article4", "councilpropertyregister", a layer's or table's
code) is titled from what the row offers: a service's dataset's title (the
Data Product row its documentation page is), else the words of its summary
that spell the code run together ("Article 4") or by their initials ("Air
Quality Management Areas" for "aqma"), else the code split into words of the
export's own titles of several words ("Council property register"), or the
one word it is ("Allotments"). The code stays a keyword (of the dataset, when
the row then names only its dataset and is folded into it); a code nothing
spells ("aqmz" with the summary "aqmz" and no dataset) is left as it is.

Sections of the ONS website (`left_out.taxonomy-entry-without-description`):
the ONS beta API's topics list ("contract_status": "taxonomy") holds the
website's sections ("About us", "Help", "News", "Methodology", "Surveys")
beside its topics of statistics; a section has no description and names no
catalogue content, so it and the contract discovered for it are left out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..code_titles import is_code_word, spell_code_word, title_vocabulary
from ..titles import is_generic_title
from .common import ImportBuilder, expand, iso_date, keywords, make_id, read_json, shown
from .dataset_formats import fold_formats

DEFAULT_COLLECTION = "government-apis"
OGL = "Open Government Licence v3.0"

RESOURCE_TYPES = {
    "Data Product": "dataset",
    "Data Access API Endpoint": "api",
    "API Product": "api",
    "API Operation": "api",
    "Capability Document": "api-documentation",
    "Contract": "api-documentation",
    "Schema": "api-documentation",
    "Provider API Portal": "catalogue-record",
}
OS_NOTE = "Ordnance Survey licence required: OS Data Hub APIs are used with an OS Data Hub account and API key under an OS licence."
LICENCES: dict[str, tuple[str | None, str, str | None]] = {
    # license_id: (licence, accessStatus, accessNote); licence None = use license_title
    "open-government-licence-v3": (OGL, "public", None),
    "open-government-license": (OGL, "public", None),
    "data-under-open-government-license": (OGL, "public", None),
    "cc-by": (None, "public", None),
    "other-open": (None, "public", None),
    "other-pd": (None, "public", None),
    "other-at": (None, "public", None),
    "not-specified": (
        "",
        "access-not-established",
        "The source catalogue gives no licence or access conditions for this resource, so who may use it, and on what terms, is not established.",
    ),
    "ordnance-survey-licence-required": (None, "authentication-required", OS_NOTE),
    "osdatahub-os-uk": (None, "authentication-required", OS_NOTE),
    "other-nc": (None, "restricted", "Licensed for non-commercial use only (Other (Non-Commercial))."),
    "other-closed": (
        None,
        "restricted",
        "The licence is not an open licence (Other (Not Open)); reuse needs the publisher's permission.",
    ),
    "subscription-required": (None, "restricted", "The publisher states that a subscription is required."),
    "subscription-required-see-https": (None, "restricted", "The publisher states that a subscription is required."),
    "isc": (
        None,
        "access-not-established",
        "The stated licence (ISC) is a software licence for the code, not the resource's access terms.",
    ),
    "codebase-is-under-lgpl-v3-0": (
        None,
        "access-not-established",
        "The stated licence (LGPL v3.0) covers the code, not the resource's access terms.",
    ),
}
SOURCE_LABELS = {
    "data_gov_uk_ckan": "data.gov.uk",
    "contract_discovery": "the okf-uk-government-apis contract discovery",
    "ons_beta_api": "the ONS beta API",
    "api_gov_uk_catalogue": "the UK government API catalogue",
    "ordnance_survey_api_os_uk": "the OS Data Hub API list",
    "dfe_gias": "DfE Get Information about Schools",
}
STANDARD = ("Capability Document", "Contract", "Schema")


def _shard_number(path: Path) -> tuple[int, str]:
    stem = path.name.split(".")[0]
    tail = stem.rsplit("-", 1)[-1]
    return (int(tail) if tail.isdigit() else 10**9, path.name)


def import_paths(paths: list[Path], builder: ImportBuilder) -> None:
    rows: list[tuple[str, dict[str, Any]]] = []
    for path in sorted(expand(paths, ("results-*.json.gz", "results-*.json")), key=_shard_number):
        data = read_json(path, builder)
        if data is None:
            continue
        if not isinstance(data, list):
            builder.input()
            builder.reject(shown(path), "(file)", "expected a JSON list of search records")
            continue
        builder.input(len(data))
        for index, item in enumerate(data):
            file = f"{shown(path)}#{index}"
            if not isinstance(item, dict):
                builder.reject(file, "(record)", "not a JSON object")
                continue
            rows.append((file, item))
    builder.learn_https_hosts(item.get(k, "") for _, item in rows for k in ("url", "documentation"))
    product_urls = Counter(
        item.get("url") for _, item in rows if item.get("record_type") == "API Product" and item.get("url")
    )
    docs = Counter(item.get("documentation") for _, item in rows if item.get("documentation"))
    # the records described come before the contracts describing them
    rows.sort(key=lambda pair: pair[1].get("record_type") in STANDARD)
    rows = _without_navigation_topics(rows, builder)
    rows, codes = _spell_code_titles(rows, builder)
    rows, links, aliases, folded_codes = fold_formats(rows, builder, codes)
    for file, item in rows:
        url = str(item.get("url") or "")
        _one(file, item, product_urls, docs, builder, links.get(url), aliases.get(url), folded_codes.get(url, ()))


def _without_navigation_topics(
    rows: list[tuple[str, dict[str, Any]]], builder: ImportBuilder
) -> list[tuple[str, dict[str, Any]]]:
    """The rows less the ONS beta API's taxonomy entries that describe nothing.

    The ONS topics API lists the sections of the ONS website beside its topics of
    statistics; a section ("About us", "Help", "News") has no description, and its
    record would be an empty page under a title that names nothing. Such an entry
    and the contract discovered for it are left out and reported."""
    empty = {
        str(item.get("url"))
        for _, item in rows
        if item.get("contract_status") == "taxonomy"
        and item.get("source_adapter") == "ons_beta_api"
        and not builder.text(item.get("notes"), "summary")
    }
    kept = []
    for file, item in rows:
        if item.get("contract_status") == "taxonomy" and str(item.get("url")) in empty:
            builder.leave_out("taxonomy-entry-without-description", file)
        else:
            kept.append((file, item))
    return kept


def _spell_code_titles(
    rows: list[tuple[str, dict[str, Any]]], builder: ImportBuilder
) -> tuple[list[tuple[str, dict[str, Any]]], dict[str, str]]:
    """Rows titled by a one-word code ("aqmz", "councilpropertyregister") retitled
    from what the row offers (`code_titles.spell_code_word`): a service's dataset's
    title, else its summary's words, else the code split by the export's own
    vocabulary. The code stays a keyword; returns the rows and each retitled
    row's code by file."""
    vocabulary = title_vocabulary(builder.text(item.get("title"), "title") for _, item in rows)
    spelled_rows = dict(rows)
    products = {str(item.get("url")): file for file, item in rows if item.get("record_type") == "Data Product"}
    codes: dict[str, str] = {}
    # Data Products first: a service of one takes its dataset's title as spelled
    for file, item in sorted(rows, key=lambda pair: pair[1].get("record_type") != "Data Product"):
        title = builder.text(item.get("title"), "title")
        if not is_code_word(title) or is_generic_title(title):  # "shp" is a format, not a code
            continue
        spelled = spell_code_word(
            title,
            dataset_title=_dataset_title(item, products, spelled_rows, builder),
            summary=builder.text(item.get("notes"), "summary"),
            vocabulary=vocabulary,
        )
        if spelled and spelled != title:
            builder.quality.note("code-title-spelled", "changed", file, title, spelled)
            tags = item.get("tags") if isinstance(item.get("tags"), list) else []
            spelled_rows[file] = {**item, "title": spelled, "tags": [title, *tags]}
            codes[file] = title
    return [(file, spelled_rows[file]) for file, _ in rows], codes


def _dataset_title(
    item: dict[str, Any], products: dict[str, str], rows: dict[str, dict[str, Any]], builder: ImportBuilder
) -> str:
    """The title of the Data Product whose page is this row's documentation, if it is another row's."""
    doc = str(item.get("documentation") or "")
    if item.get("record_type") == "Data Product" or doc not in products or doc == item.get("url"):
        return ""
    return builder.text(rows[products[doc]].get("title"), "title")


def _access(item: dict[str, Any], file: str, builder: ImportBuilder) -> tuple[str | None, str, str | None]:
    license_id = str(item.get("license_id") or "not-specified")
    title = str(item.get("license_title") or "").strip()
    if license_id in LICENCES:
        licence, status, note = LICENCES[license_id]
        licence = title if licence is None else licence
    else:
        builder.note_unmapped("license_id", license_id, file)
        licence, status = title, "access-not-established"
        note = f"The stated licence ({title or license_id}) is not one we map, so the terms of use are not established."
    model = str(item.get("access_model") or "unknown")
    if model in ("api-key", "oauth2"):
        if status in ("public", "access-not-established"):
            status = "authentication-required"
            note = (
                f"The catalogue records {'an API key' if model == 'api-key' else 'OAuth 2.0'} as the access method."
                + (f" {note}" if note else "")
            )
    elif model == "approval-required":
        if status != "restricted":
            status = "restricted"
            note = "The catalogue records that access needs the publisher's approval." + (f" {note}" if note else "")
    elif model == "unknown":
        if status == "public":
            status = "access-not-established"
            note = "Openly licensed, but the catalogue does not record how the resource is accessed."
    elif model != "anonymous":
        builder.note_unmapped("access_model", model, file)
    context = builder.text(item.get("context_note"), "accessNote", 500)
    if context:
        note = f"{note} {context}" if note else context
        if status == "public":
            status = "access-not-established"
    return (licence or None), status, (builder.text(note, "accessNote") if note else None)


def _one(
    file: str,
    item: dict[str, Any],
    product_urls: Counter,
    docs: Counter,
    builder: ImportBuilder,
    links: list[dict[str, str]] | None = None,
    aliases: list[dict[str, str]] | None = None,
    folded_codes: Iterable[str] = (),
) -> None:
    name = str(item.get("name") or "").strip()
    title = builder.text(item.get("title"), "title")
    if not name:
        builder.reject(file, "name", "the record has no name (its identifier)")
        return
    if not title:
        builder.reject(file, "title", "the record has no title")
        return
    record_type = str(item.get("record_type") or "")
    resource_type = RESOURCE_TYPES.get(record_type)
    if resource_type is None:
        builder.note_unmapped("record_type", record_type, file)
        resource_type = "catalogue-record"
    raw_doc = str(item.get("documentation") or "").strip()
    url, problem = _own_url(item, record_type, raw_doc, product_urls, docs, builder)
    if url is None:
        builder.reject(file, "url", problem or "no url")
        return
    doc_url = builder.url(raw_doc)[0] if raw_doc else None
    publisher = builder.publisher(item.get("publisher_title"), item.get("publisher"))
    if not publisher:
        builder.reject(file, "publisher", "the record names no publisher")
        return
    licence, access, note = _access(item, file, builder)
    label = SOURCE_LABELS.get(str(item.get("source_adapter")), "the okf-uk-government-apis catalogue")
    summary = (
        builder.summary(item.get("notes"), file, title)
        or f"{record_type or 'Record'} from {publisher}, listed in {label}."
    )
    formats = item.get("formats") if isinstance(item.get("formats"), list) else []
    builder.add(
        {
            "id": make_id("okf", name),
            "title": title,
            "summary": summary,
            "url": url,
            "resourceType": resource_type,
            "publisher": publisher,
            "accessStatus": access,
            "accessNote": note,
            "collection": builder.route(publisher, DEFAULT_COLLECTION),
            "licence": builder.text(licence, "licence") if licence else None,
            "updated": iso_date(item.get("updated_at")) or iso_date(item.get("timestamp")),
            "keywords": keywords([*folded_codes, *(item.get("topics") or []), *formats, *(item.get("tags") or [])]),
            "documentationUrl": doc_url if doc_url and doc_url != url else None,
            "links": links,
            "alsoKnownAs": aliases,
            "source": builder.provenance(file, name),
        },
        file,
    )


def _own_url(
    item: dict[str, Any], record_type: str, raw_doc: str, product_urls: Counter, docs: Counter, builder: ImportBuilder
) -> tuple[str | None, str | None]:
    """The record's own address: its url, unless several API Products share it; else a documentation page only it has."""
    raw_url = str(item.get("url") or "").strip()
    shared = record_type == "API Product" and product_urls.get(raw_url, 0) > 1
    if raw_url and not shared:
        return builder.url(raw_url)
    if raw_doc and docs[raw_doc] == 1:
        return builder.url(raw_doc)
    if raw_url:
        return None, "the url is shared by several API Products and the documentation page is not this API's own"
    return None, "no url, and no documentation page of its own"
