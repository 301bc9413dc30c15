"""Data-quality rules: repairs that make imported text honest, and their tally.

The importers apply these rules to every row; each change, merge or
rejection is noted in a `QualityLog` with a few examples, and the build
report's `quality` section (and the site's data-quality page) shows every
rule's counts. The rules only ever use facts in the row itself.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from typing import Any
from urllib.parse import parse_qsl, quote, unquote, urlsplit, urlunsplit

EXAMPLES = 5

# Each rule: (title, what it does), shown on the data-quality page.
RULES = {
    "mojibake-repaired": (
        "Garbled characters repaired",
        'Text decoded twice at the source (UTF-8 read as Latin-1, e.g. "Solicitorâ\\x80\\x99s") is decoded once.',
    ),
    "repeated-words": ("Repeated words removed", 'A word repeated at once ("KADOE API API") is written once.'),
    "generic-title": (
        "Titles that name no resource",
        'A title that is only a format word, a protocol\'s name, a number, a generic product name or an access label ("CSV", "Web Map Service", "0", "Esri Rest API", "View Data") is qualified with the item\'s name from the row (its catalogue page\'s slug, or the one layer its service request asks) or else its publisher; a bare number, or an access label that adds only its publisher ("View & Download from CDC"), with no item name is rejected. A row of a dataset\'s page titled so becomes one of its links (see below).',
    ),
    "formats-merged": (
        "One dataset, one record: formats and services as links",
        "The formats and services of one dataset (CSV, GeoJSON, KML, a REST service of the same item) become links of one record; so do rows of one dataset at one address that differ only by a format (outputFormat=csv and =shape-zip, f=json and f=geojson, a .csv and a .geojson file).",
    ),
    "type-from-evidence": (
        "Resource type from evidence",
        "A row typed as an API whose link is a file download is a dataset.",
    ),
    "http-only-kept": (
        "Plain-http official links kept and flagged",
        'A plain-http link on a public-body host is kept and marked "not encrypted" rather than dropped.',
    ),
    "same-resource-merged": (
        "One resource, one record across collections",
        "Records of the same resource (same URL once scheme, host case, a trailing slash or an empty last query value are set aside), within or across collections, become one record that belongs to each collection.",
    ),
    "hub-item-merged": (
        "One ArcGIS Hub item, one record",
        "Pages that show one ArcGIS Hub item and layer become one record: the same item id on two hub sites (osni.spatial-ni and osni-spatial-ni), a slug page whose own downloads name the item of an id page, and one slug under /maps/ and /datasets/.",
    ),
    "service-endpoints-merged": (
        "One OGC service, one record",
        "Records that ask one OGC endpoint under another protocol or request (ows?service=WMS and ows?service=WFS, GeoServer's /wms and /wfs, a bare GetCapabilities) become one record; a layer parameter (typeName) still names its own.",
    ),
    "republished-dataset-merged": (
        "One dataset published again, one record",
        'A data.gov.uk dataset published again under its slug and a number ("property-land-tbc-owned", "...-owned1") with the same title, publisher, summary and date becomes one record; with another summary or date each stays.',
    ),
    "service-page-merged": (
        "A service and its dataset page, one record",
        "A service titled as the dataset page that describes it (its documentation page, or one of the page's links) becomes one of that page's links.",
    ),
    "api-documentation-merged": (
        "An API and its own documentation, one record",
        "An API's reference documentation or endpoint listed under the API's title, at its documentation page or under its path, becomes part of the API's record.",
    ),
    "service-titled-by-dataset": (
        "Services titled by their data, not their server",
        'A web service or file whose title names only its server ("Barrow Council INSPIRE WFS GML 3.2 Download Service"), is a layer code ("manc_all_development") or repeats its dataset\'s title takes the title of the dataset record its row points to, with the kind of service in brackets ("Advert Control Areas (WFS)").',
    ),
    "code-title-spelled": (
        "Titles written as codes spelled as words",
        'A title written as a code ("air_quality_management_areas", "aqma", "councilpropertyregister") is spelled as words from what the row offers (its dataset\'s title, the words of its summary that spell the code, or the code split by the catalogue\'s own words: "Air Quality Management Areas", "Council property register"), so a search for any one of them finds it; the code stays a keyword.',
    ),
    "documentation-linked": (
        "APIs and their documentation linked",
        "An API and its documentation page are linked both ways; a page documenting one API only is the API record's documentation link.",
    ),
    "placeholder-text-absent": (
        "Placeholder text treated as absent",
        'A description that only stands where one should be ("{{description}}", "null", "no description", empty) is no summary: the record says where it is listed instead, or takes a merged record\'s own summary.',
    ),
    "title-repeat-absent": (
        "Summaries that only repeat the title",
        "A description that is the title again says nothing more: it is treated as absent, as a placeholder is.",
    ),
    "summary-from-merged": (
        "The most informative summary kept",
        "When records of one resource are merged, a summary no person wrote (a placeholder, the title again, or one the importer wrote) gives way to a merged record's own; the other summaries stay searchable as other names.",
    ),
    "test-record-left-out": (
        "Test records left out",
        'A row its publisher made to try the catalogue out ("TPO Test", "Allotment Plots TEST WMS", "MytesT geo987", "Test CSV") is left out and listed in the build report; pages about tests people take ("MOT test") are not.',
    ),
    "code-title-qualified": (
        "Titles that are only a code qualified",
        'A title that is only a code ("Q 9", "LWLS20131120") is qualified from the row\'s own facts: the layer its service names, its dataset\'s title, its summary when that is one short sentence ("Q 9: PDF map of quadrant 9"), else its publisher; a code of words joined by "_" or "." is spelled as words.',
    ),
    "links-accounted": (
        "Every link of a folded row accounted for",
        "Each download or service of a folded row is kept as a link of its dataset (a plain-http one flagged as not encrypted) or dropped with its reason: an address that cannot be used, an exact duplicate, or the schema's limit of 40 links.",
    ),
    "links-labelled": (
        "Links that can be told apart",
        'Links of one record with the same label are told apart by what differs in their own addresses: the host, the format or the coordinate system ("CSV (British National Grid)", "CSV (WGS 84)"); the same address is listed once.',
    ),
    "licence-from-description": (
        "Licence and access stated in the description",
        'Where a record\'s own description states its licence ("under the Open Government Licence") or open access with no registration, the record says so, naming that evidence ("stated in the description").',
    ),
    "type-rule": (
        "One type rule across publishers",
        "An API product listed at its documentation page on a developer portal is api-documentation, whoever lists it (HMRC's from the API catalogue as HMRC's curated ones), and at its endpoint or product page an api (DVLA's, OS's, the UKHO's); a data.gov.uk dataset page is a dataset; a web map application (ArcGIS /apps/) is a way to view data, a dataset, not an api.",
    ),
    "licence-from-govuk": (
        "GOV.UK licence stated",
        "A GOV.UK page without a stated licence takes GOV.UK's own statement: Open Government Licence v3.0 unless otherwise stated.",
    ),
}


class QualityLog:
    """Per rule and action ("changed", "merged", "rejected"): a count and a few examples."""

    def __init__(self) -> None:
        self.counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        self.examples: dict[str, list[dict[str, str]]] = defaultdict(list)
        # every case of a rule whose cases are few and each worth naming (test records left out)
        self.listed: dict[str, list[dict[str, str]]] = defaultdict(list)

    def note(
        self, rule: str, action: str, file: str, before: str = "", after: str = "", *, listed: dict | None = None
    ) -> None:
        """Count one case of `rule`; `listed` (facts to add) lists this case in full too."""
        self.counts[rule][action] += 1
        if listed is not None:
            self.listed[rule].append({"file": file[:200], "title": _visible(before[:200]), **listed})
        if len(self.examples[rule]) < EXAMPLES:
            example = {"file": file[:200], "action": action}
            if before:
                example["before"] = _visible(before[:200])
            if after:
                example["after"] = _visible(after[:200])
            self.examples[rule].append(example)

    def extend(self, other: QualityLog) -> None:
        for rule, actions in other.counts.items():
            for action, count in actions.items():
                self.counts[rule][action] += count
            room = EXAMPLES - len(self.examples[rule])
            self.examples[rule].extend(other.examples[rule][: max(room, 0)])
        for rule, cases in other.listed.items():
            self.listed[rule].extend(cases)

    def as_dict(self) -> dict[str, Any]:
        return {
            rule: {
                "title": RULES[rule][0],
                "description": RULES[rule][1],
                **dict(sorted(self.counts[rule].items())),
                "examples": self.examples[rule],
                **({"listed": self.listed[rule]} if self.listed.get(rule) else {}),
            }
            for rule in RULES
            if rule in self.counts
        }


def _visible(text: str) -> str:
    """C1 control characters (garbled text's invisible half) written out as \\xNN."""
    return _C1.sub(lambda match: f"\\x{ord(match.group()):02x}", text)


_C1 = re.compile("[\u0080-\u009f]")


# --- mojibake -------------------------------------------------------------
# cp1252 gives these characters to bytes 0x80-0x9f; Latin-1 gives C1 controls.
_CP1252 = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ"
_CP1252_BYTES = {
    char: bytes([byte])
    for char, byte in zip(
        _CP1252,
        b"\x80\x82\x83\x84\x85\x86\x87\x88\x89\x8a\x8b\x8c\x8e\x91\x92\x93\x94\x95\x96\x97\x98\x99\x9a\x9b\x9c\x9e\x9f",
    )
}
_CONTINUATION = "[\u0080-\u00bf" + re.escape(_CP1252) + "]"
_MOJIBAKE = re.compile(f"[\u00c2-\u00f4]{_CONTINUATION}{{1,3}}")


def _as_bytes(text: str) -> bytes:
    return b"".join(_CP1252_BYTES.get(char) or bytes([ord(char)]) for char in text)


def repair_mojibake(text: str) -> str:
    """UTF-8 that was decoded as Latin-1 or cp1252, decoded once; anything else unchanged.

    Only a whole UTF-8 sequence is replaced, so genuine accented text
    ("café", "Ynys Môn") is left alone.
    """
    if not _MOJIBAKE.search(text):
        return text

    def fix(match: re.Match[str]) -> str:
        try:
            return _as_bytes(match.group()).decode("utf-8")
        except UnicodeDecodeError:
            return match.group()

    return _MOJIBAKE.sub(fix, text)


# --- repeated words -------------------------------------------------------
_REPEATED = re.compile(r"\b([A-Za-z]{2,})(?:\s+\1\b)+", re.IGNORECASE)


def collapse_repeats(text: str) -> str:
    """ "KADOE API API" -> "KADOE API": a word repeated at once is written once."""
    return _REPEATED.sub(r"\1", text)


# --- code titles ----------------------------------------------------------
_HUMPS = re.compile(r"[A-Z][a-z]+")


# parts joined by "_" (and by "." or "-" beside one: "COMMON.PLAN_ARTICLE_4", "PLAN_2003-CORE_AREAS")
_CODE = re.compile(r"(?<!\S)[A-Za-z0-9]+(?:[.-][A-Za-z0-9]+)*(?:_[A-Za-z0-9]+(?:[.-][A-Za-z0-9]+)*)+(?!\S)")


def spell_out_code(title: str) -> str:
    """ "air_quality_management_areas" -> "Air quality management areas": the words of
    a title written as a code (letters and digits joined by underscores, each run
    together in capitals or not) spelled as words, so that a search for any one
    of them finds it. Any other text, underscores and all, is left as it is."""
    spelled = _CODE.sub(lambda code: " ".join(_words_of(code.group())), title)
    if spelled == title:
        return title
    return spelled[:1].upper() + spelled[1:]


def _words_of(code: str) -> list[str]:
    words = []
    for word in re.split(r"[_.-]", code):
        humps = _HUMPS.findall(word)
        words.extend(humps if len(humps) >= 3 and "".join(humps) == word else [word])
    if code.isupper() and len(words) >= 3:
        # a code in capitals is words in capitals: "CORE_RETAIL_AREAS" is "core retail areas"
        # (an acronym of three letters or fewer, "CIL", stays)
        words = [w.lower() if w.isalpha() and (len(w) > 3 or w.lower() in _MINOR | {"to"}) else w for w in words]
    return words


# A title that is one lower-case word of letters and digits ("aqmz", "article4",
# "councilpropertyregister"): a layer's or table's code, not a name.
_CODE_WORD = re.compile(r"[a-z][a-z0-9]{2,}")
_RUN = re.compile(r"[A-Za-z]+|[0-9]+")


def is_code_word(title: str) -> bool:
    """True for a title that is one lower-case word, as layer and table codes are."""
    return bool(_CODE_WORD.fullmatch(title))


def spell_code_word(
    code: str, *, dataset_title: str = "", summary: str = "", vocabulary: frozenset[str] = frozenset()
) -> str | None:
    """A one-word code title spelled from what its row offers, or None: its
    dataset's title; the words of its summary that spell it, run together
    ("Article 4" for "article4") or by their initials ("Air Quality Management
    Areas" for "aqma"); else the code split into words of the vocabulary
    ("council property register"), or the one word it is ("Cycleway")."""
    if dataset_title and not is_code_word(dataset_title) and not is_generic_title(dataset_title):
        return dataset_title
    spelled = _spelled_in(code, summary) or _split(code, vocabulary)
    return spelled[:1].upper() + spelled[1:] if spelled else None


def _spelled_in(code: str, summary: str) -> str | None:
    """The words of a summary that, run together or by their initials, are the code."""
    if summary.strip().lower() == code:
        return None  # the summary only repeats the code
    runs = list(_RUN.finditer(summary))
    for start in range(len(runs)):
        joined, initial = "", ""
        for end in range(start, len(runs)):
            word = runs[end].group().lower()
            joined += word
            if end == start or word not in _MINOR:
                initial += word[0] if word.isalpha() else word
            if code in (joined, initial) and (end > start or len(code) > 3):
                return summary[runs[start].start() : runs[end].end()]
            if not (code.startswith(joined) or code.startswith(initial)):
                break
    return None


def _split(code: str, vocabulary: frozenset[str]) -> str | None:
    """The code as the fewest words of the vocabulary (digits a word of their own), or None."""
    best: list[list[str] | None] = [[]] + [None] * len(code)
    for end in range(1, len(code) + 1):
        for start in range(end):
            piece, before = code[start:end], best[start]
            if before is None or not (piece.isdigit() or piece in vocabulary and (len(piece) > 2 or piece in _MINOR)):
                continue
            if best[end] is None or len(before) + 1 < len(best[end]):
                best[end] = [*before, piece]
    return " ".join(best[-1]) if best[-1] else None


def title_vocabulary(titles: Iterable[str]) -> frozenset[str]:
    """The words of a collection's titles of several words, in lower case, acronyms
    ("AQMZ") left out: what a run-together code is split by. A one-word title
    ("tpo", "Tpo") is no evidence that its word is a word."""
    return frozenset(
        word.lower()
        for title in titles
        for word in (re.findall(r"[A-Za-z]+", title) if len(title.split()) > 1 else ())
        if not word.isupper()
    )


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
_WORD = re.compile(r"[a-z]+|[0-9]+")
# A protocol's spelled-out name is its acronym: "Web Map Service" is "WMS".
_PROTOCOL_NAMES = (
    (re.compile(r"\bweb\s+map(?:ping)?\s+tile\s+services?\b"), "wmts"),
    (re.compile(r"\bweb\s+map(?:ping)?\s+services?\b"), "wms"),
    (re.compile(r"\bweb\s+feature\s+services?\b"), "wfs"),
    (re.compile(r"\bweb\s+coverage\s+services?\b"), "wcs"),
)


def _words(title: str) -> list[str]:
    """A title's words in lower case, a spelled-out protocol name as its acronym."""
    text = title.lower()
    for name, acronym in _PROTOCOL_NAMES:
        text = name.sub(acronym, text)
    return _WORD.findall(text)


def is_generic_title(title: str) -> bool:
    """True for a title that is only a format word, a protocol's name, a number, a
    generic product name or an access label ("View Data")."""
    words = _words(title)
    if all(word.isdigit() for word in words):
        return True
    return all(_says_only_how(word) or word in FILLER_WORDS for word in words) and any(
        word in FORMAT_WORDS or word in ACCESS_WORDS for word in words
    )


def _says_only_how(word: str) -> bool:
    return word in FORMAT_WORDS or word in ACCESS_WORDS or word.isdigit()


# words that join a label to whose it is: "View & Download from CDC"
_BY = frozenset({"from", "by", "at"})
_MINOR = frozenset({"of", "and", "the", "for", "upon", "on", "in", "under"})
_REACH = ACCESS_WORDS | {"download", "downloads"}


def names_only_its_publisher(title: str, publisher: str) -> bool:
    """True for an access label that adds only its publisher, by name or initials
    ("View & Download from CDC" of Craven District Council). A publisher's name
    with a format or protocol ("Companies House API", "SKDC INSPIRE WFS") names
    that publisher's service, so it is not one of these."""
    own = set(_words(publisher)) | set(initials(publisher)) | _BY
    words = _words(title)
    rest = [word for word in words if word not in own]
    return (
        0 < len(rest) < len(words)
        and all(word in _REACH or word in FILLER_WORDS for word in rest)
        and any(word in _REACH for word in rest)
    )


def initials(name: str) -> tuple[str, ...]:
    """A name's initials, with and without its minor words: "Craven District Council"
    -> ("cdc",), "London Borough of Richmond Upon Thames" -> ("lbrt", "lbort")."""
    words = _WORD.findall(name.lower())
    major = "".join(word[0] for word in words if word not in _MINOR and not word.isdigit())
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


def names_only_its_server(title: str, publisher: str) -> bool:
    """True when the title says who serves it and how, but not what: every word is
    the publisher's, a format or a filler word, and at least one is a format; or
    it is an access label with only its publisher ("View & Download from CDC")."""
    if is_generic_title(title) or names_only_its_publisher(title, publisher):
        return True
    words = _words(title)
    own = set(_WORD.findall(publisher.lower())) | FILLER_WORDS | _SERVER_WORDS
    return any(w in _FORMATS for w in words) and all(w in own or w in _FORMATS or w.isdigit() for w in words)


def adds_nothing_to(title: str, dataset_title: str, publisher: str) -> bool:
    """True when a format's or service's title names nothing its dataset's title does
    not: "Air Quality Management Areas (download as CSV)", "20 mph zones GeoJSON",
    or only its server ("Runnymede Borough Council WMS Service")."""
    if names_only_its_server(title, publisher):
        return True
    noise = _FORMATS | FILLER_WORDS | _SERVER_WORDS | {"as"}
    own = {w for w in _WORD.findall(title.lower()) if w not in noise}
    return bool(own) and own <= set(_WORD.findall(dataset_title.lower()))


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
    return next((_TITLE_KINDS[w] for w in _words(title) if w in _TITLE_KINDS), None)


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


# A query parameter that only picks the format of the same data (GeoServer's
# outputFormat, ArcGIS's f, a generic format), and a file extension that does.
_FORMAT_PARAMETERS = frozenset({"f", "format", "outputformat"})
_FORMAT_EXTENSION = re.compile(r"\.(?:csv|tsv|json|geojson|kml|kmz|gml|xml|xls|xlsx|ods|zip|shp|gpkg)$", re.IGNORECASE)


def format_free_url(url: str) -> str:
    """The address of the data a URL serves, whatever its format: `normalised_url`
    without a format query parameter (`outputFormat=csv`, `f=geojson`) or a file
    extension (`.csv`). Two links with the same format-free URL serve the same
    data in two formats. A fragment is kept: it names different things at one page."""
    parts = urlsplit(normalised_url(url))
    query = "&".join(part for part in parts.query.split("&") if part.split("=", 1)[0].lower() not in _FORMAT_PARAMETERS)
    path = _FORMAT_EXTENSION.sub("", parts.path)
    return urlunsplit((parts.scheme, parts.netloc, path, query, parts.fragment))


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
        if name.lower() in _FORMAT_PARAMETERS and value.lower() in _FORMAT_NAMES:
            return _FORMAT_NAMES[value.lower()]
    extension = parts.path.lower().rsplit(".", 1)[-1] if "." in parts.path.rsplit("/", 1)[-1] else ""
    return _FORMAT_NAMES.get(extension)


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
    if brackets and all(w in noise for w in _WORD.findall(brackets.group(1).lower())):
        title = title[: brackets.start()]
    words = title.split()
    while len(words) > 1 and all(w in _DELIVERY for w in _WORD.findall(words[-1].lower())):
        words.pop()
    return " ".join(words).rstrip(" -–")


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


# --- text that stands in for a summary ----------------------------------------
# What exports write where a description should be: a template never filled in
# ("{{description}}"), a null serialised as text, or words saying there is none.
_PLACEHOLDER = re.compile(
    r"^(?:\{\{[^{}]*\}\}|null|none|nil|n/?a|tbc|tbd|-+|\.+|no description(?: provided| available)?|description)$",
    re.IGNORECASE,
)
# The summaries the importers write when a row has none (see each importer's table).
_GENERATED = re.compile(
    r"^(?:Official page from [^.]+\.|.+ from .+, listed in [^.]+\.|.+ listed in the UK government API catalogue\.)$"
)


def is_placeholder(text: str) -> bool:
    """True for text that only stands where a description should be: "{{description}}",
    "null", "no description", punctuation alone, or nothing."""
    return bool(_PLACEHOLDER.match(text.strip().strip("\"'"))) or not text.strip()


def repeats_title(summary: str, title: str) -> bool:
    """True when a summary says nothing but the title again (case, spacing and a full stop aside)."""
    return _comparable(summary) == _comparable(title)


def _comparable(text: str) -> str:
    return " ".join(_WORD.findall(text.lower()))


def is_stand_in_summary(summary: str, title: str) -> bool:
    """A summary no person wrote about the resource: a placeholder, the title again,
    or one the importers write when the row has none."""
    return is_placeholder(summary) or repeats_title(summary, title) or bool(_GENERATED.match(summary))


# --- titles that are codes --------------------------------------------------------
_CODE_TOKEN = re.compile(r"[A-Za-z0-9]+")


def is_bare_code(title: str) -> bool:
    """True for a title that is only a code: no word in lower case, and letters run
    into digits ("LWLS20131120", "C3"), parts joined by "_" or "." ("COMMON.PLAN_ARTICLE_4"),
    or a letter or two and a number ("Q 9"). "ONS ASHE 2019" names things and is not one."""
    tokens = _CODE_TOKEN.findall(title)
    if not tokens or any(re.search(r"[a-z]", token) for token in tokens):
        return False
    mixed = any(re.search(r"[A-Z]", t) and re.search(r"[0-9]", t) for t in tokens)
    short = len(tokens) <= 2 and any(t.isdigit() for t in tokens) and all(len(t) <= 2 or t.isdigit() for t in tokens)
    return mixed or short or bool(re.search(r"[A-Za-z0-9][_.][A-Za-z0-9]", title))


def qualify_code_title(
    title: str, *, layer: str = "", dataset: str = "", summary: str = "", publisher: str = ""
) -> str:
    """A code title qualified from the row's own facts: the layer its service names,
    else its dataset's title, else its summary when that is one short sentence
    ("Q 9: PDF map of quadrant 9"), else its publisher ("LWLS20131120, a dataset of
    Gateshead Council"); the code stays in the title, so a search for it still finds it."""
    for name in (layer, dataset):
        if name and not is_bare_code(name) and _comparable(name) != _comparable(title):
            return f"{name} ({title})"
    sentence = summary.strip()
    if sentence and len(sentence) <= 100 and sentence.count(". ") == 0 and not is_stand_in_summary(sentence, title):
        return f"{title}: {sentence.rstrip('.')}"
    return f"{title}, from {publisher}" if publisher else title


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


def leave_out_test_record(log: QualityLog, action: str, file: str, data: dict[str, Any]) -> None:
    """A test record left out: listed in full with the links it took with it, each
    counted as dropped with that reason (`links-accounted`)."""
    links = [link["url"] for link in data.get("links", [])]
    for link in data.get("links", []):
        # counted as kept when its row was folded: now dropped instead, with this reason
        kept = "kept (plain http, flagged)" if link.get("linkSecurity") else "kept"
        if log.counts["links-accounted"].get(kept, 0) > 0:
            log.counts["links-accounted"][kept] -= 1
        log.note("links-accounted", "dropped: its record is a test record, left out", file, data["title"], link["url"])
    log.note("test-record-left-out", action, file, data["title"], listed={"url": data.get("url", ""), "links": links})


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


# --- access and licence stated in a description -----------------------------------
_OGL_STATED = re.compile(
    r"\bOpen Government Licen[cs]e\b(?:\s*\(OGL\))?(?:\s*(?:v|version\s*)(\d(?:\.\d)?))?", re.IGNORECASE
)
_NO_REGISTRATION = re.compile(
    r"\b(?:no (?:requirement|need) (?:for|to) regist\w*|without (?:the need to )?regist\w*|no registration|no (?:api )?key (?:is )?(?:required|needed))\b",
    re.IGNORECASE,
)


def stated_terms(text: str) -> tuple[str | None, bool]:
    """(the licence a description states, whether it states open access with no
    registration): "provided as open data under the Open Government Licence with no
    requirement for registration" -> ("Open Government Licence", True)."""
    licence = None
    match = _OGL_STATED.search(text)
    if match:
        version = match.group(1)
        licence = f"Open Government Licence v{version}" if version else "Open Government Licence"
    return licence, bool(licence and _NO_REGISTRATION.search(text))
