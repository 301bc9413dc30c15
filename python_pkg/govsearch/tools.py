"""The tools agents and the search page call, and the JSON they answer with.

`call_tool` is the single entry point: validation first (nothing heavy runs
on arguments the schema rejects), then the tool. Results are plain dicts
that `to_json` serialises identically in CPython and in Pyodide.
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from typing import TYPE_CHECKING, Any

from . import place_notices, ranking
from .attribution import attribution, citation
from .data_reader import SiteUnavailable
from .engine import DIMENSIONS, SCORE_PLACES, Budget
from .filter_values import list_filter_values
from .loaders import gather
from .names import name_index
from .ranking.nearby import as_written, asks_for_here, places_respelt, respelt_text
from .ranking.query import Term, clauses_for, query_terms
from .terms import LEADING_TERMS, MAX_EXPANSIONS, MAX_QUERY_TERMS, Clause
from .tool_schemas import COLLECTIONS, FILTER_TOOL, RECORD_TOOL, SEARCH_TOOL, TOOL_NAMES, load_schema
from .validation import Problem, ToolValidator, echo

if TYPE_CHECKING:
    from .catalogue import Catalogue

DEFAULT_LIMIT = 8
RESULT_OPTIONAL = ("updated", "licence", "collections", "linkSecurity", "documentationUrl")
RESULT_FIELDS = ("id", "title", "summary", "url", "resourceType", "publisher", "accessStatus", "collection")

# Human-readable names (MCP's and WebMCP's tool `title`): the same in every list of the tools.
TOOL_TITLES = {
    SEARCH_TOOL: "Search UK government knowledge",
    RECORD_TOOL: "Read one catalogue record, with its citation",
    FILTER_TOOL: "List the exact values a search filter accepts",
}
TOOL_DESCRIPTIONS = {
    SEARCH_TOOL: None,  # the seed schema's own description, verbatim, then SEARCH_NOTE
    RECORD_TOOL: (
        "Fetch one catalogue record by id, with its access note, licence and provenance, and a citation "
        "(the resource, this record's page, the data snapshot, the licence's attribution) to give with what you use."
    ),
    FILTER_TOOL: (
        "List the exact values a search_government_knowledge filter accepts (collections, resourceTypes, "
        "accessStatuses or publishers), with how many records have each, most first. Use it before filtering "
        "by publisher: publisher names are matched exactly, so look the name up here (prefix, ignoring case) "
        "and send it exactly as listed."
    ),
}
SEARCH_NOTE = (
    " Results come strictest match first (each result's matchMode), with the fields that matched the query's words"
    " (matched) and the ranking rules that applied (reasons). A score only orders results within one answer;"
    " it is not a trust, quality or authority score. Notices say what an answer could not do: place_not_named"
    " means the query asked about the user's own area without naming it (ask them for a town or council),"
    " place_not_matched that no result is about the place named."
)


def tool_definitions() -> list[dict[str, Any]]:
    """What a page registers with WebMCP (and tools.json lists): name, title, description, schema, hints."""
    definitions = []
    for name in TOOL_NAMES:
        schema = load_schema(name, "input")
        definitions.append(
            {
                "name": name,
                "title": TOOL_TITLES[name],
                "description": TOOL_DESCRIPTIONS[name] or schema["description"] + SEARCH_NOTE,
                "inputSchema": schema,
                "annotations": {"readOnlyHint": True, "untrustedContentHint": True},
            }
        )
    return definitions


@cache
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


def call_tool(
    catalogue: Catalogue, tool: str, arguments: Any, *, prefix_last: bool = False, offset: int = 0
) -> dict[str, Any]:
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
        return error_result(
            "invalid_arguments",
            f"The arguments do not match the {tool} input schema ({summary}). Each problem says what to send instead.{unlisted}",
            problems,
        )
    try:
        if tool == SEARCH_TOOL:
            return search(catalogue, arguments, prefix_last=prefix_last, offset=offset)
        if tool == FILTER_TOOL:
            return list_filter_values(catalogue, arguments)
        return get_record(catalogue, arguments["recordId"])
    except SiteUnavailable as error:
        # A shard fetched mid-query failed its check: refuse rather than answer from partial data.
        return error_result("site_unavailable", f"The catalogue's data could not be used: {error}")


def search(
    catalogue: Catalogue, arguments: dict[str, Any], *, prefix_last: bool = False, offset: int = 0
) -> dict[str, Any]:
    """Answer an already validated search call.

    `offset` is the search page's own "show more" (people only: it is not in
    the tool's schema, so agents never send it): the results from that
    place in the ranking, in steps of the largest limit (ranking.answer).
    """
    engine = catalogue.engine
    notices: list[dict[str, Any]] = []
    filters, applied = _filters(arguments, engine, notices)
    limit = int(arguments.get("limit", DEFAULT_LIMIT))
    applied["limit"] = limit
    terms, respelt = _limited_terms(catalogue, arguments["query"], prefix_last, notices)
    here = asks_for_here(arguments["query"], terms, filters)
    placed = place_notices.before_search(arguments["query"], here)
    notices += placed
    found = _ranked(catalogue, arguments["query"], terms, filters, offset, notices, here)
    shown = found.ranked[:limit]
    catalogue.store.require([number for item in shown for number in (item.number, *item.others)])
    tiers = {mode: (tier_terms, clauses) for mode, tier_terms, clauses in found.tiers}
    results, corrections = [], {}
    # The words the top result was found by; a kind asked for (ranking.kinds) leads whatever it
    # matched, so the words are the next result's ("which department handles immigraton").
    top = next((item for item in found.ranked if "kind_asked_for" not in item.reasons), None)
    for item in shown:
        result, corrected = _result(catalogue, item, *tiers[item.mode])
        results.append(result)
        if item is top and item.mode == "fuzzy" and not offset:
            corrections = corrected
    # Spelt from the default page's rows, so "Show more" asking again with a larger limit keeps it.
    found.suggestion = ranking.suggestion(
        arguments["query"],
        corrections,
        results[:DEFAULT_LIMIT],
        {typed: as_written(place) for typed, place in respelt.items()},
    )
    notices += place_notices.after_search(catalogue, arguments["query"], terms, found, placed, offset)
    answer = {
        "ok": True,
        "query": arguments["query"],
        "filters": applied,
        "total": found.total,
        # "gte": a work budget left records unreached (looser modes untried,
        # expansions cut), so more records match than `total` counts.
        "totalRelation": "gte" if found.skipped or found.limited else "eq",
        "collectionsSearched": _collections_searched(engine, filters),
        "returned": len(shown),
        "match_mode": found.mode,
        "results": results,
        "facets": engine.facet_counts(found.matches, filters),
        "notices": notices,
    }
    if found.suggestion:
        answer["suggestion"] = found.suggestion
    if offset:
        answer["offset"] = offset
    return answer


def _collections_searched(engine: Any, filters: dict[str, frozenset[str]]) -> list[str]:
    """The catalogue's collections this search looked in (those the collections filter names, if any), in the schema's order."""
    held = set(engine.facets.values("collection"))
    wanted = filters.get("collections", held)
    return [collection for collection in COLLECTIONS if collection in held and collection in wanted]


def _limited_terms(
    catalogue: Catalogue, query: str, prefix_last: bool, notices: list[dict[str, Any]]
) -> tuple[list[Term], dict[str, str]]:
    """The query's search terms, at most MAX_QUERY_TERMS of them (the work budget); a notice names
    what was cut. A misspelt place is read as the place (nearby.places_respelt): the words respelt."""
    search_terms = catalogue.ranking.search_terms
    terms = query_terms(query, prefix_last=prefix_last, search_terms=search_terms)
    respelt = places_respelt(terms, search_terms.places, catalogue.engine.matcher.has_prefix)
    if respelt:
        terms = query_terms(respelt_text(query, respelt), prefix_last=prefix_last, search_terms=search_terms)
    if len(terms) > MAX_QUERY_TERMS:
        left = ", ".join(term.typed[:40] for term in terms[MAX_QUERY_TERMS:])
        notices.append(
            _notice(
                "query_terms_limited",
                f"Only the first {MAX_QUERY_TERMS} distinct search terms were used; these were left out: {left}. Send fewer, more specific words.",
            )
        )
        terms = terms[:MAX_QUERY_TERMS]
    if not terms:
        notices.append(
            _notice(
                "no_searchable_terms",
                "The query has no searchable terms (only common words or punctuation). Add a more specific word.",
            )
        )
    return terms, respelt


def _ranked(
    catalogue: Catalogue,
    query: str,
    terms: list[Term],
    filters: dict[str, frozenset[str]],
    offset: int,
    notices: list[dict[str, Any]],
    here: bool,
) -> ranking.Answer:
    """Both ranking stages (ranking.answer) for the terms, the filters and the page's offset;
    `here`: the query asks about the asker's own place, naming none (nearby.asks_for_here)."""
    engine = catalogue.engine
    if not terms:
        return ranking.Answer(total=0, mode="all_terms", ranked=[], tiers=[], matches=engine.match([]))
    key = ranking.identifier_key(query)
    every = clauses_for(terms, "all_terms")
    # One round of downloads for the identifier shard and the words' postings (a town's area's too).
    identified, kept, _ = gather(
        lambda: catalogue.store.identified(key) if key else [],
        lambda: engine.within_budget(every, Budget()),
        lambda: ranking.read_areas(engine, terms),
    )
    name = None if key else ranking.name_key(query)
    if name and _may_name_a_body(engine, query, terms, every, kept):
        identified = catalogue.store.identified(name)
    # Cheap decision first: no looser mode can find what the filters exclude.
    nothing = engine.filters_pass_nothing(filters)
    state = ranking.QueryState(
        engine,
        catalogue.ranking,
        terms,
        filters,
        sorted(identified),
        strict_only=nothing,
        start=offset,
        here=here,
        series=catalogue.store.series_at_hand(),
        rows_missing=catalogue.store.rows_missing,
        newest_edition=catalogue.store.newest_edition,
        newest=catalogue.store.newest_at_hand(),
    )
    found = ranking.answer(state, lambda numbers: _rows(catalogue, numbers))
    if nothing:
        notices.append(
            _notice(
                "filters_match_nothing",
                "No record in the catalogue passes these filters together, whatever the query; looser matching was not tried. Remove or change a filter (facets show what the query matches without each one).",
            )
        )
    notices += _budget_notices(found)
    notices += _words_not_found(engine, terms, found)
    return found


