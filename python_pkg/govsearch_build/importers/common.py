"""Shared machinery for the importers: text and URL clean-up, ids, reporting.

Each importer feeds candidate records to an `ImportBuilder`; `finish()`
validates them with `records.validate_record`, merges duplicates found by
`records.drop_duplicates` (same id, or same url within a collection) into the
first record, and returns an `ImportResult` whose report accounts for every
input: built, merged as a duplicate, left out with a reason, or rejected.
"""

from __future__ import annotations

import json

import gzip
import hashlib
import html
import re
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Iterable
from urllib.parse import quote, urlsplit

from ..publishers import PublisherAuthority
from ..quality import QualityLog, collapse_repeats, is_file_download, is_generic_title, item_name, repair_mojibake
from ..records import Record, Rejection, drop_duplicates, normalise, validate_record

LIMITS = {"title": 300, "summary": 2000, "publisher": 100, "accessNote": 1000, "licence": 200}
MAX_ID = 120
MAX_KEYWORDS = 30
MAX_KEYWORD = 80
MAX_LINKS = 40
EXAMPLES = 5
DUPLICATE_EXAMPLES = 20

# Hosts known to serve the same pages over https, so an http:// URL on them is
# upgraded rather than rejected. Only hosts whose https service is certain.
HTTPS_HOSTS = frozenset({
    "www.gov.uk", "gov.uk", "www.data.gov.uk", "data.gov.uk", "environment.data.gov.uk",
    "www.nationalarchives.gov.uk", "www.legislation.gov.uk", "www.ons.gov.uk",
    "api.beta.ons.gov.uk", "github.com", "www.nhs.uk", "digital.nhs.uk",
})
# Hosting platforms that serve every site over https (ArcGIS Online / ArcGIS
# Hub have been https-only since 2020).
HTTPS_HOST_SUFFIXES = (".opendata.arcgis.com", ".hub.arcgis.com", ".maps.arcgis.com")

COLLECTION_BY_PUBLISHER = {
    "HM Land Registry": "land-registry",
    "Office for National Statistics": "ons",
}

_TAG = re.compile(r"<[^>]{0,500}>")
_MD_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_MD_LINK = re.compile(r"\[([^\]]+)\]\((?:[^()\s]|\([^)]*\))*\)")
_MD_REF_LINK = re.compile(r"\[([^\]]+)\]\[[^\]]*\]")
_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+", re.M)
_MD_QUOTE = re.compile(r"^\s{0,3}>\s?", re.M)
_MD_EMPHASIS = re.compile(r"(\*\*|__|`+)")
_MD_STAR = re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])")
_SLUG_CHARS = re.compile(r"[^a-z0-9]+")
ELLIPSIS = "…"


def plain_text(value: Any) -> str:
    """Literal \\n escapes to spaces, Markdown and HTML markup to plain text."""
    if value is None:
        return ""
    text = str(value)
    text = text.replace("\\r\\n", "\n").replace("\\n", "\n").replace("\\r", "\n").replace("\\t", " ")
    text = _TAG.sub(" ", text)
    # Some exports escape entities twice ("&amp;amp;"): unescape until stable.
    for _ in range(3):
        unescaped = html.unescape(text)
        if unescaped == text:
            break
        text = unescaped
    text = _MD_IMAGE.sub(r"\1", text)
    text = _MD_LINK.sub(r"\1", text)
    text = _MD_REF_LINK.sub(r"\1", text)
    text = _MD_HEADING.sub("", text)
    text = _MD_QUOTE.sub("", text)
    text = _MD_EMPHASIS.sub("", text)
    text = _MD_STAR.sub(r"\1", text)
    text = unicodedata.normalize("NFC", text)
    text = " ".join(text.split())
    return re.sub(r" ([.,;:!?])(?=\s|$)", r"\1", text)


def trim(text: str, limit: int) -> tuple[str, bool]:
    """Cut at a word boundary to fit `limit` characters, ending with an ellipsis."""
    if len(text) <= limit:
        return text, False
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.-–—") + ELLIPSIS, True


