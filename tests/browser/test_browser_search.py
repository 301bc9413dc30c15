"""People searching: results as they type, filters with counts, the fragment and history."""

from __future__ import annotations

from urllib.parse import parse_qs

from browserkit import screenshot, wait_for_ready


def _fragment(page) -> dict[str, list[str]]:
    return parse_qs(page.evaluate("location.hash").lstrip("#"))


def test_typing_a_query_shows_results(open_page):
    page, guard = open_page("")
    page.fill("#search-input", "companies house")
    page.wait_for_selector("#search-results li", timeout=90_000)
    status = page.text_content("#search-status")
    assert "result" in status and "companies house" in status
    titles = page.locator("#search-results .app-result__title a").all_text_contents()
    assert any("Companies House" in title for title in titles)
    first = page.locator("#search-results .app-result__title a").first.get_attribute("href")
    # A record page's address, marked as opened from the results (the page takes the mark off).
    assert first.startswith("/records/") and first.endswith("/#from-results")
    assert _fragment(page)["q"] == ["companies house"]
    screenshot(page, "search-results")


def _checkbox(page, dimension: str, value: str):
    return page.locator(f'#filter-groups input[data-dimension="{dimension}"][value="{value}"]')


def test_filters_show_counts_and_narrow_the_results(open_page):
    page, guard = open_page("")
    page.fill("#search-input", "data")
    page.wait_for_selector("#search-results li", timeout=90_000)
    box = _checkbox(page, "collections", "land-registry")
    label = page.locator(f'label[for="{box.get_attribute("id")}"]').text_content()
    assert label.startswith("Land and property (")
    count = int(label.rsplit("(", 1)[1].rstrip(")"))
    assert count > 0
    box.check()
    page.wait_for_function("() => location.hash.includes('collections=land-registry')")
    page.wait_for_function(f"() => document.getElementById('search-status').textContent.startsWith('{count} result')")
    collections = page.locator("#search-results .app-meta li:nth-child(4)").all_text_contents()
    # A record of one resource in several collections lists them all; each names the filtered one.
    assert collections and all("Land and property" in text.split(", ") for text in collections)
    assert any(", " in text for text in collections)  # the curated Price Paid Data is also reviewed (deep evidence)
    assert _checkbox(page, "collections", "land-registry").is_checked()
    # Another dimension's counts now reflect the collection filter.
    access_labels = page.locator('#filter-groups input[data-dimension="accessStatuses"] + label').all_text_contents()
    assert sum(int(text.rsplit("(", 1)[1].rstrip(")")) for text in access_labels) == count
    screenshot(page, "search-filtered")
    _checkbox(page, "collections", "land-registry").uncheck()
    page.wait_for_function("() => !location.hash.includes('collections=')")


def test_the_fragment_restores_a_search_and_back_forward_work(open_page):
    page, guard = open_page("#q=land&collections=land-registry")
    page.wait_for_selector("#search-results li", timeout=90_000)
    assert page.input_value("#search-input") == "land"
    assert _checkbox(page, "collections", "land-registry").is_checked()
    first_status = page.text_content("#search-status")
    page.fill("#search-input", "vat")
    page.press("#search-input", "Enter")
    page.wait_for_function("() => location.hash.includes('q=vat')")
    page.wait_for_function("() => document.getElementById('search-status').textContent.includes('vat')")
    page.go_back()
    page.wait_for_function("() => document.getElementById('search-input').value === 'land'")
    page.wait_for_function("() => document.getElementById('search-status').textContent.includes('land')")
    assert page.text_content("#search-status") == first_status
    assert _fragment(page) == {"q": ["land"], "collections": ["land-registry"]}
    page.go_forward()
    page.wait_for_function("() => document.getElementById('search-input').value === 'vat'")
    page.wait_for_function("() => document.getElementById('search-status').textContent.includes('vat')")


def test_results_are_text_only_and_link_to_record_pages(open_page):
    page, guard = open_page("#q=" + "companies")
    page.wait_for_selector("#search-results li", timeout=90_000)
    link = page.locator("#search-results .app-result__title a").first
    href = link.get_attribute("href")
    link.click()
    page.wait_for_url("**" + href)
    assert page.locator("h1").text_content().strip()


def test_progress_bar_and_status_while_loading(open_page):
    page, guard = open_page("")
    assert page.locator("#loading-progress").count() == 1
    wait_for_ready(page)
    assert page.evaluate("document.getElementById('loading-progress').value") == 100


def test_the_page_reflows_at_320_pixels(open_page):
    page, guard = open_page("#q=hm%20land%20registry%20data", viewport={"width": 320, "height": 640})
    page.wait_for_selector("#search-results li", timeout=90_000)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 320, f"the page is {width} px wide at a 320 px viewport"
    screenshot(page, "search-320px")
