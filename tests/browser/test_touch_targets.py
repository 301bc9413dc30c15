"""Touch targets on a phone (375 x 812, a touch screen): the search page, its results and
its "no results", and the other pages (a record, a publisher, a collection, the browse pages).

A visitor's trial on a phone found targets a finger misses: the header's
links 22 px tall, the search box and its button 40 px, "Clear all filters"
20 px. Every control the page shows must offer at least 44 x 44 CSS px
(WCAG 2.5.5), its own box or a larger hit area round it; links inside a
sentence are the criterion's one exception here.

The hit area is measured, not the box: from a point of the control, the
browser is asked (document.elementFromPoint) which control each point up,
down, left and right hits, until it is another. So a hit area grown with
padding or an invisible pseudo-element counts, and one that covers a
neighbour shrinks the neighbour's, which then fails.
"""

from __future__ import annotations

import pytest
from browserkit import READY_TIMEOUT_MS, screenshot

PHONE = {"width": 375, "height": 812}
LAPTOP = {"width": 1280, "height": 900}
MIN_TARGET = 44

# Every visible control under `root`: its name, its box, and the extent of its hit area.
HIT_AREAS = """(root) => {
  const CONTROL = "a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]:not([tabindex='-1'])";
  const owner = (x, y) => { const hit = document.elementFromPoint(x, y); return hit && hit.closest(CONTROL); };
  // How many pixels beyond (x, y), in the direction (dx, dy), still hit `control`.
  const reach = (control, x, y, dx, dy) => {
    let n = 0;
    while (n < 300) {
      const px = x + dx * (n + 1), py = y + dy * (n + 1);
      if (px < 0 || py < 0 || px >= innerWidth || py >= innerHeight || owner(px, py) !== control) break;
      n++;
    }
    return n;
  };
  // A link in a sentence: shown inline, beside text of its own line's box (WCAG 2.5.5's "Inline").
  const inSentence = (control) => getComputedStyle(control).display === "inline" &&
    [...control.parentNode.childNodes].some((node) => node !== control && (node.nodeType === Node.TEXT_NODE
      ? node.textContent.trim() : node.nodeType === Node.ELEMENT_NODE && getComputedStyle(node).display === "inline" && node.textContent.trim()));
  const found = [];
  for (const control of document.querySelector(root).querySelectorAll(CONTROL)) {
    if (!control.checkVisibility({ visibilityProperty: true, opacityProperty: false })) continue;
    const box = control.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue; // visually hidden until focused (the skip links)
    const text = (control.innerText || control.value || control.getAttribute("aria-label") || "").replace(/\\s+/g, " ").trim();
    const name = `${control.tagName.toLowerCase()}${control.id ? "#" + control.id : ""} "${text.slice(0, 50)}"`;
    if (inSentence(control)) { found.push({ name, inSentence: true }); continue; }
    control.scrollIntoView({ block: "center", inline: "nearest" });
    let width = 0, height = 0;
    // From the middle of each of its boxes (a wrapped link has one a line), else the point
    // nearest it along its middle row that hits the control.
    for (const rect of control.getClientRects()) {
      const y = rect.top + rect.height / 2;
      for (let step = 0; step < 21; step++) {
        const x = rect.left + (rect.width * (step % 2 ? 10 - (step >> 1) : 10 + (step >> 1))) / 20;
        if (owner(x, y) !== control) continue;
        width = Math.max(width, reach(control, x, y, -1, 0) + reach(control, x, y, 1, 0) + 1);
        height = Math.max(height, reach(control, x, y, 0, -1) + reach(control, x, y, 0, 1) + 1);
        break; // the point of this box nearest its middle that hits the control
      }
    }
    found.push({ name, width, height, box: [Math.round(box.width), Math.round(box.height)] });
  }
  return found;
}"""


def _status(page, text: str) -> None:
    page.wait_for_function(
        "(text) => document.getElementById('search-status').textContent.includes(text)",
        arg=text,
        timeout=READY_TIMEOUT_MS,
    )