def slug(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return _SLUG_CHARS.sub("-", ascii_text).strip("-")


def make_id(prefix: str, native: str) -> str:
    """Stable lower-case slug `<prefix>-<native>`, hash-suffixed past 120 chars."""
    base = slug(f"{prefix}-{native}") or prefix
    if len(base) <= MAX_ID:
        return base
    digest = hashlib.sha1(native.encode("utf-8")).hexdigest()[:10]
    return base[: MAX_ID - 11].rstrip("-") + "-" + digest


def keywords(values: Iterable[Any]) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    for value in values:
        if value is None:
            continue
        text = plain_text(value)
        if not text or len(text) > MAX_KEYWORD or text.lower() in seen:
            continue
        seen.add(text.lower())
        out.append(text)
        if len(out) == MAX_KEYWORDS:
            break
    return out


def split_list(value: str | None, sep: str = "|") -> list[str]:
    return [part.strip() for part in (value or "").split(sep) if part.strip()]


def iso_date(value: Any) -> str | None:
    """YYYY-MM-DD from a date or timestamp string, or None."""
    if not isinstance(value, str):
        return None
    match = re.match(r"^(\d{4}-\d{2}-\d{2})", value.strip())
    if not match:
        return None
    import datetime as dt

    try:
        dt.date.fromisoformat(match.group(1))
    except ValueError:
        return None
    return match.group(1)


@dataclass
class ImportResult:
    records: list[Record] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)
    report: dict[str, Any] = field(default_factory=dict)
    quality: QualityLog = field(default_factory=QualityLog)


@dataclass
class _Candidate:
    data: dict[str, Any]
    body: str
    file: str
    primary: bool


