"""What a link's own address says: the kind of service or file it serves, whether
it is a file download, the format and coordinate system it asks; and a record's
links told apart by those facts (`links-labelled`)."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from .titles import title_words

# (pattern over the URL's path, lower case) -> the kind shown in brackets
_PATH_KINDS = (
    (re.compile(r"/featureserver\b"), "ArcGIS FeatureServer"),
    (re.compile(r"/mapserver\b"), "ArcGIS MapServer"),
    (re.compile(r"/imageserver\b"), "ArcGIS ImageServer"),
    (re.compile(r"(?:^|/)wfs(?:/|$)"), "WFS"),
    (re.compile(r"(?:^|/)wms(?:/|$)"), "WMS"),
    (re.compile(r"(?:^|/)wmts(?:/|$)"), "WMTS"),
    (re.compile(r"\.geojson$"), "GeoJSON"),
    (re.compile(r"\.csv$"), "CSV"),
    (re.compile(r"\.kml$"), "KML"),
    (re.compile(r"\.zip$"), "ZIP"),
)
_SERVICES = {"wfs": "WFS", "wms": "WMS", "wmts": "WMTS", "wcs": "WCS"}
_TITLE_KINDS = {**_SERVICES, "geojson": "GeoJSON", "csv": "CSV", "kml": "KML", "shp": "SHP", "gml": "GML"}


def service_kind(url: str, title: str = "") -> str | None:
    """What kind of service or file a URL serves ("WFS", "ArcGIS FeatureServer", "CSV"), if it says."""
    parts = urlsplit(url)
    for name, value in parse_qsl(parts.query):
        if name.lower() == "service" and value.lower() in _SERVICES:
            return _SERVICES[value.lower()]
    path = parts.path.lower().rstrip("/")
    for pattern, kind in _PATH_KINDS:
        if pattern.search(path):
            return kind
    return next((_TITLE_KINDS[w] for w in title_words(title) if w in _TITLE_KINDS), None)


# --- evidence of a file download ------------------------------------------
_FILE_EXTENSIONS = (
    ".csv",
    ".xls",
    ".xlsx",
    ".ods",
    ".zip",
    ".geojson",
    ".kml",
    ".kmz",
    ".pdf",
    ".txt",
    ".shp",
    ".gpkg",
)
_DOWNLOAD_QUERY = re.compile(
    r"(?:^|&)(?:f|format|outputformat)=(?:csv|geojson|kml|shape-?zip|excel(?:2007)?|xlsx?)(?:&|$)", re.IGNORECASE
)


def is_file_download(url: str) -> bool:
    """A link to a file (by its extension, a download API path or a format query), not a service."""
    parts = urlsplit(url)
    path = parts.path.lower()
    return path.endswith(_FILE_EXTENSIONS) or "/api/download/" in path or bool(_DOWNLOAD_QUERY.search(parts.query))


# A query parameter that only picks the format of the same data (GeoServer's
# outputFormat, ArcGIS's f, a generic format).
FORMAT_PARAMETERS = frozenset({"f", "format", "outputformat"})


_FORMAT_NAMES = {
    "csv": "CSV",
    "geojson": "GeoJSON",
    "json": "JSON",
    "kml": "KML",
    "shape-zip": "SHP",
    "shapezip": "SHP",
    "shp": "SHP",
    "excel": "XLS",
    "excel2007": "XLS",
    "xls": "XLS",
    "xlsx": "XLSX",
    "zip": "ZIP",
}


def format_name(url: str) -> str | None:
    """The format a link's format parameter or file extension names ("CSV", "SHP"), if it does."""
    parts = urlsplit(url)
    for name, value in parse_qsl(parts.query):
        if name.lower() in FORMAT_PARAMETERS and value.lower() in _FORMAT_NAMES:
            return _FORMAT_NAMES[value.lower()]
    extension = parts.path.lower().rsplit(".", 1)[-1] if "." in parts.path.rsplit("/", 1)[-1] else ""
    return _FORMAT_NAMES.get(extension)


# --- links that can be told apart -------------------------------------------------
_CRS_PARAMETERS = frozenset({"srsname", "srs", "crs", "outsr", "insr", "sr"})
_EPSG = re.compile(r"(?:epsg[:/]{1,2}|EPSG%3A|^)([0-9]{4,6})$", re.IGNORECASE)
_CRS_NAMES = {"27700": "British National Grid", "4326": "WGS 84", "3857": "Web Mercator", "29902": "Irish Grid"}


def coordinate_system(url: str) -> str | None:
    """The coordinate system a link's own parameters ask (`srsName=EPSG:27700`, `outSR=4326`), named."""
    for name, value in parse_qsl(urlsplit(url).query):
        if name.lower() in _CRS_PARAMETERS:
            match = _EPSG.search(value.strip())
            if match:
                code = match.group(1)
                return _CRS_NAMES.get(code, f"EPSG:{code}")
    return None


def distinct_links(links: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """A record's links with exact duplicates (the same address) listed once, and
    links of one title told apart by what differs between them: their host, their
    format or their coordinate system (from each link's own address); returns the
    links and how many duplicates were dropped."""
    unique: list[dict[str, Any]] = []
    seen: set[str] = set()
    for link in links:
        if link["url"] not in seen:
            seen.add(link["url"])
            unique.append(dict(link))
    by_title: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for link in unique:
        by_title[link["title"].lower()].append(link)
    for same in (group for group in by_title.values() if len(group) > 1):
        facts = [_link_facts(link["url"]) for link in same]
        differing = [n for n in range(3) if len({fact[n] for fact in facts}) > 1]
        for link, fact in zip(same, facts):
            told = [fact[n] for n in differing if fact[n]]
            if told:
                link["title"] = f"{link['title']} ({', '.join(told)})"[:300]
    return unique, len(links) - len(unique)


def _link_facts(url: str) -> tuple[str, str, str]:
    """(host, format, coordinate system) of a link, each "" when its address does not say."""
    return ((urlsplit(url).hostname or "").lower(), format_name(url) or "", coordinate_system(url) or "")
