"""Read, check and write catalogue records (Markdown with YAML front matter).

Every input file ends up either as a `Record` or as one or more `Rejection`s
naming the file, the field and the reason, so a build can account for all of
its input. See docs/record-format.md for the format.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import fastjsonschema
import jsonschema
import yaml

from .field_checks import Rejection, date_problems, flagged_host, http_unmarked, url_problems
from .quality import QualityLog

MAX_FILE_BYTES = 256 * 1024
# Values that repeat across records (a few hundred publishers, a handful of
# types and statuses, dates): one string each, shared, instead of one per record.
# With the field names, also shared, a record held in memory is about a third
# smaller (4.2 to 2.7 KB for a simulated record): 450 MB less at 300,000 records.
SHARED_VALUES = ("collection", "resourceType", "accessStatus", "publisher", "licence", "observed", "updated", "kind")
TEXT_FIELDS = ("title", "summary", "publisher", "accessNote", "licence")
# Hostile-input limits. A record is a flat mapping with a few small nested
# objects, so anything much bigger or deeper is not a record: YAML aliases can
# expand a small file into billions of values ("billion laughs"), and deep
# nesting exhausts Python's recursion limit in the parser or the validator.
MAX_VALUES = 10_000
MAX_DEPTH = 8
# The id names a folder (/records/<id>/). The schema pattern is applied with
# re.search, where `$` also matches before a final newline, so "x\n" would
# pass it; the id must match this in full.
ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]*")
# C0 control characters (other than tab and newlines) and DEL have no place in
# a record; YAML forbids them raw but its "\0"-style escapes can still produce
# them. (C1 characters such as U+0080 are left alone: real GOV.UK exports hold
# them in organisation names.)
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


# Source kinds we write (docs/record-format.md): only `curated` claims a person checked
# the facts (the `reviewed` flag); `annotated` is an export's facts with our words.
AUTHORED_KINDS = frozenset({"curated", "annotated"})


@dataclass(frozen=True)
class Record:
    """A valid record: its front matter fields, Markdown body and origin."""

    data: dict[str, Any]
    body: str
    file: str

    @property
    def id(self) -> str:
        return self.data["id"]

    @property
    def kind(self) -> str:  # `curated`, `annotated` or the importer's
        return self.data.get("source", {}).get("kind", "curated")

    @property
    def authored(self) -> bool:
        """Written by our own authors rather than imported: a curated record (one
        without a `source` is) or an annotated one (an export's facts with our
        summary and keywords). Either wins a merge with imports."""
        return self.kind in AUTHORED_KINDS


@dataclass
class LoadResult:
    records: list[Record] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)
    # Files that produced rejections, so counts are per input not per problem.
    rejected_files: set[str] = field(default_factory=set)
    imports: list[dict[str, Any]] = field(default_factory=list)  # one report per imported source
    quality: QualityLog = field(default_factory=QualityLog)  # what each data-quality rule changed
    moved: dict[str, str] = field(default_factory=dict)  # merged record id -> the record it is now part of
    curated_inputs: int = 0  # Markdown files read from the content folder
    curated_built: int = 0  # ... of which became records (the rest rejected)
    annotated_inputs: int = 0  # Markdown files read from the annotations folder (absorb)
    annotated_built: int = 0  # ... of which became records
    duplicates_after_merge: int = 0  # records refused once every source was merged (same id or url)

    def absorb(self, other: LoadResult) -> None:
        """Take in the annotations folder's records, rejections and counts."""
        self.records += other.records
        self.rejected += other.rejected
        self.rejected_files |= other.rejected_files
        self.annotated_inputs += other.curated_inputs
        self.annotated_built += other.curated_built

    def reject(self, problems: Iterable[Rejection]) -> None:
        for problem in problems:
            self.rejected.append(problem)
            self.rejected_files.add(problem.file)


