"""The visitor's search page at a phone's and a laptop's size: results first,
filters that fold away, "show more", marked words, one ranking with the
tool, never starting over, and the search box without JavaScript.

Screenshots (before ready, results, empty state, filters open) at both
sizes go to test-artifacts/.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote_plus, unquote_plus

import pytest
from browserkit import (
    CHROMIUM,
    CHROMIUM_ARGS,
    HOSTILE_TITLE,
    READY_TIMEOUT_MS,
    SEARCH_TOOL,
    SERIES_QUERY,
    TWIN_TITLE,
    reference_answers,
    screenshot,
    wait_for_ready,
)

from govsearch.catalogue import Catalogue
from govsearch.loaders import DirectoryLoader
from govsearch.session import answer_json_text as answer
from govsearch_build.render import PUBLISHERS_ON_BROWSE

PHONE = {"width": 375, "height": 812}
LAPTOP = {"width": 1280, "height": 900}
SIZES = {"375": PHONE, "1280": LAPTOP}

# Counts every worker the page starts and whether it was shown from the back/forward cache.
WORKER_COUNTER = """
window.__workers = 0;
window.__marks = {};
const PageWorker = window.Worker;
window.Worker = class extends PageWorker {
  constructor(...args) {
    super(...args);
    window.__workers++;
    this.addEventListener("message", (event) => {
      if (event.data && event.data.type === "timing") window.__marks[event.data.mark] = true;
    });
  }
};
window.addEventListener("pageshow", (event) => { window.__persisted = event.persisted; });
"""


def _status(page: Any, text: str) -> None:
    page.wait_for_function(
        "(text) => document.getElementById('search-status').textContent.includes(text)",
        arg=text,
        timeout=READY_TIMEOUT_MS,
    )


def _shown_ids(page: Any) -> list[str]:
    return page.locator("#search-results > li").evaluate_all("(items) => items.map((li) => li.dataset.recordId)")


def _tool(site_dir, arguments: dict) -> dict:
    return json.loads(reference_answers(site_dir, [(SEARCH_TOOL, arguments)])[0])


@pytest.mark.parametrize("size", SIZES)
def test_results_first_and_filters_fold_away_on_small_screens(open_page, size):
    """Before ready, results, empty state and filters open, at one size."""
    page, guard = open_page(None, viewport=SIZES[size])
    held: list[Any] = []
    page.context.route("**/pyodide/pyodide.asm.wasm*", lambda route: held.append(route))
    page.goto(guard.origin + "/")
    # The search box works at once: what is typed waits for the engine.
    page.fill("#search-input", "land registry")
    page.press("#search-input", "Enter")
    page.wait_for_function(
        "() => document.getElementById('search-status').textContent.includes('Getting search ready')"
    )
    label = page.text_content("#loading-label")
    assert label.startswith("Getting search ready") and "Python" not in label, label
    assert page.locator("#search-progress").is_visible()
    screenshot(page, f"search-{size}-before-ready", full_page=False)
    for _ in range(300):  # Playwright hands over the held request while it waits
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the runtime was never requested"
    # Let the runtime through: whatever was held (the worker first asks the HTTP
    # cache whether it holds the WebAssembly, then downloads it) and what comes next.
    page.context.unroute("**/pyodide/pyodide.asm.wasm*")
    for route in held:
        route.continue_()
    wait_for_ready(page)
    _status(page, "results for ‘land registry’")
    heading = page.locator("#search-results .app-result__title").first.bounding_box()
    assert heading["y"] + heading["height"] <= SIZES[size]["height"], (
        f"the first result's heading is at y {heading['y']}, below the fold"
    )
    assert "land registry" in page.title()
    filters = page.locator("#filters")
    toggle = page.locator("#filters summary")
    assert toggle.is_visible() and page.text_content("#filters-toggle") == "Filters"
    first_box = page.locator("#filter-groups input").first
    if size == "375":
        assert not filters.evaluate("(details) => details.open"), "filters must start folded on a phone"
        assert not first_box.is_visible()
    else:
        assert filters.evaluate("(details) => details.open") and first_box.is_visible()
    screenshot(page, f"search-{size}-results", full_page=False)
    if size == "375":
        toggle.click()
    first_box.check()
    page.wait_for_function("() => document.getElementById('filters-toggle').textContent === 'Filters (1 selected)'")
    page.wait_for_selector("#search-selected .app-chip")
    screenshot(page, f"search-{size}-filters-open", full_page=False)
    done = page.locator("#filters-done")
    if size == "375":
        # Every filter lies above the results on a phone: one tap brings the count after a tick.
        done.click()
        assert page.evaluate("() => document.activeElement.id") == "search-status"
        assert not filters.evaluate("(details) => details.open"), "the filters fold away, so the tap visibly lands"
        status = page.locator("#search-status").bounding_box()
        assert 0 <= status["y"] < SIZES[size]["height"], f"the count is at y {status['y']}, off the screen"
    else:
        assert not done.is_visible(), "beside the results the count is in view already"
    page.fill("#search-input", "zzyzx qqvpl")
    page.press("#search-input", "Enter")
    _status(page, "No results for ‘zzyzx qqvpl’")
    empty = page.locator("#search-empty-state")
    assert "checking your spelling" in empty.text_content()
    assert empty.locator("a[href='/browse/']").count() == 1
    assert empty.locator("button", has_text="clearing all filters").count() == 1
    screenshot(page, f"search-{size}-empty", full_page=False)
    empty.locator("button", has_text="clearing all filters").click()
    page.wait_for_function("() => !location.hash.includes('&') && document.getElementById('search-selected').hidden")
    assert page.text_content("#filters-toggle") == "Filters"


# Each text node of the page matching a pattern that a sighted visitor sees: rendered, and
# not inside a box of a pixel or less (GOV.UK's visually hidden text, read by screen readers).
SEEN_TEXTS = """(pattern) => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!new RegExp(pattern, "i").test(node.textContent)) continue;
    let seen = node.parentElement.checkVisibility({ visibilityProperty: true });
    for (let box = node.parentElement; seen && box; box = box.parentElement) {
      const rect = box.getBoundingClientRect();
      seen = rect.width > 1 && rect.height > 1;
    }
    if (seen) found.push(`${node.parentElement.id || node.parentElement.tagName}: ${node.textContent.trim()}`);
  }
  return found;
}"""


def test_the_wait_for_the_engine_is_said_once_on_screen(open_page):
    """A visitor's trial on a phone read "Getting search ready" twice while the engine started:
    the bar's label, and under it the status line once a search was typed. The status line (a
    live region; the label is not one) still says it, to screen readers only."""
    page, guard = open_page(None, viewport=PHONE, touch=True)
    held: list[Any] = []
    page.context.route("**/pyodide/pyodide.asm.wasm*", lambda route: held.append(route))
    page.goto(guard.origin + "/")
    before = page.evaluate(SEEN_TEXTS, "getting search ready")
    assert len(before) == 1 and before[0].startswith("loading-label: "), before
    page.fill("#search-input", "land registry")
    page.press("#search-input", "Enter")
    _status(page, "Getting search ready")
    assert page.locator("#search-progress").is_visible()
    seen = page.evaluate(SEEN_TEXTS, "getting search ready")
    assert len(seen) == 1 and seen[0].startswith("loading-label: "), f"said {len(seen)} times on screen: {seen}"
    for _ in range(300):  # Playwright hands over the held request while it waits
        if held:
            break
        page.wait_for_timeout(100)
    page.context.unroute("**/pyodide/pyodide.asm.wasm*")
    for route in held:
        route.continue_()
    wait_for_ready(page)
    _status(page, "results for ‘land registry’")
    assert page.evaluate(SEEN_TEXTS, "getting search ready") == []


def test_selected_filters_can_be_removed_one_by_one_or_all(open_page):
    page, guard = open_page("#q=data&collections=land-registry&accessStatuses=public", wait_ready=True)
    _status(page, "‘data’")
    chips = page.locator("#search-selected .app-chip")
    assert chips.count() == 2
    assert page.text_content("#filters-toggle") == "Filters (2 selected)"
    assert "Collection: Land and property" in chips.first.text_content()
    chips.first.click()
    page.wait_for_function("() => !location.hash.includes('collections=')")
    page.wait_for_function("() => document.querySelectorAll('#search-selected .app-chip').length === 1")
    assert "accessStatuses=public" in page.evaluate("location.hash")
    page.click("#search-selected button[data-clear]")
    page.wait_for_function("() => location.hash === '#q=data'")
    page.wait_for_function("() => document.getElementById('search-selected').hidden")


def _drawn_values(fieldset) -> list[dict]:
    """Each checkbox drawn in a filter group: its value, id, count, ticked, seen."""
    return fieldset.locator(".govuk-checkboxes__item").evaluate_all(
        """(items) => items.map((item) => {
          const box = item.querySelector("input");
          const label = item.querySelector("label");
          return { value: box.value, id: box.id, ticked: box.checked, forId: label.htmlFor,
                   count: Number(label.textContent.match(/\\(([\\d,]+)\\)$/)[1].replaceAll(",", "")),
                   seen: item.getClientRects().length > 0 };
        })"""
    )


def test_long_facet_lists_show_their_top_values_first(open_page, site_dir):
    page, guard = open_page("#q=data", wait_ready=True)
    _status(page, "‘data’")
    counts = _tool(site_dir, {"query": "data", "limit": 10})["facets"]["publishers"]
    assert len(counts) > 6, "the test needs a query with more than six publishers"
    publishers = page.locator('#filter-groups fieldset[data-dimension="publishers"]')
    # Folded: only the top six are drawn at all (the rest cost time on every answer).
    folded = _drawn_values(publishers)
    assert [(item["value"], item["count"]) for item in folded] == list(counts.items())[:6]
    assert all(item["seen"] and not item["ticked"] for item in folded)
    more = publishers.locator("button[data-toggle]")
    assert more.get_attribute("aria-expanded") == "false" and f"Show all {len(counts)}" in more.text_content()
    assert more.locator(".govuk-visually-hidden").text_content() == " publisher values"
    shown = _shown_ids(page)
    more.scroll_into_view_if_needed()
    before = page.evaluate("scrollY")
    more.click()
    # The values it shows come below the top six, where the visitor is: the page does not
    # scroll to the control, now below them all.
    assert page.evaluate("scrollY") == before
    opened = _drawn_values(publishers)
    assert [(item["value"], item["count"]) for item in opened] == list(counts.items())
    assert [item["id"] for item in opened] == [f"filter-publishers-{index}" for index in range(len(counts))]
    assert all(item["seen"] and item["forId"] == item["id"] for item in opened)
    assert more.get_attribute("aria-expanded") == "true" and more.text_content() == "Show fewer"
    assert page.evaluate("document.activeElement.dataset.toggle") == "publishers", "focus stays on the control"
    assert _shown_ids(page) == shown, "opening the list does not search again"
    more.scroll_into_view_if_needed()
    more.click()
    assert _drawn_values(publishers) == folded
    assert more.get_attribute("aria-expanded") == "false" and f"Show all {len(counts)}" in more.text_content()
    assert page.evaluate("document.activeElement.dataset.toggle") == "publishers"
    box = more.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= page.viewport_size["height"], "folding brings it into view"


def test_a_folded_value_ticked_in_a_shared_link_filters_and_stays_ticked(open_page, site_dir):
    unfiltered = _tool(site_dir, {"query": "data", "limit": 10})
    counts = unfiltered["facets"]["publishers"]
    assert len(counts) > 8, "the test needs a publisher below the top six"
    folded = list(counts)[7]  # a value "Show all" hides
    page, guard = open_page(f"#q=data&publishers={quote_plus(folded)}", wait_ready=True)
    _status(page, "‘data’")
    answer = _tool(site_dir, {"query": "data", "publishers": [folded], "limit": 10})
    assert _shown_ids(page) == [item["id"] for item in answer["results"]]
    assert 0 < answer["total"] < unfiltered["total"], "the filter narrows the results"
    # Counted without its own filter, the ticked value keeps its place below
    # the top six: drawn there, ticked, with the folded ones around it left out.
    assert answer["facets"]["publishers"] == counts
    publishers = page.locator('#filter-groups fieldset[data-dimension="publishers"]')
    drawn = _drawn_values(publishers)
    assert [(item["value"], item["count"], item["ticked"]) for item in drawn] == [
        *((value, count, False) for value, count in list(counts.items())[:6]),
        (folded, counts[folded], True),
    ]
    assert drawn[-1]["id"] == "filter-publishers-7" and drawn[-1]["seen"]
    assert page.text_content("#filters-toggle") == "Filters (1 selected)"
    shown = _shown_ids(page)
    publishers.locator("button[data-toggle]").click()
    opened = _drawn_values(publishers)
    assert [(item["value"], item["count"]) for item in opened] == list(counts.items())
    assert [item["value"] for item in opened if item["ticked"]] == [folded]
    assert _shown_ids(page) == shown
    # Unticking it, with the list open, searches without the filter.
    publishers.locator(f'input[value="{folded}"]').uncheck()
    page.wait_for_function("() => !location.hash.includes('publishers=')")
    page.wait_for_function("() => document.getElementById('search-selected').hidden")
    _status(page, "‘data’")
    assert _shown_ids(page) == [item["id"] for item in unfiltered["results"]]
    assert len(_drawn_values(publishers)) == len(counts), "the list stays open"


def test_a_long_filter_list_has_a_box_to_find_a_value_by_its_name(open_page, site_dir):
    """A search can count 400 and more publishers, shown six at a time behind "Show all":
    a box above a list that folds narrows it to the names holding what is typed, in any
    case, says how many match (politely), and searches only when a value is ticked."""
    counts = _tool(site_dir, {"query": "data", "limit": 10})["facets"]["publishers"]
    wanted = [name for name in counts if "land" in name.lower()]
    assert 1 < len(wanted) < len(counts) - 6 and any(list(counts).index(name) >= 6 for name in wanted)
    page, guard = open_page("#q=data", viewport=PHONE, touch=True, wait_ready=True)
    _status(page, "‘data’")
    page.tap("#filters summary")
    for fieldset in page.locator("#filter-groups fieldset").all():  # only above a list with "Show all"
        assert fieldset.locator("input[data-find]").count() == fieldset.locator("button[data-toggle]").count()
    publishers = page.locator('#filter-groups fieldset[data-dimension="publishers"]')
    find, count = publishers.locator("input[data-find]"), publishers.locator("[aria-live=polite]")
    toggle = publishers.locator("button[data-toggle]")
    assert find.evaluate("(box) => [...box.labels].map((label) => label.textContent)") == ["Find a publisher"]
    assert count.text_content() == "" and toggle.is_visible()
    shown, fragment = _shown_ids(page), page.evaluate("location.hash")
    find.tap()
    page.keyboard.type("lAnD")
    expected = f"{len(wanted)} of {len(counts)} publishers match"
    page.wait_for_function(
        "(text) => document.querySelector(`#filter-groups fieldset[data-dimension=publishers] [aria-live=polite]`).textContent === text",
        arg=expected,
    )
    drawn = _drawn_values(publishers)
    assert [item["value"] for item in drawn] == wanted, (
        "every name holding the words, folded or not, in the list's order"
    )
    assert [item["id"] for item in drawn] == [f"filter-publishers-{list(counts).index(name)}" for name in wanted]
    assert all(item["seen"] and not item["ticked"] for item in drawn) and not toggle.is_visible()
    assert _shown_ids(page) == shown and page.evaluate("location.hash") == fragment, "finding does not search"
    # Ticked from the keyboard: the search runs with it, and the list stays narrowed, focus on the value.
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.value") == wanted[0]
    page.keyboard.press("Space")
    page.wait_for_function("() => location.hash.includes('publishers=')")
    _status(page, "‘data’")
    assert page.evaluate("[document.activeElement.value, document.activeElement.checked]") == [wanted[0], True]
    assert find.input_value() == "lAnD" and [item["value"] for item in _drawn_values(publishers)] == wanted
    # Nothing matches: the ticked value stays, ticked; the count says none do.
    find.focus()
    page.keyboard.type("zzz")
    page.wait_for_function(
        "(text) => document.querySelector(`#filter-groups fieldset[data-dimension=publishers] [aria-live=polite]`).textContent === text",
        arg=f"0 of {len(counts)} publishers match",
    )
    assert [(item["value"], item["ticked"]) for item in _drawn_values(publishers)] == [(wanted[0], True)]
    # Drawn again by an answer (Back, a link), the box keeps what was typed and its focus.
    page.evaluate("() => { location.hash += '&accessStatuses=public'; }")
    _status(page, "‘data’")
    page.wait_for_function("() => document.querySelectorAll('#search-selected .app-chip').length === 2")
    assert page.evaluate("[document.activeElement.dataset.find, document.activeElement.value]") == [
        "publishers",
        "lAnDzzz",
    ]
    # Escape empties the box: the list folds as before, with the ticked value.
    page.keyboard.press("Escape")
    page.wait_for_function(
        "() => document.querySelector(`#filter-groups fieldset[data-dimension=publishers] [aria-live=polite]`).textContent === ''"
    )
    assert find.input_value() == "" and toggle.is_visible()
    now = list(_tool(site_dir, {"query": "data", "accessStatuses": ["public"], "limit": 10})["facets"]["publishers"])
    assert [item["value"] for item in _drawn_values(publishers)] == [
        name for index, name in enumerate(now) if index < 6 or name == wanted[0]
    ]
    assert "publishers=" in page.evaluate("location.hash"), "Escape in the box leaves the search alone"


def _query_with_total(site_dir, low: int, high: int) -> tuple[str, int]:
    """A one-word query with between `low` and `high` matches: the curated
    corpus's title words, commonest first, so it holds as the corpus grows.
    Not the start of longer title words ("east" of "Eastleigh"): the page adds
    those words' matches below a finished query's answer."""
    catalogue = Catalogue.open(DirectoryLoader(site_dir))
    titles = [catalogue.store.row(number)["title"] for number in range(catalogue.engine.facets.count)]
    words = Counter(word for title in titles for word in set(re.findall(r"[a-z]{4,}", title.lower())))
    for query, _ in sorted(words.items(), key=lambda item: (-item[1], item[0])):
        if any(word.startswith(query) and word != query for word in words):
            continue
        total = json.loads(answer(catalogue, SEARCH_TOOL, json.dumps({"query": query, "limit": 20})))["total"]
        if low <= total <= high:
            return query, total
    pytest.fail(f"no query in the curated corpus has {low}-{high} matches")


def test_a_new_query_starts_with_empty_find_boxes(open_page, site_dir):
    """What was typed in a find box belongs to one query: ticking and unticking a value, or
    "Show all" in another list, keep it; new words in the search box start with empty boxes,
    and so does the same query searched again after another one."""
    assert len(_tool(site_dir, {"query": "council", "limit": 10})["facets"]["publishers"]) > 6
    page, guard = open_page("#q=data", wait_ready=True)
    _status(page, "‘data’")
    publishers = page.locator('#filter-groups fieldset[data-dimension="publishers"]')
    find = publishers.locator("input[data-find]")
    found = publishers.locator("[aria-live=polite]")
    find.fill("land")
    page.wait_for_function(
        "() => document.querySelector('#filter-groups fieldset[data-dimension=publishers] [aria-live=polite]').textContent"
    )
    said = found.text_content()
    wanted = _drawn_values(publishers)[0]["value"]
    # The same query, drawn again by each answer: the box keeps its words and what they find.
    publishers.locator(f'input[value="{wanted}"]').check()
    page.wait_for_function("() => location.hash.includes('publishers=')")
    _status(page, "‘data’")
    assert find.input_value() == "land" and found.text_content() == said
    publishers.locator(f'input[value="{wanted}"]').uncheck()
    page.wait_for_function("() => !location.hash.includes('publishers=')")
    _status(page, "‘data’")
    assert find.input_value() == "land"
    types = page.locator('#filter-groups fieldset[data-dimension="resourceTypes"] button[data-toggle]')
    types.click()
    page.wait_for_function("() => document.querySelector('[data-toggle=resourceTypes]').textContent === 'Show fewer'")
    assert find.input_value() == "land" and found.text_content() == said
    # A new query: every box empty, its list folded as drawn with nothing typed.
    page.fill("#search-input", "council")
    page.press("#search-input", "Enter")
    _status(page, "‘council’")
    assert [box.input_value() for box in page.locator("#filter-groups input[data-find]").all()] == [""]
    assert found.text_content() == "" and publishers.locator("button[data-toggle]").is_visible()
    assert len(_drawn_values(publishers)) == 6
    # Typed for "council", then "data" again: the words changed in between, so the box starts empty.
    find.fill("borough")
    page.wait_for_function(
        "() => document.querySelector('#filter-groups fieldset[data-dimension=publishers] [aria-live=polite]').textContent"
    )
    page.go_back()
    _status(page, "‘data’")
    assert find.input_value() == "" and found.text_content() == ""


def test_show_more_reaches_the_last_match_and_keeps_the_tools_order(open_page, site_dir):
    query, total = _query_with_total(site_dir, 11, 20)
    page, guard = open_page("", wait_ready=True)
    page.fill("#search-input", query)
    page.press("#search-input", "Enter")
    _status(page, f"‘{query}’")
    first = _tool(site_dir, {"query": query, "limit": 10})
    assert _shown_ids(page) == [item["id"] for item in first["results"]], (
        "a finished query shows exactly the tool's answer"
    )
    everything = _tool(site_dir, {"query": query, "limit": 20})
    page.click("#search-show-more")
    page.wait_for_function(
        "(n) => document.querySelectorAll('#search-results > li').length === n", arg=len(everything["results"])
    )
    assert _shown_ids(page) == [item["id"] for item in everything["results"]]
    assert len(everything["results"]) + sum(item.get("more", 0) for item in everything["results"]) == total
    assert page.evaluate("document.activeElement.closest('li').dataset.recordId") == everything["results"][10]["id"], (
        "focus moves to the first new result"
    )
    assert page.locator("#search-show-more").count() == 0


def _pages(site: Path, query: str) -> tuple[list[str], str, set[str]]:
    """Every match of `query` through the worker protocol's people-only offset,
    page by page as the search page asks (steps of 20, a record an earlier page
    showed, as a result or behind one in its series, left out, the rest of its
    series joining the result that showed it): the results' ids, the first
    page's bytes, and every record shown."""
    catalogue = Catalogue.open(DirectoryLoader(site))
    arguments = json.dumps({"query": query, "limit": 20})
    first = answer(catalogue, SEARCH_TOOL, arguments, offset=0)
    ids: list[str] = []
    seen: set[str] = set()
    offset, page = 20, json.loads(first)
    while page["results"]:
        for item in page["results"]:
            if item["id"] not in seen:
                ids.append(item["id"])
            seen.update(record["id"] for record in [item, *item.get("others", ())])
        page = json.loads(answer(catalogue, SEARCH_TOOL, arguments, offset=offset))
        assert page["offset"] == offset and page["total"] == json.loads(first)["total"]
        offset += 20
    return ids, first, seen