class ImportBuilder:
    """Collects candidates and accounts for every input of one import."""

    def __init__(self, kind: str, *, authority: PublisherAuthority | None, collection: str | None,
                 revision: str | None = None, observed: str | None = None, http_hosts: Iterable[str] = ()):
        self.kind = kind
        self.authority = authority
        self.aliases_only = authority is None
        self._resolver = authority if authority is not None else PublisherAuthority.from_results([])
        self.collection = collection
        self.revision = revision
        self.observed = observed
        self.inputs = 0
        self.candidates: list[_Candidate] = []
        self.rejected: list[Rejection] = []
        self.rejected_inputs: set[str] = set()
        self.left_out: Counter[str] = Counter()
        self.left_out_examples: dict[str, list[str]] = defaultdict(list)
        self.unmapped: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
        self.unmatched: Counter[str] = Counter()
        self.trimmed: Counter[str] = Counter()
        self.upgraded: Counter[str] = Counter()
        self.http_only: Counter[str] = Counter()
        self.extra_merges: list[dict[str, str]] = []
        self.notes: dict[str, Any] = {}
        self.known_https_hosts: set[str] = set()
        # public-body hosts that offer only plain http (site config `http_allowed_hosts`)
        self.http_hosts = frozenset(http_hosts)
        self.quality = QualityLog()

    # --- accounting -------------------------------------------------------
    def input(self, count: int = 1) -> None:
        self.inputs += count

    def reject(self, file: str, field_name: str, reason: str) -> None:
        self.rejected.append(Rejection(file, field_name, reason))
        self.rejected_inputs.add(file)

    def leave_out(self, reason: str, file: str) -> None:
        self.left_out[reason] += 1
        if len(self.left_out_examples[reason]) < EXAMPLES:
            self.left_out_examples[reason].append(file)

    def merged_before_build(self, file: str, into: str, why: str) -> None:
        """An input merged into another input before records were made."""
        self.extra_merges.append({"file": file, "into": into, "reason": why})

    def note_unmapped(self, field_name: str, value: Any, file: str) -> None:
        key = str(value)
        slot = self.unmapped[field_name].setdefault(key, {"count": 0, "examples": []})
        slot["count"] += 1
        if len(slot["examples"]) < EXAMPLES:
            slot["examples"].append(file)

    # --- field helpers ----------------------------------------------------
    def text(self, value: Any, field_name: str, limit: int | None = None) -> str:
        text = plain_text(value)
        text, cut = trim(text, limit or LIMITS.get(field_name, 2000))
        if cut:
            self.trimmed[field_name] += 1
        return text

    def publisher(self, *names: Any) -> str | None:
        """Exact GOV.UK name for the first resolvable spelling; else the first name as given."""
        given = [repair_mojibake(plain_text(name)) for name in names if isinstance(name, str) and plain_text(name)]
        for name in given:
            resolved = self._resolver.resolve(name)
            if resolved:
                return resolved
        if not given:
            return None
        # keep the source's own display name, not a slug, when nothing matched
        shown_name = next((name for name in given if not re.fullmatch(r"[a-z0-9-]+", name)), given[0])
        if not self.aliases_only:
            self.unmatched[shown_name] += 1
        return self.text(shown_name, "publisher")

    def route(self, publisher: str | None, default: str) -> str:
        if self.collection:
            return self.collection
        return COLLECTION_BY_PUBLISHER.get(publisher or "", default)

    def learn_https_hosts(self, urls: Iterable[str]) -> None:
        """Hosts the input itself links over https count as serving https."""
        for url in urls:
            if isinstance(url, str) and url.startswith("https://"):
                host = urlsplit(url).hostname
                if host:
                    self.known_https_hosts.add(host)

    def url(self, value: Any) -> tuple[str | None, str | None]:
        """(https URL, None) or (None, reason it cannot be used)."""
        if not isinstance(value, str) or not value.strip():
            return None, "no URL given"
        text = value.strip()
        if any(ch.isspace() for ch in text):
            text = quote(text, safe=":/?#[]@!$&'()*+,;=%~")
        try:
            parts = urlsplit(text)
            host = parts.hostname
            parts.port  # noqa: B018 - raises on a bad port
        except ValueError:
            return None, f"malformed URL {text[:80]!r}"
        if parts.scheme not in ("http", "https") or not host:
            return None, f"not an absolute web URL: {text[:80]!r}"
        if parts.username or parts.password:
            return None, "URL carries credentials"
        if parts.scheme == "http":
            if host in HTTPS_HOSTS or host in self.known_https_hosts or host.endswith(HTTPS_HOST_SUFFIXES):
                self.upgraded[host] += 1
                text = "https://" + text[len("http://"):]
            elif host in self.http_hosts:
                return text, None  # a public body's http-only link: kept, and marked http-only by add()
            else:
                self.http_only[host] += 1
                return None, f"http-only URL on {host}, which is not known to serve https"
        return text, None

    def provenance(self, file: str, native_id: str | None, observed: str | None = None,
                   url: str | None = None) -> dict[str, Any]:
        source: dict[str, Any] = {"kind": self.kind, "file": file[:300]}
        if self.revision:
            source["revision"] = self.revision
        when = observed or self.observed
        if when:
            source["observed"] = when
        if url:
            source["url"] = url
        if native_id:
            source["nativeId"] = str(native_id)[:300]
        return source

    # --- records ----------------------------------------------------------
    def add(self, data: dict[str, Any], file: str, *, body: str = "", primary: bool = True) -> None:
        clean = {key: value for key, value in data.items() if value not in (None, "", [], {})}
        if "source" in clean:
            clean["source"] = {k: v for k, v in clean["source"].items() if v not in (None, "")}
        if not clean.get("observed") and clean.get("source", {}).get("observed"):
            clean["observed"] = clean["source"]["observed"]
        clean = normalise(clean)
        if self._apply_rules(clean, file, primary):
            self.candidates.append(_Candidate(clean, body, file, primary))

    def _apply_rules(self, data: dict[str, Any], file: str, primary: bool) -> bool:
        """The quality rules (govsearch_build.quality) on one candidate; False if it is rejected."""
        for name in ("title", "summary", "publisher", "accessNote"):
            if isinstance(data.get(name), str):
                self._repair(data, name, file, "mojibake-repaired", repair_mojibake)
        for name in ("title", "summary"):
            if isinstance(data.get(name), str):
                self._repair(data, name, file, "repeated-words", collapse_repeats)
        title, url = data.get("title"), data.get("url")
        if isinstance(title, str) and is_generic_title(title):
            qualified = _qualified_title(title, data)
            if qualified is None:
                self.quality.note("generic-title", "rejected", file, title)
                if primary:
                    self.reject(file, "title", f"the title {title[:80]!r} is only a format word, number or generic product name, and the row names no item to qualify it")
                return False
            self._repair(data, "title", file, "generic-title", lambda _: qualified)
        if data.get("resourceType") == "api" and isinstance(url, str) and is_file_download(url):
            data["resourceType"] = "dataset"
            self.quality.note("type-from-evidence", "changed", file, "api", f"dataset: {url}")
        if isinstance(url, str) and url.startswith("http://"):
            data["linkSecurity"] = "http-only"
            self.quality.note("http-only-kept", "kept", file, after=url)
        return True

    def _repair(self, data: dict[str, Any], name: str, file: str, rule: str, repair: Any) -> None:
        fixed = repair(data[name])
        if fixed != data[name]:
            self.quality.note(rule, "changed", file, data[name], fixed)
            data[name] = fixed

    def finish(self) -> ImportResult:
        valid: list[Record] = []
        primary_of: dict[str, bool] = {}
        derived_rejected = 0
        for cand in self.candidates:
            problems = validate_record(cand.data, cand.file, http_allowed_hosts=self.http_hosts)
            if problems:
                for problem in problems:
                    self.rejected.append(problem)
                if cand.primary:
                    self.rejected_inputs.add(cand.file)
                else:
                    derived_rejected += 1
                continue
            primary_of[cand.file] = cand.primary
            valid.append(Record(data=cand.data, body=cand.body, file=cand.file))
        valid = self._unique_ids(valid)
        kept, duplicates = drop_duplicates(valid)
        by_file = {record.file: record for record in valid}
        keep_by_url = {(r.data["collection"], r.data["url"]): r for r in kept}
        merged_primary = 0
        merged_derived = 0
        examples: list[dict[str, str]] = []
        for dup in duplicates:
            record = by_file[dup.file]
            target = keep_by_url[(record.data["collection"], record.data["url"])]
            merge_into(target, record)
            if primary_of.get(record.file, True):
                merged_primary += 1
            else:
                merged_derived += 1
            if len(examples) < DUPLICATE_EXAMPLES:
                examples.append({"file": record.file, "into": target.file, "url": record.data["url"], "title": record.data["title"][:120]})
        for extra in self.extra_merges:
            if len(examples) < DUPLICATE_EXAMPLES:
                examples.append(extra)
        built_primary = sum(1 for r in kept if primary_of.get(r.file, True))
        report = {
            "kind": self.kind,
            "inputs": self.inputs,
            "built": len(kept),
            "rejected": len(self.rejected_inputs),
            "left_out": dict(sorted(self.left_out.items())),
            "unmapped": {name: dict(sorted(values.items(), key=lambda kv: -kv[1]["count"])) for name, values in sorted(self.unmapped.items())},
            "unmatched_publishers": dict(self.unmatched.most_common()),
            "duplicates_merged": merged_primary + len(self.extra_merges),
            "duplicates": examples,
            # every input is exactly one of: built (primary record), merged, left out, rejected
            "accounting": {
                "inputs": self.inputs,
                "built_primary": built_primary,
                "merged": merged_primary + len(self.extra_merges),
                "left_out": sum(self.left_out.values()),
                "rejected": len(self.rejected_inputs),
            },
            # records made in addition to an input's own record (e.g. documentation pages)
            "derived": {"built": len(kept) - built_primary, "merged": merged_derived, "rejected": derived_rejected},
            "left_out_examples": {k: v for k, v in sorted(self.left_out_examples.items())},
            "trimmed": dict(self.trimmed),
            "urls_upgraded_to_https": dict(self.upgraded.most_common()),
            "http_only_hosts": dict(self.http_only.most_common()),
            "rejection_reasons": _reason_counts(self.rejected),
            "by_collection": dict(Counter(r.data["collection"] for r in kept).most_common()),
            "by_resource_type": dict(Counter(r.data["resourceType"] for r in kept).most_common()),
            "by_access_status": dict(Counter(r.data["accessStatus"] for r in kept).most_common()),
            "publisher_authority": "aliases only" if self.aliases_only else f"{len(self._resolver)} GOV.UK organisations",
        }
        report["quality"] = self.quality.as_dict()
        report.update(self.notes)
        return ImportResult(records=kept, rejected=list(self.rejected), report=report, quality=self.quality)

    def _unique_ids(self, records: list[Record]) -> list[Record]:
        """Different resources whose ids collide get a hash suffix (same url: left to merge)."""
        first: dict[str, Record] = {}
        out: list[Record] = []
        for record in records:
            other = first.get(record.id)
            if other is not None and other.data["url"] != record.data["url"]:
                native = record.data.get("source", {}).get("nativeId") or record.file
                new_id = make_id(record.id[: MAX_ID - 12], hashlib.sha1(native.encode()).hexdigest()[:8])
                data = dict(record.data, id=new_id)
                record = Record(data=data, body=record.body, file=record.file)
            first.setdefault(record.id, record)
            out.append(record)
        return out


