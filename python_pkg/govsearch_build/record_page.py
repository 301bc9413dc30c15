"""What a record page says about a record beyond its own fields: where it comes
from, in plain words, and its one licence statement."""

from __future__ import annotations

import re
from typing import Any

from .records import AUTHORED_KINDS
from .sanitise import safe_href
from .template_filters import govuk_date

LICENCE_STATUSES = {
    "open": "Open",
    "open-with-conditions": "Open with conditions",
    "restricted": "Restricted",
    "not-stated": "Not stated",
}
NOT_STATED = "Not stated by the source"
LINK_KINDS = {"download": "download", "service": "service", "documentation": "documentation", "api": "API"}


# Where a record comes from, in plain words (importer kinds are jargon).
SOURCE_NAMES = {
    "curated": "the govsearch editors",
    "api-catalogue": "the UK government API catalogue (Central Digital and Data Office)",
    "govuk-organisations": "the GOV.UK list of government organisations",
    "okf-search-shards": "a public catalogue of UK government APIs (okf-uk-government-apis)",
    "okf-hmlr-csv": "a public catalogue of HM Land Registry data (okf-LandRegistry)",
    "okf-uk-living": "a public list of official links for everyday life (okf-uk-living)",
    "okf-markdown": "a public collection of catalogue records (OKF Markdown)",
}
# Provenance rows: field, label; dates and hashes are made readable by source_rows.
SOURCE_FIELDS = (
    ("observed", "Date of the copy we used"),
    ("nativeId", "Identifier at the source"),
    ("url", "Source page"),
    ("file", "Place in the export"),
    ("revision", "Export version"),
)


def authorship(source: dict[str, Any]) -> str:
    """Who wrote a record, for its page: `curated` (our editors, facts checked),
    `annotated` (our words on an export's facts) or `imported`."""
    kind = source.get("kind", "curated")
    return kind if kind in AUTHORED_KINDS else "imported"


def provenance_rows(source: dict[str, Any]) -> list[tuple[str, str, str | None]]:
    """(label, text, link) rows for "Where this record comes from": dates as
    GOV.UK writes them, a revision shortened to the 12 characters people quote."""
    rows: list[tuple[str, str, str | None]] = []
    for key, label in SOURCE_FIELDS:
        value = source.get(key)
        if value in (None, ""):
            continue
        text = str(value)
        if key == "observed":
            text = govuk_date(text)
        elif key == "revision" and re.fullmatch(r"[0-9a-f]{13,64}", text):
            text = text[:12]
        rows.append((label, text, safe_href(text) if key == "url" else None))
    return rows


def licence_statement(record: dict[str, Any]) -> dict[str, Any]:
    """The one licence statement of a record page: the record's licence, else the
    reviewed evidence's, else that the source does not state one."""
    evidence = record.get("evidence") or {}
    status = LICENCE_STATUSES.get(evidence.get("licenceStatus", ""), evidence.get("licenceStatus"))
    if record.get("licence"):
        shown = status if evidence.get("licenceStatus") != "not-stated" else None
        return {"text": record["licence"], "stated": True, "status": shown, "reviewed": bool(evidence)}
    if evidence.get("licenceTitle"):
        stated = evidence.get("licenceStatus") != "not-stated"
        return {
            "text": evidence["licenceTitle"],
            "stated": stated,
            "status": status if stated else None,
            "reviewed": True,
        }
    return {"text": NOT_STATED, "stated": False, "status": None, "reviewed": False}
