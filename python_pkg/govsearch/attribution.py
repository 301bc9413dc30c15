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


def citation(record: dict[str, Any], record_url: str, snapshot: dict[str, str]) -> dict[str, Any]:
    """What an agent cites a record by: the resource (title, publisher, official
    URL), our record page, the data snapshot it was read from (the manifest's
    sha256 and build date), the resource's licence and the attribution the
    catalogue's source requires, and all of it as one ready sentence."""
    cited: dict[str, Any] = {
        "title": record["title"],
        "publisher": record["publisher"],
        "url": record["url"],
        "recordUrl": record_url,
        "snapshot": snapshot,
    }
    licence, words = stated_licence(record), attribution(record)
    if licence:
        cited["licence"] = licence
    if words:
        cited["attribution"] = words
    cited["text"] = " ".join(_citation_sentences(cited))
    return cited


def _citation_sentences(cited: dict[str, Any]) -> list[str]:
    snapshot = cited["snapshot"]
    taken = "govsearch catalogue record"
    if snapshot.get("built"):
        taken += f", data built {snapshot['built']}"
    if snapshot.get("manifestSha256"):
        taken += f", manifest sha256 {snapshot['manifestSha256'][:12]}"
    sentences = [
        _sentence(cited["publisher"]),
        _sentence(cited["title"]),
        cited["url"],
        f"({taken}: {cited['recordUrl']}).",
    ]
    if "licence" in cited:
        sentences.append(_sentence(f"Licence: {cited['licence']}"))
    if "attribution" in cited:
        sentences.append(cited["attribution"])
    return sentences


def _sentence(text: str) -> str:
    """The text ending as a sentence ends (a title may already end with its own stop)."""
    text = text.strip()
    return text if text.endswith((".", "?", "!")) else text + "."
