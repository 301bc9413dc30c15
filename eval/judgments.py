"""The judged query set in eval/queries.toml: read, checked, and described.

Each query names a real need, the intent it serves, optional tags (typo,
acronym, ambiguous, no-answer, and for queries phrased as visitors and
agents type them: question, place, year, near-me), optional tool filters and grades 0-3 keyed
by record URL (see eval/README.md for the scale). A mistake in the file is
reported with the query's id and the field, never skipped.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from relevance import RELEVANT, normalise_grades

QUERIES = Path(__file__).resolve().parent / "queries.toml"
# Queries written and graded as visitors and agents phrase them, by a helper who never saw our
# ranking (eval/README.md): judged like the rest, and labelled `visitor` in the tables.
# Two files, in order, so that neither passes 2 MB (the second holds batch 11 on).
VISITORS = (QUERIES.with_name("visitors.toml"), QUERIES.with_name("visitors-2.toml"))
# The share of queries held out as the test part: chosen by a hash of the id, never by hand, so
# no one picks which queries the rules are tuned on (eval/README.md, "Two parts").
TEST_SHARE = 0.45
INTENTS = ("citizen", "developer", "statistics", "land-property", "organisation")
# `sentence`: a need sent whole, as an in-page agent words a visitor's request ("I need the
# official dataset of ..."), not as the words someone types into a search box.
TAGS = ("typo", "acronym", "ambiguous", "no-answer", "question", "place", "year", "near-me", "sentence")
SCHEMA = (
    Path(__file__).resolve().parents[1]
    / "python_pkg"
    / "govsearch"
    / "schemas"
    / "search_government_knowledge.input.json"
)
FILTERS = ("collections", "resourceTypes", "accessStatuses", "publishers")
ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


class JudgmentError(ValueError):
    pass


@dataclass(frozen=True)
class Query:
    id: str
    query: str
    intent: str
    need: str
    tags: tuple[str, ...] = ()
    filters: dict[str, list[str]] = field(default_factory=dict)
    grades: dict[str, int] = field(default_factory=dict)  # normalised URL -> grade
    visitor: bool = False  # from visitors.toml or visitors-2.toml

    @property
    def part(self) -> str:
        """`test` or `dev`, by a hash of the id: the test part's per-query results are never written."""
        draw = int(hashlib.sha256(self.id.encode()).hexdigest()[:8], 16) / 2**32
        return "test" if draw < TEST_SHARE else "dev"

    @property
    def answerable(self) -> bool:
        return any(grade >= RELEVANT for grade in self.grades.values())

    def labels(self) -> list[str]:
        """Intent, tags and `filter` when the call carries filters: the rows of the per-intent table."""
        return [self.intent, *self.tags, *(["filter"] if self.filters else []), *(["visitor"] if self.visitor else [])]

    def arguments(self, limit: int = 10) -> dict[str, Any]:
        """The tool call, exactly as an agent would send it."""
        return {"query": self.query, **self.filters, "limit": limit}


def load_queries(path: Path = QUERIES) -> list[Query]:
    data = tomllib.loads(path.read_text("utf-8"))
    queries = [_query(index, raw, path in VISITORS) for index, raw in enumerate(data.get("query", []))]
    seen: set[str] = set()
    for query in queries:
        if query.id in seen:
            raise JudgmentError(f"{path.name}: query id {query.id!r} is used twice")
        seen.add(query.id)
    return queries


def load_all() -> list[Query]:
    """Every judged query: queries.toml, then the visitors' files that exist (ids unique across all)."""
    queries = [query for path in judged_files() for query in load_queries(path)]
    ids = [query.id for query in queries]
    twice = sorted({qid for qid in ids if ids.count(qid) > 1})
    if twice:
        names = ", ".join(path.name for path in judged_files())
        raise JudgmentError(f"query id(s) {twice} used in more than one of {names}")
    return queries


def digest() -> str:
    """A short digest of the judged files, so a result names the judgments it was scored on."""
    return hashlib.sha256(b"".join(path.read_bytes() for path in judged_files())).hexdigest()[:12]


def judged_files() -> list[Path]:
    """queries.toml, then the visitors' files that exist, in order."""
    return [QUERIES, *(path for path in VISITORS if path.is_file())]


def _query(index: int, raw: dict[str, Any], visitor: bool = False) -> Query:
    where = f"query {raw.get('id', f'#{index + 1}')!r}"
    for name in ("id", "query", "intent", "need"):
        if not isinstance(raw.get(name), str) or not raw[name].strip():
            raise JudgmentError(f"{where}: `{name}` must be a non-empty string")
    if not ID.match(raw["id"]):
        raise JudgmentError(f"{where}: `id` must be a lower-case slug")
    if raw["intent"] not in INTENTS:
        raise JudgmentError(f"{where}: `intent` must be one of {', '.join(INTENTS)}")
    unknown = set(raw) - {"id", "query", "intent", "need", "tags", "filters", "grades"}
    if unknown:
        raise JudgmentError(f"{where}: unknown field(s) {sorted(unknown)}")
    tags = tuple(raw.get("tags", ()))
    if not set(tags) <= set(TAGS):
        raise JudgmentError(f"{where}: `tags` may only hold {', '.join(TAGS)}")
    filters = _filters(where, raw.get("filters", {}))
    grades = raw.get("grades", {})
    if any(not isinstance(g, int) or isinstance(g, bool) or not 0 <= g <= 3 for g in grades.values()):
        raise JudgmentError(f"{where}: every grade must be an integer 0-3")
    try:
        grades = normalise_grades(grades)
    except ValueError as error:
        raise JudgmentError(f"{where}: {error}") from None
    query = Query(raw["id"], raw["query"], raw["intent"], raw["need"], tags, filters, grades, visitor)
    if ("no-answer" in tags) == query.answerable:
        raise JudgmentError(f"{where}: a query is tagged no-answer exactly when no URL is graded {RELEVANT} or more")
    return query


def _filters(where: str, filters: dict[str, Any]) -> dict[str, list[str]]:
    enums = json.loads(SCHEMA.read_text("utf-8"))["$defs"]
    allowed = {
        "collections": enums["knowledgeCollection"]["enum"],
        "resourceTypes": enums["resourceType"]["enum"],
        "accessStatuses": enums["accessStatus"]["enum"],
    }
    for name, values in filters.items():
        if name not in FILTERS:
            raise JudgmentError(f"{where}: unknown filter `{name}` (the tool's filters are {', '.join(FILTERS)})")
        if not isinstance(values, list) or not values or not all(isinstance(v, str) for v in values):
            raise JudgmentError(f"{where}: filter `{name}` must be a non-empty list of strings")
        bad = [v for v in values if name in allowed and v not in allowed[name]]
        if bad:
            raise JudgmentError(f"{where}: filter `{name}` has values the tool does not accept: {bad}")
    return {name: list(values) for name, values in filters.items()}