def _may_name_a_body(engine: Any, query: str, terms: list[Term], every: list[Clause], kept: list[Clause]) -> bool:
    """Whether a query with a name key (ranking.name_key) may be an organisation's whole name,
    worth a lookup: two words or more typed (a common word alone reads no postings' columns,
    which titles are read from), none still being typed, none the work budget left out
    (`kept` of `every` clause), and an organisation's title holding every one of them."""
    return (
        len(query.split()) > 1
        and not any(term.prefix for term in terms)
        and len(kept) == len(every)
        and ranking.titles_a_body(engine, every)
    )


def _words_not_found(engine: Any, terms: list[Term], found: ranking.Answer) -> list[dict[str, Any]]:
    """A notice naming the query's words no record holds, when the answer matched only some
    of its words: "No record matches all of your words" alone read as if each matched some
    ("xyzzy qwerty" showed 29 records holding neither, found by "qwerty" read as "query");
    or when it found nothing, which then says why ("ULEZ": try the words it stands for)."""
    if found.ranked and found.mode != "any_term":
        return []
    # An intent word only ranks, and a question's opening ("who", read from "which department")
    # is no word a record holds: neither is a word the answer failed to find.
    words = [term for term in terms if not term.prefix and not term.intent]
    held = {term.typed: engine.matcher.frequency(term.indexed) > 0 for term in words}
    missing = [word for word, somewhere in held.items() if not somewhere]
    if not missing:
        return []
    named = " or ".join(f"‘{word[:40]}’" for word in missing)
    message = f"No record in the catalogue holds {named}."
    if found.ranked and not any(held.values()):  # then found by words spelt like them ("qwerty": "query")
        message += " These results hold words spelt like yours."
    return [_notice("words_not_found", message)]