def _qualified_title(title: str, data: dict[str, Any]) -> str | None:
    """A generic title qualified by the item's name (from its page's slug), else by
    its publisher; None for a bare number with no item name."""
    name = item_name(data.get("documentationUrl", ""), data.get("url", ""))
    if name:
        return trim(f"{name} ({title})", LIMITS["title"])[0]
    if data.get("publisher") and not title.strip().isdigit():
        return trim(f"{title} from {data['publisher']}", LIMITS["title"])[0]
    return None


def merge_into(target: Record, other: Record, *, reviewed: bool = False) -> None:
    """Fold a duplicate into the record kept: keywords and links united, gaps filled.

    A `reviewed` record (with evidence) keeps its access and licence facts as they are.
    """
    data = target.data
    words = keywords(list(data.get("keywords", [])) + list(other.data.get("keywords", [])))
    if words:
        data["keywords"] = words
    # an access status the kept record could not establish is taken from the duplicate
    if not reviewed and data.get("accessStatus") == "access-not-established" and other.data.get("accessStatus") not in (None, "access-not-established"):
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


def _reason_counts(rejections: list[Rejection]) -> dict[str, int]:
    counts: Counter[str] = Counter()
    for rejection in rejections:
        reason = re.sub(r"'[^']*'|\"[^\"]*\"|\bon \S+|\d+", "…", rejection.reason)
        counts[f"{rejection.field}: {reason}"] += 1
    return dict(counts.most_common())


