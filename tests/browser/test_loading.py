"""While search loads on a slow link, the page says how much is left and
about how long, and links to the browse pages, which work without the
search engine (issue 34)."""

from __future__ import annotations

import re


def test_loading_says_what_is_left_and_the_browse_pages_need_no_engine(open_page):
    page, guard = open_page(None)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    # About 5 MB at 8 Mbit/s: several seconds of labels to read.
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 20, "downloadThroughput": 1_000_000, "uploadThroughput": 250_000},
    )
    labels: list[str] = []
    page.goto(guard.origin + "/#q=land%20registry")
    for _ in range(600):
        text = page.text_content("#loading-label") or ""
        if not labels or labels[-1] != text:
            labels.append(text)
        if re.search(r"MB left \(about \d+ (s|min) left\)", text) or page.locator("#search-results li").count():
            break
        page.wait_for_timeout(50)
    told = [
        label for label in labels if re.search(r"[\d.]+ (MB|kB) of [\d.]+ MB left \(about \d+ (s|min) left\)", label)
    ]
    assert told, labels
    link = page.locator("#loading-browse a")
    assert link.is_visible() and link.get_attribute("href").endswith("/browse/")

    # The browse pages it links work with no search engine at all.
    browse, guard2 = open_page(None)
    guard2.expect_console_errors(r"Failed to load resource")  # the agent tools' data, refused below
    browse.route("**/pyodide/**", lambda route: route.abort())
    browse.route("**/data/**", lambda route: route.abort())
    browse.goto(guard2.origin + "/browse/")
    assert browse.locator("main a[href^='/collections/']").count() >= 5
    # One collection's page (the first link may be the index of all collections).
    browse.locator("main a[href^='/collections/']:not([href='/collections/'])").first.click()
    browse.wait_for_load_state()
    assert browse.locator("main a[href*='/records/']").count() > 0
    assert not [url for url in guard2.requests if "/pyodide/" in url]
