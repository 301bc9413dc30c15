"""Rules over the whole estate, once every source is read: one record per resource.

Importers see one export at a time; the same resource can still arrive from
several (a curated `deep-evidence` record and the API catalogue's row for the
same API, an ONS dataset also listed for land and property). Here records
whose URLs name the same resource (`url_identity.normalised_url`, which sets
aside an API's trailing version) become one record that belongs to every
collection they were in, and keeps what the others called it (`keep_names`). One exception: curated
records our own authors gave titles with no word in common are different
resources at one address (APIs behind one gateway, such as DWP's 38 at
api.engineering.dwp.gov.uk), and stay apart.

Records of one resource at two addresses are joined by the same rule, each
counted on its own: one ArcGIS Hub item (`url_identity.hub_items`), one OGC
endpoint (`url_identity.service_endpoint`), a data.gov.uk dataset published again
under a numbered slug with the same title, summary and date, an API and its
own documentation, and a service and the dataset page that describes it.

Which record's facts win: a reviewed record (one with `evidence`, the
`deep-evidence` tier) first, then curated and annotated records, then imports in the order
of `[[sources]]`. The winner keeps its title, summary, url, publisher, type,
access status, access note and licence; a reviewed record never takes access
or licence facts from an import (they are what its review checked). The
others add their keywords and links, and fill a missing documentation link,
update date or (for unreviewed records) licence; an annotated record takes its
import's place in the export (`source.file`: the very file and row).
"""

from __future__ import annotations

import re
from collections import defaultdict

from .code_titles import is_bare_code, qualify_code_title, spell_out_code
from .config import COLLECTION_IDS
from .importers.cleaning import MAX_LINKS, keywords, loose_text
from .importers.merge import keep_names, merge_into
from .link_facts import distinct_links, service_kind
from .quality import QualityLog, leave_out_test_record
from .records import Record
from .service_titles import service_titles
from .summaries import stated_terms
from .titles import is_test_record, item_name
from .url_identity import hub_items, normalised_url, service_endpoint

OGL = "Open Government Licence v3.0"


def _rank(record: Record, position: int) -> tuple[int, int]:
    return (0 if "evidence" in record.data else 1 if record.authored else 2, position)


# words that say what kind of thing a title names, not which one
_KIND_WORDS = frozenset({"api", "apis", "the", "of", "and", "for", "service", "data"})


def _title_words(record: Record) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", record.data["title"].lower())) - _KIND_WORDS


def _resources(members: list[tuple[int, Record]]) -> list[list[tuple[int, Record]]]:
    """The resources among records at one URL: an authored record (curated or
    annotated) whose title shares no word with an earlier one's is a resource of
    its own; every import joins the first resource (an import's title is no
    evidence either way)."""
    resources: list[list[tuple[int, Record]]] = []
    for position, record in sorted(members, key=lambda pair: not pair[1].authored):
        home = next(
            (
                resource
                for resource in resources
                if not record.authored or any(_title_words(r) & _title_words(record) for _, r in resource)
            ),
            None,
        )
        if home is None:
            resources.append([(position, record)])
        else:
            home.append((position, record))
    return resources


def merge_same_resources(records: list[Record], log: QualityLog, moved: dict[str, str] | None = None) -> list[Record]:
    """One record per resource, in the order the first of each came; every record
    gets `collections` (its own first, then the others'). Records are one resource
    when their URLs are one (`normalised_url`), they show one ArcGIS Hub item, ask
    one OGC service, are one data.gov.uk dataset published again, are a service and
    the dataset page that describes it, or an API and its own documentation.
    `moved` gets merged record id -> the id of the record it is now part of."""
    records = _merge_by(records, lambda r: {normalised_url(r.data["url"])}, "same-resource-merged", log, moved)
    records = _merge_by(records, _hub_items, "hub-item-merged", log, moved)
    records = _merge_by(records, _service_endpoint, "service-endpoints-merged", log, moved)
    records = _merge_by(records, _republished, "republished-dataset-merged", log, moved)
    return _merge_pairs(records, _documents_api, "api-documentation-merged", log, moved, order=_root_first)


def merge_service_pages(records: list[Record], log: QualityLog, moved: dict[str, str] | None = None) -> list[Record]:
    """A service titled as the dataset page that describes it is one of that page's
    links (run once services have taken their datasets' titles); a curated service
    record is kept, with the page's name and address in `alsoKnownAs`."""
    return _merge_pairs(records, _describes_service, "service-page-merged", log, moved, order=_page_first)


Members = list[tuple[int, Record]]


def _merge_by(records: list[Record], keys, rule: str, log: QualityLog, moved: dict[str, str] | None) -> list[Record]:
    """Records that share any key (`keys(record)`: a set) are one resource."""
    owner: dict[str, int] = {}
    joined = _Union(len(records))
    for position, record in enumerate(records):
        for key in keys(record):
            joined.join(owner.setdefault(key, position), position)
    return _merge_groups(records, joined.groups(), rule, log, moved)