@pytest.mark.parametrize("layout", ["single", "sharded"])
def test_the_page_offset_reaches_every_match_once_and_starts_with_the_tools_answer(site_dir, sharded_site_dir, layout):
    """The offset is the page's own: page one is the tool's answer to the byte,
    later pages follow it without overlap until every match is shown, and an
    agent sending `offset` as a tool argument is refused by the schema."""
    site = site_dir if layout == "single" else sharded_site_dir
    for query in ("land registry", "statistics", "compnies house"):
        tool = reference_answers(site, [(SEARCH_TOOL, {"query": query, "limit": 20})])[0]
        ids, first, seen = _pages(site, query)
        assert first == tool
        total = json.loads(tool)["total"]
        assert total > 20, f"the test needs more than 20 matches for {query!r}"
        assert len(ids) == len(set(ids)) and len(seen) == total, f"{query!r}: {len(seen)} shown of {total}"
    refused = json.loads(reference_answers(site, [(SEARCH_TOOL, {"query": "tax", "offset": 20})])[0])
    assert refused["error"]["code"] == "invalid_arguments" and refused["error"]["problems"][0]["path"] == "/offset"


def _drawn_records(page: Any) -> list[str]:
    """Every record the results list shows: each result, then the records in its "more like this"."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#search-results > li')].flatMap((li) => [
            li.dataset.recordId,
            ...[...li.querySelectorAll('.app-series__list a')].map((a) => decodeURIComponent(a.pathname.split('/').at(-2))),
        ])"""
    )