def _filters(
    arguments: dict[str, Any], engine: Any, notices: list[dict[str, Any]]
) -> tuple[dict[str, frozenset[str]], dict[str, Any]]:
    """The call's filters (dimension -> values), and as the answer echoes them;
    an empty list is no filter, and says so."""
    filters: dict[str, frozenset[str]] = {}
    applied: dict[str, Any] = {}
    for name in DIMENSIONS:
        if name not in arguments:
            continue
        values = list(arguments[name])
        if not values:
            notices.append(
                _notice(
                    "empty_filter",
                    f"{name} was an empty list, so it was not used as a filter. Omit the property next time.",
                    path=f"/{name}",
                )
            )
            continue
        if name == "publishers":
            values = _normalise_publishers(values, notices, engine.facets.values("publisher"))
        filters[name] = frozenset(values)
        applied[name] = values
    return filters, applied


# What each work budget (terms.MAX_POSTINGS, MAX_EXPANSIONS) left out, in words: {} is the list of what it cut.
_BUDGET_NOTICES = (
    (
        "skipped",
        "work_budget_reached",
        "Looser matching ({}) was not tried: the stricter search already used this call's work budget. Use fewer or more specific words.",
    ),
    (
        "dropped",
        "common_terms_left_out",
        "{} in too many records to rank them by, so the search left {} out: your other words decided the results. A more specific word may help.",
    ),
    (
        "later",
        "query_terms_limited",
        f"{{}}: words after the first {LEADING_TERMS} distinct search terms are searched only while the work budget lasts, and it did not: these were left out. Send fewer, more specific words.",
    ),
    (
        "limited",
        "expansions_limited",
        f"{{}}: as a prefix or with one typo this reaches more than {MAX_EXPANSIONS} indexed words, so only the {MAX_EXPANSIONS} closest were searched. Type more of the word for complete results.",
    ),
)


