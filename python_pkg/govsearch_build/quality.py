"""Data-quality rules: what each is called, and their tally.

The importers apply these rules to every row; each change, merge or
rejection is noted in a `QualityLog` with a few examples, and the build
report's `quality` section (and the site's data-quality page) shows every
rule's counts. The rules only ever use facts in the row itself; their code lives
by concern: `text_repair`, `titles`, `code_titles`, `summaries`,
`link_facts` and `url_identity`.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

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
        # each link counted as kept under `links-accounted`, by its URL: the action it was counted under
        self.kept_links: dict[str, list[str]] = defaultdict(list)

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

    def note_link_kept(self, action: str, file: str, title: str, url: str) -> None:
        """Count a folded row's link as kept (`links-accounted`), remembered by URL so
        that a record left out later moves only links counted here to dropped."""
        self.note("links-accounted", action, file, title, url)
        self.kept_links[url].append(action)

    def drop_link(self, url: str, reason: str, file: str, before: str = "", after: str = "") -> None:
        """Count a link that leaves its record as dropped with `reason` (`links-accounted`);
        one counted as kept when its row was folded is no longer counted as kept."""
        counted = self.kept_links.get(url)
        if counted:
            self.counts["links-accounted"][counted.pop()] -= 1
        self.note("links-accounted", f"dropped: {reason}", file, before, after)

    def extend(self, other: QualityLog) -> None:
        for rule, actions in other.counts.items():
            for action, count in actions.items():
                self.counts[rule][action] += count
            room = EXAMPLES - len(self.examples[rule])
            self.examples[rule].extend(other.examples[rule][: max(room, 0)])
        for rule, cases in other.listed.items():
            self.listed[rule].extend(cases)
        for url, actions in other.kept_links.items():
            self.kept_links[url].extend(actions)

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


def leave_out_test_record(log: QualityLog, action: str, file: str, data: dict[str, Any]) -> None:
    """A test record left out: listed in full with the links it took with it. Each
    of those links counted as kept when its row was folded (`links-accounted`) is
    now counted as dropped, with this reason; a link never counted (one its record
    listed itself) is only listed."""
    links = [link["url"] for link in data.get("links", [])]
    for url in links:
        if log.kept_links.get(url):
            log.drop_link(url, "its record is a test record, left out", file, data["title"], url)
    log.note("test-record-left-out", action, file, data["title"], listed={"url": data.get("url", ""), "links": links})