def test_show_more_keeps_the_editions_a_later_page_brings_of_a_series_already_shown(
    open_page, hostile_served, hostile_site_dir
):
    """Each later page groups its own windows of the ranking, so a series longer
    than a page comes back led by an edition shown already: its editions not
    shown yet join the result that showed the series (its count follows), so
    after the last "Show more" every match is on the page, once. Every press
    shows more: an answer its series folded to fewer results than its limit
    is not asked again with a larger one (it would come back the same)."""
    tool = _tool(hostile_site_dir, {"query": SERIES_QUERY, "limit": 20})
    total = tool["total"]
    assert total >= 70 and len(tool["results"][0]["others"]) < total - 1, "the series must reach past the first page"
    page, _ = open_page("#q=" + quote_plus(SERIES_QUERY), site=hostile_served, wait_ready=True)
    _status(page, f"‘{SERIES_QUERY}’")
    clicks = 0
    while page.locator("#search-show-more").count():
        before = len(_drawn_records(page))
        page.click("#search-show-more")
        page.wait_for_function(
            "() => !document.querySelector('#search-show-more') || !document.querySelector('#search-show-more').disabled"
        )
        clicks += 1
        assert len(_drawn_records(page)) > before, f"press {clicks} of Show more showed nothing more"
        assert clicks < 10, "show more never ended"
    # The last press joined editions to the result shown (no new result): focus is on the count, not lost to <body>.
    assert page.evaluate("document.activeElement.id") == "search-status"
    drawn = _drawn_records(page)
    assert len(drawn) == len(set(drawn)), "no record shown twice"
    assert len(drawn) == total == len(_pages(hostile_site_dir, SERIES_QUERY)[2]), (
        f"{len(drawn)} of {total} matches shown"
    )
    counts = page.locator("#search-results > li").evaluate_all(
        "(items) => items.filter((li) => li.querySelector('details')).map((li) => [li.querySelector('summary').textContent, li.querySelectorAll('.app-series__list li').length])"
    )
    assert counts and all(summary == f"{listed} more like this" for summary, listed in counts)
    # The newest edition's twin, behind it, shows its address (the lead's is hidden on a phone); the rest none.
    assert page.locator("#search-results .app-result__title").first.text_content() == TWIN_TITLE
    folds = page.locator(".app-series__list").evaluate_all(
        """(lists) => lists.map((list) => [...list.children].map((li) => [li.firstChild.textContent,
            (li.querySelector('.app-series__address') || {}).textContent || null]))"""
    )
    twins = [address for fold in folds for title, address in fold if title == TWIN_TITLE]
    assert len(twins) == 1 and twins[0] and twins[0].startswith("https://www.gov.uk/government/"), twins
    assert all(address is None for fold in folds for title, address in fold if title != TWIN_TITLE)