def _budget_notices(found: ranking.Answer) -> list[dict[str, Any]]:
    """A notice for each work budget that cut this answer's work."""
    notices = []
    # Expansions are cut per index term (a stem such as "popul", a group token such as "ons_"):
    # the notice names the word as the person typed it.
    typed = {
        key: term.typed
        for _, terms, clauses in found.tiers
        for term, clause in zip(terms, clauses)
        for key in (term.indexed, clause.term)
    }
    for field, code, message in _BUDGET_NOTICES:
        cut = getattr(found, field)
        if cut:
            if field == "limited":
                cut = list(dict.fromkeys(typed.get(term, term) for term in cut))
            if field == "dropped":  # a visitor read "so many records hold them ...: council" (one word)
                notices.append(_notice(code, message.format(*_left_out(cut))))
                continue
            words = ", ".join(word[:40] for word in cut)
            notices.append(_notice(code, message.format(words.replace("_", " ") if field == "skipped" else words)))
    return notices


def _left_out(words: list[str]) -> tuple[str, str]:
    """The words left out as the notice names them, with their verb, and the pronoun for them."""
    quoted = [f"‘{word[:40]}’" for word in words]
    if len(quoted) == 1:
        return f"{quoted[0]} is", "it"
    return f"{', '.join(quoted[:-1])} and {quoted[-1]} are", "them"


