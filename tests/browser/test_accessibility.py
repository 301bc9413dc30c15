"""Accessibility of every kind of page: axe-core (WCAG 2.2 A and AA rules),
reflow at 320 px, forced colours and reduced motion.

axe-core comes from node_modules and is added with an init script, which
Chromium runs through the DevTools protocol: the pages keep their real
Content Security Policy (no bypass_csp), which would rightly refuse axe as an
inline <script>. One browser context serves the static pages and one page is
kept for the search page, so Python loads once for the module.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
from browserkit import READY_TIMEOUT_MS, REPO, screenshot, wait_for_ready

from needs import need

AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
LAPTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 812}

# name -> path; "" is the home page, "#q=..." the results of a search.
PAGES = {
    "home": "",
    "results": "#q=vat",
    # A pasted address: the status line quotes it, one unbroken word.
    "pasted-address": "#q=https://www.gov.uk/government/organisations/hm-passport-office/about/complaints-procedure",
    "empty": "#q=zzyzx qqvpl",
    "record": "records/companies-house-api/",
    "collection": "collections/land-registry/",
    "publisher": "publishers/hm-land-registry/",
    "type": "types/api/",
    "access": "access/public/",
    "access-page-2": "access/public/page-2/",
    "browse": "browse/",
    "types-index": "types/",
    "publishers-index": "publishers/",
    "records-index": "records/",
    "search-needs-js": "search/?q=vat+returns",
    "about": "about/",
    "privacy": "privacy/",
    "accessibility": "accessibility/",
    "404": "no/such/page/",
}


class Pages:
    """The module's pages: one for the search page, one navigated between static pages."""

    def __init__(self, browser: Any, served: Any):
        self.served = served
        self.foreign: list[str] = []
        self.console_errors: list[str] = []
        self.context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
        self.context.add_init_script(path=str(AXE))
        self.context.route("**/*", self._route)
        self.search = self._page()
        self.search.goto(served.url(""))
        wait_for_ready(self.search)
        self.static = self._page()

    def _route(self, route: Any) -> None:
        if route.request.url.startswith(self.served.origin + "/"):
            route.continue_()
        else:
            self.foreign.append(route.request.url)
            route.abort()

    def _page(self) -> Any:
        page = self.context.new_page()
        page.on(
            "console", lambda message: self.console_errors.append(message.text) if message.type == "error" else None
        )
        page.on("pageerror", lambda error: self.console_errors.append(f"page error: {error}"))
        return page

    def open(self, name: str, viewport: dict | None = None) -> Any:
        path = PAGES[name]
        page = self.search if name in ("home", "results", "pasted-address", "empty") else self.static
        page.bring_to_front()  # screenshots of a background tab can stall
        page.set_viewport_size(viewport or LAPTOP)
        page.emulate_media(forced_colors="none", reduced_motion="no-preference")
        if name == "home":
            page.fill("#search-input", "")
            page.press("#search-input", "Escape")
            page.wait_for_function("() => location.hash === '' && !document.querySelector('#search-results li')")
        elif name in ("results", "pasted-address"):
            page.fill("#search-input", path.removeprefix("#q="))
            page.wait_for_selector("#search-results li", timeout=READY_TIMEOUT_MS)
            page.wait_for_selector("#filter-groups input", state="attached")
        elif name == "empty":
            page.fill("#search-input", path.removeprefix("#q="))
            page.wait_for_selector("#search-empty-state p", timeout=READY_TIMEOUT_MS)
        elif name == "search-needs-js":
            # As a visitor without JavaScript sees it: boot.js (which would move
            # the words to the search page) answers with an empty module.
            page.route("**/static/js/boot.*.js", lambda route: route.fulfill(body="", content_type="text/javascript"))
            response = page.goto(self.served.url(path))
            page.unroute("**/static/js/boot.*.js")
            assert response.status == 200 and page.url == self.served.url(path)
        else:
            response = page.goto(self.served.url(path))
            assert response.status == (404 if name == "404" else 200)
            if name == "404":  # Chromium logs the 404 status itself
                page.wait_for_load_state()
                self.console_errors[:] = [text for text in self.console_errors if "404" not in text]
        return page