def test_back_from_a_record_brings_again_the_editions_show_more_brought(open_page, hostile_served):
    """ "Show more" on an answer its series folded reads the next pages, not the
    same answer at a larger limit; Back from a record page draws them again,
    every edition in its fold."""
    page, _ = open_page("#q=" + quote_plus(SERIES_QUERY), site=hostile_served, wait_ready=True)
    _status(page, f"‘{SERIES_QUERY}’")
    for _ in range(10):
        if not page.locator("#search-show-more").count():
            break
        page.click("#search-show-more")
        page.wait_for_function(
            "() => !document.querySelector('#search-show-more') || !document.querySelector('#search-show-more').disabled"
        )
    drawn = _drawn_records(page)
    fold = page.locator("details.app-series").first
    fold.locator("summary").click()
    fold.locator(".app-series__list a").last.click()
    page.wait_for_url("**/records/**")
    page.go_back()
    page.wait_for_function(
        """(n) => [...document.querySelectorAll('#search-results > li')]
            .reduce((count, li) => count + 1 + li.querySelectorAll('.app-series__list a').length, 0) >= n""",
        arg=len(drawn),
    )
    assert sorted(_drawn_records(page)) == sorted(drawn)


def test_back_from_an_edition_in_an_open_list_returns_to_it_open(open_page, hostile_served):
    """A reader who opened "more like this" and followed an edition far down
    its list comes back to the list open, with that edition on the screen: not
    to the result with its list closed, thousands of pixels above."""
    page, _ = open_page("#q=" + quote_plus(SERIES_QUERY), site=hostile_served, viewport=PHONE, wait_ready=True)
    _status(page, f"‘{SERIES_QUERY}’")
    fold = page.locator("details.app-series").first
    fold.locator("summary").click()
    edition = fold.locator(".app-series__list a").last
    edition.scroll_into_view_if_needed()
    page.wait_for_timeout(600)  # the place is kept once scrolling rests
    href = edition.get_attribute("href")
    edition.click()
    page.wait_for_url("**/records/**")
    page.go_back()
    _status(page, f"‘{SERIES_QUERY}’")
    page.wait_for_function(
        "() => document.querySelector('details.app-series') && document.querySelector('details.app-series').open",
        timeout=READY_TIMEOUT_MS,
    )
    followed = page.locator(f"details.app-series .app-series__list a[href='{href}']")
    page.wait_for_function(
        "(href) => { const box = document.querySelector(`.app-series__list a[href='${href}']`).getBoundingClientRect();"
        " return box.top >= 0 && box.bottom <= window.innerHeight; }",
        arg=href,
        timeout=READY_TIMEOUT_MS,
    )
    assert followed.is_visible()
    assert page.locator("details.app-series[open]").count() == 1, "only the list the reader opened is open"
    # A keyboard reader goes on from the edition they followed.
    assert page.evaluate("document.activeElement.getAttribute('href')") == href


