"""Render the site's static HTML pages from the records.

Every page works without JavaScript. Record fields are untrusted: Jinja's
autoescaping renders them as text, and the Markdown body is converted and
then sanitised with nh3 so no raw HTML, script or unsafe URL survives.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import markdown
import nh3
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from govsearch.attribution import attribution
from govsearch.tool_schemas import ACCESS_STATUSES as ACCESS_TOKENS
from govsearch.tool_schemas import RESOURCE_TYPES as TYPE_TOKENS

from .assets import Assets
from .config import SiteConfig
from .records import Record, markdown_hazard
from .related import Related, related_records
from .runtime import first_visit_bytes

PROJECT_ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = PROJECT_ROOT / "site" / "templates"
PAGES = PROJECT_ROOT / "site" / "pages"

CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'"
)

# Display words for the schema's tokens (govsearch.tool_schemas), in the
# schema's order; a token the schema gains without a label here fails the build.
_TYPE_LABELS = {
    "govuk-content": "GOV.UK content",
    "dataset": "Dataset",
    "api": "API",
    "api-documentation": "API documentation",
    "catalogue-record": "Catalogue record",
    "organisation": "Organisation",
    "guidance": "Guidance",
}
RESOURCE_TYPES = {token: _TYPE_LABELS[token] for token in TYPE_TOKENS}
_ACCESS_LABELS = {
    "public": "Public",
    "restricted": "Restricted",
    "authentication-required": "Authentication required",
    "access-not-established": "Access not established",
    "not-applicable": "Not applicable",
}
ACCESS_STATUSES = {token: _ACCESS_LABELS[token] for token in ACCESS_TOKENS}
ACCESS_DESCRIPTIONS = {
    "public": "Anyone can use these resources without signing up.",
    "restricted": "Use is limited to eligible people or organisations.",
    "authentication-required": "You need an account, key or sign-in to use these resources.",
    "access-not-established": "We have not yet established how these resources can be accessed.",
    "not-applicable": "Access conditions do not apply, for example to an organisation's page.",
}
ACCESS_TAG_COLOURS = {
    "public": "govuk-tag--green",
    "restricted": "govuk-tag--red",
    "authentication-required": "govuk-tag--yellow",
    "access-not-established": "govuk-tag--grey",
    "not-applicable": "govuk-tag--grey",
}
LICENCE_STATUSES = {
    "open": "Open",
    "open-with-conditions": "Open with conditions",
    "restricted": "Restricted",
    "not-stated": "Not stated",
}
NOT_STATED = "Not stated by the source"
LINK_KINDS = {"download": "download", "service": "service", "documentation": "documentation", "api": "API"}
# Where a record comes from, in plain words (importer kinds are jargon).
SOURCE_NAMES = {
    "curated": "the govsearch editors",
    "api-catalogue": "the UK government API catalogue (Central Digital and Data Office)",
    "govuk-organisations": "the GOV.UK list of government organisations",
    "okf-search-shards": "a public catalogue of UK government APIs (okf-uk-government-apis)",
    "okf-hmlr-csv": "a public catalogue of HM Land Registry data (okf-LandRegistry)",
    "okf-uk-living": "a public list of official links for everyday life (okf-uk-living)",
    "okf-markdown": "a public collection of catalogue records (OKF Markdown)",
}
# Provenance rows: field, label; dates and hashes are made readable by source_rows.
SOURCE_FIELDS = (
    ("observed", "Date of the copy we used"),
    ("nativeId", "Identifier at the source"),
    ("url", "Source page"),
    ("file", "Place in the export"),
    ("revision", "Export version"),
)
TOP_PUBLISHERS = 10
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
# Browse pages list at most this many records each: collections/<id>/,
# collections/<id>/page-2/, ... so no page lists tens of thousands of records.
RECORDS_PER_PAGE = 100

# The record body: Markdown, then only these tags and attributes survive.
BODY_TAGS = {
    "a",
    "abbr",
    "b",
    "blockquote",
    "br",
    "code",
    "dd",
    "del",
    "dl",
    "dt",
    "em",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "i",
    "li",
    "ol",
    "p",
    "pre",
    "strong",
    "sub",
    "sup",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "tr",
    "ul",
}
BODY_ATTRIBUTES = {"a": {"href", "title"}, "abbr": {"title"}, "th": {"scope"}}


@dataclass(frozen=True)
class Facet:
    """One browsable value: a collection, type, publisher or access status."""

    kind: str  # collections | types | publishers | access
    token: str  # the machine value in the records
    slug: str  # the URL segment
    label: str
    records: tuple[dict[str, Any], ...]

    @property
    def path(self) -> str:
        return f"{self.kind}/{self.slug}/"


def sanitise_html(html: str) -> str:
    return nh3.clean(
        html,
        tags=BODY_TAGS,
        attributes=BODY_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
        strip_comments=True,
    )


def render_markdown(text: str) -> Markup:
    """Markdown to safe HTML: raw HTML, scripts and javascript: URLs removed.

    A body Markdown cannot render safely (the build rejects those records;
    this guards direct callers) is shown as plain escaped paragraphs.
    """
    if markdown_hazard(text) is None:
        try:
            html = markdown.markdown(text, extensions=["tables", "sane_lists"], output_format="html")
            return Markup(sanitise_html(html))
        except RecursionError:
            pass
    paragraphs = (part.strip() for part in re.split(r"\n\s*\n", text))
    return Markup("".join(Markup("<p>{}</p>").format(part) for part in paragraphs if part))


MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def govuk_date(value: Any) -> str:
    """A date as GOV.UK writes it ("14 July 2026"); anything not a date is shown as it is."""
    match = re.fullmatch(r"(\d{4})-(\d{2})(?:-(\d{2}))?(?:[T ].*)?", str(value or "").strip())
    if not match or not 1 <= int(match.group(2)) <= 12:
        return str(value)
    year, month, day = match.group(1), MONTHS[int(match.group(2)) - 1], match.group(3)
    return f"{int(day)} {month} {year}" if day else f"{month} {year}"


def thousands(value: Any) -> str:
    """A count with thousands separators ("37,816")."""
    try:
        return f"{int(value):,}"
    except (TypeError, ValueError):
        return str(value)


def provenance_rows(source: dict[str, Any]) -> list[tuple[str, str, str | None]]:
    """(label, text, link) rows for "Where this record comes from": dates as
    GOV.UK writes them, a revision shortened to the 12 characters people quote."""
    rows: list[tuple[str, str, str | None]] = []
    for key, label in SOURCE_FIELDS:
        value = source.get(key)
        if value in (None, ""):
            continue
        text = str(value)
        if key == "observed":
            text = govuk_date(text)
        elif key == "revision" and re.fullmatch(r"[0-9a-f]{13,64}", text):
            text = text[:12]
        rows.append((label, text, safe_href(text) if key == "url" else None))
    return rows


def by_letter(facets: Iterable[Facet]) -> list[tuple[str, str, list[Facet]]]:
    """Facets grouped A to Z by the first letter of their label: (letter,
    slug, facets); names starting with anything else come last, under "0-9"."""
    groups: dict[str, list[Facet]] = {}
    for facet in facets:
        first = unicodedata.normalize("NFKD", facet.label.strip()[:1]).encode("ascii", "ignore").decode().upper()
        groups.setdefault(first if "A" <= first <= "Z" else "0-9", []).append(facet)
    letters = sorted(groups, key=lambda letter: (letter == "0-9", letter))
    return [(letter, "other" if letter == "0-9" else letter.lower(), groups[letter]) for letter in letters]


def slugify(name: str) -> str:
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    text = text.replace("&", " and ")
    slug = re.sub(r"[^a-z0-9]+", "-", text).strip("-")
    return slug or "publisher"


def publisher_slugs(names: Iterable[str]) -> dict[str, str]:
    """A unique URL slug for every publisher name (a number added on collision)."""
    slugs: dict[str, str] = {}
    used: set[str] = set()
    for name in sorted(set(names)):
        base = slugify(name)
        slug, number = base, 2
        while slug in used:
            slug, number = f"{base}-{number}", number + 1
        used.add(slug)
        slugs[name] = slug
    return slugs


def safe_href(url: Any) -> str | None:
    """The URL if it is an absolute http(s) URL, else None (shown as text)."""
    if not isinstance(url, str):
        return None
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme in ("http", "https") and parts.netloc and not parts.username and not parts.password:
        return url.strip()
    return None


def licence_statement(record: dict[str, Any]) -> dict[str, Any]:
    """The one licence statement of a record page: the record's licence, else the
    reviewed evidence's, else that the source does not state one."""
    evidence = record.get("evidence") or {}
    status = LICENCE_STATUSES.get(evidence.get("licenceStatus", ""), evidence.get("licenceStatus"))
    if record.get("licence"):
        shown = status if evidence.get("licenceStatus") != "not-stated" else None
        return {"text": record["licence"], "stated": True, "status": shown, "reviewed": bool(evidence)}
    if evidence.get("licenceTitle"):
        stated = evidence.get("licenceStatus") != "not-stated"
        return {
            "text": evidence["licenceTitle"],
            "stated": stated,
            "status": status if stated else None,
            "reviewed": True,
        }
    return {"text": NOT_STATED, "stated": False, "status": None, "reviewed": False}