def _merge_pairs(
    records: list[Record], same, rule: str, log: QualityLog, moved: dict[str, str] | None, order
) -> list[Record]:
    """Records of one title and publisher of which `same(a, b)` holds are one resource;
    the first by `order(record, position)` is kept."""
    by_title: dict[tuple[str, str], list[int]] = defaultdict(list)
    for position, record in enumerate(records):
        by_title[(loose_text(record.data["title"]), record.data["publisher"])].append(position)
    joined = _Union(len(records))
    for positions in (found for found in by_title.values() if len(found) > 1):
        for a in positions:
            for b in positions:
                if a != b and same(records[a], records[b]):
                    joined.join(a, b)
    return _merge_groups(records, joined.groups(), rule, log, moved, order)


class _Union:
    """Disjoint sets of record positions."""

    def __init__(self, size: int) -> None:
        self.parent = list(range(size))

    def find(self, item: int) -> int:
        while self.parent[item] != item:
            self.parent[item] = self.parent[self.parent[item]]
            item = self.parent[item]
        return item

    def join(self, a: int, b: int) -> None:
        self.parent[self.find(b)] = self.find(a)

    def groups(self) -> list[list[int]]:
        found: dict[int, list[int]] = defaultdict(list)
        for item in range(len(self.parent)):
            found[self.find(item)].append(item)
        return list(found.values())


def _merge_groups(
    records: list[Record],
    groups: list[list[int]],
    rule: str,
    log: QualityLog,
    moved: dict[str, str] | None,
    order=_rank,
) -> list[Record]:
    kept: list[tuple[int, Record]] = []
    members_of = ([(position, records[position]) for position in group] for group in groups)
    for members in (resource for group in members_of for resource in _resources(group)):
        ordered = sorted(members, key=lambda pair: order(pair[1], pair[0]))
        winner = ordered[0][1]
        collections = set(winner.data.get("collections") or [winner.data["collection"]])
        for _, other in ordered[1:]:
            _fold(winner, other, rule, log)
            if moved is not None and other.id != winner.id:
                moved[other.id] = winner.id
            collections.update(other.data.get("collections") or [other.data["collection"]])
        others = sorted(collections - {winner.data["collection"]}, key=COLLECTION_IDS.index)
        winner.data["collections"] = [winner.data["collection"], *others]
        kept.append((min(position for position, _ in members), winner))
    return [record for _, record in sorted(kept, key=lambda pair: pair[0])]


def _fold(winner: Record, other: Record, rule: str, log: QualityLog) -> None:
    """`other` becomes part of `winner`: its facts and names kept (`merge_into`,
    `keep_names`); a service folded into its dataset's page is one of its links."""
    merge_into(winner, other, reviewed="evidence" in winner.data, log=log)
    keep_names(winner, other)
    if rule == "service-endpoints-merged" or rule == "service-page-merged" and _is_page(winner):
        _link_service(winner, other)
    if other.data["resourceType"] == "api-documentation" and "documentationUrl" not in winner.data:
        winner.data["documentationUrl"] = other.data["url"]
    log.note(
        rule,
        "merged",
        other.file,
        f"{other.data['collection']}: {other.data['title']}",
        f"{winner.id} ({winner.data['collection']})",
    )


def _link_service(page: Record, service: Record) -> None:
    url = service.data["url"]
    links = page.data.setdefault("links", [])
    if url != page.data["url"] and all(link["url"] != url for link in links) and len(links) < MAX_LINKS:
        links.append(
            {"title": service_kind(url, service.data["title"]) or service.data["title"], "url": url, "kind": "service"}
        )


def _hub_items(record: Record) -> set[str]:
    return hub_items(record.data["url"], (link["url"] for link in record.data.get("links", [])))


def _service_endpoint(record: Record) -> set[str]:
    endpoint = service_endpoint(record.data["url"])
    return {endpoint} if endpoint else set()


_DGU_DATASET = re.compile(r"^https://(?:www\.)?data\.gov\.uk/dataset/([^/?#]+?)[0-9]*/?$")


def _republished(record: Record) -> set[str]:
    """A data.gov.uk dataset published again under its slug and a number ("-sites",
    "-sites1") is one resource only with the same title, publisher, summary and date."""
    data = record.data
    match = _DGU_DATASET.match(data["url"])
    if not match or not data.get("updated"):
        return set()
    return {
        "\n".join(
            (match.group(1), loose_text(data["title"]), data["publisher"], loose_text(data["summary"]), data["updated"])
        )
    }


def _is_page(record: Record) -> bool:
    return record.data["resourceType"] == "dataset"