def test_show_more_goes_past_the_tools_maximum_to_the_last_match(open_page, site_dir):
    # Past the tool's maximum of 20, and short of ten clicks of 20 more.
    query, total = _query_with_total(site_dir, 41, 180)
    page, guard = open_page("#q=" + query.replace(" ", "+"), wait_ready=True)
    _status(page, f"‘{query}’")
    tool = _tool(site_dir, {"query": query, "limit": 20})
    every, _, seen = _pages(site_dir, query)
    clicks = 0
    while page.locator("#search-show-more").count():
        shown = len(_shown_ids(page))
        page.click("#search-show-more")
        page.wait_for_function("(n) => document.querySelectorAll('#search-results > li').length > n", arg=shown)
        clicks += 1
        assert clicks < 10, "show more never ended"
        if shown == 20:
            assert _shown_ids(page)[:20] == [item["id"] for item in tool["results"]], (
                "the first 20 are the tool's, in its order"
            )
        assert page.evaluate("document.activeElement.closest('li').dataset.recordId") == _shown_ids(page)[shown], (
            "focus moves to the first new result"
        )
    shown = _shown_ids(page)
    assert len(shown) == len(set(shown)) and shown == every, "every result once, in the page protocol's order"
    assert len(seen) == total, "every match shown, as a result or behind one in its series"
    assert shown[-1] == every[-1]
    status = f"{total:,} results for ‘{query}’"
    assert page.text_content("#search-status") in (status, f"{status}, showing the best {len(shown)}")
    assert "more record" not in page.text_content("#search-more")


@pytest.mark.parametrize("size", SIZES)
def test_a_results_tags_each_stay_on_one_line(open_page, size):
    """'Authentication required' broke inside its tag at desktop width (GOV.UK's
    tag wraps past 160px): the line breaks between tags, never inside one."""
    page, guard = open_page("#q=api+key", viewport=SIZES[size], wait_ready=True)
    _status(page, "‘api key’")
    tags = page.locator("#search-results .app-meta .govuk-tag")
    assert "Authentication required" in tags.all_text_contents()
    broken = tags.evaluate_all(
        "(tags) => tags.filter((tag) => tag.getClientRects().length > 1 || tag.getBoundingClientRect().height > 40).map((tag) => tag.textContent)"
    )
    assert not broken, f"tags broken over lines: {broken}"
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    # Text enlarged twice: a tag wider than the line wraps inside rather than widen the page.
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    wide = page.evaluate(
        """(width) => [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > width + 1
            && e.getClientRects().length).slice(0, 5).map((e) => `${e.tagName}.${e.className}: ${e.textContent.trim().slice(0, 30)}`)""",
        SIZES[size]["width"],
    )
    assert not wide, f"wider than the screen with text enlarged twice: {wide}"


def test_where_results_stop_matching_every_word_the_page_says_so(open_page, site_dir):
    """The count takes in records that match only some of the words, so adding a
    word can raise it ("council tax band" above "council tax"): a visitor
    expected a narrower answer. The page says how many match every word."""
    query = "council tax band"
    answer = _tool(site_dir, {"query": query, "limit": 10})
    modes = [item["matchMode"] for item in answer["results"]]
    first = modes.index("any_term")
    assert answer["match_mode"] == "all_terms" and first > 1, f"the test needs a mix of modes: {modes}"
    page, guard = open_page("#q=" + quote_plus(query), wait_ready=True)
    _status(page, f"‘{query}’")
    notices = page.text_content("#search-notices")
    assert f"The first {first} results match all of your words; the rest match only some of them." in notices
    page.fill("#search-input", "land registry")
    page.press("#search-input", "Enter")
    _status(page, "‘land registry’")
    every = _tool(site_dir, {"query": "land registry", "limit": 10})["results"]
    assert {item["matchMode"] for item in every} == {"all_terms"}
    assert "all of your words" not in page.text_content("#search-notices")


def test_a_common_word_typed_alone_is_not_called_unsearchable_above_the_words_it_starts(open_page, site_dir):
    """'the' is no searchable word, but the records of words starting with it
    ("theft", "therapy") are shown: the count says what they are, and no
    notice says nothing could be searched above them."""
    assert _tool(site_dir, {"query": "the"})["notices"][0]["code"] == "no_searchable_terms"
    page, guard = open_page("#q=the", wait_ready=True)
    _status(page, "results for words starting with ‘the’")
    page.wait_for_selector("#search-results li")
    notices = page.text_content("#search-notices")
    assert "no searchable terms" not in notices, notices
    page.fill("#search-input", "of")  # too short a start to look for: nothing is shown, and the notice says why
    page.press("#search-input", "Enter")
    _status(page, "No results for ‘of’")
    assert "no searchable terms" in page.text_content("#search-notices")


COMPLETE_ACCE = ("flood acce", "coastal acce", "bathing acce", "drought acce")


def test_a_finished_query_shows_the_tools_answer_and_prefixes_only_add(open_page, site_dir):
    """#12: typing paused on a part-word shows the tool's answer, then prefix matches below it."""
    page, guard = open_page("", wait_ready=True)
    # A query whose complete answer leaves room below it: the first of these whose answer is
    # whole in fewer than ten, as the page adds prefix matches only up to the limit ("water acce",
    # then "flood acce", stopped being whole, and "coastal acce" came to fill all ten, as the corpus grew).
    answers = ((query, _tool(site_dir, {"query": query, "limit": 10})) for query in COMPLETE_ACCE)
    query, answer = next(((q, a) for q, a in answers if 0 < a["total"] <= a["returned"] < 10), (None, None))
    assert query, "the test needs a complete answer, which prefix matches may follow"
    page.locator("#search-input").press_sequentially(query, delay=30)
    _status(page, f"‘{query}’")
    tool_ids = [item["id"] for item in answer["results"]]
    page.wait_for_function("(n) => document.querySelectorAll('#search-results > li').length > n", arg=len(tool_ids))
    shown = _shown_ids(page)
    assert shown[: len(tool_ids)] == tool_ids, "the tool's answer comes first, in its order"
    assert "also match words starting with ‘acce’" in page.text_content("#search-notices")
    page.fill("#search-input", "")
    # The example: with a typo, the page once led with another record than the tool.
    page.locator("#search-input").press_sequentially("compnies house", delay=30)
    _status(page, "‘compnies house’")
    whole = _tool(site_dir, {"query": "compnies house", "limit": 10})
    assert _shown_ids(page)[: len(whole["results"])] == [item["id"] for item in whole["results"]]


def test_marked_words_are_text_nodes(open_page, hostile_served):
    page, guard = open_page("#q=hostile%20markup", site=hostile_served)
    page.wait_for_selector("#search-results li", timeout=READY_TIMEOUT_MS)
    link = page.locator("#search-results .app-result__title a").first
    assert link.text_content() == HOSTILE_TITLE
    marks = link.locator("mark")
    assert marks.all_text_contents() == ["Hostile"]
    nodes = link.evaluate(
        "(a) => [...a.childNodes].map((n) => n.nodeType === 3 ? 'text' : n.tagName + ':' + [...n.childNodes].map((c) => c.nodeType).join(','))"
    )
    assert set(nodes) <= {"text", "MARK:3"}, nodes
    assert page.locator("#search-results script, #search-results img").count() == 0
    assert page.evaluate("window.__pwned") is None