def unique_examples(examples: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """A rule's examples, each change (before and after) shown once: the first
    input that made it, with `also` counting the other inputs that made it too."""
    kept: dict[tuple[str, str], dict[str, Any]] = {}
    for example in examples:
        key = (str(example.get("before")), str(example.get("after") or example.get("action")))
        if key in kept:
            kept[key]["also"] += 1
        else:
            kept[key] = {**example, "also": 0}
    return list(kept.values())


def _by_title(records: Iterable[dict[str, Any]]) -> tuple[dict[str, Any], ...]:
    return tuple(sorted(records, key=lambda r: (r["title"].casefold(), r["id"])))


def page_numbers(current: int, pages: int) -> list[int | None]:
    """The page links to show: the first, the last and the current page with its
    neighbours; None marks a gap (shown as an ellipsis)."""
    wanted = sorted({1, pages, current - 1, current, current + 1} & set(range(1, pages + 1)))
    shown: list[int | None] = []
    for number in wanted:
        if shown and number - shown[-1] == 2:  # a gap of one page: show it rather than an ellipsis
            shown.append(number - 1)
        elif shown and number - shown[-1] > 2:
            shown.append(None)
        shown.append(number)
    return shown


def page_path(base: str, number: int) -> str:
    """The path of page `number` of a browse page whose first page is `base`."""
    return base if number == 1 else f"{base}page-{number}/"


def composition(
    records: Iterable[dict[str, Any]], field: str, labels: dict[str, str] | None = None, top: int | None = None
) -> list[dict[str, Any]]:
    """Counts of one field's values as chart rows: label, count, percent."""
    records = list(records)
    counts = Counter(record[field] for record in records)
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    total = len(records) or 1
    if top is not None and len(rows) > top:
        rest = sum(count for _, count in rows[top:])
        rows = rows[:top] + [("", rest)]
    biggest = max((count for _, count in rows), default=1) or 1
    return [
        {
            "token": token,
            "label": (labels or {}).get(token, token) if token else "All other publishers",
            "count": count,
            "share": round(100 * count / total),
            "bar": round(100 * count / biggest, 1),
        }
        for token, count in rows
    ]


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
        self.env.filters.update(govuk_date=govuk_date, thousands=thousands, unique_examples=unique_examples)
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
        groups: dict[str, list[Facet]] = {}
        groups["collections"] = [
            Facet(
                "collections",
                c.id,
                c.id,
                c.title,
                _by_title(r for r in self.records if c.id in r.get("collections", [r["collection"]])),
            )
            for c in self.config.collections
        ]
        groups["types"] = [
            Facet("types", token, token, label, _by_title(r for r in self.records if r["resourceType"] == token))
            for token, label in RESOURCE_TYPES.items()
        ]
        groups["access"] = [
            Facet("access", token, token, label, _by_title(r for r in self.records if r["accessStatus"] == token))
            for token, label in ACCESS_STATUSES.items()
        ]
        groups["publishers"] = [
            Facet("publishers", name, slug, name, _by_title(r for r in self.records if r["publisher"] == name))
            for name, slug in sorted(self.publisher_slug.items(), key=lambda item: item[0].casefold())
        ]
        return groups

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
                    context["charts"] = self.charts(facet.records)
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
        size = self.page_size
        pages = max(1, -(-len(facet.records) // size))
        for number in range(1, pages + 1):
            start = (number - 1) * size
            page_records = facet.records[start : start + size]
            pagination = {
                "number": number,
                "pages": pages,
                "first": start + 1,
                "last": start + len(page_records),
                "previous": page_path(facet.path, number - 1) if number > 1 else None,
                "next": page_path(facet.path, number + 1) if number < pages else None,
                "links": [(n, page_path(facet.path, n) if n else None) for n in page_numbers(number, pages)],
            }
            self.write(
                page_path(facet.path, number) + "index.html",
                "facet.html",
                **{**context, "charts": context["charts"] if number == 1 else []},
                page_records=page_records,
                pagination=pagination,
            )

    def charts(self, records: tuple[dict[str, Any], ...]) -> list[dict[str, Any]]:
        """A collection's composition; each row links to the page listing that value's records."""
        charts = [
            {
                "id": "types",
                "caption": "Resource types",
                "column": "Resource type",
                "rows": composition(records, "resourceType", RESOURCE_TYPES),
            },
            {
                "id": "access",
                "caption": "Access statuses",
                "column": "Access status",
                "rows": composition(records, "accessStatus", ACCESS_STATUSES),
            },
            {
                "id": "publishers",
                "caption": "Top publishers",
                "column": "Publisher",
                "rows": composition(records, "publisher", top=TOP_PUBLISHERS),
            },
        ]
        paths = {
            "types": lambda token: f"types/{token}/",
            "access": lambda token: f"access/{token}/",
            "publishers": lambda token: f"publishers/{self.publisher_slug[token]}/",
        }
        for chart in charts:
            for row in chart["rows"]:
                row["href"] = paths[chart["id"]](row["token"]) if row["token"] else None
        return charts

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
            curated=source.get("kind", "curated") == "curated",
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
