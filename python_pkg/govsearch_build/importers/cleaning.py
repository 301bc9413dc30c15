"""Text and URL clean-up for the importers: markup to plain text, trimming,
ids and slugs, keyword lists, dates, and the https policy for source URLs.

Sources hold HTML, Markdown, doubly escaped entities and http:// links; what
a record shows is plain text within the schema's limits and an https URL
(or a public body's known http-only host), whatever the source.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import html
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote, urlsplit

LIMITS = {"title": 300, "summary": 2000, "publisher": 100, "accessNote": 1000, "licence": 200}
MAX_ID = 120
MAX_KEYWORDS = 30
MAX_KEYWORD = 80
MAX_LINKS = 40
MAX_ALIASES = 20  # other names a record keeps (alsoKnownAs); each limit is the record schema's

# Hosts known to serve the same pages over https, so an http:// URL on them is
# upgraded rather than rejected. Only hosts whose https service is certain.
HTTPS_HOSTS = frozenset(
    {
        "www.gov.uk",
        "gov.uk",
        "www.data.gov.uk",
        "data.gov.uk",
        "environment.data.gov.uk",
        "www.nationalarchives.gov.uk",
        "www.legislation.gov.uk",
        "www.ons.gov.uk",
        "api.beta.ons.gov.uk",
        "github.com",
        "www.nhs.uk",
        "digital.nhs.uk",
    }
)
# Hosting platforms that serve every site over https (ArcGIS Online / ArcGIS
# Hub have been https-only since 2020).
HTTPS_HOST_SUFFIXES = (".opendata.arcgis.com", ".hub.arcgis.com", ".maps.arcgis.com")

_TAG = re.compile(r"<[^>]{0,500}>")
_MD_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_MD_LINK = re.compile(r"\[([^\]]+)\]\((?:[^()\s]|\([^)]*\))*\)")
_MD_REF_LINK = re.compile(r"\[([^\]]+)\]\[[^\]]*\]")
_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+", re.M)
_MD_QUOTE = re.compile(r"^\s{0,3}>\s?", re.M)
_MD_EMPHASIS = re.compile(r"(\*\*|__|`+)")
_MD_STAR = re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])")
_SLUG_CHARS = re.compile(r"[^a-z0-9]+")
ELLIPSIS = "…"


def plain_text(value: Any) -> str:
    """Literal \\n escapes to spaces, Markdown and HTML markup to plain text."""
    if value is None:
        return ""
    text = str(value)
    text = text.replace("\\r\\n", "\n").replace("\\n", "\n").replace("\\r", "\n").replace("\\t", " ")
    text = _TAG.sub(" ", text)
    # Some exports escape entities twice ("&amp;amp;"): unescape until stable.
    for _ in range(3):
        unescaped = html.unescape(text)
        if unescaped == text:
            break
        text = unescaped
    text = _MD_IMAGE.sub(r"\1", text)
    text = _MD_LINK.sub(r"\1", text)
    text = _MD_REF_LINK.sub(r"\1", text)
    text = _MD_HEADING.sub("", text)
    text = _MD_QUOTE.sub("", text)
    text = _MD_EMPHASIS.sub("", text)
    text = _MD_STAR.sub(r"\1", text)
    text = unicodedata.normalize("NFC", text)
    text = " ".join(text.split())
    return re.sub(r" ([.,;:!?])(?=\s|$)", r"\1", text)


def loose_text(text: str) -> str:
    """Text as compared for sameness: in lower case, its white space folded."""
    return " ".join(text.lower().split())


def trim(text: str, limit: int) -> tuple[str, bool]:
    """Cut at a word boundary to fit `limit` characters, ending with an ellipsis."""
    if len(text) <= limit:
        return text, False
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.-–—") + ELLIPSIS, True


def slug(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return _SLUG_CHARS.sub("-", ascii_text).strip("-")


def make_id(prefix: str, native: str) -> str:
    """Stable lower-case slug `<prefix>-<native>`, hash-suffixed past 120 chars."""
    base = slug(f"{prefix}-{native}") or prefix
    if len(base) <= MAX_ID:
        return base
    digest = hashlib.sha1(native.encode("utf-8")).hexdigest()[:10]
    return base[: MAX_ID - 11].rstrip("-") + "-" + digest


def keywords(values: Iterable[Any]) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    for value in values:
        if value is None:
            continue
        text = plain_text(value)
        if not text or len(text) > MAX_KEYWORD or text.lower() in seen:
            continue
        seen.add(text.lower())
        out.append(text)
        if len(out) == MAX_KEYWORDS:
            break
    return out


def split_list(value: str | None, sep: str = "|") -> list[str]:
    return [part.strip() for part in (value or "").split(sep) if part.strip()]


def iso_date(value: Any) -> str | None:
    """YYYY-MM-DD from a date or timestamp string, or None."""
    if not isinstance(value, str):
        return None
    match = re.match(r"^(\d{4}-\d{2}-\d{2})", value.strip())
    if not match:
        return None
    try:
        dt.date.fromisoformat(match.group(1))
    except ValueError:
        return None
    return match.group(1)


class UrlCleaner:
    """Source URLs to https ones, counting what it upgraded and what it refused."""

    def __init__(self, http_hosts: Iterable[str] = ()):
        self.known_https_hosts: set[str] = set()
        # public-body hosts that offer only plain http (site config `http_allowed_hosts`)
        self.http_hosts = frozenset(http_hosts)
        self.upgraded: Counter[str] = Counter()
        self.http_only: Counter[str] = Counter()

    def learn_https_hosts(self, urls: Iterable[str]) -> None:
        """Hosts the input itself links over https count as serving https."""
        for url in urls:
            if isinstance(url, str) and url.startswith("https://"):
                host = urlsplit(url).hostname
                if host:
                    self.known_https_hosts.add(host)

    def link(self, value: Any) -> tuple[str | None, str | None]:
        """A further link of a record (a dataset's download or service): as `clean`,
        except that a plain-http link on any host is kept, to be marked http-only,
        rather than dropped: the policy guards the record's own address, and a public
        body's only copy of a format is still worth listing, flagged."""
        return self.clean(value, keep_http=True)

    def usable(self, value: Any) -> bool:
        """Whether `clean` would accept the URL, without counting it."""
        saved = (self.upgraded.copy(), self.http_only.copy())
        url, _ = self.clean(value)
        self.upgraded, self.http_only = saved
        return url is not None

    def clean(self, value: Any, *, keep_http: bool = False) -> tuple[str | None, str | None]:
        """(https URL, None) or (None, reason it cannot be used); with `keep_http`, a
        plain-http URL on any host is returned as it is (see `link`)."""
        if not isinstance(value, str) or not value.strip():
            return None, "no URL given"
        text = value.strip()
        if any(ch.isspace() for ch in text):
            text = quote(text, safe=":/?#[]@!$&'()*+,;=%~")
        try:
            parts = urlsplit(text)
            host = parts.hostname
            parts.port  # noqa: B018 - raises on a bad port
        except ValueError:
            return None, f"malformed URL {text[:80]!r}"
        if parts.scheme not in ("http", "https") or not host:
            return None, f"not an absolute web URL: {text[:80]!r}"
        # a scheme in any case is the scheme ("Https://"); written in lower case as the schema asks
        text = parts.scheme + text[len(parts.scheme) :]
        if parts.username or parts.password:
            return None, "URL carries credentials"
        if parts.scheme == "http":
            if host in HTTPS_HOSTS or host in self.known_https_hosts or host.endswith(HTTPS_HOST_SUFFIXES):
                self.upgraded[host] += 1
                text = "https://" + text[len("http://") :]
            elif host in self.http_hosts or keep_http:
                return text, None  # a public body's http-only link: kept, and marked http-only by add()
            else:
                self.http_only[host] += 1
                return None, f"http-only URL on {host}, which is not known to serve https"
        return text, None


def page_type(url: str) -> str:
    """A link to a GOV.UK page is GOV.UK content; any other official page is guidance."""
    return "govuk-content" if url.startswith("https://www.gov.uk/") else "guidance"