@pytest.fixture(scope="module")
def bfcache_browser(browser) -> Iterator[Any]:
    """Chromium as a visitor has it: Playwright turns the back/forward cache off by default."""
    chromium = browser.browser_type.launch(
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        headless=True,
        ignore_default_args=["--disable-back-forward-cache"],
    )
    yield chromium
    chromium.close()


def _search_then_open_a_record(page: Any, origin: str, settle: bool = False) -> str:
    """Search, then follow the first result. `settle`: first let the worker
    finish its idle-time downloads (the runtime snapshot kept for the next
    visit): Chromium keeps no page in the back/forward cache while its worker
    has a request outstanding."""
    page.goto(origin + "/#q=companies")
    page.wait_for_selector("#search-results li", timeout=READY_TIMEOUT_MS)
    if settle:
        page.wait_for_function("() => window.__marks.snapshot_cached", timeout=READY_TIMEOUT_MS)
    shown = _shown_ids(page)
    page.locator("#search-results .app-result__title a").first.click()
    page.wait_for_url(f"**/records/{shown[0]}/")
    return shown


def test_back_from_a_record_shows_the_results_without_a_new_worker(bfcache_browser, served):
    context = bfcache_browser.new_context(viewport=LAPTOP)
    context.add_init_script(WORKER_COUNTER)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    shown = _search_then_open_a_record(page, served.origin, settle=True)
    page.go_back(wait_until="commit")
    page.wait_for_function("() => window.__persisted !== undefined")
    restored = page.evaluate(
        "() => ({persisted: window.__persisted, workers: window.__workers, state: document.documentElement.dataset.searchRuntime, reasons: performance.getEntriesByType('navigation')[0].notRestoredReasons})"
    )
    assert restored["persisted"], f"not restored from the back/forward cache: {restored['reasons']}"
    assert restored["workers"] == 1 and restored["state"] == "ready", restored
    assert _shown_ids(page) == shown
    # The restored page still searches with its one worker.
    page.fill("#search-input", "vat")
    page.press("#search-input", "Enter")
    _status(page, "‘vat’")
    assert page.evaluate("window.__workers") == 1
    context.close()
    assert not errors, errors


def test_without_the_cache_back_restores_the_results_from_the_fragment(open_page, served):
    page, guard = open_page(None)
    page.context.add_init_script(WORKER_COUNTER)
    shown = _search_then_open_a_record(page, served.origin)
    page.go_back()
    page.wait_for_selector("#search-results li", timeout=READY_TIMEOUT_MS)
    assert page.input_value("#search-input") == "companies"
    assert _shown_ids(page) == shown


def test_back_from_a_record_returns_to_where_the_reader_was(open_page, site_dir):
    """Without the back/forward cache the page is drawn again on Back: the
    results it had shown (a later page too) come back, and the reader's place
    with them, not the place the browser kept for a page without its results."""
    query, _ = _query_with_total(site_dir, 41, 10_000)
    page, guard = open_page("#q=" + query.replace(" ", "+"), viewport=PHONE, wait_ready=True)
    _status(page, f"‘{query}’")
    for shown in (10, 20):  # up to the tool's maximum, then a later page
        page.click("#search-show-more")
        page.wait_for_function("(n) => document.querySelectorAll('#search-results > li').length > n", arg=shown)
    shown = _shown_ids(page)
    target = page.locator("#search-results > li").nth(24)
    target.scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, 100)")
    page.wait_for_timeout(600)  # the place is kept once scrolling rests
    place = page.evaluate("window.scrollY")
    target.locator(".app-result__title a").click()
    page.wait_for_url(f"**/records/{shown[24]}/")
    page.go_back()
    page.wait_for_function("(n) => document.querySelectorAll('#search-results > li').length >= n", arg=len(shown))
    page.wait_for_function("(y) => Math.abs(window.scrollY - y) <= 2", arg=place, timeout=READY_TIMEOUT_MS)
    assert _shown_ids(page) == shown
    top = page.locator("#search-results > li").nth(24).bounding_box()
    assert 0 <= top["y"] < PHONE["height"], "the result the reader followed is on the screen"
    assert page.evaluate("document.activeElement.closest('li').dataset.recordId") == shown[24], (
        "focus is on the link the reader followed, not the page"
    )


def test_a_record_opened_from_the_results_offers_the_way_back_to_them(open_page, served):
    """The breadcrumb's "Search" opens an empty search: a record page reached from
    the results offers "Back to search results", which returns to them, in the
    breadcrumbs' place (GOV.UK: a back link and breadcrumbs are never shown together);
    a record page opened on its own keeps its breadcrumbs and has no back link."""
    page, guard = open_page("#q=passport", wait_ready=True)
    _status(page, "‘passport’")
    shown = _shown_ids(page)
    page.locator("#search-results .app-result__title a").first.click()
    page.wait_for_url("**/records/**")
    back = page.locator("#back-to-results")
    assert back.text_content() == "Back to search results"
    assert page.locator(".govuk-breadcrumbs").count() == 0, "the back link or the breadcrumbs, not both"
    assert page.locator(".app-independent + #back-to-results + main").count() == 1, "where the breadcrumbs were"
    assert page.url.endswith(f"/records/{shown[0]}/"), "the mark is taken off the address"
    back.click()
    _status(page, "‘passport’")
    assert page.url.endswith("#q=passport") and _shown_ids(page) == shown
    page.goto(served.url(f"records/{shown[0]}/"))
    page.wait_for_load_state("load")
    assert page.locator(".govuk-breadcrumbs").count() == 1 and page.locator("#back-to-results").count() == 0


def test_back_to_a_search_never_scrolled_shows_its_top(open_page, site_dir):
    """With the page keeping places itself, an entry that kept none is drawn at its
    top, not at the place the later search had reached."""
    query, _ = _query_with_total(site_dir, 41, 10_000)
    page, guard = open_page("#q=" + query.replace(" ", "+"), viewport=PHONE, wait_ready=True)
    _status(page, f"‘{query}’")
    page.fill("#search-input", "tax")
    page.press("#search-input", "Enter")
    _status(page, "‘tax’")
    page.evaluate("window.scrollTo(0, 600)")
    page.go_back()
    _status(page, f"‘{query}’")
    page.wait_for_function("() => window.scrollY === 0", timeout=READY_TIMEOUT_MS)


def test_a_search_typed_before_the_engine_is_ready_ignores_the_place_kept(open_page, site_dir):
    """A place kept for the search in the address (limit 20, two later pages, far
    down) is for that search only: one typed before the engine is ready gets its
    own first page, at the top."""
    query, _ = _query_with_total(site_dir, 41, 10_000)
    page, guard = open_page(None, viewport=PHONE)
    page.goto(guard.origin + "/#q=" + query.replace(" ", "+"))
    kept = "{fragment: location.hash, limit: 20, pages: 2, scroll: 1500, record: null, offset: 0}"
    page.evaluate(f"() => history.replaceState({kept}, '', location.href)")
    held: list[Any] = []
    page.context.route("**/pyodide/pyodide.asm.wasm*", lambda route: held.append(route))
    page.reload()
    page.fill("#search-input", "tax")
    page.press("#search-input", "Enter")
    for _ in range(300):
        if held:
            break
        page.wait_for_timeout(100)
    page.context.unroute("**/pyodide/pyodide.asm.wasm*")
    for route in held:
        route.continue_()
    _status(page, "‘tax’")
    page.wait_for_timeout(500)
    assert len(_shown_ids(page)) <= 10 and page.evaluate("window.scrollY") < 100


