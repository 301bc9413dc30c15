"""Services titled by what they serve, not by the server.

Catalogues list a dataset's web services (WFS, WMS, ArcGIS layers) as rows of
their own, often titled after the server rather than the data: 99 of Barrow's
layers are each "Barrow Council INSPIRE WFS GML 3.2 Download Service", 18 of
Powys's "PNG Overview", others a layer code ("manc_all_development") or the
dataset's title again, word for word. A visitor sees a column of identical
results. Such a row names its dataset's page (`documentationUrl`), and that
page is often a record of the estate with a real title: the service takes it,
with the kind of service in brackets ("Advert Control Areas (WFS)").

A whole-estate rule (the dataset's record may come from another file), run
after records of the same resource are merged.
"""

from __future__ import annotations

import re

from .importers.cleaning import LIMITS, keywords, trim
from .link_facts import service_kind
from .quality import QualityLog
from .records import Record
from .titles import names_only_its_server


def service_titles(records: list[Record], log: QualityLog) -> None:
    """Retitle each service whose title names only its server, is a layer code or
    repeats its dataset's title, after the dataset record its row points to."""
    by_url = {record.data["url"]: record for record in records}
    for record in records:
        data = record.data
        dataset = by_url.get(data.get("documentationUrl", ""))
        if dataset is None or dataset is record or "evidence" in data:
            continue
        if names_only_its_server(dataset.data["title"], dataset.data.get("publisher", "")):
            continue  # the dataset's page is titled after the server too
        title = _title_from(data, dataset.data["title"])
        if title and title != data["title"]:
            log.note("service-titled-by-dataset", "changed", record.file, data["title"], title)
            if _is_code(data["title"]):
                data["keywords"] = keywords([*data.get("keywords", []), data["title"]])
            data["title"] = title


def _title_from(data: dict, dataset_title: str) -> str | None:
    title = data["title"]
    kind = service_kind(data["url"], title)
    if title.casefold() == dataset_title.casefold():
        return _with_kind(dataset_title, kind) if kind else None
    if names_only_its_server(title, data.get("publisher", "")) or _is_code(title):
        return _with_kind(dataset_title, kind or title)
    return None


def _with_kind(title: str, kind: str) -> str:
    if kind.lower() in re.findall(r"[a-z]+", title.lower()):
        return title  # "Topsoil Organic Carbon, Scotland WMS" says it already
    return trim(f"{title} ({kind})", LIMITS["title"])[0]


def _is_code(title: str) -> bool:
    """A layer or table code ("manc_all_development"), not words."""
    return " " not in title.strip() and "_" in title