def _describes_service(page: Record, service: Record) -> bool:
    """A dataset page and the service it describes: the service's documentation page
    is the page, or the page lists the service as one of its links."""
    if not _is_page(page) or service.data["resourceType"] != "api":
        return False
    return service.data.get("documentationUrl") == page.data["url"] or any(
        link["url"] == service.data["url"] for link in page.data.get("links", [])
    )


_API_TYPES = frozenset({"api", "api-documentation"})


def _is_api_root(record: Record) -> bool:
    return record.data["resourceType"] == "api"


def _page_first(record: Record, position: int) -> tuple[int, bool, int]:
    """Reviewed, then curated and annotated records first; among imports the dataset's page."""
    return _rank(record, position)[0], not _is_page(record), position


def _root_first(record: Record, position: int) -> tuple[int, bool, int, int]:
    """Reviewed, then curated and annotated records first (whose facts win, as for one URL); among
    imports the API at its root: its documentation and endpoints are parts of it."""
    return _rank(record, position)[0], not _is_api_root(record), len(normalised_url(record.data["url"])), position


def _documents_api(api: Record, other: Record) -> bool:
    """An API and its own documentation or endpoint: the other's URL is the API's
    documentation page, or lies under the API's own path on its host."""
    if not _is_api_root(api) or other.data["resourceType"] not in _API_TYPES:
        return False
    root, url = normalised_url(api.data["url"]), normalised_url(other.data["url"])
    documented = normalised_url(api.data.get("documentationUrl") or "") == url
    return documented or (url.startswith(root + "/") and "?" not in root)


def link_records(records: list[Record]) -> None:
    """Links to another record name it only if that record was built."""
    ids = {record.id for record in records}
    for record in records:
        for link in record.data.get("links", []):
            if link.get("recordId") and link["recordId"] not in ids:
                del link["recordId"]


def govuk_licence(records: list[Record], log: QualityLog) -> None:
    """GOV.UK states that all its content is under the OGL v3.0 unless otherwise
    stated: a GOV.UK page with no licence of its own says so."""
    for record in records:
        data = record.data
        if data["url"].startswith("https://www.gov.uk/") and "licence" not in data and "evidence" not in data:
            data["licence"] = OGL
            log.note("licence-from-govuk", "changed", record.file, "not stated", OGL)


def api_titles(records: list[Record], log: QualityLog) -> None:
    """An API titled only with its publisher's name ("Companies House") names the
    organisation, not the API: it is titled "<publisher> API"."""
    for record in records:
        data = record.data
        if data["resourceType"] == "api" and data["title"] == data["publisher"]:
            log.note("generic-title", "changed", record.file, data["title"], f"{data['title']} API")
            data["title"] = f"{data['title']} API"


def code_titles(records: list[Record], log: QualityLog) -> None:
    """A title still written as a code once services have their dataset's title
    ("OCC_Gritting_Routes") is spelled as words; the code stays a keyword. A title
    that is still only a code ("Q 9", "LWLS20131120") is qualified from the record's
    own facts (`code_titles.qualify_code_title`): the layer its address names, the title
    of the dataset page it documents, its one-sentence summary, else its publisher."""
    titles = {record.data["url"]: record.data["title"] for record in records}
    for record in records:
        data = record.data
        if "evidence" in data or data["resourceType"] == "organisation":
            continue
        spelled = spell_out_code(data["title"])
        if spelled != data["title"]:
            log.note("code-title-spelled", "changed", record.file, data["title"], spelled)
            data["keywords"] = keywords([*data.get("keywords", []), data["title"]])
            data["title"] = spelled
        if is_bare_code(data["title"]):
            layer = item_name(data["url"]) if "?" in data["url"] else None
            qualified = qualify_code_title(
                data["title"],
                layer=layer or "",
                dataset=titles.get(data.get("documentationUrl", ""), ""),
                summary=data["summary"],
                publisher=data["publisher"],
            )
            log.note("code-title-qualified", "changed", record.file, data["title"], qualified)
            data["keywords"] = keywords([*data.get("keywords", []), data["title"]])
            data["title"] = qualified[:300]


# one API's documentation page at a developer portal ("developer.service.hmrc.gov.uk/api-documentation/docs/...");
# a portal's product page ("developer.admiralty.co.uk/product#product=uk-tidal-api") is the product itself
_API_DOCS_PAGE = re.compile(r"^https://[^/?#]+/(?:[^?#]*/)?(?:api-documentation|docs|documentation)(?:/|$|\?)")
_ARCGIS_APP = re.compile(r"^https://[^/]*arcgis\.com/(?:portal/)?apps/", re.IGNORECASE)
_DGU_PAGE = re.compile(r"^https://(?:www\.)?data\.gov\.uk/dataset/[^/?#]+/?$")


