"""Requirements on the curated default corpus in site/content, and on the
annotations in site/annotations (our words for imported records).

The counts, access notes and evidence checks run everywhere. The fact checks
(publisher names, URLs and titles taken from the real exports, summaries in
our own words) need the shared data folder next to the repository
(../shared/data) and skip cleanly when it is absent.
"""

from __future__ import annotations

import collections
import csv
import gzip
import json
from pathlib import Path

import pytest

from govsearch.tool_schemas import ACCESS_STATUSES, COLLECTIONS, RESOURCE_TYPES
from govsearch_build.config import load_config
from govsearch_build.pipeline import import_source, publisher_authority
from govsearch_build.records import load_content
from govsearch_build.text_repair import repair_mojibake

REPO = Path(__file__).resolve().parents[1]
CONTENT = REPO / "site" / "content"
ANNOTATIONS = REPO / "site" / "annotations"
DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
EXCEPTIONS_FILE = REPO / "python_pkg" / "govsearch_build" / "publisher_exceptions.txt"
EXCEPTIONS_DOC = REPO / "docs" / "publisher-exceptions.md"
FULL_ESTATE = REPO / "site" / "full-estate.toml"
# The facts an annotated record takes from its export unchanged.
EXPORT_FACTS = ("title", "url", "linkSecurity", "publisher", "resourceType", "accessStatus", "accessNote")


@pytest.fixture(scope="module")
def corpus():
    return load_content(CONTENT)


@pytest.fixture(scope="module")
def records(corpus):
    return [record.data for record in corpus.records]


@pytest.fixture(scope="module")
def annotations():
    # read as the full estate reads them: its public-body hosts that offer only http
    hosts = load_config(FULL_ESTATE).http_allowed_hosts
    return load_content(ANNOTATIONS, http_allowed_hosts=hosts, label="annotations/")


@pytest.fixture(scope="module")
def annotated(annotations):
    return [record.data for record in annotations.records]


def test_no_rejections(corpus):
    assert corpus.rejected == [], [r.as_dict() for r in corpus.rejected[:10]]


def test_total_count(records):
    assert len(records) >= 400


@pytest.mark.parametrize("collection", COLLECTIONS)
def test_collection_counts(records, collection):
    count = sum(1 for r in records if r["collection"] == collection)
    assert count >= 50, f"{collection}: {count}"


@pytest.mark.parametrize("resource_type", RESOURCE_TYPES)
def test_resource_type_counts(records, resource_type):
    count = sum(1 for r in records if r["resourceType"] == resource_type)
    assert count >= 20, f"{resource_type}: {count}"


@pytest.mark.parametrize("status", ACCESS_STATUSES)
def test_access_status_counts(records, status):
    count = sum(1 for r in records if r["accessStatus"] == status)
    assert count >= 5, f"{status}: {count}"


def test_every_non_public_record_explains_its_access(records):
    missing = [r["id"] for r in records if r["accessStatus"] != "public" and not r.get("accessNote", "").strip()]
    assert missing == []


def test_record_files_are_named_by_collection_and_id(corpus):
    wrong = [r.file for r in corpus.records if r.file != f"{r.data['collection']}/{r.data['id']}.md"]
    assert wrong == []


def test_content_is_curated(records):
    assert {r.get("source", {}).get("kind") for r in records} == {"curated"}


def test_annotations_are_annotated_records_of_their_own(annotations, annotated, records):
    assert annotations.rejected == [], [r.as_dict() for r in annotations.rejected[:10]]
    assert len(annotated) >= 500
    assert {r["source"]["kind"] for r in annotated} == {"annotated"}
    # each names the export it annotates, and is the only record of its id and URL
    assert all(r["source"].get("file") and r["source"].get("revision") for r in annotated)
    assert not {r["id"] for r in annotated} & {r["id"] for r in records}
    assert not {r["url"] for r in annotated} & {r["url"] for r in records}
    wrong = [r.file for r in annotations.records if r.file != f"annotations/{r.data['collection']}/{r.data['id']}.md"]
    assert wrong == []


