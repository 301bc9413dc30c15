"""GOV.UK's most visited pages (`most_visited.txt`), matched to the records at
their addresses.

A short query for an everyday service ("passport", "universal credit",
"benefits") matches many pages alike: the service's own page and the pages
about one corner of it ("Universal Credit advances", "Passport fees"). GOV.UK's
own search orders them by how many people use them; the words typed cannot. The
build writes each matched record's place on the list into the ranking file, and
the runtime raises its prior a little by it (govsearch.ranking.rules.visit_factor).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urlsplit

from .records import Record

LIST = Path(__file__).with_name("most_visited.txt")
GOV_UK = "https://www.gov.uk"


def places(path: Path = LIST) -> dict[str, int]:
    """Each listed page's address (as `page_key` writes it) and its place, from 1."""
    lines = (line.strip() for line in path.read_text("utf-8").splitlines())
    addresses = [line for line in lines if line and not line.startswith("#")]
    found: dict[str, int] = {}
    for place, address in enumerate(addresses, 1):
        found.setdefault(page_key(GOV_UK + address if address.startswith("/") else address), place)
    return found


def page_key(url: str) -> str:
    """An address as the list and a record compare it: host, path without a trailing slash, and
    query, whatever the scheme (a fragment is a part of the same page)."""
    parts = urlsplit(url)
    query = f"?{parts.query}" if parts.query else ""
    return f"{parts.hostname or ''}{parts.path.rstrip('/')}{query}"


def visited(records: Iterable[Record], listed: dict[str, int] | None = None) -> list[list[int]]:
    """[number, place on the list] of each record (in number order) at a listed address."""
    listed = places() if listed is None else listed
    found = ((number, listed.get(page_key(record.data["url"]))) for number, record in enumerate(records))
    return [[number, place] for number, place in found if place]