@pytest.mark.parametrize("size", SIZES)
def test_the_form_without_javascript_goes_to_a_page_that_says_search_needs_it(open_page, served, site_dir, size):
    """Without JavaScript: a static page says search needs it, keeps the words in
    its address (the one place a static page can keep them) and offers the browse
    pages by first letter, type and collection."""
    page, guard = open_page("", js=False, viewport=SIZES[size])
    page.fill("#search-input", "house prices")
    with page.expect_navigation():
        page.press("#search-input", "Enter")
    assert page.url == served.url("search/?q=house+prices")
    assert page.locator("h1").inner_text() == "Search needs JavaScript"
    assert "?q=" in page.locator("#no-js-words").inner_text()
    letters = page.locator("#by-letter + nav a")
    assert letters.count() >= 10
    types = page.locator("#by-type + ul a").evaluate_all("(links) => links.map((a) => a.getAttribute('href'))")
    assert types and all(href.startswith("/types/") for href in types)
    assert page.locator("#by-collection + ul a").count() >= 5
    screenshot(page, f"search-no-js-{size}", full_page=False)
    # The letter of the words leads to the publishers starting with it.
    page.locator("#by-letter + nav a", has_text="H").click()
    publishers = Catalogue.open(DirectoryLoader(site_dir)).engine.facets.values("publisher")
    if len(publishers) > PUBLISHERS_ON_BROWSE:  # a page per letter
        assert page.url == served.url("browse/publishers/h/")
        assert page.locator("#publisher-list a", has_text="HM Land Registry").count() == 1
    else:
        assert page.url == served.url("publishers/#publishers-h")
        assert page.locator("#publishers-h").is_visible()
        assert page.locator("#publishers-h + ul a", has_text="HM Land Registry").count() == 1
    # The header's box on every other page goes there too.
    page.goto(served.url("records/companies-house-api/"))
    page.fill("#header-search-input", "vat returns")
    with page.expect_navigation():
        page.press("#header-search-input", "Enter")
    assert page.url == served.url("search/?q=vat+returns")
    # With JavaScript, that address searches, and the words move into the fragment.
    page, guard = open_page("search/?q=house+prices", viewport=SIZES[size])
    page.wait_for_selector("#search-results li", timeout=READY_TIMEOUT_MS)
    assert page.input_value("#search-input") == "house prices"
    assert page.url == served.url("#q=house+prices")


def _touch_screen(page: Any) -> None:
    """A phone's touch screen (Chromium's touch emulation: a coarse pointer that cannot hover)."""
    page.context.new_cdp_session(page).send(
        "Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5}
    )
    assert page.evaluate("() => matchMedia('(pointer: coarse)').matches")


@pytest.mark.parametrize("size", SIZES)
def test_the_search_box_is_in_the_top_half_of_the_first_screen(open_page, size):
    page, guard = open_page(None, viewport=SIZES[size])
    if size == "375":
        _touch_screen(page)
    page.goto(guard.origin + "/")
    page.wait_for_function("() => document.body.classList.contains('govuk-frontend-supported')")
    for selector in ("#search-input", "#search-form button[type=submit]"):
        box = page.locator(selector).bounding_box()
        assert box["y"] + box["height"] <= 450, f"{selector} ends at y {box['y'] + box['height']}"
    hint = page.locator("#search-hint").inner_text()
    assert "Results appear as you type" in hint
    # Hints that fit the device: no Escape key on a touch screen.
    assert ("press Escape" in hint) == (size == "1280"), hint
    screenshot(page, f"search-{size}-home", full_page=False)


def test_a_long_summary_is_cut_to_four_lines_and_kept_whole_for_screen_readers(open_page, site_dir):
    """A source's long blurb filled a laptop's screen between results of a line or two."""
    record = "life-healthwatch-history-and-functions"
    whole = _tool(site_dir, {"query": "healthwatch", "limit": 20})
    summary = next(item["summary"] for item in whole["results"] if item["id"] == record)
    page, guard = open_page("#q=healthwatch", viewport=LAPTOP, wait_ready=True)
    _status(page, "‘healthwatch’")
    shown = page.locator(f"#search-results > li[data-record-id='{record}'] .app-result__summary")
    box = shown.evaluate(
        "(p) => ({ height: p.getBoundingClientRect().height, full: p.scrollHeight,"
        " line: parseFloat(getComputedStyle(p).lineHeight), text: p.textContent })"
    )
    assert box["full"] > 4.5 * box["line"], "the summary is longer than four lines at this width"
    assert box["height"] <= 4.5 * box["line"]
    assert box["text"] == summary


@pytest.mark.parametrize("size", SIZES)
def test_compact_results_two_whole_on_a_phones_first_screen(open_page, size):
    """With a spelling suggestion and its notice above them, at least two whole
    results on a phone's first screen: title, tags, publisher and two lines of summary."""
    page, guard = open_page("#q=compnies+house", viewport=SIZES[size])
    _status(page, "‘compnies house’")
    page.wait_for_selector("#search-suggestion-link")
    height = SIZES[size]["height"]
    cards = page.locator("#search-results > li").evaluate_all(
        """(items) => items.map((li) => {
            const box = li.getBoundingClientRect();
            const summary = li.querySelector('.app-result__summary');
            return { top: box.top, bottom: box.bottom, summaryHeight: summary.getBoundingClientRect().height,
              lineHeight: parseFloat(getComputedStyle(summary).lineHeight),
              url: li.querySelector('.app-url').getClientRects().length > 0,
              tags: li.querySelectorAll('.govuk-tag').length, publisher: li.querySelector('.app-meta__publisher').innerText,
              body: li.querySelector('.govuk-tag').textContent === 'Organisation' };
        })"""
    )
    whole = [card for card in cards if card["top"] >= 0 and card["bottom"] <= height]
    assert len(whole) >= (2 if size == "375" else 1), cards[:3]
    # its type and access; a body has no access to describe
    assert all(card["tags"] >= (1 if card["body"] else 2) and card["publisher"] for card in cards)
    if size == "375":
        assert all(card["summaryHeight"] <= 2.5 * card["lineHeight"] for card in cards), "two lines of summary"
        assert not any(card["url"] for card in cards), "the address is on the record page"
    else:
        assert all(card["url"] for card in cards)
    screenshot(page, f"search-{size}-compact-results", full_page=False)


@pytest.mark.parametrize("size", SIZES)
def test_choosing_did_you_mean_moves_focus_to_the_results(open_page, size):
    page, guard = open_page("#q=compnies+house", viewport=SIZES[size])
    _status(page, "‘compnies house’")
    # The misspelt word is marked as the results spell it.
    marked = page.locator("#search-results .app-result__title mark").all_text_contents()
    assert any(word.lower().startswith("compan") for word in marked), marked
    page.focus("#search-suggestion-link")
    page.keyboard.press("Enter")
    _status(page, "‘companies house’")
    focused = page.evaluate("() => document.activeElement.id || document.activeElement.tagName")
    assert focused == "search-status", f"focus is on {focused}"
    page.keyboard.press("Tab")
    first = page.locator("#search-results .app-result__title a").first.get_attribute("href")
    assert page.evaluate("() => document.activeElement.getAttribute('href')") == first
    screenshot(page, f"search-{size}-after-suggestion", full_page=False)