def _rows(catalogue: Catalogue, numbers: list[int]) -> list[dict[str, Any]]:
    catalogue.store.require(numbers)
    return [catalogue.store.row(number) for number in numbers]


def _normalise_publishers(values: list[str], notices: list[dict[str, Any]], names: list[str]) -> list[str]:
    catalogue_names = name_index(names)
    normalised = []
    for index, value in enumerate(values):
        name = unicodedata.normalize("NFC", value).strip()
        if name != value:
            notices.append(
                _notice(
                    "publisher_normalised",
                    f"publishers[{index}] {echo(value)} was read as {echo(name)} (Unicode NFC, surrounding spaces removed).",
                    path=f"/publishers/{index}",
                )
            )
        if name not in catalogue_names.exact:
            close = catalogue_names.closest(name)
            hint = f" Closest exact names: {'; '.join(close)}." if close else ""
            notices.append(
                _notice(
                    "unknown_publisher",
                    f"No record has the publisher {echo(name)}; publisher names are matched exactly.{hint}",
                    path=f"/publishers/{index}",
                    suggestions=close,
                )
            )
        normalised.append(name)
    return normalised


def _notice(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"code": code, "message": message, **extra}


def _result(
    catalogue: Catalogue, item: ranking.Ranked, terms: list[Term], clauses: list[Clause]
) -> tuple[dict[str, Any], dict[str, str]]:
    """One result as the tool shows it, and the corrections its words needed."""
    record = catalogue.store.row(item.number)
    result = {field: record[field] for field in RESULT_FIELDS}
    result["score"] = round(item.score, SCORE_PLACES)
    result["recordUrl"] = catalogue.record_url(record["id"])
    result.update({field: record[field] for field in RESULT_OPTIONAL if field in record})
    result["matchMode"] = item.mode
    matched, corrected = ranking.matched_fields(catalogue.engine, terms, clauses, item.number)
    result["matched"] = matched
    if item.reasons:
        result["reasons"] = item.reasons
    if item.others:
        result["more"] = len(item.others)
        result["others"] = [_series_member(catalogue, number) for number in item.others]
    return result, corrected


def _series_member(catalogue: Catalogue, number: int) -> dict[str, Any]:
    """Another record of a result's series in the answer (ranking.series), named enough to be followed."""
    record = catalogue.store.row(number)
    # Its publisher too: other councils' records of one title read as editions of the first's without it.
    found = {field: record[field] for field in ("id", "title", "url", "publisher")}
    found["recordUrl"] = catalogue.record_url(record["id"])
    if "updated" in record:
        found["updated"] = record["updated"]
    return found


def get_record(catalogue: Catalogue, record_id: str) -> dict[str, Any]:
    record = catalogue.store.find(record_id) or _merged_into(catalogue, record_id)
    if record is None:
        return error_result(
            "not_found",
            f"No record has the id {echo(record_id)}. Search with {SEARCH_TOOL} and use the id of one of its results.",
        )
    full = {key: value for key, value in record.items() if key != "source"}
    full["recordUrl"] = catalogue.record_url(record["id"])
    provenance: dict[str, Any] = {"source": record.get("source", {"kind": "curated"})}
    for field in ("observed", "licence", "accessNote"):
        if field in record:
            provenance[field] = record[field]
    words = attribution(record)
    if words:
        provenance["attribution"] = words
    full["provenance"] = provenance
    return {"ok": True, "record": full, "citation": citation(record, full["recordUrl"], catalogue.snapshot)}


def _merged_into(catalogue: Catalogue, record_id: str) -> dict[str, Any] | None:
    """The record another was merged into, by that one's former id (its `formerIds` say so)."""
    key = ranking.identifier_key(record_id)
    numbers = catalogue.store.identified(key) if key else []
    catalogue.store.require(numbers)
    for number in numbers:
        record = catalogue.store.find(catalogue.store.row(number)["id"])
        if record is not None and record_id in record.get("formerIds", ()):
            return record
    return None