def test_urls_are_https(records):
    assert [r["id"] for r in records if not r["url"].startswith("https://")] == []


def test_deep_evidence_is_reviewed(records):
    deep = [r for r in records if r["collection"] == "deep-evidence"]
    with_evidence = [r for r in deep if isinstance(r.get("evidence"), dict)]
    assert len(with_evidence) >= 60
    for r in with_evidence:
        assert set(r["evidence"]) >= {"observed", "accessEvidenceUrl", "licenceStatus", "licenceTitle"}, r["id"]


def test_publisher_count(records):
    assert len({r["publisher"] for r in records}) >= 40


# GOV.UK's list of local authorities (alphagov/local-links-manager, data/local-authorities.csv at
# a9e5e8ed, OGL): each council's name, homepage, nation and tier, the facts its record takes.
LOCAL_AUTHORITIES = REPO / "tests" / "fixtures" / "local-authorities" / "local-authorities.csv"


def _local_authorities() -> dict[str, dict[str, str]]:
    with LOCAL_AUTHORITIES.open(newline="", encoding="utf-8") as rows:
        return {row["name"]: row for row in csv.DictReader(rows)}


def test_a_councils_record_is_as_govuks_list_of_local_authorities_gives_it(records):
    """A council's organisation record (site/content/uk-living/local-council-*.md): its name, homepage
    and publisher as GOV.UK's list of local authorities gives them, its summary by its tier."""
    councils = {row["slug"]: row for row in _local_authorities().values()}
    held = [r for r in records if r["id"].startswith("local-council-")]
    assert len(held) > 350
    for record in held:
        row = councils[record["id"].removeprefix("local-council-")]
        assert (record["title"], record["url"], record["publisher"]) == (
            row["name"],
            _https(row["homepage_url"]),
            row["name"],
        )
        assert record["resourceType"] == "organisation"
        district = row["tier_id"] == "2" or row["country_name"] == "Northern Ireland"
        assert record["summary"].startswith("The district council") == district, record["id"]


def _https(url: str) -> str:
    """The list's http homepages on gov.uk, gov.wales and llyw.cymru hosts as https: browsers load
    those domains over https only (HSTS preloaded), and the build refuses plain http links."""
    host = url.split("/")[2] if url.startswith("http://") else ""
    return "https://" + url.removeprefix("http://") if host.endswith((".gov.uk", ".gov.wales", ".llyw.cymru")) else url