@pytest.mark.parametrize("touch", [True, False], ids=["touch", "mouse"])
def test_submitting_on_a_touch_screen_puts_the_keyboard_away(open_page, touch):
    """A visitor on a phone pressed "Go" and the keyboard stayed over the results:
    the search box kept focus. On a touch screen focus moves to the count; with a
    mouse and keyboard it stays in the box, for the next words."""
    page, guard = open_page("", viewport=PHONE if touch else LAPTOP, touch=touch, wait_ready=True)
    page.fill("#search-input", "bathing water")
    _status(page, "‘bathing water’")  # the results as typed, before Go
    page.evaluate("() => { document.querySelector('#search-results li').dataset.before = 'go'; }")
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.querySelector('#search-results li[data-before]')")  # drawn again
    focused = page.evaluate("() => document.activeElement.id")
    assert focused == ("search-status" if touch else "search-input"), f"focus is on {focused}"
    # Go on an empty box draws nothing, so nothing takes focus later: the next answer
    # (a link's search, Back, a filter) leaves it in the box.
    page.fill("#search-input", "")
    page.wait_for_function("() => !document.querySelector('#search-results li')")
    page.keyboard.press("Enter")
    page.evaluate("() => { location.hash = '#q=flood'; }")
    _status(page, "‘flood’")
    assert page.evaluate("() => document.activeElement.id") == "search-input"


@pytest.mark.parametrize("size", SIZES)
def test_the_skip_link_goes_past_the_filters_to_the_results(open_page, size):
    page, guard = open_page("#q=data", viewport=SIZES[size])
    _status(page, "‘data’")
    page.wait_for_selector("#filter-groups input", state="attached")
    page.focus("#search-form button[type=submit]")
    page.keyboard.press("Tab")
    skip = page.locator("#skip-to-results")
    assert page.evaluate("() => document.activeElement.id") == "skip-to-results"
    assert skip.inner_text() == "Skip to results" and skip.is_visible()
    box = skip.bounding_box()
    assert box["width"] > 1 and box["height"] > 1, "visible when focused"
    screenshot(page, f"search-{size}-skip-link", full_page=False)
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "search-status"
    page.keyboard.press("Tab")
    first = page.locator("#search-results .app-result__title a").first.get_attribute("href")
    assert page.evaluate("() => document.activeElement.getAttribute('href')") == first


def test_results_show_the_publishers_date_as_govuk_writes_it(open_page):
    """A result with an update date shows it in <time datetime>, as the record
    pages do (the curated corpus has no dates; the full estate's are measured)."""
    page, guard = open_page("")
    shown = page.evaluate(
        """async () => {
            const link = document.querySelector('link[rel=modulepreload][href*="/results."]');
            const results = await import(link.href);
            const item = { id: "x", title: "T", summary: "S", url: "https://example.gov.uk/", resourceType: "api",
              publisher: "P", accessStatus: "public", collection: "ons", updated: "2026-12-02" };
            const li = results.resultItem(item, { base: "/", label: (kind, token) => token, query: "" });
            const undated = results.resultItem({ ...item, updated: undefined }, { base: "/", label: (kind, token) => token, query: "" });
            const time = li.querySelector(".app-meta time");
            return [time.dateTime, time.parentElement.textContent, results.govukDate("2026-07"),
              results.govukDate("2026-13-01"), undated.querySelectorAll("time").length];
        }"""
    )
    assert shown == ["2026-12-02", "Updated 2 December 2026", "July 2026", None, 0]


def test_an_organisations_result_has_no_access_tag(open_page):
    """A body has no access to describe: its result shows its type, not "Not applicable"."""
    page, guard = open_page("")
    tags = page.evaluate(
        """async () => {
            const link = document.querySelector('link[rel=modulepreload][href*="/results."]');
            const results = await import(link.href);
            const item = { id: "x", title: "T", summary: "S", url: "https://example.gov.uk/", publisher: "P",
              collection: "ons" };
            const label = (kind, token) => token;
            const tags = (more) => [...results.resultItem({ ...item, ...more }, { base: "/", label, query: "" })
              .querySelectorAll(".govuk-tag")].map((tag) => tag.textContent);
            return [tags({ resourceType: "organisation", accessStatus: "not-applicable" }),
              tags({ resourceType: "api", accessStatus: "public" })];
        }"""
    )
    assert tags == [["organisation"], ["api", "public"]]


def test_the_header_search_box_keeps_the_words_in_the_fragment(open_page, served):
    page, guard = open_page("records/companies-house-api/")
    assert page.locator("#agent-status").is_hidden() or "offered" in page.text_content("#agent-status")
    page.fill("#header-search-input", "bathing water")
    page.press("#header-search-input", "Enter")
    page.wait_for_url("**/#q=bathing+water")
    page.wait_for_selector("#search-results li", timeout=READY_TIMEOUT_MS)
    assert page.input_value("#search-input") == "bathing water"
    assert page.locator("#header-search-input").count() == 0, "the search page has one search box"
    sent = [unquote_plus(url).lower() for url in guard.requests]
    assert not [url for url in sent if "bathing" in url]


def test_other_councils_records_of_one_title_name_their_council(open_page, hostile_served, hostile_site_dir):
    """Two councils' "Widget Allotments" are one result; the one behind it names its
    council (a visitor read other councils' datasets as editions of the first's),
    where one publisher's editions name none."""
    tool = _tool(hostile_site_dir, {"query": "widget allotments", "limit": 8})
    (lead,) = [item for item in tool["results"] if item["title"] == "Widget Allotments"]
    (other,) = lead["others"]
    assert other["publisher"] != lead["publisher"]
    page, _ = open_page("#q=widget+allotments", site=hostile_served, wait_ready=True)
    _status(page, "‘widget allotments’")
    item = page.locator(f"#search-results > li[data-record-id='{lead['id']}']")
    item.locator("details.app-series summary").click()
    entry = item.locator("details.app-series li")
    assert entry.locator("a").text_content() == "Widget Allotments"
    assert entry.locator(".app-series__publisher").text_content() == f", {other['publisher']}"
    page.goto(page.url.split("#")[0] + "#q=" + quote_plus(SERIES_QUERY))
    _status(page, f"‘{SERIES_QUERY}’")
    assert page.locator(".app-series__publisher").count() == 0


def test_a_series_shows_as_one_result_with_the_rest_behind_a_disclosure(open_page, site_dir):
    """Monthly editions of one title are one result: "N more like this"
    opens a list of the others, each a link to its record page, in the tool's order."""
    query = "uk house price index"
    tool = _tool(site_dir, {"query": query, "limit": 8})
    lead = next(item for item in tool["results"] if item.get("more"))
    page, guard = open_page("#q=" + query.replace(" ", "+"), wait_ready=True)
    _status(page, f"‘{query}’")
    item = page.locator(f"#search-results > li[data-record-id='{lead['id']}']")
    disclosure = item.locator("details.app-series")
    assert disclosure.locator("summary").text_content() == f"{lead['more']} more like this"
    assert not disclosure.locator("ul").is_visible()
    disclosure.locator("summary").click()
    links = disclosure.locator("li a")
    assert links.evaluate_all("(all) => all.map((a) => a.textContent)") == [other["title"] for other in lead["others"]]
    # Targets a finger can tell apart (WCAG 2.2's 24px): one edition's link starts 24px or more below the last.
    tops = links.evaluate_all("(all) => all.map((a) => a.getBoundingClientRect().top)")
    assert len(tops) > 1 and all(lower - upper >= 24 for upper, lower in zip(tops, tops[1:])), tops
    assert links.first.get_attribute("href").endswith(f"records/{lead['others'][0]['id']}/#from-results")
    assert page.locator("details.app-series").count() == sum(1 for item in tool["results"] if item.get("more"))
