"""Render the site's static HTML pages from the records.

Every page works without JavaScript. Record fields are untrusted: Jinja's
autoescaping renders them as text, and the Markdown body is converted and
then sanitised (`sanitise.py`) so no raw HTML, script or unsafe URL survives.
The pages' parts live by concern: `labels`, `facets`, `slugs`, `pagination`,
`charts`, `record_page` and `template_filters`; this module writes the pages.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import markdown
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from govsearch.attribution import attribution

from .assets import Assets
from .charts import collection_charts
from .config import SiteConfig
from .facets import Facet, by_letter, facet_groups
from .labels import ACCESS_DESCRIPTIONS, ACCESS_STATUSES, ACCESS_TAG_COLOURS, RESOURCE_TYPES
from .pagination import RECORDS_PER_PAGE, page_path, pages_of
from .record_page import LINK_KINDS, SOURCE_NAMES, authorship, licence_statement, provenance_rows
from .records import Record
from .related import Related, related_records
from .runtime import first_visit_bytes
from .sanitise import render_markdown, safe_href, sanitise_html
from .slugs import publisher_slugs
from .template_filters import distinct_keywords, govuk_date, thousands, unique_examples

PROJECT_ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = PROJECT_ROOT / "site" / "templates"
PAGES = PROJECT_ROOT / "site" / "pages"

CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'"
)

# The folders the site links into, each with an index page: path, heading, lead.
SECTIONS = {
    "collections": ("collections/", "Collections", "Every record belongs to one or more of these collections."),
    "types": ("types/", "Resource types", "What kind of resource each record describes."),
    "access": ("access/", "Access statuses", "Who can use each resource, and on what terms."),
    "publishers": (
        "publishers/",
        "Publishers A to Z",
        "The public bodies whose resources the catalogue lists, by the first letter of their name.",
    ),
    "records": ("records/", "All records", "Each record has its own page. They are listed in four ways."),
}
# Above this many publishers (the full estate has about 1,500), the browse
# page lists only letters, and each letter has its own page.
PUBLISHERS_ON_BROWSE = 150


class Renderer:
    def __init__(
        self,
        config: SiteConfig,
        records: list[Record],
        out: Path,
        assets: Assets,
        page_size: int = RECORDS_PER_PAGE,
        report: dict[str, Any] | None = None,
        moved: dict[str, str] | None = None,
    ):
        if page_size < 1:
            raise ValueError("page_size must be at least 1")
        self.page_size = page_size
        self.config = config
        self.out = out
        self.assets = assets
        self.report = report or {}
        self.moved = moved or {}
        # The records' own field dicts, not copies (a copy with the body was a
        # kilobyte a record, 300 MB at 300,000): bodies are looked up by id when a page is written.
        self.records = [record.data for record in records]
        self.bodies = {record.id: record.body for record in records}
        self.publisher_slug = publisher_slugs(r["publisher"] for r in self.records)
        self.by_id = {record["id"]: record for record in self.records}
        self.related = related_records(self.records)
        self.access_counts = Counter(record["accessStatus"] for record in self.records)
        # Past PUBLISHERS_ON_BROWSE publishers each letter has its own page.
        self.split_publishers = len(self.publisher_slug) > PUBLISHERS_ON_BROWSE
        self.env = Environment(
            loader=FileSystemLoader(str(TEMPLATES)),
            autoescape=select_autoescape(default=True, default_for_string=True),
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.env.globals.update(
            site=config,
            url=config.url_for,
            asset=assets.url,
            imported_urls=assets.imported_urls,
            csp=CSP,
            type_label=lambda token: RESOURCE_TYPES.get(token, token),
            access_label=lambda token: ACCESS_STATUSES.get(token, token),
            access_tag=lambda token: ACCESS_TAG_COLOURS.get(token, "govuk-tag--grey"),
            collection_title=self.collection_title,
            publisher_path=lambda name: f"publishers/{self.publisher_slug[name]}/",
            section=SECTIONS.__getitem__,
            split_publishers=self.split_publishers,
            safe_href=safe_href,
        )
        self.env.filters.update(
            distinct_keywords=distinct_keywords,
            govuk_date=govuk_date,
            thousands=thousands,
            unique_examples=unique_examples,
        )
        self.written: list[Path] = []

    def collection_title(self, collection_id: str) -> str:
        try:
            return self.config.collection(collection_id).title
        except StopIteration:
            return collection_id

    def write(self, path: str, template: str, **context: Any) -> None:
        target = self.out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        html = self.env.get_template(template).render(page_path=path, **context)
        target.write_text(html, "utf-8")
        self.written.append(target)

    # Facets -------------------------------------------------------------

    def facets(self) -> dict[str, list[Facet]]:
        return facet_groups(self.config, self.records, self.publisher_slug)

    # Pages --------------------------------------------------------------

    def render(self) -> list[Path]:
        groups = self.facets()
        self.write_home(groups)
        for record in self.records:
            self.render_record(record)
        self.write_browse(groups)
        self.write_facets(groups)
        self.write_sections(groups)
        self.write("search/index.html", "search_needs_js.html", groups=groups, letters=self.publisher_letters(groups))
        self.write_statements()
        self.write("404.html", "404.html")
        self.write_data_quality()
        for old, record in self.moved_records():
            # a record merged into another keeps its address: it shows the record it is now part of
            self.render_record(record, moved_from=old)
        return self.written

    def write_home(self, groups: dict[str, list[Facet]]) -> None:
        labels = {
            "collections": {c.id: c.title for c in self.config.collections},
            "resourceTypes": RESOURCE_TYPES,
            "accessStatuses": ACCESS_STATUSES,
            # the tag colour of each access status, for results.js to take from the page
            "accessTags": ACCESS_TAG_COLOURS,
        }
        self.write(
            "index.html",
            "home.html",
            collections=groups["collections"],
            total=len(self.records),
            runtime_bytes=first_visit_bytes(self.out / "pyodide"),
            labels_json=json.dumps(labels, ensure_ascii=False, separators=(",", ":")),
        )

    def write_browse(self, groups: dict[str, list[Facet]]) -> None:
        """The browse page; past PUBLISHERS_ON_BROWSE publishers, one page of them per letter."""
        letters = self.publisher_letters(groups)
        self.write("browse/index.html", "browse_index.html", groups=groups, total=len(self.records), letters=letters)
        if self.split_publishers:
            for letter, slug, facets in letters:
                self.write(
                    f"browse/publishers/{slug}/index.html",
                    "publishers_letter.html",
                    letter=letter,
                    facets=facets,
                    letters=letters,
                )

    def publisher_letters(self, groups: dict[str, list[Facet]]) -> list[tuple[str, str, list[Facet]]]:
        return by_letter(facet for facet in groups["publishers"] if facet.records)

    def write_sections(self, groups: dict[str, list[Facet]]) -> None:
        """An index page for every folder a page links into: each facet kind, the
        publishers' letters and the records, so a shortened address never ends in a 404."""
        descriptions = {
            "collections": {c.id: c.description for c in self.config.collections},
            "access": ACCESS_DESCRIPTIONS,
        }
        letters = self.publisher_letters(groups)
        for kind, (path, heading, lead) in SECTIONS.items():
            context: dict[str, Any] = {"heading": heading, "lead": lead, "total": len(self.records)}
            if kind == "publishers":
                context.update(letters=letters, publishers=len(groups["publishers"]))
            elif kind == "records":
                context["sections"] = [(SECTIONS[k][0], SECTIONS[k][1]) for k in groups]
            else:
                context.update(facets=groups[kind], descriptions=descriptions.get(kind, {}))
            self.write(path + "index.html", "section.html", **context)
        if self.split_publishers:
            self.write(
                "browse/publishers/index.html",
                "section.html",
                heading="Publishers A to Z",
                lead=SECTIONS["publishers"][2],
                letters=letters,
                publishers=len(groups["publishers"]),
            )

    def write_facets(self, groups: dict[str, list[Facet]]) -> None:
        headings = {
            "collections": "Collection",
            "types": "Resource type",
            "publishers": "Publisher",
            "access": "Access status",
        }
        for kind, facets in groups.items():
            for facet in facets:
                context: dict[str, Any] = {"facet": facet, "kind_heading": headings[kind], "charts": []}
                if kind == "collections":
                    context["description"] = self.config.collection(facet.token).description
                    context["charts"] = collection_charts(facet.records, self.publisher_slug)
                elif kind == "access":
                    context["description"] = ACCESS_DESCRIPTIONS[facet.token]
                else:
                    context["description"] = ""
                self.write_facet_pages(facet, context)

    def write_statements(self) -> None:
        """About, privacy and accessibility, from site/pages/*.md (our own text, sanitised all the same)."""
        for name, title in (
            ("about", "About govsearch"),
            ("privacy", "Privacy"),
            ("accessibility", "Accessibility statement"),
        ):
            source = PAGES / f"{name}.md"
            contact = self.config.contact_url or self.config.url_for("about/")
            text = source.read_text("utf-8").replace("{contact_url}", contact) if source.exists() else ""
            body = markdown.markdown(text, extensions=["tables", "sane_lists"])
            self.write(f"{name}/index.html", "statement.html", title=title, body=Markup(sanitise_html(body)))

    def moved_records(self) -> list[tuple[str, dict[str, Any]]]:
        by_id = {record["id"]: record for record in self.records}
        return [(old, by_id[new]) for old, new in sorted(self.moved.items())]

    def write_data_quality(self) -> None:
        """The data-quality page: the build report's `quality` section, rule by rule, and the merged records' addresses."""
        counts = self.report.get("records", {})
        totals = {
            "built": f"{counts.get('built', len(self.records)):,}",
            "rejected": f"{counts.get('rejected', 0):,}",
            "merged": f"{counts.get('merged_same_resource', 0):,}",
        }
        self.write(
            "data-quality/index.html",
            "data_quality.html",
            rules=self.report.get("quality", {}),
            totals=totals,
            moved=self.moved_records(),
        )

    def write_facet_pages(self, facet: Facet, context: dict[str, Any]) -> None:
        """One facet's records, RECORDS_PER_PAGE to a page; the charts on the first."""
        for page_records, pagination in pages_of(facet.records, facet.path, self.page_size):
            self.write(
                page_path(facet.path, pagination["number"]) + "index.html",
                "facet.html",
                **{**context, "charts": context["charts"] if pagination["number"] == 1 else []},
                page_records=page_records,
                pagination=pagination,
            )

    def render_record(self, record: dict[str, Any], moved_from: str | None = None) -> None:
        source = record.get("source") or {"kind": "curated"}
        source_rows = provenance_rows(source)
        evidence = record.get("evidence") or None
        licence = licence_statement(record)
        self.write(
            f"records/{moved_from or record['id']}/index.html",
            "record.html",
            record=record,
            moved_from=moved_from,
            body=render_markdown(body) if (body := record.get("body", self.bodies.get(record["id"]))) else None,
            source_rows=source_rows,
            source_name=SOURCE_NAMES.get(source.get("kind", "curated"), str(source.get("kind"))),
            authorship=authorship(source),
            evidence=evidence,
            licence=licence,
            link_kinds=LINK_KINDS,
            attribution=attribution(record),
            related=self.related_groups(record),
            access_count=self.access_counts[record["accessStatus"]],
        )

    def related_groups(self, record: dict[str, Any]) -> list[tuple[str, str, list[dict[str, Any]]]]:
        """(id, heading, records) for the record page's related links, kinds with none left out."""
        related = self.related.get(record["id"], Related())
        api_heading = "The APIs it documents" if record["resourceType"] == "api-documentation" else "Its documentation"
        if record["resourceType"] not in ("api", "api-documentation"):
            api_heading = "APIs and documentation"
        groups = [
            ("related-series", "In the same series", related.series),
            ("related-api", api_heading, related.api),
            ("related-topic", f"More from {record['publisher']} on this topic", related.topic),
        ]
        return [(key, heading, [self.by_id[i] for i in ids if i in self.by_id]) for key, heading, ids in groups if ids]


def render_site(
    config: SiteConfig,
    records: list[Record],
    out: Path,
    assets: Assets,
    page_size: int = RECORDS_PER_PAGE,
    report: dict[str, Any] | None = None,
    moved: dict[str, str] | None = None,
) -> list[Path]:
    """Write every HTML page into `out` (the data-quality page from `report`; a page
    at each `moved` record id leading to the record it is now part of); returns the files written."""
    return Renderer(config, records, Path(out), assets, page_size, report, moved).render()
