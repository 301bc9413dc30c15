"""Why an input was not built (`Rejection`: file, field, rule), and the checks of
single front-matter values (web addresses, the http-only mark, dates) that
records.validate_record applies."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Rejection:
    """Why one input was not built: the place (file, field) and the rule broken."""

    file: str
    field: str
    reason: str

    def as_dict(self) -> dict[str, str]:
        return {"file": self.file, "field": self.field, "reason": self.reason}


_SPACE = re.compile(r"\s")  # str.isspace's characters, found without a Python-level loop


def http_unmarked(data: dict[str, Any]) -> bool:
    """A record whose address is plain http without the `http-only` mark: its page
    would not say the link is not encrypted (importers mark theirs; a record we
    write must say so)."""
    url = data.get("url")
    return isinstance(url, str) and url.startswith("http://") and data.get("linkSecurity") != "http-only"


def flagged_host(link: dict[str, Any]) -> set[str]:
    """The host of a link marked http-only, whose plain http is allowed on any host."""
    url = link.get("url")
    if link.get("linkSecurity") != "http-only" or not isinstance(url, str) or not url.startswith("http://"):
        return set()
    try:
        return {urlsplit(url).hostname or ""}
    except ValueError:
        return set()


def url_problems(value: Any, name: str, file: str, http_allowed: set[str]) -> list[Rejection]:
    if not isinstance(value, str):
        return []
    if _SPACE.search(value):
        # The schema pattern's `$` lets a trailing newline through (re.search).
        return [Rejection(file, name, "url: must not contain spaces or line breaks")]
    try:
        parts = urlsplit(value)
        _ = parts.port  # raises ValueError for a port that is not a number in range
    except ValueError as error:
        # e.g. "https://[x/" (an unclosed IPv6 bracket) would otherwise crash the build.
        return [Rejection(file, name, f"url: not a valid URL ({error})")]
    if parts.username or parts.password:
        return [Rejection(file, name, "url: credentials are not allowed in URLs")]
    if parts.scheme == "http" and parts.hostname not in http_allowed:
        return [
            Rejection(
                file,
                name,
                "url: must use https (add the host to http_allowed_hosts in site.toml only if it offers nothing else)",
            )
        ]
    return []


def date_problems(value: Any, name: str, file: str) -> list[Rejection]:
    if not isinstance(value, str):
        return []
    try:
        dt.date.fromisoformat(value)
    except ValueError:
        return [Rejection(file, name, f"date: {value[:20]!r} is not a real calendar date")]
    return []
