"""URL identity: which addresses name one resource, and so make one record
when the estate is merged (`same-resource-merged`, `formats-merged`,
`hub-item-merged`, `service-endpoints-merged`)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import quote, unquote, urlsplit, urlunsplit

from .link_facts import FORMAT_PARAMETERS

# --- URL identity ---------------------------------------------------------
# A last path segment naming an API's version ("/v1", "/v2.1"): the API's
# catalogue entry and its reviewed record often differ only by it.
_VERSION_SEGMENT = re.compile(r"(?<=.)/v[0-9]+(?:\.[0-9]+)*$", re.IGNORECASE)


def normalised_url(url: str) -> str:
    """The identity of the resource a URL names: scheme, host case, default port,
    a trailing slash, a trailing version segment after some path
    (`api.os.uk/search/places/v1` is `api.os.uk/search/places`; a host's bare
    `/v1` is not stripped, since a gateway host serves many APIs), an empty
    query parameter ("?a=1&"), an empty last query value ("?wsdl=") and how the path
    is percent-encoded (`/{ref}` is `/%7Bref%7D`) do not matter."""
    try:
        parts = urlsplit(url.strip())
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:
        return url
    netloc = host if port in (None, 80, 443) else f"{host}:{port}"
    path = _VERSION_SEGMENT.sub("", _one_encoding(parts.path).rstrip("/"))
    query = "&".join(part for part in parts.query.split("&") if part)  # "?a=1&" is "?a=1"
    query = query.rstrip("=") if query.count("=") == 1 else query
    return urlunsplit(("https", netloc, path, query, parts.fragment))


# characters a path may hold as they are (RFC 3986's unreserved and sub-delims, ":", "@", "/")
_PATH_SAFE = "/:@!$&'()*+,;=-._~"


def _one_encoding(path: str) -> str:
    """A path percent-encoded one way: what needs no escaping unescaped, the rest
    escaped in upper case; an escaped "/" stays escaped (it is not a separator)."""
    return "%2F".join(quote(unquote(piece), safe=_PATH_SAFE) for piece in re.split("%2[fF]", path))


# a file extension that only picks the format of the same data
_FORMAT_EXTENSION = re.compile(r"\.(?:csv|tsv|json|geojson|kml|kmz|gml|xml|xls|xlsx|ods|zip|shp|gpkg)$", re.IGNORECASE)


def format_free_url(url: str) -> str:
    """The address of the data a URL serves, whatever its format: `normalised_url`
    without a format query parameter (`outputFormat=csv`, `f=geojson`) or a file
    extension (`.csv`). Two links with the same format-free URL serve the same
    data in two formats. A fragment is kept: it names different things at one page."""
    parts = urlsplit(normalised_url(url))
    query = "&".join(part for part in parts.query.split("&") if part.split("=", 1)[0].lower() not in FORMAT_PARAMETERS)
    path = _FORMAT_EXTENSION.sub("", parts.path)
    return urlunsplit((parts.scheme, parts.netloc, path, query, parts.fragment))


# --- one hub item, one OGC service -------------------------------------------
# An ArcGIS Online item id is unique across ArcGIS, whichever hub site shows it:
# ".../datasets/<id>_<layer>", or a slug page's own downloads ".../items/<id>/csv?layers=<layer>".
_HUB_ITEM_PAGE = re.compile(r"/datasets/([0-9a-f]{32})(?:_([0-9]+))?$")
_HUB_DOWNLOADS = (
    re.compile(r"/api/download/v1/items/([0-9a-f]{32})/[^/?#]+\?(?:.*&)?layers=([0-9]+)"),
    re.compile(r"/datasets/([0-9a-f]{32})_([0-9]+)\.[a-z]+(?:\?|$)"),
)
_HUB_SLUG_PAGE = re.compile(r"^/(?:maps|datasets)/([^/]+::[^/]+)$")


def hub_items(url: str, links: Iterable[str] = ()) -> set[str]:
    """What names the ArcGIS Hub item (and layer) a catalogue page shows: its URL's
    item id (`/datasets/<item id>_<layer>`), else the one item and layer its own
    downloads all name; and its slug page (`/maps/org::name` and `/datasets/org::name`
    are one item on one hub). Empty for a page that shows no hub item."""
    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    page = _HUB_ITEM_PAGE.search(path)
    named = {match.groups() for link in links for pattern in _HUB_DOWNLOADS if (match := pattern.search(link))}
    found = set()
    if page:
        found.add(f"arcgis-item:{page.group(1)}_{page.group(2) or ''}")
    elif len(named) == 1:
        item, layer = next(iter(named))
        found.add(f"arcgis-item:{item}_{layer}")
    slug = _HUB_SLUG_PAGE.match(path)
    if slug:
        found.add(f"arcgis-hub:{(parts.hostname or '').lower()}/{slug.group(1).lower()}")
    return found


# OGC request parameters: they ask one endpoint for its capabilities or its data
# under one protocol, and do not name another resource.
_OGC_PARAMETERS = frozenset({"service", "request", "version", "acceptversions"})
# an endpoint's protocol-specific last segment: GeoServer's /wms and /wfs (its /ows
# answers both), ArcGIS's MapServer/WMSServer and /WFSServer
_OGC_SEGMENT = re.compile(r"/(?:ows|wms|wfs|wcs|wmts|wmsserver|wfsserver|wcsserver)$", re.IGNORECASE)


def service_endpoint(url: str) -> str | None:
    """The OGC service a URL asks (its endpoint without the protocol and request:
    `ows?service=WMS&request=GetCapabilities` and `ows?service=WFS&...` are one
    service, and so are GeoServer's `/wms` and `/wfs`), or None for a URL that asks
    no OGC service. Other parameters (a layer's `typeName`) still name their own."""
    parts = urlsplit(normalised_url(url))
    pairs = [part for part in parts.query.split("&") if part]
    asks = any(part.split("=", 1)[0].lower() == "service" for part in pairs)
    if not asks and not _OGC_SEGMENT.search(parts.path):
        return None
    query = "&".join(part for part in pairs if part.split("=", 1)[0].lower() not in _OGC_PARAMETERS)
    path = _OGC_SEGMENT.sub("", parts.path)
    return urlunsplit(("ogc", parts.netloc, path, query, ""))