def _without_timestamps(loader: type) -> type:
    """`loader` leaving dates as the strings the author wrote (no datetime.date values)."""
    loader.yaml_implicit_resolvers = {
        key: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    return loader


@_without_timestamps
class _StringDateLoader(yaml.SafeLoader):
    """SafeLoader that leaves dates as the strings the author wrote."""


# libyaml's parser (PyYAML's C loader, same constructor and resolver) reads
# front matter about four times faster than the pure-Python one: at 300,000
# records that is the difference between minutes and an hour. Where libyaml is
# missing the pure-Python loader does all the work.
_FastStringDateLoader: type | None = (
    _without_timestamps(type("_FastStringDateLoader", (yaml.CSafeLoader,), {}))
    if hasattr(yaml, "CSafeLoader")
    else None
)


def load_front_matter(head: str) -> Any:
    """The YAML front matter as Python values, dates kept as strings.

    The C loader parses; anything it refuses is parsed again by the pure-Python
    loader, so a rejection names the same line and problem with or without libyaml.
    """
    if _FastStringDateLoader is not None:
        try:
            return yaml.load(head, Loader=_FastStringDateLoader)
        except (yaml.YAMLError, RecursionError):
            pass
    return yaml.load(head, Loader=_StringDateLoader)


@lru_cache(maxsize=1)
def record_schema() -> dict[str, Any]:
    text = resources.files("govsearch_build").joinpath("schemas/record.schema.json").read_text("utf-8")
    return json.loads(text)


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(record_schema())


@lru_cache(maxsize=1)
def _fast_check() -> Any:
    """A compiled check that a record is valid: about 20 times faster than
    jsonschema on the full estate's 14,000 imported records, most of them valid
    with many links. jsonschema still names every problem of an invalid one."""
    return fastjsonschema.compile(record_schema(), use_default=False)


def _schema_errors(data: dict[str, Any]) -> list[jsonschema.ValidationError]:
    try:
        _fast_check()(data)
        return []
    except fastjsonschema.JsonSchemaException:
        return sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))


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
    # CRLF (or CR) files: the front matter parses either way, but the body
    # would otherwise keep its carriage returns in the page and search data.
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    try:
        head, body = split_front_matter(text)
        data = load_front_matter(head)
    except ValueError as error:
        return None, "", [Rejection(file, "(front matter)", str(error))]
    except RecursionError:
        # Hostile input: thousands of nested [ or { overflow the YAML parser.
        return None, "", [Rejection(file, "(front matter)", "malformed YAML: nested too deeply")]
    except yaml.YAMLError as error:
        where = getattr(error, "problem_mark", None)
        line = f" at line {where.line + 2}" if where is not None else ""
        problem = getattr(error, "problem", None) or str(error)
        return None, "", [Rejection(file, "(front matter)", f"malformed YAML{line}: {problem}")]
    if not isinstance(data, dict):
        return None, "", [Rejection(file, "(front matter)", "the front matter must be a mapping of field: value")]
    too_big = _too_big(data)
    if too_big:
        return None, "", [Rejection(file, "(front matter)", too_big)]
    return normalise(data), body.strip("\n"), []


def _too_big(data: Any) -> str | None:
    """Why the parsed front matter is too large or deep to be a record, else None.

    Walks at most MAX_VALUES values, so an alias bomb is refused quickly
    instead of being expanded by normalise() and the validator.
    """
    seen = 0
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        seen += 1
        if seen > MAX_VALUES:
            return f"more than {MAX_VALUES} values (YAML aliases or anchors expanding?); a record is far smaller"
        if depth > MAX_DEPTH:
            return f"nested more than {MAX_DEPTH} levels deep; a record is far shallower"
        if isinstance(value, dict):
            stack.extend((item, depth + 1) for item in value.values())
        elif isinstance(value, (list, tuple, set)):
            stack.extend((item, depth + 1) for item in value)
    return None


def normalise(value: Any) -> Any:
    """NFC-normalise every string and trim text fields, so exact matches are stable."""
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, list):
        return [normalise(item) for item in value]
    if isinstance(value, dict):
        out = {sys.intern(str(key)): normalise(item) for key, item in value.items()}
        for name in TEXT_FIELDS:
            if isinstance(out.get(name), str):
                out[name] = " ".join(out[name].split())
        for name in SHARED_VALUES:
            if isinstance(out.get(name), str):
                out[name] = sys.intern(out[name])
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
    # Matched by the pattern itself: through "$ref" the schema path names the
    # referring property (url, observed...), never "$defs/webUrl" or "date".
    definitions = record_schema()["$defs"]
    if rule == "pattern" and error.validator_value == definitions["webUrl"]["pattern"]:
        return "must be an absolute https URL without credentials or spaces"
    if rule == "pattern" and error.validator_value == definitions["date"]["pattern"]:
        return "must be a date written YYYY-MM-DD"
    if rule == "additionalProperties":
        return "unknown field (see docs/record-format.md for the allowed fields)"
    message = error.message
    return message if len(message) <= 200 else message[:200] + "..."


def validate_record(data: dict[str, Any], file: str, *, http_allowed_hosts: Iterable[str] = ()) -> list[Rejection]:
    """All problems with one record's front matter, each naming its field."""
    problems = [
        Rejection(file, _path_of(error), f"{error.validator}: {_explain(error)}") for error in _schema_errors(data)
    ]
    record_id = data.get("id")
    if (
        isinstance(record_id, str)
        and not ID_PATTERN.fullmatch(record_id)
        and not any(p.field == "id" for p in problems)
    ):
        problems.append(Rejection(file, "id", "pattern: must be a lower-case slug (a-z, 0-9, -) with nothing after it"))
    problems.extend(_control_character_problems(data, file))
    allowed = set(http_allowed_hosts)
    for name in ("url", "documentationUrl"):
        problems.extend(url_problems(data.get(name), name, file, allowed))
    if not problems and http_unmarked(data):
        problems.append(Rejection(file, "linkSecurity", "a plain-http url must be marked http-only (pages say so)"))
    for number, link in enumerate(data.get("links") or []):
        if isinstance(link, dict):
            # a link marked http-only is plain http on purpose (UrlCleaner.link), on any host
            problems.extend(url_problems(link.get("url"), f"links/{number}/url", file, allowed | flagged_host(link)))
    for name in ("observed", "updated"):
        problems.extend(date_problems(data.get(name), name, file))
    if isinstance(data.get("evidence"), dict):
        problems.extend(
            url_problems(data["evidence"].get("accessEvidenceUrl"), "evidence/accessEvidenceUrl", file, allowed)
        )
        problems.extend(date_problems(data["evidence"].get("observed"), "evidence/observed", file))
    return problems


