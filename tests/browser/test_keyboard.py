"""Keyboard-only use of the search page, and the loading bar.

One page is loaded for the whole module (Python's cold start in the browser
takes seconds); the tests run in file order on it, as one keyboard session:
Tab from the top of the page, type, press Enter, move through the filters and
results, press Escape. Every step reads document.activeElement, never a
selector the user cannot see.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browserkit import READY_TIMEOUT_MS, screenshot

# Records every change of the loading bar from the very start of the page
# (an init script runs before the page's own code and is not subject to its CSP).
PROGRESS_RECORDER = """
window.__progress = [];
document.addEventListener("DOMContentLoaded", () => {
  const box = document.getElementById("search-progress");
  const bar = document.getElementById("loading-progress");
  if (!box || !bar) { return; }
  const note = () => window.__progress.push({
    visible: !box.hidden && box.getClientRects().length > 0,
    value: Number(bar.value),
    label: document.getElementById("loading-label").textContent,
    t: performance.now(),
  });
  note();
  new MutationObserver(note).observe(box, { attributes: true, subtree: true, childList: true, characterData: true });
});
"""

# What the focused element is, and how it looks focused and not focused.
FOCUSED = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) { return { kind: "body" }; }
  const look = (node) => {
    const label = node.id ? document.querySelector(`label[for="${CSS.escape(node.id)}"]`) : null;
    const s = getComputedStyle(node);
    const styles = [[s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow, s.backgroundColor, s.color, s.textDecorationLine].join("|")];
    if (label) {  // GOV.UK checkboxes draw the box, and its focus ring, on the label
      const s = getComputedStyle(label, "::before");
      styles.push([s.outlineStyle, s.outlineWidth, s.boxShadow, s.borderWidth].join("|"));
    }
    return styles.join(" / ");
  };
  const focused = look(el);
  el.blur();
  const unfocused = look(el);
  el.focus();
  const box = el.getBoundingClientRect();
  return {
    kind: el.closest("#filter-groups") ? "filter" : el.closest("#search-results") ? "result" : el.id ? "#" + el.id : el.className.split(" ")[0] || el.tagName.toLowerCase(),
    id: el.id,
    filter: el.dataset && el.dataset.dimension ? [el.dataset.dimension, el.dataset.value, el.checked] : null,
    text: (el.textContent || "").trim().slice(0, 60),
    href: el.getAttribute("href"),
    focused,
    unfocused,
    onScreen: box.width > 1 && box.height > 1,
  };
}"""


class Guard:
    def __init__(self, origin: str):
        self.origin = origin
        self.foreign: list[str] = []
        self.console_errors: list[str] = []


def guarded_page(browser: Any, origin: str, **options: Any) -> tuple[Any, Any, Guard]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block", **options)
    guard = Guard(origin)

    def route(route: Any) -> None:
        if route.request.url.startswith(origin + "/"):
            route.continue_()
        else:
            guard.foreign.append(route.request.url)
            route.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.on("console", lambda message: guard.console_errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: guard.console_errors.append(f"page error: {error}"))
    return context, page, guard


@pytest.fixture(scope="module")
def session(browser, served) -> Iterator[Any]:
    context, page, guard = guarded_page(browser, served.origin)
    context.add_init_script(PROGRESS_RECORDER)
    page.goto(served.url(""))
    yield page
    context.close()
    assert not guard.foreign, guard.foreign
    assert not guard.console_errors, guard.console_errors


def tab(page, key: str = "Tab") -> dict:
    page.keyboard.press(key)
    return page.evaluate(FOCUSED)


def wait_for_status(page, text: str) -> None:
    page.wait_for_function(
        "(text) => document.getElementById('search-status').textContent.includes(text)",
        arg=text,
        timeout=READY_TIMEOUT_MS,
    )


def test_loading_bar_shows_progress_then_goes_away(session):
    page = session
    page.wait_for_selector("#search-progress", state="hidden", timeout=READY_TIMEOUT_MS)
    samples = page.evaluate("() => window.__progress")
    assert samples, "the loading bar was never seen"
    loading = [s for s in samples if s["visible"] and s["value"] < 100]
    assert loading, f"the bar was never visible while loading: {samples[:5]}"
    values = [s["value"] for s in samples]
    assert values == sorted(values), f"the bar went backwards: {values}"
    assert len({s["value"] for s in loading}) >= 3, f"the bar did not move: {values}"
    assert len({s["label"] for s in loading}) >= 2, "the label never said what is loading"
    assert not samples[-1]["visible"] and samples[-1]["value"] == 100
    assert page.locator("#loading-progress").evaluate("(bar) => bar.labels.length") == 1


def test_tab_order_from_the_top_and_the_skip_link(session):
    page = session
    first = tab(page)
    assert first["kind"] == "govuk-skip-link" and first["text"] == "Skip to main content"
    assert first["onScreen"], "the skip link must be visible when focused"
    assert first["focused"] != first["unfocused"]
    screenshot(page, "keyboard-skip-link", full_page=False)
    # Following the skip link lands in the main content: the next stop is the search box.
    page.keyboard.press("Enter")
    after_skip = tab(page)
    assert after_skip["kind"] == "#search-input", after_skip
    # Backwards from the search box: the site navigation, the masthead, the skip link.
    backwards = [tab(page, "Shift+Tab") for _ in range(5)]
    assert [(stop["kind"], stop["text"]) for stop in backwards] == [
        ("govuk-service-navigation__link", "About"),
        ("govuk-service-navigation__link", "Browse"),
        ("govuk-service-navigation__link", "Search"),
        ("app-masthead__link", "govsearch"),
        ("govuk-skip-link", "Skip to main content"),
    ]
    for stop in backwards:
        assert stop["focused"] != stop["unfocused"], f"no visible focus on {stop['text']}"


