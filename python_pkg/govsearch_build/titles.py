"""What a title says: words that only say how a resource is delivered or
reached (`generic-title`), an item's name spelled from its catalogue page or
service request, a service titled by its server (`service-titled-by-dataset`),
a title with its format words taken off, and rows made to test a catalogue
(`test-record-left-out`)."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

# --- generic titles -------------------------------------------------------
# Words that say only how a resource is delivered (formats, protocols,
# products), words that say only how to reach it ("View Data", "Download"),
# and words that add nothing to them ("Link to WMS", "Download Data"). A
# title of these alone, with at least one of the first two kinds, or only
# numbers, names no resource ("Data Hub" still does).
FORMAT_WORDS = frozenset(
    """
    csv tsv json geojson kml kmz xml gml shp shapefile shapefiles excel xls xlsx ods pdf zip rdf atom rss html
    wfs wms wmts wcs ogc inspire esri arcgis geoserver rest api apis geoservice geodatabase gdb geopackage gpkg sqlite
    download downloads endpoint mapserver featureserver feature features server services
""".split()
)
ACCESS_WORDS = frozenset("view browse explore".split())
FILLER_WORDS = frozenset(
    """
    hub service map file files collection data dataset datasets link links to web view of the and a an for
    resource resources version v1 v2 v3 portal contract metadata spreadsheet open document format google earth
""".split()
)
WORD = re.compile(r"[a-z]+|[0-9]+")
# A protocol's spelled-out name is its acronym: "Web Map Service" is "WMS".
_PROTOCOL_NAMES = (
    (re.compile(r"\bweb\s+map(?:ping)?\s+tile\s+services?\b"), "wmts"),
    (re.compile(r"\bweb\s+map(?:ping)?\s+services?\b"), "wms"),
    (re.compile(r"\bweb\s+feature\s+services?\b"), "wfs"),
    (re.compile(r"\bweb\s+coverage\s+services?\b"), "wcs"),
)


def title_words(title: str) -> list[str]:
    """A title's words in lower case, a spelled-out protocol name as its acronym."""
    text = title.lower()
    for name, acronym in _PROTOCOL_NAMES:
        text = name.sub(acronym, text)
    return WORD.findall(text)


def is_generic_title(title: str) -> bool:
    """True for a title that is only a format word, a protocol's name, a number, a
    generic product name or an access label ("View Data")."""
    words = title_words(title)
    if all(word.isdigit() for word in words):
        return True
    return all(_says_only_how(word) or word in FILLER_WORDS for word in words) and any(
        word in FORMAT_WORDS or word in ACCESS_WORDS for word in words
    )


def _says_only_how(word: str) -> bool:
    return word in FORMAT_WORDS or word in ACCESS_WORDS or word.isdigit()


# words that join a label to whose it is: "View & Download from CDC"
_BY = frozenset({"from", "by", "at"})
MINOR_WORDS = frozenset({"of", "and", "the", "for", "upon", "on", "in", "under"})
_REACH = ACCESS_WORDS | {"download", "downloads"}


def names_only_its_publisher(title: str, publisher: str) -> bool:
    """True for an access label that adds only its publisher, by name or initials
    ("View & Download from CDC" of Craven District Council). A publisher's name
    with a format or protocol ("Companies House API", "SKDC INSPIRE WFS") names
    that publisher's service, so it is not one of these."""
    own = set(title_words(publisher)) | set(initials(publisher)) | _BY
    words = title_words(title)
    rest = [word for word in words if word not in own]
    return (
        0 < len(rest) < len(words)
        and all(word in _REACH or word in FILLER_WORDS for word in rest)
        and any(word in _REACH for word in rest)
    )


def initials(name: str) -> tuple[str, ...]:
    """A name's initials, with and without its minor words: "Craven District Council"
    -> ("cdc",), "London Borough of Richmond Upon Thames" -> ("lbrt", "lbort")."""
    words = WORD.findall(name.lower())
    major = "".join(word[0] for word in words if word not in MINOR_WORDS and not word.isdigit())
    every = "".join(word[0] for word in words if not word.isdigit())
    return tuple(dict.fromkeys(found for found in (major, every) if len(found) >= 2))


_LAYER_PARAMETERS = frozenset({"typename", "typenames", "layers"})


def _layer(url: str) -> str | None:
    """The one layer a service request names, without its workspace ("dclg_inspire:")."""
    named = [value for name, value in parse_qsl(urlsplit(url).query) if name.lower() in _LAYER_PARAMETERS]
    if len(named) != 1 or "," in named[0]:
        return None
    return named[0].rsplit(":", 1)[-1].strip() or None


_HUB_ITEM = re.compile(r"/datasets/(?:[^/:]+::)?([^/?#]+)")
_DGU_ITEM = re.compile(r"data\.gov\.uk/dataset/(?:[0-9a-f-]{36}/)?([^/?#]+)")


