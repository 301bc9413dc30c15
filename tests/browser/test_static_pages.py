"""Every page of the site works without JavaScript, every internal link
resolves, and long browse pages are split into pages of records.

The full crawl is plain HTTP (urllib) for speed; a sample of pages is then
opened in Chromium with JavaScript turned off to check what a visitor sees.
"""

from __future__ import annotations

import json
import re
import shutil
import tomllib
from collections import Counter
from collections.abc import Iterator
from html.parser import HTMLParser
from types import SimpleNamespace
from urllib.error import HTTPError
from urllib.parse import urldefrag, urljoin, urlsplit
from urllib.request import urlopen

import pytest
from browserkit import REPO, build_site, screenshot, serve_site

from govsearch_build.pagination import RECORDS_PER_PAGE, page_numbers, page_path


class Links(HTMLParser):
    """Every URL a page refers to, the pages among them (links and forms), and every id it defines."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.urls: list[str] = []
        self.pages: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        for name in ("href", "src", "action"):
            if attrs.get(name) is not None:
                self.urls.append(attrs[name])
        target = attrs.get("href") if tag == "a" else attrs.get("action") if tag == "form" else None
        if target is not None:
            self.pages.append(target)


class Crawl:
    def __init__(self) -> None:
        self.status: dict[str, int] = {}
        self.ids: dict[str, set[str]] = {}
        self.referrers: dict[str, set[str]] = {}
        self.fragments: list[tuple[str, str, str]] = []  # (page, target, fragment)
        self.html_pages: set[str] = set()
        self.page_links: set[str] = set()  # what links and forms lead to (not styles, scripts, icons)


def fetch(url: str) -> tuple[int, str, bytes]:
    try:
        with urlopen(url, timeout=10) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()


def crawl(origin: str, starts: list[str]) -> Crawl:
    result = Crawl()
    queue = [origin + start for start in starts]
    seen = set(queue)
    while queue:
        url = queue.pop()
        status, kind, body = fetch(url)
        result.status[url] = status
        if status != 200 or not kind.startswith("text/html"):
            continue
        result.html_pages.add(url)
        parser = Links()
        parser.feed(body.decode("utf-8"))
        result.ids[url] = parser.ids
        result.page_links.update(urldefrag(urljoin(url, raw))[0] for raw in parser.pages)
        for raw in parser.urls:
            absolute, fragment = urldefrag(urljoin(url, raw))
            if not absolute.startswith(origin + "/"):
                continue  # official sources and the licence: other sites
            result.referrers.setdefault(absolute, set()).add(url)
            if fragment:
                result.fragments.append((url, absolute, fragment))
            if absolute not in seen:
                seen.add(absolute)
                queue.append(absolute)
    return result


@pytest.fixture(scope="module")
def site_crawl(served) -> Crawl:
    return crawl(served.origin, ["/", "/browse/"])


def test_every_internal_link_resolves(site_crawl, served, site_dir):
    broken = {
        url: sorted(site_crawl.referrers.get(url, ()))[:3] for url, status in site_crawl.status.items() if status != 200
    }
    assert not broken, f"{len(broken)} internal links do not resolve: {dict(list(broken.items())[:10])}"
    # Every fragment link points at an element that exists.
    missing = [
        (page, target, fragment)
        for page, target, fragment in site_crawl.fragments
        if fragment not in site_crawl.ids.get(target, set())
    ]
    assert not missing, missing[:10]
    # Every page the build wrote is reachable from the home page (no orphans), and nothing else is linked.
    built = {
        served.url(path.relative_to(site_dir).as_posix().removesuffix("index.html"))
        for path in site_dir.rglob("*.html")
        if path.name != "404.html"
    }
    assert site_crawl.html_pages == built, (
        sorted(built - site_crawl.html_pages)[:10],
        sorted(site_crawl.html_pages - built)[:10],
    )
    assert len(built) > 500
    # Assets (styles, scripts, icon) were fetched too.
    assert any("/static/css/main." in url for url in site_crawl.status)


def _folders(path: str) -> list[str]:
    """The folders of a path, from the top: /types/api/ -> /, /types/, /types/api/."""
    parts = [part for part in path.split("/")[1:-1] if part]
    return ["/" + "".join(f"{part}/" for part in parts[:depth]) for depth in range(len(parts) + 1)]


def test_every_linked_folder_has_an_index_page(site_crawl, served, site_dir):
    """A visitor who shortens an address (/types/api/ to /types/) finds a page
    built from the same data, never GitHub Pages' 404."""
    folders = {
        folder
        for url in site_crawl.page_links
        if url.startswith(served.origin + "/")
        for folder in _folders(urlsplit(url).path)
    }
    assert {"/types/", "/access/", "/collections/", "/publishers/", "/records/", "/search/"} <= folders
    missing = sorted(folder for folder in folders if not (site_dir / folder.lstrip("/") / "index.html").is_file())
    assert not missing, missing
    assert all(site_crawl.status.get(served.url(folder)) == 200 for folder in folders)
    # Each section's page lists every value of its kind that has records, with its count.
    for kind in ("collections", "types", "access"):
        status, _, body = fetch(served.url(f"{kind}/"))
        parser = Links()
        parser.feed(body.decode("utf-8"))
        listed = {url for url in parser.pages if re.fullmatch(rf"/{kind}/[^/]+/", url)}
        values = {f"/{path.parent.relative_to(site_dir).as_posix()}/" for path in site_dir.glob(f"{kind}/*/index.html")}
        assert listed == values, (kind, listed ^ values)