def expand(paths: Iterable[Any], patterns: tuple[str, ...]) -> list[Any]:
    """Files named by `paths`; a folder contributes its files matching `patterns` (recursively)."""
    from pathlib import Path

    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for pattern in patterns:
                found.extend(sorted(p for p in path.rglob(pattern) if p.is_file()))
        else:
            found.append(path)
    unique: list[Path] = []
    seen: set[Path] = set()
    for path in found:
        if path.resolve() not in seen:
            seen.add(path.resolve())
            unique.append(path)
    return unique


def shown(path: Any) -> str:
    """How a file is named in reports: `<folder>/<file>`."""
    from pathlib import Path

    path = Path(path)
    return f"{path.parent.name}/{path.name}" if path.parent.name else path.name


def read_json(path: Any, builder: "ImportBuilder") -> Any | None:
    """A JSON export's content (gzipped when named .gz), or None after rejecting the file."""
    opener = gzip.open if str(path).endswith(".gz") else open
    try:
        with opener(path, "rt", encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError, EOFError) as error:
        builder.input()
        builder.reject(shown(path), "(file)", f"cannot read JSON: {error}")
        return None


def page_type(url: str) -> str:
    """A link to a GOV.UK page is GOV.UK content; any other official page is guidance."""
    return "govuk-content" if url.startswith("https://www.gov.uk/") else "guidance"