def test_typing_then_tab_through_button_filters_and_results(session):
    page = session
    page.evaluate("() => document.activeElement.blur()")
    for _ in range(10):
        if tab(page)["kind"] == "#search-input":
            break
    else:
        pytest.fail("Tab never reached the search box")
    page.keyboard.type("companies house")
    page.keyboard.press("Enter")
    wait_for_status(page, "companies house")
    page.wait_for_selector("#filter-groups input")
    # The filters' controls that can take focus (folded values cannot), in page order.
    filters = page.locator("#filter-groups input, #filter-groups button").evaluate_all(
        "(els) => els.filter((el) => el.getClientRects().length).map((el) => el.id)"
    )
    results = page.locator("#search-results a").evaluate_all("(links) => links.map((a) => a.getAttribute('href'))")
    assert filters and results
    stops = [tab(page) for _ in range(3 + len(filters) + 3)]
    assert stops[0]["kind"] == "govuk-button" and stops[0]["text"] == "Search"
    # A skip link past the filters, seen when focused.
    assert stops[1]["id"] == "skip-to-results" and stops[1]["text"] == "Skip to results" and stops[1]["onScreen"]
    # The filters sit behind a disclosure (open beside the results on a wide screen).
    assert stops[2]["kind"] == "app-filters__summary" and stops[2]["text"] == "Filters"
    assert [stop["id"] for stop in stops[3 : 3 + len(filters)]] == filters
    assert all(stop["kind"] == "filter" for stop in stops[3 : 3 + len(filters)])
    assert [stop["href"] for stop in stops[3 + len(filters) :]] == results[:3]
    for stop in stops:
        assert stop["focused"] != stop["unfocused"], f"no visible focus on {stop}"
    # Space ticks the focused filter, and focus stays on it after the results update.
    for _ in range(3):
        page.keyboard.press("Shift+Tab")
    box = page.evaluate(FOCUSED)
    for _ in range(len(filters)):  # back past a "Show all" button to the last checkbox
        if box["filter"]:
            break
        page.keyboard.press("Shift+Tab")
        box = page.evaluate(FOCUSED)
    assert box["kind"] == "filter" and box["filter"][2] is False
    page.keyboard.press("Space")
    page.wait_for_function("() => location.hash.includes('&')")
    wait_for_status(page, "companies house")
    now = page.evaluate(FOCUSED)
    assert now["filter"] == [*box["filter"][:2], True], "focus must stay on the filter just ticked"
    screenshot(page, "keyboard-filter-focus", full_page=False)
    page.keyboard.press("Space")
    page.wait_for_function("() => !location.hash.includes('&')")


def test_enter_searches_without_waiting_for_typing(session):
    page = session
    page.focus("#search-input")
    # Set the text without input events (as autofill would): only Enter can start this search.
    page.evaluate("() => { document.getElementById('search-input').value = 'bathing water'; }")
    page.keyboard.press("Enter")
    wait_for_status(page, "bathing water")
    assert "q=bathing+water" in page.evaluate("() => location.hash")
    assert page.locator("#search-results li").count() > 0


def test_escape_clears_the_search_and_restores_the_home_state(session):
    page = session
    page.locator("#filter-groups input").first.check()
    page.wait_for_function("() => location.hash.includes('&')")
    wait_for_status(page, "bathing water")
    searched = page.evaluate("() => location.hash")
    page.focus("#search-input")
    assert page.locator("#search-results li").count() > 0
    page.keyboard.press("Escape")
    page.wait_for_function("() => document.querySelectorAll('#search-results li').length === 0")
    assert page.input_value("#search-input") == ""
    assert page.evaluate("() => location.hash") == ""
    assert page.text_content("#search-status") == ""
    assert page.locator("#filters").is_hidden()
    assert page.evaluate(FOCUSED)["kind"] == "#search-input", "focus must stay in the search box"
    assert "press Escape to clear the search" in page.text_content("#search-hint")
    assert page.locator("#search-hint .app-js-only").is_visible()
    # Escape added a history entry: Back brings the search back.
    page.go_back()
    page.wait_for_function("() => document.getElementById('search-input').value === 'bathing water'")
    wait_for_status(page, "bathing water")
    assert page.evaluate("() => location.hash") == searched
    assert page.locator("#filter-groups input:checked").count() == 1


def test_enter_without_javascript_keeps_the_query_and_says_search_needs_it(open_page, served):
    page, guard = open_page("", js=False)
    page.click("#search-input")
    page.keyboard.type("vat returns")
    assert not page.locator("#search-hint .app-js-only").is_visible(), "the Escape hint needs JavaScript"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    # The words stay in the address (the search runs there once JavaScript can);
    # the page says why nothing was searched and offers the browse pages.
    assert page.url == served.url("search/?q=vat+returns")
    assert page.locator("h1").text_content() == "Search needs JavaScript"
    browse = page.locator("main a[href='/browse/']")
    assert browse.is_visible()
    browse.focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.locator("h1").text_content() == "Browse the catalogue"
    assert page.locator("#no-js-search").is_visible()
    assert page.locator("main a[href^='/collections/']").count() >= 5
    screenshot(page, "browse-after-no-js-search")