def test_a_missing_page_is_the_404_page(served):
    status, kind, body = fetch(served.url("records/no-such-record/"))
    assert status == 404 and kind.startswith("text/html")
    assert b"Page not found" in body
    parser = Links()
    parser.feed(body.decode("utf-8"))
    for raw in parser.urls:  # the 404 page's own links work from any depth
        if raw.startswith("/"):
            assert fetch(served.url(raw))[0] == 200, raw


def _sample(site_crawl: Crawl, origin: str) -> list[str]:
    pages = sorted(url.removeprefix(origin) for url in site_crawl.html_pages)
    fixed = ["/", "/browse/", "/about/", "/privacy/", "/accessibility/"]
    by_kind = {
        kind: [p for p in pages if p.startswith(f"/{kind}/")]
        for kind in ("collections", "types", "access", "publishers")
    }
    facets = [by_kind[kind][len(by_kind[kind]) // 2] for kind in by_kind]
    later = [p for p in pages if "/page-" in p][:1]
    records = [p for p in pages if p.startswith("/records/") and p != "/records/"]
    step = max(1, len(records) // 6)
    return fixed + facets + later + records[::step][:6]


def test_sample_pages_render_without_javascript(open_page, served, site_crawl):
    sample = _sample(site_crawl, served.origin)
    assert len(sample) >= 15
    page, guard = open_page(None, js=False)
    for path in sample:
        response = page.goto(served.url(path))
        assert response.status == 200, path
        assert page.locator("h1").count() == 1 and page.locator("h1").inner_text().strip(), path
        assert page.locator(".app-independent").is_visible(), path
        assert page.locator("link[rel=stylesheet]").count() == 1
        # Styled: the GOV.UK font stack and layout applied (the CSS loaded).
        assert "system-ui" in page.evaluate("getComputedStyle(document.querySelector('h1')).fontFamily"), path
        main_text = page.locator("main").inner_text()
        assert len(main_text) > 150, (path, main_text)
        if path == "/":
            assert page.locator("noscript").count() == 1
            assert page.locator("#search-area").is_hidden()
        elif path.startswith("/records/"):
            assert page.locator("#provenance-details summary").is_visible(), path
            assert page.locator(".govuk-breadcrumbs__link").count() == 4
        elif path.count("/") >= 3 and not path.startswith("/records/"):  # a browse page
            items = page.locator("main .app-result").count()
            total = int(page.locator("#record-count").get_attribute("data-count"))
            assert 0 < items <= RECORDS_PER_PAGE and items <= total, path
            if total > RECORDS_PER_PAGE:
                assert page.locator("nav.govuk-pagination").is_visible(), path
        for link in page.locator("main a[href^='/']").all()[:3]:
            assert link.is_visible(), (path, link.get_attribute("href"))
    screenshot(page, "record-no-js")


# Pagination ------------------------------------------------------------------

EXTRA = 151  # with the real HM Land Registry records: more than two pages of one publisher
PUBLISHER = "HM Land Registry"


@pytest.fixture(scope="module")
def big_publisher(tmp_path_factory) -> Iterator[tuple[str, set[str]]]:
    """A site whose content has EXTRA more HM Land Registry records (copies with new ids and URLs)."""
    work = tmp_path_factory.mktemp("paginated")
    content = work / "content"
    shutil.copytree(REPO / "site" / "content", content)
    sources = sorted(
        p for p in content.rglob("*.md") if re.search(rf"^publisher: {PUBLISHER}$", p.read_text("utf-8"), re.M)
    )
    assert sources
    for number in range(EXTRA):
        source = sources[number % len(sources)]
        text = source.read_text("utf-8")
        text, ids = re.subn(r"^id: (.+)$", rf"id: \1-copy-{number}", text, count=1, flags=re.M)
        text, urls = re.subn(r"^url: (\S+?)/?$", rf"url: \1/copy-{number}", text, count=1, flags=re.M)
        assert ids == 1 and urls == 1, source
        (source.parent / f"{source.stem}-copy-{number}.md").write_text(text, "utf-8")
    raw = (REPO / "site" / "site.toml").read_text("utf-8")
    config = work / "site.toml"
    config.write_text(
        re.sub(r"^content_dir = .*$", f'content_dir = "{content.as_posix()}"', raw, count=1, flags=re.M), "utf-8"
    )
    assert tomllib.loads(config.read_text("utf-8"))["content_dir"] == content.as_posix()
    out = build_site(work / "_site", config)
    # the records built (records of one resource in several collections are one record)
    stored = json.loads(next((out / "data").glob("records.*.json")).read_text("utf-8"))["records"]
    expected = {record["id"] for record in stored if record["publisher"] == PUBLISHER}
    handle = serve_site(out)
    yield handle.origin, expected
    handle.server.shutdown()


def test_page_numbers_with_gaps():
    assert page_numbers(1, 1) == [1]
    assert page_numbers(1, 3) == [1, 2, 3]
    assert page_numbers(1, 10) == [1, 2, None, 10]
    assert page_numbers(5, 10) == [1, None, 4, 5, 6, None, 10]
    assert page_numbers(3, 10) == [1, 2, 3, 4, None, 10]
    assert page_numbers(10, 10) == [1, None, 9, 10]
    assert page_path("collections/ons/", 1) == "collections/ons/"
    assert page_path("collections/ons/", 3) == "collections/ons/page-3/"


def test_a_large_publisher_is_split_into_pages(open_page, big_publisher):
    origin, expected = big_publisher
    assert len(expected) > 2 * RECORDS_PER_PAGE
    pages = -(-len(expected) // RECORDS_PER_PAGE)
    page, guard = open_page(
        None, js=False, site=SimpleNamespace(origin=origin, url=lambda path="": f"{origin}/{path.lstrip('/')}")
    )
    base = "/publishers/hm-land-registry/"
    page.goto(origin + base)
    number, seen = 1, Counter()
    while True:
        assert page.url == origin + page_path(base, number)
        assert int(page.locator("#record-count").get_attribute("data-count")) == len(expected)
        position = page.locator("#page-position").inner_text()
        assert position.startswith(f"Page {number} of {pages}:"), position
        assert f"(page {number} of {pages})" in page.title()
        hrefs = page.locator("main .app-result__title a").evaluate_all(
            "(links) => links.map((a) => a.getAttribute('href'))"
        )
        ids = [href.split("/")[-2] for href in hrefs]
        assert len(ids) == (RECORDS_PER_PAGE if number < pages else len(expected) - RECORDS_PER_PAGE * (pages - 1))
        seen.update(ids)
        nav = page.locator("nav.govuk-pagination")
        assert nav.get_attribute("aria-label") == "Pages of records"
        current = nav.locator("[aria-current=page]")
        assert current.count() == 1 and current.inner_text().strip() == str(number)
        assert current.get_attribute("aria-label") == f"Page {number}"
        previous = nav.locator("a[rel=prev]")
        following = nav.locator("a[rel=next]")
        if number == 1:
            assert previous.count() == 0
        else:
            assert " ".join(previous.inner_text().split()) == "Previous page"
            assert previous.get_attribute("href") == page_path(base, number - 1)
        if number == pages:
            assert following.count() == 0
            break
        assert " ".join(following.inner_text().split()) == "Next page"
        assert following.get_attribute("href") == page_path(base, number + 1)
        following.focus()
        with page.expect_navigation():
            page.keyboard.press("Enter")
        number += 1
    assert number == pages
    assert set(seen) == expected, (sorted(expected - set(seen))[:5], sorted(set(seen) - expected)[:5])
    assert all(count == 1 for count in seen.values()), [i for i, c in seen.items() if c > 1][:5]
    screenshot(page, "pagination-last-page")
    # The collection is paginated the same way, with its charts on the first page only.
    page.goto(f"{origin}/collections/land-registry/")
    assert page.locator("figure.app-chart").count() == 3
    page.goto(f"{origin}/collections/land-registry/page-2/")
    assert page.locator("figure.app-chart").count() == 0
    assert page.locator("#page-position a").get_attribute("href") == "/collections/land-registry/#composition"


# Record pages: related records and the access link ----------------------------

PHONE = {"width": 375, "height": 812}
LAPTOP = {"width": 1280, "height": 900}

# record -> (list id, records it must link to)
RELATED = {
    "hmlr-ukhpi-april-2025": ("related-series", {"hmlr-ukhpi-july-2025", "hmlr-ukhpi-october-2025"}),
    "dwp-address-lookup-api": ("related-api", {"dwp-api-docs-bank-wizard"}),
    "dwp-api-docs-bank-wizard": ("related-api", {"dwp-address-lookup-api"}),
    "de-os-names-api": ("related-topic", {"os-maps-api", "os-features-api"}),
}


@pytest.mark.parametrize("size", ["375", "1280"])
def test_record_pages_link_related_records(open_page, served, size):
    """Without JavaScript: the same series, the API and its documentation, and the
    same publisher's records on the topic, as plain links to record pages that exist."""
    page, guard = open_page(None, js=False, viewport=PHONE if size == "375" else LAPTOP)
    for record, (list_id, expected) in RELATED.items():
        page.goto(served.url(f"records/{record}/"))
        related = page.locator("#related")
        assert related.is_visible(), record
        hrefs = page.locator(f"#{list_id} a").evaluate_all("(links) => links.map((a) => a.getAttribute('href'))")
        linked = {href.removeprefix("/records/").rstrip("/") for href in hrefs}
        assert expected <= linked, (record, linked)
        assert record not in linked, "a record is not related to itself"
        every = page.locator("#related a").evaluate_all("(links) => links.map((a) => a.getAttribute('href'))")
        assert len(every) == len(set(every)), f"{record}: a related record listed twice: {every}"
        assert all(fetch(served.url(href))[0] == 200 for href in every)
        # plain links with the records' own titles, no script or markup needed
        assert page.locator("#related script, #related [onclick]").count() == 0
    page.goto(served.url("records/dwp-api-docs-bank-wizard/"))
    assert page.locator("#related-api-heading").inner_text() == "The APIs it documents"
    page.goto(served.url("records/dwp-address-lookup-api/"))
    assert page.locator("#related-api-heading").inner_text() == "Its documentation"
    page.locator("#related").scroll_into_view_if_needed()
    screenshot(page, f"record-related-{size}", full_page=False)


def test_the_access_link_says_what_it_lists(open_page, served):
    page, guard = open_page("records/de-companies-house-api/", js=False)
    link = page.locator("#access-others")
    text = link.inner_text()
    assert re.fullmatch(r"See all [\d,]+ records with the access status ‘Authentication required’", text), text
    count = int(re.search(r"[\d,]+", text).group().replace(",", ""))
    link.click()
    assert page.url == served.url("access/authentication-required/")
    assert int(page.locator("#record-count").get_attribute("data-count")) == count
