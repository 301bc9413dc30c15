"""Read, check and write catalogue records (Markdown with YAML front matter).

Every input file ends up either as a `Record` or as one or more `Rejection`s
naming the file, the field and the reason, so a build can account for all of
its input. See docs/record-format.md for the format.
"""

from __future__ import annotations

import datetime as dt
import json
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Iterable
from urllib.parse import urlsplit

import jsonschema
import yaml

MAX_FILE_BYTES = 256 * 1024
TEXT_FIELDS = ("title", "summary", "publisher", "accessNote", "licence")


@dataclass(frozen=True)
class Rejection:
    """Why one input was not built: the place (file, field) and the rule broken."""

    file: str
    field: str
    reason: str

    def as_dict(self) -> dict[str, str]:
        return {"file": self.file, "field": self.field, "reason": self.reason}


@dataclass(frozen=True)
class Record:
    """A valid record: its front matter fields, Markdown body and origin."""

    data: dict[str, Any]
    body: str
    file: str

    @property
    def id(self) -> str:
        return self.data["id"]


@dataclass
class LoadResult:
    records: list[Record] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)
    # Files that produced rejections, so counts are per input not per problem.
    rejected_files: set[str] = field(default_factory=set)
    imports: list[dict[str, Any]] = field(default_factory=list)  # one report per imported source

    def reject(self, problems: Iterable[Rejection]) -> None:
        for problem in problems:
            self.rejected.append(problem)
            self.rejected_files.add(problem.file)


class _StringDateLoader(yaml.SafeLoader):
    """SafeLoader that leaves dates as the strings the author wrote."""


_StringDateLoader.yaml_implicit_resolvers = {
    key: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


@lru_cache(maxsize=1)
def record_schema() -> dict[str, Any]:
    text = resources.files("govsearch_build").joinpath("schemas/record.schema.json").read_text("utf-8")
    return json.loads(text)


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(record_schema())


def split_front_matter(text: str) -> tuple[str, str]:
    """Return (front matter YAML, body). Raises ValueError when there is none."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != "---":
        raise ValueError("the file must start with a '---' line opening the YAML front matter")
    for number, line in enumerate(lines[1:], start=1):
        if line.strip() in ("---", "..."):
            return "".join(lines[1:number]), "".join(lines[number + 1 :])
    raise ValueError("the YAML front matter is never closed by a '---' line")


def parse_record_text(text: str, file: str) -> tuple[dict[str, Any] | None, str, list[Rejection]]:
    """Parse one record file's text into (front matter, body, problems)."""
    try:
        head, body = split_front_matter(text)
        data = yaml.load(head, Loader=_StringDateLoader)
    except ValueError as error:
        return None, "", [Rejection(file, "(front matter)", str(error))]
    except yaml.YAMLError as error:
        where = getattr(error, "problem_mark", None)
        line = f" at line {where.line + 2}" if where is not None else ""
        problem = getattr(error, "problem", None) or str(error)
        return None, "", [Rejection(file, "(front matter)", f"malformed YAML{line}: {problem}")]
    if not isinstance(data, dict):
        return None, "", [Rejection(file, "(front matter)", "the front matter must be a mapping of field: value")]
    return normalise(data), body.strip("\n"), []


def normalise(value: Any) -> Any:
    """NFC-normalise every string and trim text fields, so exact matches are stable."""
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, list):
        return [normalise(item) for item in value]
    if isinstance(value, dict):
        out = {str(key): normalise(item) for key, item in value.items()}
        for name in TEXT_FIELDS:
            if isinstance(out.get(name), str):
                out[name] = " ".join(out[name].split())
        return out
    return value


def _path_of(error: jsonschema.ValidationError) -> str:
    parts = [str(part) for part in error.absolute_path]
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else ""
        parts.append(missing)
    if error.validator == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        parts.append(",".join(extra))
    return "/".join(parts) or "(front matter)"


def _explain(error: jsonschema.ValidationError) -> str:
    rule = error.validator
    if rule == "enum":
        return f"must be one of: {', '.join(map(str, error.validator_value))}"
    if rule == "pattern" and "webUrl" in "/".join(map(str, error.absolute_schema_path)):
        return "must be an absolute https URL without credentials or spaces"
    if rule == "pattern" and "date" in "/".join(map(str, error.absolute_schema_path)):
        return "must be a date written YYYY-MM-DD"
    if rule == "additionalProperties":
        return "unknown field (see docs/record-format.md for the allowed fields)"
    message = error.message
    return message if len(message) <= 200 else message[:200] + "..."