def _exceptions() -> set[str]:
    names = set()
    for line in EXCEPTIONS_FILE.read_text("utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            names.add(line)
    return names


def test_exceptions_are_documented():
    doc = EXCEPTIONS_DOC.read_text("utf-8")
    for name in _exceptions():
        assert f"| {name} |" in doc, name


# ---- fact checks against the real exports ---------------------------------


def _strings(value, out: set[str]) -> None:
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            _strings(item, out)
    elif isinstance(value, list):
        for item in value:
            _strings(item, out)


def _norm(text: str) -> str:
    return " ".join(text.replace("\\n", " ").split()).casefold()


@pytest.fixture(scope="module")
def exports():
    """Every string value in the exports (read once), raw Markdown texts, GOV.UK
    organisation titles, and each URL's descriptions in the exports."""
    if not DATA.is_dir():
        pytest.skip(f"real exports not present at {DATA}")
    values: set[str] = set()
    markdown: list[str] = []
    descriptions: dict[str, set[str]] = collections.defaultdict(set)

    for path in sorted((DATA / "api-catalogue").glob("*.csv")):
        with path.open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                values.update(v for v in row.values() if v)
                for key in ("url", "documentation"):
                    if row.get(key) and row.get("description"):
                        descriptions[row[key]].add(row["description"])

    orgs = json.loads((DATA / "govuk-organisations" / "gov.uk_api_organisations.json").read_text("utf-8"))["results"]
    org_titles = {repair_mojibake(o["title"]).strip() for o in orgs}  # as the build reads a title
    _strings(orgs, values)

    with (DATA / "okf-land-registry" / "catalogue.csv").open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            values.update(v for v in row.values() if v)
            if row.get("description"):
                descriptions[row["url"]].add(row["description"])

    for path in sorted((DATA / "okf-uk-government-apis").glob("results-*.json.gz")):
        for row in json.loads(gzip.decompress(path.read_bytes())):
            _strings(row, values)
            if row.get("notes") and row.get("url"):
                descriptions[row["url"]].add(row["notes"])

    living = json.loads((DATA / "okf-uk-living" / "resources-0.json").read_text("utf-8"))
    _strings(living, values)
    for row in living:
        if row.get("description"):
            descriptions[row["url"]].add(row["description"])
    for path in sorted((DATA / "okf-uk-living" / "services").glob("*.md")):
        markdown.append(path.read_text("utf-8"))

    return {
        "values": values,
        "folded": {_norm(v) for v in values},
        "markdown": "\n".join(markdown),
        "org_titles": org_titles,
        "descriptions": descriptions,
    }


@pytest.mark.shared_data
def test_publishers_are_govuk_organisations_or_exceptions(records, annotated, exports):
    allowed = exports["org_titles"] | _exceptions() | set(_local_authorities())
    unknown = sorted({r["publisher"] for r in records + annotated} - allowed)
    assert unknown == [], f"publishers neither on GOV.UK nor in publisher_exceptions.txt: {unknown}"


@pytest.mark.shared_data
def test_exceptions_are_not_govuk_organisations(exports):
    assert sorted(_exceptions() & exports["org_titles"]) == []


# Everyday services the exports do not hold (issue #13 item 5). Their title and URL
# were checked by hand against a stored copy of GOV.UK's own source for the page
# (found with the search tool), which each record cites as source.url at a fixed
# revision. These are the only records whose facts are not checked against
# ../shared/data; the test below keeps each record equal to what was checked.
STORED_PAGE_EVIDENCE = {
    "check-mot-history": (
        "Check the MOT history of a vehicle",
        "https://www.gov.uk/check-mot-history",
        "https://github.com/alphagov/govuk-design-guide/",
    ),
    "council-tax-bands": (
        "Check your Council Tax band",
        "https://www.gov.uk/council-tax-bands",
        "https://github.com/alphagov/publishing-api/",
    ),
    "bank-holidays": (
        "UK bank holidays",
        "https://www.gov.uk/bank-holidays",
        "https://github.com/alphagov/publishing-api/",
    ),
    "find-energy-certificate": (
        "Find an energy certificate",
        "https://www.gov.uk/find-energy-certificate",
        "https://github.com/communitiesuk/epb-frontend-smoke-tests/",
    ),
    "renew-driving-licence": (
        "Renew your driving licence",
        "https://www.gov.uk/renew-driving-licence",
        "https://github.com/alphagov/govuk-frontend/",
    ),
    "sign-in-universal-credit": (
        "Sign in to your Universal Credit account",
        "https://www.gov.uk/sign-in-universal-credit",
        "https://github.com/alphagov/govuk-design-guide/",
    ),
}


def _export_checked(records):
    return [r for r in records if r["id"] not in STORED_PAGE_EVIDENCE]


# Files of the exports in ../shared/data a curated record's source may name.
EXPORT_FILES = (
    "api-catalogue/",
    "data/catalogue",
    "gov.uk_api_organisations",
    "catalogue.csv",
    "resources-0",
    "services/",
)


def _cites_a_stored_copy(record):
    """Whether a record names the stored public copy its facts were checked against (an
    address, or a file that is not one of the exports): the everyday GOV.UK services the
    exports lack were checked that way (issue 33), and say so in their `source`."""
    source = record.get("source", {})
    named = source.get("url") or source.get("file") or ""
    return bool(named) and not named.startswith(EXPORT_FILES)


def test_a_record_missing_from_the_exports_cites_the_copy_it_was_checked_against(records):
    for record in records:
        source = record.get("source", {})
        if _cites_a_stored_copy(record):
            assert source.get("observed") or record.get("observed"), record["id"]


def test_stored_page_evidence_matches_the_records(records):
    by_id = {r["id"]: r for r in records}
    for record_id, (title, url, evidence) in STORED_PAGE_EVIDENCE.items():
        record = by_id[record_id]
        assert (record["title"], record["url"]) == (title, url), record_id
        source = record["source"]
        assert source["url"].startswith(evidence) and source["revision"] in source["url"], record_id


@pytest.mark.shared_data
def test_stored_page_records_are_not_in_the_exports(records, exports):
    # An entry here must be a real gap in the exports, not a way round the fact check.
    values, markdown = exports["values"], exports["markdown"]
    assert [i for i, (_, url, _) in STORED_PAGE_EVIDENCE.items() if url in values or url in markdown] == []


@pytest.mark.shared_data
def test_urls_appear_in_exports(records, exports):
    values, markdown = exports["values"], exports["markdown"]
    missing = [
        (r["id"], r["url"])
        for r in _export_checked(records)
        if r["url"] not in values and r["url"] not in markdown and not _cites_a_stored_copy(r)
    ]
    assert missing == []


@pytest.mark.shared_data
def test_other_urls_appear_in_exports(records, exports):
    values, markdown = exports["values"], exports["markdown"]
    urls = []
    for r in _export_checked(records):
        if _cites_a_stored_copy(r) and r["url"] not in values and r["url"] not in markdown:
            continue  # checked against the copy it names, not the exports
        if r.get("documentationUrl"):
            urls.append((r["id"], r["documentationUrl"]))
        if isinstance(r.get("evidence"), dict):
            urls.append((r["id"], r["evidence"]["accessEvidenceUrl"]))
        if r.get("source", {}).get("url") and not _cites_a_stored_copy(r):
            urls.append((r["id"], r["source"]["url"]))
    assert [(i, u) for i, u in urls if u not in values and u not in markdown] == []


@pytest.mark.shared_data
def test_titles_appear_in_exports(records, exports):
    folded, markdown = exports["folded"], exports["markdown"].casefold()
    missing = [
        (r["id"], r["title"])
        for r in _export_checked(records)
        if _norm(r["title"]) not in folded and r["title"].casefold() not in markdown and not _cites_a_stored_copy(r)
    ]
    assert missing == []


@pytest.mark.shared_data
def test_summaries_are_in_our_own_words(records, annotated, exports):
    copied = []
    for r in records + annotated:
        summary = _norm(r["summary"])
        for description in exports["descriptions"].get(r["url"], ()):
            text = _norm(description)
            if summary == text or (len(summary) > 40 and summary in text):
                copied.append(r["id"])
    assert copied == []


@pytest.fixture(scope="module")
def imported_facts():
    """Each imported record's facts, by URL, as the full estate's importers give them."""
    if not DATA.is_dir():
        pytest.skip(f"real exports not present at {DATA}")
    facts: dict[str, list[tuple[str, ...]]] = collections.defaultdict(list)
    config = load_config(FULL_ESTATE, sources_dir=DATA)
    authority = publisher_authority(config)
    for source in config.sources:
        result = import_source(config, source, authority)
        for record in result.records:
            facts[record.data["url"]].append(tuple(record.data.get(name) for name in EXPORT_FACTS))
    return facts


@pytest.mark.shared_data
def test_annotated_records_keep_their_exports_facts(annotated, imported_facts):
    # An annotated record adds our words, never our facts: whatever it states beyond
    # its summary and keywords must be what an importer reads from the export.
    changed = [
        (r["id"], tuple(r.get(name) for name in EXPORT_FACTS))
        for r in annotated
        if tuple(r.get(name) for name in EXPORT_FACTS) not in imported_facts[r["url"]]
    ]
    assert changed == []


def test_only_the_full_estate_reads_the_annotations():
    # an annotation gives an import our words; the curated site has no imports
    assert load_config(FULL_ESTATE).annotations_dir.resolve() == ANNOTATIONS
    assert load_config(REPO / "site" / "site.toml").annotations_dir is None