def _control_character_problems(data: Any, file: str, where: str = "") -> list[Rejection]:
    """One rejection per field holding a control character (text is plain text)."""
    if isinstance(data, str):
        match = CONTROL_CHARACTERS.search(data)
        return (
            [Rejection(file, where or "(front matter)", f"control character U+{ord(match.group()):04X} is not allowed")]
            if match
            else []
        )
    if isinstance(data, dict):
        items = ((f"{where}/{key}" if where else str(key), value) for key, value in data.items())
    elif isinstance(data, list):
        items = ((f"{where}/{number}", value) for number, value in enumerate(data))
    else:
        return []
    return [problem for path, value in items for problem in _control_character_problems(value, file, path)]


def read_record_file(
    path: Path, shown_as: str, *, http_allowed_hosts: Iterable[str] = ()
) -> tuple[Record | None, list[Rejection]]:
    """Read and check one file; never raises for bad content."""
    try:
        # Only regular files: opening a FIFO named *.md would block the build
        # forever, and a device or directory is not a record.
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            return None, [Rejection(shown_as, "(file)", "not a regular file")]
        if info.st_size > MAX_FILE_BYTES:
            return None, [Rejection(shown_as, "(file)", f"file is {info.st_size} bytes; the limit is {MAX_FILE_BYTES}")]
        with open(path, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)  # never more than the limit, even if the file grows
    except OSError as error:
        return None, [Rejection(shown_as, "(file)", f"cannot read: {error.strerror or error}")]
    if len(raw) > MAX_FILE_BYTES:
        return None, [
            Rejection(shown_as, "(file)", f"file is over {MAX_FILE_BYTES} bytes; the limit is {MAX_FILE_BYTES}")
        ]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        return None, [Rejection(shown_as, "(file)", f"not UTF-8 (byte {error.start})")]
    data, body, problems = parse_record_text(text, shown_as)
    if data is None:
        return None, problems
    problems = validate_record(data, shown_as, http_allowed_hosts=http_allowed_hosts)
    hazard = markdown_hazard(body)
    if hazard:
        problems.append(Rejection(shown_as, "body", hazard))
    if problems:
        return None, problems
    return Record(data=data, body=body, file=shown_as), []


# Python-Markdown recurses once per nested list or quote level and slows
# quadratically on '[': a 2 KB body can crash the build, a 200 KB one stall
# it for hours. No real record body comes near these limits.
MAX_BODY_BRACKETS = 500
MAX_BLOCK_NESTING = 20
_NESTED_BLOCKS = re.compile(r"^[ \t]*(?:(?:[-*+>]|[0-9]+[.)])[ \t]*){" + str(MAX_BLOCK_NESTING) + ",}", re.M)
_DEEP_INDENT = re.compile(r"^[ \t]{200,}\S", re.M)


def markdown_hazard(body: str) -> str | None:
    """Why a Markdown body is unsafe to render, or None."""
    if body.count("[") > MAX_BODY_BRACKETS:
        return f"more than {MAX_BODY_BRACKETS} '[' characters: too many to render as Markdown"
    if _NESTED_BLOCKS.search(body) or _DEEP_INDENT.search(body):
        return f"lists or quotes nested more than {MAX_BLOCK_NESTING} levels deep"
    return None


def load_content(content_dir: Path, *, http_allowed_hosts: Iterable[str] = (), label: str = "") -> LoadResult:
    """Load every `*.md` below content_dir; invalid files become rejections. Each
    file is named by its path below content_dir, after `label` ("annotations/")."""
    result = LoadResult()
    root = content_dir.resolve()
    for path in sorted(content_dir.rglob("*.md")):
        shown_as = label + path.relative_to(content_dir).as_posix()
        # Checked for every file, not only for the last path component being a
        # symlink, so a symlinked folder (should a glob ever follow one) cannot
        # bring in files from elsewhere. A symlink that stays inside the folder
        # is read like any file: it is an input of its own, and if it aliases
        # another record one of the two is rejected as a duplicate id.
        if not path.resolve().is_relative_to(root):
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
    result.curated_inputs = sum(1 for _ in content_dir.rglob("*.md"))
    result.curated_built = len(kept)
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
            rejected.append(
                Rejection(record.file, "id", f"duplicate id {record.id!r}, first used by {seen_ids[record.id]}")
            )
        elif url_key in seen_urls:
            rejected.append(
                Rejection(
                    record.file, "url", f"duplicate url in collection {url_key[0]}, first used by {seen_urls[url_key]}"
                )
            )
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
