"""The static pages and assets, checked without a browser."""

from __future__ import annotations

import dataclasses
import os
import re
from html import unescape as html_unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest

from govsearch.attribution import CATALOGUE_ATTRIBUTION, needs_attribution
from govsearch_build.assets import Assets, hashed_name
from govsearch_build.config import load_config
from govsearch_build.records import Record, load_content
from govsearch_build.related import related_records
from govsearch_build.render import CSP, render_site
from govsearch_build.sanitise import render_markdown
from govsearch_build.slugs import publisher_slugs

REPO = Path(__file__).resolve().parents[1]
OGL = "Contains public sector information licensed under the Open Government Licence v3.0."


class PageAudit(HTMLParser):
    """Collects what the CSP and the no-inline rules care about."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.meta: dict[str, str] = {}
        self.inline_scripts = 0
        self.style_attributes: list[str] = []
        self.style_elements = 0
        self.handlers: list[str] = []
        self.asset_urls: list[str] = []
        self.h1 = 0
        self.ids: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "meta":
            key = attrs.get("http-equiv") or attrs.get("name")
            if key:
                self.meta[key] = attrs.get("content", "")
        if tag == "script":
            if "src" in attrs:
                self.asset_urls.append(attrs["src"])
            else:
                self.inline_scripts += 1
        if tag == "link" and attrs.get("href"):
            self.asset_urls.append(attrs["href"])
        if tag in ("img", "iframe", "object", "embed"):
            self.asset_urls.append(attrs.get("src", ""))
        if tag == "style":
            self.style_elements += 1
        if "style" in attrs:
            self.style_attributes.append(tag)
        self.handlers += [name for name in attrs if name.startswith("on")]
        if tag == "h1":
            self.h1 += 1
        if attrs.get("id"):
            self.ids.append(attrs["id"])


def _records(records_dir: Path | None = None) -> list[Record]:
    config = load_config(REPO / "site" / "site.toml")
    loaded = load_content(records_dir or config.content_dir)
    assert loaded.records and not loaded.rejected
    return loaded.records


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Assets, list[Path]]:
    out = tmp_path_factory.mktemp("render")
    config = load_config(REPO / "site" / "site.toml")
    config = dataclasses.replace(config, base_path="/govsearch/")
    assets = Assets.publish(
        static_dir=REPO / "site" / "static",
        out_dir=out / "static",
        node_modules=REPO / "node_modules",
        base_path=config.base_path,
    )
    records = _records()
    hostile = Record(
        data={
            **records[0].data,
            "id": "hostile",
            "title": "<script>alert(1)</script>",
            "summary": '<img src=x onerror="alert(2)">',
            "source": {"kind": "api-catalogue"},
            "licence": "Some licence",
            "updated": "2026-12-02",
            # an export's tags with their slugs, as the API catalogue gives them
            "keywords": [
                "rest-http",
                "Government services",
                "REST/HTTP",
                "government-services",
                "C++",
                "C",
                "dorset-county-council",
            ],
            # an importer's plain-http link, its title labelled as the importer labels it
            "links": [
                {"title": "View Service (not encrypted)", "url": "http://maps.x.gov.uk/wms", "kind": "service"},
                {"title": "Feed", "url": "http://maps.x.gov.uk/feed", "kind": "download"},
            ],
            "alsoKnownAs": [
                {"title": "<b>Also</b>", "summary": "<script>alert(7)</script>", "url": "https://x.gov.uk/v1"}
            ],
        },
        body='<script>alert(3)</script>[x](javascript:alert(4)) <a href="javascript:alert(5)">y</a> <img src=x onerror=alert(6)>',
        file="x.md",
    )
    example = {"file": "a.csv:3", "before": "Ofqual ", "after": "Ofqual"}
    report = {
        "quality": {
            "publisher-spacing": {
                "title": "Publisher names tidied",
                "description": "Spaces trimmed.",
                "changed": 3,
                "examples": [example, dict(example), {**example, "file": "a.csv:4"}, {**example, "before": "Ofqual  "}],
            }
        }
    }
    written = render_site(config, records + [hostile], out, assets, report=report)
    return out, assets, written


def test_every_page_has_the_csp_and_no_inline_code(built):
    out, assets, written = built
    pages = [path for path in written if path.suffix == ".html"]
    assert len(pages) > 100
    for page in pages:
        audit = PageAudit()
        audit.feed(page.read_text("utf-8"))
        where = page.relative_to(out)
        assert audit.meta.get("Content-Security-Policy") == CSP, where
        assert audit.meta.get("govsearch-base") == "/govsearch/", where
        assert audit.inline_scripts == 0 and audit.style_elements == 0, where
        assert not audit.style_attributes, (where, audit.style_attributes)
        assert not audit.handlers, (where, audit.handlers)
        assert audit.h1 == 1, where
        assert len(set(audit.ids)) == len(audit.ids), (where, sorted(i for i in audit.ids if audit.ids.count(i) > 1))
        for url in audit.asset_urls:
            assert url.startswith("/govsearch/static/"), (where, url)
            assert (out / url.removeprefix("/govsearch/")).is_file(), (where, url)


def test_csp_is_exactly_the_agreed_policy():
    assert (
        CSP
        == "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; form-action 'self'"
    )


def test_pages_exist(built):
    out, assets, written = built
    for path in (
        "index.html",
        "404.html",
        "about/index.html",
        "privacy/index.html",
        "accessibility/index.html",
        "browse/index.html",
        "collections/ons/index.html",
        "types/api/index.html",
        "access/public/index.html",
        "publishers/companies-house/index.html",
        "records/companies-house-api/index.html",
    ):
        assert (out / path).is_file(), path
    home = (out / "index.html").read_text("utf-8")
    assert "independent catalogue, not GOV.UK" in home
    assert 'href="/govsearch/browse/"' in home


def test_untrusted_fields_are_escaped_and_the_body_sanitised(built):
    out, assets, written = built
    html = (out / "records" / "hostile" / "index.html").read_text("utf-8")
    main = html[html.index("<main") : html.index("</main>")]
    assert "<script" not in main and "<img" not in main and "javascript:" not in main
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in main
    assert "&lt;img src=x onerror=" in main
    # what records merged into it called it (estate.keep_names) is shown, as text
    aliases = main[main.index('id="also-known-as"') :]
    assert "&lt;b&gt;Also&lt;/b&gt;" in aliases and "&lt;script&gt;alert(7)&lt;/script&gt;" in aliases
    # imported records carry the OGL attribution, worded not to license the resource itself (its licence is "Some licence")
    assert CATALOGUE_ATTRIBUTION.replace("'", "&#39;") in main and OGL not in main


def test_render_markdown_removes_raw_html_and_bad_urls():
    html = str(
        render_markdown(
            '# T\n\n<div onclick="x()">a</div> <iframe src="https://e.x"></iframe> [l](javascript:alert(1)) [m](https://ok.example/) ![i](https://e.x/i.png)'
        )
    )
    assert "onclick" not in html and "<iframe" not in html and "javascript:" not in html and "<img" not in html
    assert 'href="https://ok.example/"' in html


def test_attribution_rule():
    assert needs_attribution({"source": {"kind": "api-catalogue"}})
    assert needs_attribution({"licence": "Open Government Licence v3.0"})
    assert not needs_attribution({"source": {"kind": "curated"}, "licence": "Crown copyright"})
    assert not needs_attribution({})


def test_publisher_slugs_are_unique():
    slugs = publisher_slugs(["HM Revenue & Customs", "HM Revenue and Customs", "Ofqual"])
    assert slugs["HM Revenue & Customs"] != slugs["HM Revenue and Customs"]
    assert slugs["Ofqual"] == "ofqual"


def test_collection_pages_show_chart_and_table(built):
    out, assets, written = built
    html = (out / "collections" / "government-apis" / "index.html").read_text("utf-8")
    assert html.count('<figure class="app-chart"') == 3
    assert html.count('<table class="govuk-table">') == 3
    assert "<rect " in html


def test_assets_are_hashed_and_modules_import_hashed_names(built):
    out, assets, written = built
    boot = assets.url("js/boot.js")
    assert re.fullmatch(r"/govsearch/static/js/boot\.[0-9a-f]{8}\.js", boot)
    text = (out / boot.removeprefix("/govsearch/")).read_text("utf-8")
    for module in ("bridge", "webmcp", "ui"):
        name = Path(assets.names[f"js/{module}.js"]).name
        assert f'"./{name}"' in text
    bridge = (out / assets.url("js/bridge.js").removeprefix("/govsearch/")).read_text("utf-8")
    assert Path(assets.names["js/worker.js"]).name in bridge
    for logical, name in assets.names.items():
        data = (out / "static" / name).read_bytes()
        if not logical.endswith(".js"):
            assert name == hashed_name(logical, data)


def test_the_search_page_preloads_every_module_boot_reaches_and_other_pages_none(built):
    # Followed through the published files' own import specifiers: the page
    # must name the whole graph, or the browser finds it one level at a time.
    out, assets, written = built
    static = out / "static"
    reached, waiting = set(), [assets.names["js/boot.js"]]
    while waiting:
        module = waiting.pop()
        text = (static / module).read_text("utf-8")
        for spec in re.findall(r"[\"'](\.{1,2}/[a-z/.-]+\.[0-9a-f]{8}\.js)[\"']", text):
            name = os.path.normpath(os.path.join(os.path.dirname(module), spec))
            if name not in reached:
                reached.add(name)
                waiting.append(name)
    home = (out / "index.html").read_text("utf-8")
    preloaded = re.findall(r'<link rel="modulepreload" href="/govsearch/static/([^"]+)">', home)
    assert len(preloaded) == len(set(preloaded))
    assert set(preloaded) == reached and assets.names["js/worker.js"] in reached
    # The worker's own modules (worker/) are part of the graph, and of the preloads.
    assert assets.names["js/worker/calls.js"] in reached
    record_page = next(path for path in written if "/records/" in path.as_posix())
    assert "modulepreload" not in record_page.read_text("utf-8")


def test_css_uses_our_fonts_and_no_govuk_branding(built):
    out, assets, written = built
    css = (out / assets.url("css/main.css").removeprefix("/govsearch/")).read_text("utf-8")
    assert "GDS Transport" not in css
    assert "system-ui" in css
    assert "crest" not in css and "url(" not in css
    assert ".govuk-button" in css


def test_every_section_folder_has_an_index_page(built):
    out, assets, written = built
    for section in ("collections", "types", "access", "publishers", "records", "search"):
        assert (out / section / "index.html").is_file(), section
    types = (out / "types" / "index.html").read_text("utf-8")
    assert 'href="/govsearch/types/api/"' in types
    records = (out / "records" / "index.html").read_text("utf-8")
    assert all(f'href="/govsearch/{kind}/"' in records for kind in ("collections", "types", "access", "publishers"))


def test_a_records_update_date_is_shown_as_govuk_writes_it(built):
    out, assets, written = built
    # the browse pages listing the record updated on 2 December 2026 (its collection, type, access, publisher)
    listings = [
        page
        for path in out.glob("*/*/index.html")
        if path.parent.parent.name != "records"  # record pages link it among related records, undated
        and 'href="/govsearch/records/hostile/"' in (page := path.read_text("utf-8"))
    ]
    assert len(listings) >= 4
    assert all('Updated <time datetime="2026-12-02">2 December 2026</time>' in page for page in listings)


def test_a_keyword_written_twice_as_words_and_as_a_slug_is_shown_once(built):
    out, assets, written = built
    html = (out / "records" / "hostile" / "index.html").read_text("utf-8")
    row = html[html.index(">Keywords</dt>") :]
    row = row[row.index("<dd") : row.index("</dd>")]
    assert row.endswith(">REST/HTTP, Government services, C++, C, dorset-county-council"), row


def test_a_plain_http_link_is_called_not_encrypted_once(built):
    out, assets, written = built
    html = (out / "records" / "hostile" / "index.html").read_text("utf-8")
    assert 'View Service (not encrypted)</a> <span class="govuk-body-s">(service)</span>' in html
    assert 'Feed</a> <span class="govuk-body-s">(download, not encrypted)</span>' in html


def test_repeated_data_quality_examples_are_shown_once(built):
    out, assets, written = built
    html = (out / "data-quality" / "index.html").read_text("utf-8")
    rule = html[html.index('id="rule-publisher-spacing"') :]
    rule = rule[: rule.index("</section>")]
    # the same change from other inputs is one row, which says how many more made it
    assert rule.count("<tr class") == 1 + 2 and "a.csv:4" not in rule
    assert "a.csv:3 (and 2 more with the same change)" in rule and rule.count("a.csv:3") == 2


def _record(number: int, **fields) -> dict:
    base = {
        "id": f"r{number}",
        "title": f"Record {number}",
        "publisher": "Office for National Statistics",
        "resourceType": "dataset",
    }
    return {**base, **fields}


def test_related_records_by_series_api_and_topic():
    records = [
        _record(1, title="Census bulletin March 2021", keywords=["census"]),
        _record(2, title="Census bulletin April 2021", keywords=["census"]),
        _record(3, title="Census bulletin May 2021", keywords=["census"], publisher="Someone else"),
        _record(4, title="Population API", resourceType="api", documentationUrl="https://docs.example/pop/"),
        _record(5, title="Population API docs", resourceType="api-documentation", url="https://docs.example/pop"),
        _record(6, title="Population estimates by age", keywords=["population"]),
        _record(7, title="Trade figures", keywords=["trade"]),
    ]
    related = related_records(records)
    assert related["r1"].series == ("r2",) and related["r2"].series == ("r1",)  # not another publisher's
    assert "r3" not in related["r1"].series
    assert related["r4"].api == ("r5",) and related["r5"].api == ("r4",)
    assert "r6" in related["r4"].topic and "r4" not in related["r4"].topic
    assert "r5" not in related["r4"].topic, "the documentation is listed once, as documentation"
    assert "r7" not in related  # nothing shares its topic


def test_an_apis_page_leads_to_its_documentation_and_other_pages_to_the_source(built):
    """A person following an API's address gets a program's answer (JSON, or
    nothing); its documentation is their way in. Every other record's first
    link is its official source."""
    out, assets, written = built
    by_kind = {"documented API": 0, "other": 0}
    for record in _records():
        html = (out / "records" / record.id / "index.html").read_text("utf-8")
        way_in = html[html.index('id="way-in"') :]
        first = html_unescape(re.search(r'href="([^"]+)"', way_in)[1])
        documented = record.data["resourceType"] == "api" and record.data.get("documentationUrl", "").startswith(
            "https"
        )
        if documented:
            by_kind["documented API"] += 1
            assert first == record.data["documentationUrl"] and "Read the API’s documentation" in way_in
            address = html[html.index('id="api-address"') :]
            assert html_unescape(re.search(r'href="([^"]+)"', address)[1]) == record.data["url"]
        else:
            by_kind["other"] += 1
            assert first == record.data["url"] and "Go to the official source" in way_in[:400]
    assert by_kind["documented API"] >= 10 and by_kind["other"] >= 100, by_kind


def test_a_long_summary_is_not_set_in_the_leads_large_type(built):
    out, assets, written = built
    sizes = {}
    for record in _records():
        html = (out / "records" / record.id / "index.html").read_text("utf-8")
        lead = re.search(r'<p class="([^"]+)" id="record-summary">', html)[1]
        sizes.setdefault(len(record.data["summary"]) > 300, set()).add(lead.split()[0])
    assert sizes == {False: {"govuk-body-l"}, True: {"govuk-body"}}