@pytest.fixture(scope="module")
def pages(browser, served) -> Iterator[Pages]:
    need(AXE.exists(), "axe-core (npm)")
    handle = Pages(browser, served)
    yield handle
    handle.context.close()
    assert not handle.foreign, handle.foreign
    assert not handle.console_errors, handle.console_errors


@pytest.mark.parametrize("size", ["1280", "375"])
@pytest.mark.parametrize("name", PAGES)
def test_no_serious_axe_violations(pages, name, size):
    page = pages.open(name, LAPTOP if size == "1280" else PHONE)
    assert page.evaluate("() => typeof axe") == "object", "axe-core did not load"
    result = page.evaluate("(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags}})", AXE_TAGS)
    serious = [
        f"{violation['id']} ({violation['impact']}): {[node['target'] for node in violation['nodes']][:5]}"
        for violation in result["violations"]
        if violation["impact"] in ("serious", "critical")
    ]
    assert not serious, serious
    assert len(result["passes"]) > 10, "axe checked almost nothing"


@pytest.mark.parametrize("name", PAGES)
def test_reflows_at_320_pixels(pages, name):
    page = pages.open(name)
    page.set_viewport_size({"width": 320, "height": 640})
    page.wait_for_function("() => window.innerWidth === 320")
    width = page.evaluate("() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")
    wide = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
            .filter((el) => el.getClientRects().length && el.getBoundingClientRect().right > 321)
            .filter((el) => !el.closest('.govuk-visually-hidden, .govuk-skip-link'))
            .slice(0, 5).map((el) => el.tagName + '.' + el.className)"""
    )
    assert width <= 320 and not wide, f"{name} is {width} px wide at 320 px: {wide}"
    if name in ("home", "results", "record", "collection", "access-page-2"):
        screenshot(page, f"reflow-320-{name}")


FOCUS_RING = """(el) => {
  el.focus();
  const s = getComputedStyle(el);
  const ring = { style: s.outlineStyle, width: parseFloat(s.outlineWidth), color: s.outlineColor, shadow: s.boxShadow };
  el.blur();
  const rest = getComputedStyle(el);
  ring.unfocusedStyle = rest.outlineStyle;
  ring.unfocusedColor = rest.outlineColor;
  return ring;
}"""


def _transparent(colour: str) -> bool:
    return colour == "transparent" or colour.replace(" ", "").endswith(",0)")


@pytest.mark.parametrize("name", ["home", "results", "record", "collection", "browse", "access-page-2", "404"])
def test_forced_colours_keep_focus_visible(pages, name):
    page = pages.open(name)
    page.emulate_media(forced_colors="active")
    assert page.evaluate("() => matchMedia('(forced-colors: active)').matches")
    targets = ["main a.govuk-link", ".govuk-service-navigation__link", ".app-footer a"]
    if name in ("home", "results"):
        targets += ["#search-input", "#search-form .govuk-button"]
    if name == "results":
        targets.append("#search-results a")
    if name == "access-page-2":
        targets.append(".govuk-pagination__link")
    for selector in targets:
        # The first one a person can reach (the loading notice's browse link is hidden once search is ready).
        ring = page.locator(selector).filter(visible=True).first.evaluate(FOCUS_RING)
        # Box shadows are dropped in forced colours: the outline must carry the focus.
        assert ring["style"] != "none" and ring["width"] >= 2 and not _transparent(ring["color"]), (selector, ring)
        assert (
            ring["unfocusedStyle"] == "none"
            or _transparent(ring["unfocusedColor"])
            or ring["unfocusedColor"] != ring["color"]
        ), (selector, ring)
    if name == "results":  # the filter checkboxes draw their focus on the label
        box = page.locator("#filter-groups input").first
        box.focus()
        before = box.evaluate(
            "(el) => { const s = getComputedStyle(el.labels[0], '::before'); return [s.outlineStyle, parseFloat(s.outlineWidth), s.outlineColor]; }"
        )
        assert before[0] != "none" and before[1] >= 2 and not _transparent(before[2]), before
    page.locator(targets[0]).filter(visible=True).first.focus()
    screenshot(page, f"forced-colours-{name}", full_page=False)


def _png_rows(data: bytes) -> list[list[tuple[int, int, int]]]:
    """RGB pixels of a PNG screenshot (8-bit RGB or RGBA, any filter)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, idat = 8, b""
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind, body = data[position + 4 : position + 8], data[position + 8 : position + 8 + length]
        position += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour_type = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour_type in (2, 6)
        elif kind == b"IDAT":
            idat += body
    raw, bpp = zlib.decompress(idat), 4 if colour_type == 6 else 3
    stride, rows, previous, offset = width * bpp, [], bytearray(width * bpp), 0
    for _ in range(height):
        kind, line = raw[offset], bytearray(raw[offset + 1 : offset + 1 + stride])
        offset += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = previous[x]
            c = previous[x - bpp] if x >= bpp else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp : x * bpp + 3]) for x in range(width)])
        previous = line
    return rows