def item_name(*urls: str) -> str | None:
    """The item's name spelled out from a catalogue page's slug, or a service
    request's one layer, or None.

    ArcGIS Hub (".../datasets/ons::some-dataset-name") and data.gov.uk
    (".../dataset/some-dataset-name") pages name the item in their slug; a
    WFS or WMS request names its layer (`typeName=dclg_inspire:English_Town_Centres_2004`).
    """
    for url in urls:
        if not url:
            continue
        match = _HUB_ITEM.search(url) or _DGU_ITEM.search(url)
        layer = None if match else _layer(url)
        if not match and not layer:
            continue
        slug = layer or re.sub(r"-[0-9]$", "", match.group(1))  # hub copies: "name-2"
        words = [word for word in re.split(r"[-_+]+", slug) if word]
        if re.fullmatch(r"[0-9a-f]{32}(_[0-9]+)?", slug) or not words:
            continue
        name = " ".join(words)
        if not is_generic_title(name) and not name.isdigit():
            return name[:1].upper() + name[1:]
    return None


# --- services ---------------------------------------------------------------
# Words a server's name adds to its publisher's name and the format words.
_FORMATS = FORMAT_WORDS | {"gml", "png", "jpeg"}
_SERVER_WORDS = frozenset("overview preview inspire ogc council borough county district city".split())


def names_only_its_server(title: str, publisher: str) -> bool:
    """True when the title says who serves it and how, but not what: every word is
    the publisher's, a format or a filler word, and at least one is a format; or
    it is an access label with only its publisher ("View & Download from CDC")."""
    if is_generic_title(title) or names_only_its_publisher(title, publisher):
        return True
    words = title_words(title)
    own = set(WORD.findall(publisher.lower())) | FILLER_WORDS | _SERVER_WORDS
    return any(w in _FORMATS for w in words) and all(w in own or w in _FORMATS or w.isdigit() for w in words)


def adds_nothing_to(title: str, dataset_title: str, publisher: str) -> bool:
    """True when a format's or service's title names nothing its dataset's title does
    not: "Air Quality Management Areas (download as CSV)", "20 mph zones GeoJSON",
    or only its server ("Runnymede Borough Council WMS Service")."""
    if names_only_its_server(title, publisher):
        return True
    noise = _FORMATS | FILLER_WORDS | _SERVER_WORDS | {"as"}
    own = {w for w in WORD.findall(title.lower()) if w not in noise}
    return bool(own) and own <= set(WORD.findall(dataset_title.lower()))


# formats and protocols only: "Bus Services" and "Open Data Hub" keep their last word
_DELIVERY = frozenset(
    "csv tsv json geojson kml kmz xml gml shp shapefile xls xlsx ods zip wfs wms wmts wcs esri arcgis geoservice".split()
)
_TRAILING_BRACKETS = re.compile(r"\s*\(([^()]*)\)\s*$")


def without_format(title: str) -> str:
    """ "Polling Wards (download as CSV)" -> "Polling Wards", "SuDS Links ESRI Geoservice" ->
    "SuDS Links": a title without the words at its end that only say how it is delivered."""
    noise = _FORMATS | FILLER_WORDS | {"as", "latest"}
    brackets = _TRAILING_BRACKETS.search(title)
    if brackets and all(w in noise for w in WORD.findall(brackets.group(1).lower())):
        title = title[: brackets.start()]
    words = title.split()
    while len(words) > 1 and all(w in _DELIVERY for w in WORD.findall(words[-1].lower())):
        words.pop()
    return " ".join(words).rstrip(" -–")


# --- test records -----------------------------------------------------------------
_TEST_WORD = re.compile(r"^(?:my)?test$", re.IGNORECASE)
# a test is also a real thing people book and sit: those titles are services, not test rows
_REAL_TESTS = frozenset("driving theory practical mot sight eye hearing covid blood pregnancy results".split())


def is_test_title(title: str) -> bool:
    """True for a row its publisher made to try the catalogue out: "test" (or "mytest")
    as the last word ("TPO Test", "walking routes test"), in capitals inside a mixed-case
    title ("Allotment Plots TEST WMS"), in odd case ("MytesT geo987"), or first with only
    formats after it ("Test CSV"). Titles about a test people take ("MOT test") are not."""
    words = title.split()
    tokens = [re.sub(r"[^A-Za-z0-9]", "", word) for word in words]
    if any(token.lower() in _REAL_TESTS for token in tokens):
        return False
    found = [n for n, token in enumerate(tokens) if _TEST_WORD.match(token)]
    if not found:
        return False
    mixed_case = not title.isupper()
    for n in found:
        token = tokens[n]
        odd_case = token not in (token.lower(), token.upper(), token.capitalize())
        if n == len(tokens) - 1 and len(tokens) > 1 or odd_case or mixed_case and token.isupper() and len(tokens) > 1:
            return True
        if (
            n == 0
            and len(tokens) > 1
            and all(t.lower() in FORMAT_WORDS or t.lower() in FILLER_WORDS for t in tokens[1:])
        ):
            return True
    return False


# pages about tests people take (guidance, GOV.UK content) and organisations are never test rows
_NEVER_TEST_ROWS = frozenset({"guidance", "govuk-content", "organisation"})


def is_test_record(title: str, resource_type: str) -> bool:
    """A row its publisher made to try a catalogue out (`is_test_title`), not a page about a test."""
    return resource_type not in _NEVER_TEST_ROWS and is_test_title(title)
