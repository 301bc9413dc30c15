"""The static pages: readable without JavaScript, untrusted text shown as text."""

from __future__ import annotations

import pytest
from browserkit import HOSTILE_ID, HOSTILE_SUMMARY, HOSTILE_TITLE, TWIN_TITLE, screenshot


def test_hostile_record_renders_as_literal_text(open_page, hostile_served):
    page, guard = open_page(f"records/{HOSTILE_ID}/", site=hostile_served)
    assert page.locator("h1").text_content().strip() == HOSTILE_TITLE
    assert page.locator("#record-summary").text_content().strip() == HOSTILE_SUMMARY
    assert "<b onmouseover" in page.locator("#access-note").text_content()
    assert page.evaluate("window.__pwned") is None
    body = page.locator("#record-body")
    assert body.locator("script, img, [onerror], [onmouseover]").count() == 0
    hrefs = body.locator("a").evaluate_all("links => links.map((a) => a.getAttribute('href'))")
    assert hrefs == [None, "https://www.gov.uk/"] or hrefs == ["https://www.gov.uk/"]
    assert page.locator("main script, main img").count() == 0
    assert page.locator("#attribution").text_content().startswith("Contains public sector information")
    screenshot(page, "record-hostile")


def test_two_related_records_of_one_title_are_told_apart_by_their_addresses(open_page, hostile_served):
    """GOV.UK publishes a release's news story and its statistics page under one
    title: in a record page's series list the page's twin shows its address, the rest none."""
    page, guard = open_page("records/widget-survey-2025-10/", site=hostile_served)
    assert page.locator("h1").text_content().strip() == TWIN_TITLE
    entries = page.locator("#related-series li").evaluate_all(
        """(items) => items.map((li) => [li.querySelector('a').textContent,
            (li.querySelector('.app-series__address') || {}).textContent || null])"""
    )
    twins = [address for title, address in entries if title == TWIN_TITLE]
    assert twins == ["https://www.gov.uk/government/news/widget-survey-2025-10-news"], entries
    assert all(address is None for title, address in entries if title != TWIN_TITLE), entries


def test_hostile_record_in_search_results_is_text(open_page, hostile_served):
    page, guard = open_page("#q=hostile%20markup", site=hostile_served)
    page.wait_for_selector("#search-results li", timeout=90_000)
    title = page.locator("#search-results .app-result__title a").first
    assert title.text_content() == HOSTILE_TITLE
    assert page.locator("#search-results img, #search-results script").count() == 0
    assert page.evaluate("window.__pwned") is None


@pytest.mark.parametrize(
    "path", ["", "records/companies-house-api/", "collections/land-registry/", "browse/", "privacy/"]
)
def test_pages_work_without_javascript(open_page, path):
    page, guard = open_page(path, js=False)
    assert page.locator("h1").count() == 1
    assert "independent catalogue, not GOV.UK" in page.locator(".app-independent").text_content()
    if path == "":
        noscript = page.locator(".govuk-inset-text").filter(has_text="Search needs JavaScript")
        assert noscript.is_visible()
        assert noscript.locator("a").get_attribute("href") == "/browse/"
        assert page.locator("#search-area").is_hidden()
        screenshot(page, "home-no-js")


def test_record_page_shows_the_facts(open_page):
    # the curated Companies House API record is merged into its reviewed deep-evidence record (same URL)
    page, guard = open_page("records/de-companies-house-api/", js=False)
    text = page.locator("main").text_content()
    for fact in (
        "Companies House",
        "Authentication required",
        "API key",
        "Government APIs",
        "14 July 2026",
    ):
        assert fact in text
    # An API's way in for a person is its documentation; its address, for programs, follows.
    way_in = page.locator("#way-in a")
    assert way_in.text_content().startswith("Read the API’s documentation")
    assert way_in.get_attribute("href") == "https://developer.companieshouse.gov.uk/api/docs/"
    assert page.locator("#api-address a").get_attribute("href") == "https://api.companieshouse.gov.uk/"
    assert "Go to the official source" not in text
    assert "2026-07-14" not in text, "dates are written as GOV.UK writes them"
    assert page.locator("time[datetime='2026-07-14']").count() >= 1
    # Provenance in plain words, folded away.
    details = page.locator("#provenance-details")
    assert details.locator("summary").text_content().strip() == "Where this record comes from"
    assert not page.locator("#provenance-summary").is_visible()
    assert not page.locator("#record-id").is_visible(), "the id for agents is folded with the provenance"
    details.locator("summary").click()
    assert "Our editors wrote this record" in page.locator("#provenance-summary").text_content()
    assert page.locator("#record-id code").first.text_content() == "de-companies-house-api"
    assert page.locator('a[href="https://api.companieshouse.gov.uk/"]').count() == 1
    screenshot(page, "record")


def test_collection_page_has_a_chart_and_a_data_table(open_page):
    page, guard = open_page("collections/government-apis/", js=False)
    charts = page.locator("figure.app-chart")
    assert charts.count() == 3
    tables = page.locator("table.govuk-table")
    assert tables.count() == 3
    rows = tables.first.locator("tbody tr")
    counts = [int(text.replace(",", "")) for text in rows.locator("td:nth-child(2)").all_text_contents()]
    assert sum(counts) == int(page.locator("#record-count").get_attribute("data-count"))
    # Records come before the charts, and each chart row links to its records.
    assert page.locator("#records").bounding_box()["y"] < charts.first.bounding_box()["y"]
    assert charts.first.locator(".app-chart__label a").first.get_attribute("href").startswith("/types/")
    screenshot(page, "collection")


def test_missing_pages_get_the_404_page(open_page, served):
    page, guard = open_page(None)
    response = page.goto(served.url("no/such/page/"))
    assert response.status == 404
    assert page.locator("h1").text_content() == "Page not found"
    guard.console_errors.clear()  # Chromium logs the 404 status itself


def test_statements(open_page):
    page, guard = open_page("privacy/", js=False)
    text = page.locator("main").text_content()
    assert "No cookies" in text and "fragment" in text
    page.goto(guard.origin + "/accessibility/")
    assert "320" in page.locator("main").text_content()