def validate_record(data: dict[str, Any], file: str, *, http_allowed_hosts: Iterable[str] = ()) -> list[Rejection]:
    """All problems with one record's front matter, each naming its field."""
    problems = [
        Rejection(file, _path_of(error), f"{error.validator}: {_explain(error)}")
        for error in sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    ]
    allowed = set(http_allowed_hosts)
    for name in ("url", "documentationUrl"):
        problems.extend(_url_problems(data.get(name), name, file, allowed))
    for name in ("observed", "updated"):
        problems.extend(_date_problems(data.get(name), name, file))
    if isinstance(data.get("evidence"), dict):
        problems.extend(_url_problems(data["evidence"].get("accessEvidenceUrl"), "evidence/accessEvidenceUrl", file, allowed))
        problems.extend(_date_problems(data["evidence"].get("observed"), "evidence/observed", file))
    return problems


def _url_problems(value: Any, name: str, file: str, http_allowed: set[str]) -> list[Rejection]:
    if not isinstance(value, str):
        return []
    parts = urlsplit(value)
    if parts.username or parts.password:
        return [Rejection(file, name, "url: credentials are not allowed in URLs")]
    if parts.scheme == "http" and parts.hostname not in http_allowed:
        return [Rejection(file, name, "url: must use https (add the host to http_allowed_hosts in site.toml only if it offers nothing else)")]
    return []


def _date_problems(value: Any, name: str, file: str) -> list[Rejection]:
    if not isinstance(value, str):
        return []
    try:
        dt.date.fromisoformat(value)
    except ValueError:
        return [Rejection(file, name, f"date: {value[:20]!r} is not a real calendar date")]
    return []


def read_record_file(path: Path, shown_as: str, *, http_allowed_hosts: Iterable[str] = ()) -> tuple[Record | None, list[Rejection]]:
    """Read and check one file; never raises for bad content."""
    try:
        raw = path.read_bytes()
    except OSError as error:
        return None, [Rejection(shown_as, "(file)", f"cannot read: {error.strerror}")]
    if len(raw) > MAX_FILE_BYTES:
        return None, [Rejection(shown_as, "(file)", f"file is {len(raw)} bytes; the limit is {MAX_FILE_BYTES}")]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        return None, [Rejection(shown_as, "(file)", f"not UTF-8 (byte {error.start})")]
    data, body, problems = parse_record_text(text, shown_as)
    if data is None:
        return None, problems
    problems = validate_record(data, shown_as, http_allowed_hosts=http_allowed_hosts)
    if problems:
        return None, problems
    return Record(data=data, body=body, file=shown_as), []


def load_content(content_dir: Path, *, http_allowed_hosts: Iterable[str] = ()) -> LoadResult:
    """Load every `*.md` below content_dir; invalid files become rejections."""
    result = LoadResult()
    root = content_dir.resolve()
    for path in sorted(content_dir.rglob("*.md")):
        shown_as = path.relative_to(content_dir).as_posix()
        if path.is_symlink() and not path.resolve().is_relative_to(root):
            result.reject([Rejection(shown_as, "(file)", "symlink points outside the content folder")])
            continue
        record, problems = read_record_file(path, shown_as, http_allowed_hosts=http_allowed_hosts)
        if record is None:
            result.reject(problems)
        else:
            result.records.append(record)
    kept, duplicates = drop_duplicates(result.records)
    result.records = kept
    result.reject(duplicates)
    return result


def drop_duplicates(records: list[Record]) -> tuple[list[Record], list[Rejection]]:
    """Keep the first of each id and of each (collection, url); reject the rest."""
    seen_ids: dict[str, str] = {}
    seen_urls: dict[tuple[str, str], str] = {}
    kept: list[Record] = []
    rejected: list[Rejection] = []
    for record in records:
        url_key = (record.data["collection"], record.data["url"])
        if record.id in seen_ids:
            rejected.append(Rejection(record.file, "id", f"duplicate id {record.id!r}, first used by {seen_ids[record.id]}"))
        elif url_key in seen_urls:
            rejected.append(Rejection(record.file, "url", f"duplicate url in collection {url_key[0]}, first used by {seen_urls[url_key]}"))
        else:
            seen_ids[record.id] = record.file
            seen_urls[url_key] = record.file
            kept.append(record)
    return kept, rejected


def record_to_markdown(data: dict[str, Any], body: str = "") -> str:
    """Serialise a record as the Markdown file the build reads back."""
    head = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000)
    text = f"---\n{head}---\n"
    return text + (body.strip("\n") + "\n" if body.strip() else "")
