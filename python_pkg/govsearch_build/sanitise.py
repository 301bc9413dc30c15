"""Untrusted text made safe to show: a record's Markdown body converted and then
sanitised with nh3 so no raw HTML, script or unsafe URL survives, and a link
target kept only when it is an absolute http(s) URL."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import markdown
import nh3
from markupsafe import Markup

from .records import markdown_hazard

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