def type_rule(records: list[Record], log: QualityLog) -> None:
    """One type rule across publishers and sources: an API product listed at its
    documentation page on a developer portal is `api-documentation` (HMRC's from the
    API catalogue as HMRC's curated ones), at its endpoint or product page an `api`
    (DVLA's, OS's, the UKHO's); a curated record's author chose its type by that
    rule already (an annotated one's type is the export's, so the rule applies); a data.gov.uk dataset page is
    a `dataset`; an ArcGIS web map application is a way to view data (`dataset`),
    not an `api`."""
    for record in records:
        data = record.data
        kind = data["resourceType"]
        if kind == "api" and _API_DOCS_PAGE.search(data["url"]) and record.kind != "curated":
            new = "api-documentation"
        elif kind == "catalogue-record" and _DGU_PAGE.match(data["url"]):
            new = "dataset"
        elif kind == "api" and _ARCGIS_APP.match(data["url"]):
            new = "dataset"
        else:
            continue
        log.note("type-rule", "changed", record.file, f"{kind}: {data['title']}", new)
        data["resourceType"] = new


_NOT_STATED = ("does not state", "not established", "no licence stated")


def stated_licences(records: list[Record], log: QualityLog) -> None:
    """Where an unreviewed record's own description states its licence (the Open
    Government Licence) or open access with no registration, and the record does
    not say so, it does, naming that evidence: "Open Government Licence (stated in
    the description)"; access `public` when the description states no registration."""
    for record in records:
        data = record.data
        if "evidence" in data:
            continue
        licence, open_access = stated_terms(data["summary"])
        if not licence:
            continue
        if "licence" not in data:
            data["licence"] = f"{licence} (stated in the description)"
            log.note("licence-from-description", "changed", record.file, "licence not stated", data["licence"])
        note = data.get("accessNote", "")
        if open_access and data["accessStatus"] == "access-not-established":
            data["accessStatus"] = "public"
            data["accessNote"] = (
                f"Open access stated in the description: available under the {licence} with no registration."
            )
            log.note("licence-from-description", "changed", record.file, note or "access not established", "public")


def labelled_links(records: list[Record], log: QualityLog) -> None:
    """A record's links listed once each and told apart (`link_facts.distinct_links`)."""
    for record in records:
        links = record.data.get("links")
        if not links:
            continue
        labelled, duplicates = distinct_links(links)
        if duplicates:
            log.note("links-labelled", "duplicates dropped", record.file, str(duplicates))
        if [link["title"] for link in labelled] != [link["title"] for link in links[: len(labelled)]] or duplicates:
            log.note("links-labelled", "changed", record.file, "; ".join(link["title"] for link in links[:4]))
        record.data["links"] = labelled


ESTATE_LEFT_OUT = "left out once its title was spelled"
# the rules that merge records once every source is read (each counted under "merged")
ESTATE_MERGES = (
    "same-resource-merged",
    "hub-item-merged",
    "service-endpoints-merged",
    "republished-dataset-merged",
    "api-documentation-merged",
    "service-page-merged",
)


def without_test_records(records: list[Record], log: QualityLog) -> list[Record]:
    """Records whose title, once spelled ("allotmentstest" is "Allotment test"), says
    they are a publisher's test rows are left out and listed (`test-record-left-out`);
    the importers leave out those whose source title says so already."""
    kept = []
    for record in records:
        data = record.data
        if "evidence" not in data and is_test_record(data["title"], data["resourceType"]):
            leave_out_test_record(log, ESTATE_LEFT_OUT, record.file, data)
        else:
            kept.append(record)
    return kept


def resolve_moves(moved: dict[str, str]) -> None:
    """Each merged id points at the record it finally became part of (A into B, B into C: A -> C)."""
    for old in list(moved):
        seen = {old}
        new = moved[old]
        while new in moved and new not in seen:
            seen.add(new)
            new = moved[new]
        moved[old] = new


def record_former_ids(records: list[Record], moved: dict[str, str]) -> None:
    """Each record lists the ids of the records merged into it (`formerIds`),
    so an id an agent kept from an earlier build still finds and fetches it."""
    by_id = {record.id: record for record in records}
    for old, new in sorted(moved.items()):
        by_id[new].data.setdefault("formerIds", []).append(old)


def finish_estate(records: list[Record], log: QualityLog, moved: dict[str, str] | None = None) -> list[Record]:
    """The whole-estate rules, in order; returns the records to build."""
    records = merge_same_resources(records, log, moved)
    service_titles(records, log)
    records = merge_service_pages(records, log, moved)
    link_records(records)
    code_titles(records, log)
    records = without_test_records(records, log)
    type_rule(records, log)
    stated_licences(records, log)
    govuk_licence(records, log)
    api_titles(records, log)
    labelled_links(records, log)
    if moved is not None:
        resolve_moves(moved)
    return records
