"""The tools agents and the search page call, and the JSON they answer with.

`call_tool` is the single entry point: validation first (nothing heavy runs
on arguments the schema rejects), then the tool. Results are plain dicts
that `to_json` serialises identically in CPython and in Pyodide.
"""

from __future__ import annotations

import json
import unicodedata
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .datafiles import SiteUnavailable
from .engine import DIMENSIONS, Budget, Hit
from .filter_values import list_filter_values
from .names import name_index
from .schemas import FILTER_TOOL, RECORD_TOOL, SEARCH_TOOL, TOOL_NAMES, load_schema
from .terms import MAX_EXPANSIONS, MAX_POSTINGS, MAX_QUERY_TERMS, MAX_SHARD_BYTES, clauses_for, query_terms, typo_tolerant
from .validation import Problem, ToolValidator, echo

if TYPE_CHECKING:
    from .catalogue import Catalogue

DEFAULT_LIMIT = 8
OGL_ATTRIBUTION = "Contains public sector information licensed under the Open Government Licence v3.0."
RESULT_OPTIONAL = ("updated", "licence", "collections", "linkSecurity")
RESULT_FIELDS = ("id", "title", "summary", "url", "resourceType", "publisher", "accessStatus", "collection")

TOOL_DESCRIPTIONS = {
    SEARCH_TOOL: None,  # the seed schema's own description, verbatim
    RECORD_TOOL: "Fetch one catalogue record by id, with its access note, licence and provenance.",
    FILTER_TOOL: (
        "List the exact values a search_government_knowledge filter accepts (collections, resourceTypes, "
        "accessStatuses or publishers), with how many records have each, most first. Use it before filtering "
        "by publisher: publisher names are matched exactly, so look the name up here (prefix, ignoring case) "
        "and send it exactly as listed."
    ),
}


def tool_definitions() -> list[dict[str, Any]]:
    """What a page registers with WebMCP: name, description, schema, hints."""
    definitions = []
    for name in TOOL_NAMES:
        schema = load_schema(name, "input")
        definitions.append(
            {
                "name": name,
                "description": TOOL_DESCRIPTIONS[name] or schema["description"],
                "inputSchema": schema,
                "annotations": {"readOnlyHint": True, "untrustedContentHint": True},
            }
        )
    return definitions


@lru_cache(maxsize=None)
def validator(tool: str) -> ToolValidator:
    return ToolValidator(tool)


def to_json(result: dict[str, Any]) -> str:
    """The one serialisation of a result, shared by the CLI and the browser worker.

    ASCII only (every other character as a \\u escape): a lone surrogate in
    the input (valid in JSON text, not in UTF-8) cannot break the CLI's
    output or the worker's string, and no reader can mistake the encoding
    (Chromium's DevTools read tool output as Latin-1).
    """
    return json.dumps(result, ensure_ascii=True, separators=(",", ":"))