def _too_small(controls: list[dict], *expected: str) -> list[str]:
    """Each control whose hit area is under a target's size, after checking `expected` were measured."""
    measured = [control for control in controls if not control.get("inSentence")]
    names = " ".join(control["name"] for control in measured)
    for name in expected:
        assert name in names, f"{name} was not measured: {names}"
    return [
        f"{control['name']}: {control['width']} x {control['height']} px (box {control['box']})"
        for control in measured
        if min(control["width"], control["height"]) < MIN_TARGET
    ]


def _assert_finger_sized(page, *expected: str) -> None:
    small = _too_small(page.evaluate(HIT_AREAS, "body"), *expected)
    where = f"targets smaller than {MIN_TARGET} x {MIN_TARGET} px on a phone ({page.url}):"
    assert not small, "\n".join([where, *small])


def test_every_control_on_the_search_page_is_a_finger_sized_target_on_a_phone(open_page):
    # A search with a filter ticked (its chip and "Clear all filters"), results with "Show more",
    # and a filter list long enough to fold behind "Show all".
    page, guard = open_page("#q=data&accessStatuses=public", viewport=PHONE, touch=True)
    _status(page, "‘data’")
    assert page.evaluate("() => matchMedia('(pointer: coarse)').matches"), "a touch screen"
    page.tap("#filters summary")
    page.wait_for_selector("#filter-groups input", state="visible")
    assert page.locator("#filter-groups button[data-toggle]").count(), "a long filter list, with its 'Show all'"
    assert page.locator("#search-selected button[data-clear]").is_visible()
    assert page.locator("#search-show-more").is_visible()
    screenshot(page, "touch-targets-375", full_page=True)
    expected = ('a "Browse"', "input#search-input", 'button "Search"', "summary", "Clear all filters", "Show all")
    _assert_finger_sized(page, *expected)


def test_the_no_results_view_is_finger_sized_on_a_phone(open_page):
    """No results with a filter ticked: the advice offers "clearing all filters", a button in
    its list of tips (a visitor's trial measured it 20 px tall), beside the chips and the filter."""
    page, guard = open_page("#q=zzyzx%20qqvpl&accessStatuses=public", viewport=PHONE, touch=True)
    _status(page, "No results for ‘zzyzx qqvpl’")
    page.tap("#filters summary")
    page.wait_for_selector("#filter-groups input", state="visible")
    assert page.locator("#search-empty-state button", has_text="clearing all filters").is_visible()
    screenshot(page, "touch-targets-375-no-results", full_page=True)
    _assert_finger_sized(page, 'button "clearing all filters"', "Clear all filters", "input#filter-")


# The site's other pages, without the search engine: a record (one reached from the results, with
# "Back to search results"; its "Where this record comes from" open), a publisher's records, a
# collection's (its charts link to the browse pages), the browse page and the publishers' letters;
# and the lists of links each followed by its count (the search page's collections too), which are
# no sentence: the exemption is for a link shown inline beside text of its own.
OTHER_PAGES = {  # kind: its path, and controls that must be among those measured
    "record": (
        "records/companies-house-api/",
        (
            'a#back-to-results "Back to search results"',
            'a "Companies House"',
            "a#access-others",
            'summary "Where this record comes from"',
            'a "https://developer',
            'a "Read the API’s documentation',
        ),
    ),
    "publisher": ("publishers/hm-land-registry/", ('a "Publishers A to Z"', "input#header-search-input")),
    "collection": ("collections/uk-living/", ('a "Collections"', 'a "HM Revenue & Customs"', 'a "Next page"')),
    "browse": (
        "browse/",
        ('a "Collections"', 'a "Deep evidence"', 'a "Publishers A to Z"', 'a "A"', 'a "All records"'),
    ),
    "publishers A to Z": ("publishers/", ('a "Browse"', 'a "A"', 'a "W"')),
    "record lists": ("records/", ('a "Browse"', 'a "Resource types"', 'a "Publishers A to Z"')),
    # Lists of links each followed by its count, "Deep evidence (165)": the ways into the catalogue.
    "home": ("", ('a "Deep evidence"', 'a "UK living"')),
    "collections": ("collections/", ('a "Deep evidence"', 'a "UK living"')),
    "resource types": ("types/", ('a "GOV.UK content"', 'a "API"')),
    "publishers under a letter": ("browse/publishers/a/", ('a "Aberdeen City Council"',)),
}