def test_forced_colours_keep_the_bar_charts_visible(pages):
    page = pages.open("collection")
    page.emulate_media(forced_colors="active")
    # The system colour for text in the forced palette (what the bars must use).
    text_colour = page.evaluate(
        """() => { const probe = document.createElement('span'); probe.style.color = 'CanvasText'; document.body.append(probe);
                   const rgb = getComputedStyle(probe).color.match(/\\d+/g).slice(0, 3).map(Number); probe.remove(); return rgb; }"""
    )
    widths = page.locator(".app-chart__bar rect").evaluate_all(
        "(rects) => rects.map((r) => Number(r.getAttribute('width')))"
    )
    checked = 0
    for index, width in enumerate(widths):
        if not 15 <= width <= 85:
            continue
        rows = _png_rows(page.locator(".app-chart__bar").nth(index).screenshot())
        middle = rows[len(rows) // 2]
        bar, track = middle[int(len(middle) * width / 200)], middle[int(len(middle) * (100 + width) / 200)]
        assert list(bar) == text_colour, f"bar {index} is {bar}, not the forced text colour {text_colour}"
        assert sum(abs(x - y) for x, y in zip(bar, track)) > 300, (
            f"bar {index} ({bar}) is not distinguishable from its track ({track})"
        )
        checked += 1
    assert checked >= 3
    page.locator(".app-chart").first.scroll_into_view_if_needed()
    screenshot(page, "forced-colours-chart", full_page=False)


MOTION = """() => {
  const moving = [];
  for (const el of document.querySelectorAll('*')) {
    for (const pseudo of [null, '::before', '::after']) {
      const s = getComputedStyle(el, pseudo);
      const times = [s.transitionDuration, s.animationDuration, s.transitionDelay, s.animationDelay].join(',').split(',');
      if (times.some((t) => parseFloat(t) > 0) || (s.animationName !== 'none' && s.animationIterationCount === 'infinite')) {
        moving.push(`${el.tagName}.${el.className}${pseudo || ''}: ${s.transitionDuration} ${s.animationName} ${s.animationDuration}`);
      }
    }
  }
  return moving;
}"""

# Motion as a later change might add it (constructed style sheets are CSSOM, which the CSP allows).
ADD_MOTION = """() => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(`@keyframes test-spin { to { transform: rotate(1turn); } }
    a, .govuk-button, #search-input { transition: background-color 2s ease 0.5s; }
    .govuk-heading-xl::after { content: ''; animation: test-spin 3s infinite; }`);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  return () => {};
}"""


@pytest.mark.parametrize("name", ["home", "results", "record", "collection", "about"])
def test_reduced_motion_switches_off_transitions_and_animations(pages, name):
    page = pages.open(name)
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches")
    assert page.evaluate(MOTION) == []
    page.evaluate(ADD_MOTION)
    try:
        assert page.evaluate(MOTION) == [], "motion added by any later style must be switched off too"
        page.emulate_media(reduced_motion="no-preference")
        assert page.evaluate(MOTION), "the test's own motion should show without the preference"
    finally:
        page.evaluate("() => { document.adoptedStyleSheets = []; }")
