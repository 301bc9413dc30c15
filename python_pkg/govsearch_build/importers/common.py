"""The importers' builder: candidate records in, an `ImportResult` out.

Each importer feeds candidate records to an `ImportBuilder`; `finish()`
validates them with `records.validate_record`, merges duplicates (merge.py)
and returns an `ImportResult` whose report (accounting.py) accounts for every
input: built, merged as a duplicate, left out with a reason, or rejected.
Text and URLs are cleaned by cleaning.py, whose helpers importers use
through this module too.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..link_facts import is_file_download
from ..publishers import PublisherAuthority
from ..quality import QualityLog, leave_out_test_record
from ..records import Record, Rejection, normalise, validate_record
from ..summaries import is_placeholder, repeats_title
from ..text_repair import collapse_repeats, repair_mojibake
from ..titles import is_generic_title, is_test_record, item_name, names_only_its_publisher
from .accounting import ImportAccount, reason_counts
from .cleaning import (
    LIMITS,
    MAX_ID,
    MAX_LINKS,
    UrlCleaner,
    iso_date,
    keywords,
    make_id,
    page_type,
    plain_text,
    slug,
    split_list,
    trim,
)
from .merge import merge_duplicates

# What importers take from here (the builder and the cleaning helpers).
__all__ = [
    "ImportBuilder",
    "ImportResult",
    "MAX_LINKS",
    "expand",
    "iso_date",
    "keywords",
    "make_id",
    "page_type",
    "plain_text",
    "read_json",
    "shown",
    "slug",
    "split_list",
    "trim",
]

COLLECTION_BY_PUBLISHER = {
    "HM Land Registry": "land-registry",
    "Office for National Statistics": "ons",
}


@dataclass
class ImportResult:
    records: list[Record] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)
    report: dict[str, Any] = field(default_factory=dict)
    quality: QualityLog = field(default_factory=QualityLog)
    moved: dict[str, str] = field(default_factory=dict)  # merged duplicate's id -> the id it is now part of


@dataclass
class _Candidate:
    data: dict[str, Any]
    body: str
    file: str
    primary: bool


class ImportBuilder:
    """Collects candidates and accounts for every input of one import."""

    def __init__(
        self,
        kind: str,
        *,
        authority: PublisherAuthority | None,
        collection: str | None,
        revision: str | None = None,
        observed: str | None = None,
        http_hosts: Iterable[str] = (),
    ):
        self.kind = kind
        self.authority = authority
        self.aliases_only = authority is None
        self._resolver = authority if authority is not None else PublisherAuthority.from_results([])
        self.collection = collection
        self.revision = revision
        self.observed = observed
        self.candidates: list[_Candidate] = []
        self.account = ImportAccount(kind)
        self.urls = UrlCleaner(http_hosts)
        self.http_hosts = self.urls.http_hosts
        self.quality = QualityLog()
        # accounting, as the importers call it
        self.input = self.account.input
        self.reject = self.account.reject
        self.leave_out = self.account.leave_out
        self.merged_before_build = self.account.merged_before_build
        self.note_unmapped = self.account.note_unmapped
        # URLs: https, or the reason they cannot be used
        self.url = self.urls.clean
        self.learn_https_hosts = self.urls.learn_https_hosts

    def text(self, value: Any, field_name: str, limit: int | None = None) -> str:
        text, cut = trim(plain_text(value), limit or LIMITS.get(field_name, 2000))
        if cut:
            self.account.trimmed[field_name] += 1
        return text

    def summary(self, value: Any, file: str, title: str = "") -> str:
        """A row's description as a summary, or "" when it only stands where one should
        be: a placeholder ("{{description}}", "null", "no description") or the title
        again. The importer then writes its own, saying where the row is listed."""
        text = self.text(value, "summary")
        if text and is_placeholder(text):
            self.quality.note("placeholder-text-absent", "changed", file, text, "(no summary given)")
            return ""
        if text and title and repeats_title(text, title):
            self.quality.note("title-repeat-absent", "changed", file, text, "(no summary given)")
            return ""
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
            self.account.unmatched[shown_name] += 1
        return self.text(shown_name, "publisher")

    def route(self, publisher: str | None, default: str) -> str:
        if self.collection:
            return self.collection
        return COLLECTION_BY_PUBLISHER.get(publisher or "", default)

    def provenance(
        self, file: str, native_id: str | None, observed: str | None = None, url: str | None = None
    ) -> dict[str, Any]:
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
        if primary and isinstance(title, str) and is_test_record(title, str(data.get("resourceType"))):
            leave_out_test_record(self.quality, "left out", file, data)
            self.account.leave_out("test-record", file)
            return False
        if isinstance(title, str) and _names_no_resource(title, data):
            qualified = _qualified_title(title, data)
            if qualified is None:
                self.quality.note("generic-title", "rejected", file, title)
                if primary:
                    self.reject(
                        file,
                        "title",
                        f"the title {title[:80]!r} is only a format word, number, generic product name or access label, and the row names no item to qualify it",
                    )
                return False
            self._repair(data, "title", file, "generic-title", lambda _: qualified)
        if data.get("resourceType") == "api" and isinstance(url, str) and is_file_download(url):
            data["resourceType"] = "dataset"
            self.quality.note("type-from-evidence", "changed", file, "api", f"dataset: {url}")
        if isinstance(url, str) and url.startswith("http://"):
            data["linkSecurity"] = "http-only"
            self.quality.note("http-only-kept", "kept", file, after=url)
        for link in data.get("links", []):
            if link["url"].startswith("http://"):
                link["linkSecurity"] = "http-only"
        return True

    def _repair(self, data: dict[str, Any], name: str, file: str, rule: str, repair: Any) -> None:
        fixed = repair(data[name])
        if fixed != data[name]:
            self.quality.note(rule, "changed", file, data[name], fixed)
            data[name] = fixed

    def finish(self) -> ImportResult:
        valid, primary_of, derived_rejected = self._validated()
        kept, merged = merge_duplicates(self._unique_ids(valid), self.quality)
        report = self.account.report(kept, merged, primary_of, derived_rejected)
        report.update(
            {
                "urls_upgraded_to_https": dict(self.urls.upgraded.most_common()),
                "http_only_hosts": dict(self.urls.http_only.most_common()),
                "rejection_reasons": reason_counts(self.account.rejected),
                "by_collection": dict(Counter(r.data["collection"] for r in kept).most_common()),
                "by_resource_type": dict(Counter(r.data["resourceType"] for r in kept).most_common()),
                "by_access_status": dict(Counter(r.data["accessStatus"] for r in kept).most_common()),
                "publisher_authority": "aliases only"
                if self.aliases_only
                else f"{len(self._resolver)} GOV.UK organisations",
                "quality": self.quality.as_dict(),
            }
        )
        moved = {record.id: target.id for record, target in merged if record.id != target.id}
        return ImportResult(
            records=kept, rejected=list(self.account.rejected), report=report, quality=self.quality, moved=moved
        )

    def _validated(self) -> tuple[list[Record], dict[str, bool], int]:
        """The candidates the schema accepts; whether each came from an input's own
        record (primary) or was derived; how many derived ones it refused."""
        valid: list[Record] = []
        primary_of: dict[str, bool] = {}
        derived_rejected = 0
        for cand in self.candidates:
            problems = self._without_bad_links(cand)
            if problems:
                self.account.rejected.extend(problems)
                if cand.primary:
                    self.account.rejected_inputs.add(cand.file)
                else:
                    derived_rejected += 1
                continue
            primary_of[cand.file] = cand.primary
            valid.append(Record(data=cand.data, body=cand.body, file=cand.file))
        return valid, primary_of, derived_rejected

    def _without_bad_links(self, cand: _Candidate) -> list:
        """The candidate's problems, once links the schema refuses are dropped (each
        reported under `links-accounted` with its reason): a bad further link must
        not take its record with it."""
        problems = validate_record(cand.data, cand.file, http_allowed_hosts=self.http_hosts)
        bad = {_link_number(p.field) for p in problems} - {None}
        if not bad or any(_link_number(p.field) is None for p in problems):
            return problems
        for problem in problems:
            self.quality.note("links-accounted", f"dropped: {problem.reason}", cand.file, problem.field)
        cand.data["links"] = [link for n, link in enumerate(cand.data["links"]) if n not in bad]
        if not cand.data["links"]:
            del cand.data["links"]
        return validate_record(cand.data, cand.file, http_allowed_hosts=self.http_hosts)

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


def _link_number(field_name: str) -> int | None:
    match = re.match(r"links/([0-9]+)(?:/|$)", field_name)
    return int(match.group(1)) if match else None


def _names_no_resource(title: str, data: dict[str, Any]) -> bool:
    """A generic title, or an access label that adds only its publisher ("View & Download from CDC")."""
    return is_generic_title(title) or names_only_its_publisher(title, data.get("publisher") or "")


def _qualified_title(title: str, data: dict[str, Any]) -> str | None:
    """A generic title qualified by the item's name (from its page's slug), else by
    its publisher; None for a bare number, or a label that names its publisher
    already, with no item name."""
    name = item_name(data.get("documentationUrl", ""), data.get("url", ""))
    if name:
        return trim(f"{name} ({title})", LIMITS["title"])[0]
    publisher = data.get("publisher") or ""
    if publisher and not title.strip().isdigit() and not names_only_its_publisher(title, publisher):
        return trim(f"{title} from {data['publisher']}", LIMITS["title"])[0]
    return None


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


def read_json(path: Any, builder: ImportBuilder) -> Any | None:
    """A JSON export's content (gzipped when named .gz), or None after rejecting the file."""
    opener = gzip.open if str(path).endswith(".gz") else open
    try:
        with opener(path, "rt", encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError, EOFError) as error:
        builder.input()
        builder.reject(shown(path), "(file)", f"cannot read JSON: {error}")
        return None