@pytest.mark.parametrize("kind", OTHER_PAGES)
def test_every_control_on_the_other_pages_is_a_finger_sized_target_on_a_phone(open_page, served, kind):
    """Breadcrumbs, a record's links (its publisher, its type, the records of its access
    status, its documentation) and "Where this record comes from", a collection's chart
    links, headings that are links and the letters of publishers A to Z: each 44 x 44 px
    or more where a finger points, as on the search page."""
    page, guard = open_page("browse/", viewport=PHONE, touch=True)
    path, expected = OTHER_PAGES[kind]
    page.goto(served.url(path + ("#from-results" if kind == "record" else "")))
    page.wait_for_load_state("load")
    if kind == "record":
        page.wait_for_selector("#back-to-results")
        page.tap("#provenance-details summary")
    screenshot(page, f"touch-targets-375-{kind.replace(' ', '-')}", full_page=True)
    _assert_finger_sized(page, *expected)


def test_a_records_way_in_is_its_main_action_on_a_phone(open_page):
    """Where the visitor goes from a record, its official source, was a bold link in the
    text (a 20 px line, exempt as a link in a sentence): it is the page's main action, a
    target of its own on the first screen, and still a link to the source."""
    page, guard = open_page("records/access-to-work/", viewport=PHONE, touch=True)
    link = page.locator("#way-in a")
    assert link.count() == 1
    assert link.evaluate("(a) => a.tagName") == "A" and link.get_attribute("role") is None
    assert link.get_attribute("href") == "https://www.gov.uk/access-to-work"
    assert link.get_attribute("rel") == "external noopener noreferrer" and link.get_attribute("target") is None
    assert link.inner_text().startswith("Go to the official source")
    (control,) = page.evaluate(HIT_AREAS, "#way-in")
    assert not control.get("inSentence"), "a target of its own, not a link in a sentence"
    assert min(control["width"], control["height"]) >= MIN_TARGET, control
    assert control["width"] >= PHONE["width"] / 2, f"as wide as a main action: {control}"
    page.evaluate("window.scrollTo(0, 0)")
    assert link.bounding_box()["y"] + link.bounding_box()["height"] <= PHONE["height"], "on the first screen"
    assert link.evaluate("(a) => getComputedStyle(a).backgroundColor") not in ("rgba(0, 0, 0, 0)", "transparent")
    screenshot(page, "touch-targets-375-way-in")


def test_a_laptop_keeps_govuk_sizes(open_page):
    """The targets grow where a finger points, not with a mouse on a wide screen."""
    page, guard = open_page("", viewport=LAPTOP)
    page.wait_for_function("() => document.body.classList.contains('govuk-frontend-supported')")
    assert not page.evaluate("() => matchMedia('(pointer: coarse)').matches")
    assert page.locator("#search-input").bounding_box()["height"] == 40
    assert page.locator(".govuk-service-navigation__link").first.evaluate(
        "(link) => getComputedStyle(link, '::after').content"
    ) in ("none", "normal", "")


def test_a_laptop_keeps_govuk_sizes_on_the_other_pages(open_page):
    """A record page with a mouse: GOV.UK's breadcrumbs and links, no hit areas round them."""
    page, guard = open_page("records/companies-house-api/", viewport=LAPTOP)
    crumb = page.locator(".govuk-breadcrumbs__list-item").first
    assert crumb.bounding_box()["height"] < MIN_TARGET
    for selector in (".govuk-breadcrumbs__link", "#access-others", "#provenance-details summary"):
        assert page.locator(selector).first.evaluate("(link) => getComputedStyle(link, '::after').content") in (
            "none",
            "normal",
            "",
        ), selector
