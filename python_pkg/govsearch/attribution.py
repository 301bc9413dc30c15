"""When a record carries the Open Government Licence attribution, and in which words.

One rule for the record pages (govsearch_build.render) and the record tool
(govsearch.tools), so a page and an agent are never told different things.
Imported records are catalogue information published under the OGL; a
curated record needs the attribution only when its resource is OGL itself.
The wording never contradicts the record's licence line: it licenses the
resource only when the resource's own stated licence is the OGL.
"""

from __future__ import annotations

from typing import Any

OGL_ATTRIBUTION = "Contains public sector information licensed under the Open Government Licence v3.0."
CATALOGUE_ATTRIBUTION = (
    "This record's catalogue details contain public sector information licensed under the "
    "Open Government Licence v3.0. The licence of the resource itself is the one given above."
)
_OGL = "open government licence"


def needs_attribution(record: dict[str, Any]) -> bool:
    imported = (record.get("source") or {}).get("kind", "curated") != "curated"
    return imported or _OGL in str(record.get("licence", "")).lower()


def stated_licence(record: dict[str, Any]) -> str:
    """The resource's own licence as the record states it: its licence, else the
    reviewed evidence's licence title (unless the evidence says none is stated)."""
    if record.get("licence"):
        return str(record["licence"])
    evidence = record.get("evidence") or {}
    return "" if evidence.get("licenceStatus") == "not-stated" else str(evidence.get("licenceTitle") or "")


def attribution(record: dict[str, Any]) -> str | None:
    """The attribution a record carries, or None."""
    if not needs_attribution(record):
        return None
    return OGL_ATTRIBUTION if _OGL in stated_licence(record).lower() else CATALOGUE_ATTRIBUTION