def error_result(code: str, message: str, problems: list[Problem] | None = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if problems:
        error["problems"] = [problem.as_dict() for problem in problems]
    return {"ok": False, "error": error}


def call_tool(catalogue: "Catalogue", tool: str, arguments: Any, *, prefix_last: bool = False) -> dict[str, Any]:
    if tool not in TOOL_NAMES:
        return error_result("unknown_tool", f"There is no tool {echo(tool)}. The tools are: {', '.join(TOOL_NAMES)}.")
    try:
        problems = validator(tool).problems(arguments)
    except RecursionError:
        problems = [Problem("", "type", "The arguments are nested too deeply to read. Send a flat JSON object.")]
    if problems:
        summary = "; ".join(problem.path or "(arguments)" for problem in problems[:5])
        more = getattr(problems, "unlisted", 0)
        unlisted = f" {more} more problem{'s' if more != 1 else ''} of the same kinds are not listed." if more else ""
        return error_result("invalid_arguments", f"The arguments do not match the {tool} input schema ({summary}). Each problem says what to send instead.{unlisted}", problems)
    try:
        if tool == SEARCH_TOOL:
            return search(catalogue, arguments, prefix_last=prefix_last)
        if tool == FILTER_TOOL:
            return list_filter_values(catalogue, arguments)
        return get_record(catalogue, arguments["recordId"])
    except SiteUnavailable as error:
        # A shard fetched mid-query failed its check: refuse rather than answer from partial data.
        return error_result("site_unavailable", f"The catalogue's data could not be used: {error}")


def search(catalogue: "Catalogue", arguments: dict[str, Any], *, prefix_last: bool = False) -> dict[str, Any]:
    """Answer an already validated search call."""
    engine = catalogue.engine
    notices: list[dict[str, Any]] = []
    filters: dict[str, frozenset[str]] = {}
    applied: dict[str, Any] = {}
    for name in DIMENSIONS:
        if name not in arguments:
            continue
        values = list(arguments[name])
        if not values:
            notices.append(_notice("empty_filter", f"{name} was an empty list, so it was not used as a filter. Omit the property next time.", path=f"/{name}"))
            continue
        if name == "publishers":
            values = _normalise_publishers(values, notices, engine.facets.values("publisher"))
        filters[name] = frozenset(values)
        applied[name] = values
    limit = int(arguments.get("limit", DEFAULT_LIMIT))
    applied["limit"] = limit

    terms = query_terms(arguments["query"], prefix_last=prefix_last)
    if len(terms) > MAX_QUERY_TERMS:
        left = ", ".join(term.typed[:40] for term in terms[MAX_QUERY_TERMS:])
        notices.append(_notice("query_terms_limited", f"Only the first {MAX_QUERY_TERMS} distinct search terms were used; these were left out: {left}. Send fewer, more specific words."))
        terms = terms[:MAX_QUERY_TERMS]
    mode, matches = "all_terms", engine.match([])
    ranked = engine.rank(matches, filters, limit)
    if not terms:
        notices.append(_notice("no_searchable_terms", "The query has no searchable terms (only common words or punctuation). Add a more specific word."))
    else:
        # Cheap decision first: no looser mode can find what the filters exclude.
        nothing = engine.filters_pass_nothing(filters)
        budget, modes = Budget(MAX_POSTINGS, MAX_SHARD_BYTES), _modes(terms)
        for tried, mode in enumerate(modes[:1] if nothing else modes):
            if budget.postings <= 0 or budget.shard_bytes <= 0:
                mode = modes[tried - 1]
                notices.append(_notice("work_budget_reached", f"Looser matching ({', '.join(modes[tried:]).replace('_', ' ')}) was not tried: the stricter search already used this call's work budget. Use fewer or more specific words."))
                break
            budget.dropped.clear()  # name only what the answering mode left out
            matches = engine.match(engine.within_budget(clauses_for(terms, mode), budget))
            ranked = engine.rank(matches, filters, limit)
            if ranked.total:
                break
        if nothing:
            notices.append(_notice("filters_match_nothing", "No record in the catalogue passes these filters together, whatever the query; looser matching was not tried. Remove or change a filter (facets show what the query matches without each one)."))
        if budget.dropped:
            typed = {term.indexed: term.typed for term in terms}
            words = ", ".join(dict.fromkeys(typed.get(clause.term, clause.term)[:40] for clause in budget.dropped))
            notices.append(_notice("common_terms_left_out", f"Left out of this search because they occur in too many records to weigh within the work budget: {words}. The other words decided the results; add a more specific word."))
    if matches.limited:
        words = ", ".join(term[:40] for term in matches.limited)
        notices.append(_notice("expansions_limited", f"{words}: as a prefix or with one typo this reaches more than {MAX_EXPANSIONS} indexed words, so only the {MAX_EXPANSIONS} closest were searched. Type more of the word for complete results."))
    catalogue.store.require([hit.number for hit in ranked.shown])
    return {
        "ok": True,
        "query": arguments["query"],
        "filters": applied,
        "total": ranked.total,
        "returned": len(ranked.shown),
        "match_mode": mode,
        "results": [_result(catalogue, hit) for hit in ranked.shown],
        "facets": engine.facet_counts(matches, filters),
        "notices": notices,
    }


def _modes(terms: list) -> list[str]:
    """Strict first, then looser: any term (when there are several), then typo-tolerant."""
    modes = ["all_terms"]
    if len(terms) > 1:
        modes.append("any_term")
    if any(map(typo_tolerant, terms)):
        modes.append("fuzzy")
    return modes


def _normalise_publishers(values: list[str], notices: list[dict[str, Any]], names: list[str]) -> list[str]:
    catalogue_names = name_index(names)
    normalised = []
    for index, value in enumerate(values):
        name = unicodedata.normalize("NFC", value).strip()
        if name != value:
            notices.append(_notice("publisher_normalised", f"publishers[{index}] {echo(value)} was read as {echo(name)} (Unicode NFC, surrounding spaces removed).", path=f"/publishers/{index}"))
        if name not in catalogue_names.exact:
            close = catalogue_names.closest(name)
            hint = f" Closest exact names: {'; '.join(close)}." if close else ""
            notices.append(_notice("unknown_publisher", f"No record has the publisher {echo(name)}; publisher names are matched exactly.{hint}", path=f"/publishers/{index}", suggestions=close))
        normalised.append(name)
    return normalised


def _notice(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"code": code, "message": message, **extra}


def _result(catalogue: "Catalogue", hit: Hit) -> dict[str, Any]:
    record = catalogue.store.row(hit.number)
    result = {field: record[field] for field in RESULT_FIELDS}
    result["score"] = hit.score
    result["recordUrl"] = catalogue.record_url(record["id"])
    result.update({field: record[field] for field in RESULT_OPTIONAL if field in record})
    return result


def get_record(catalogue: "Catalogue", record_id: str) -> dict[str, Any]:
    record = catalogue.store.find(record_id)
    if record is None:
        return error_result("not_found", f"No record has the id {echo(record_id)}. Search with {SEARCH_TOOL} and use the id of one of its results.")
    full = {key: value for key, value in record.items() if key != "source"}
    full["recordUrl"] = catalogue.record_url(record_id)
    provenance: dict[str, Any] = {"source": record.get("source", {"kind": "curated"})}
    for field in ("observed", "licence", "accessNote"):
        if field in record:
            provenance[field] = record[field]
    if _needs_attribution(record):
        provenance["attribution"] = OGL_ATTRIBUTION
    full["provenance"] = provenance
    return {"ok": True, "record": full}


def _needs_attribution(record: dict[str, Any]) -> bool:
    imported = record.get("source", {}).get("kind", "curated") != "curated"
    return imported or "open government licence" in record.get("licence", "").lower()
