"""Importers: turn real public exports into catalogue records.

`python build.py import KIND PATH... [--collection ID] [--out DIR] [--organisations PATH]`
turns a real public export into catalogue records (docs/record-format.md).
In code: `govsearch_build.importers.run_import(kind, paths, collection=None, authority=None)`
returns an `ImportResult` (`records`, `rejected`, `report`). `site/full-estate.toml`
lists every export in `../shared/data` as `[[sources]]`.

## Rules common to every importer

- **Accounting.** Every input row is exactly one of: built, merged as a
  duplicate (reported with examples), left out with a reason (counted under
  `left_out`, each row named under `left_out_files`), or rejected (file,
  field, reason); a rejected row takes nothing else with it. `report.accounting`
  holds the four counts, which add up to `inputs`; records made in addition to
  a row's own record (API documentation pages) are counted under `derived`.
  The build report's `totals` add curated and imported inputs up to the
  records built (merged within a source, across sources and as one resource,
  left out, rejected) and say whether they reconcile; its `links` count the
  folded rows' links kept and dropped, by reason.
- **Validation.** Every record passes `records.validate_record`; a candidate
  that does not is rejected with the validator's file/field/reason.
- **Duplicates.** Same url within a collection (or same id): the first record
  is kept (found with `records.drop_duplicates`), the later one merged into it
  (keywords and links united, missing licence/documentationUrl/updated filled). Across
  sources, `importers.combine_results(results)` does the same and reports
  `cross_source_merged`; the order of `[[sources]]` decides which is kept.
  Nothing a merged record said is lost (`merge.keep_names`): its title, its
  summary and its URL, each when the kept record does not already say it, go
  into `alsoKnownAs` with their `source` ("okf-markdown: services/x.md"), and
  so do the other names it had itself; a summary no person wrote (a
  placeholder, the title again, or the importer's own "X from Y, listed in
  Z.") gives way to the merged record's own (`summary-from-merged`). The merged
  record's id goes into the kept one's `formerIds` (its page redirects), so
  an id published before still answers `get_resource_record`.
- **One resource, one record** (`govsearch_build/estate.py`, after every source
  is read). Records whose URLs name the same resource (`url_identity.normalised_url`:
  scheme, host case, default port, a trailing slash, a trailing API version
  after some path (`api.os.uk/search/places/v1` is `.../places`; a host's bare
  `/v1` is kept, since one gateway host serves many APIs), an empty query
  parameter (`?a=1&`) and an empty last query value such as `?wsdl=` set
  aside) become one record in every collection they
  were in: `collection` is the winner's, `collections` lists all (the winner's
  first). The winner: a reviewed record (with `evidence`, the `deep-evidence`
  tier), then curated and annotated records, then imports in `[[sources]]` order. It keeps
  its title, summary, url, publisher, type, access status, access note and
  licence; a reviewed record never takes access or licence facts from an
  import (they are what its review checked); the others add keywords and
  links and fill a missing documentation link or update date (and, for an
  unreviewed winner, a licence). What the others called the resource stays
  searchable: each one's title, summary and URL that the winner does not
  already hold goes into `alsoKnownAs` (shown on the record page as "Also
  listed as"), whose words not already in the record are indexed once, titles'
  with its keywords and summaries' with its body (`data_writer.index_document`).
  So `address lookup` finds the reviewed OS Places record, whose own summary
  says "address search", through its catalogue entry's "look-up". Counted
  under `quality.same-resource-merged`; a path percent-encoded or not
  (`/{ref}`, `/%7Bref%7D`) is one address. The same merge, each counted under
  its own rule, joins records that the records themselves show to be one
  resource at two addresses:
  - `hub-item-merged`: pages that show one ArcGIS Hub item and layer: one item
    id on two hub sites (`osni.spatial-ni` and `osni-spatial-ni`), a slug page
    whose own downloads (`/api/download/v1/items/<id>/csv?layers=N`) name the
    item of an id page (`/datasets/<id>_N`), one slug under `/maps/` and
    `/datasets/`. Slugs with another number (`name-1`, `name-2`) are other
    items (ONS boundaries offered as a WFS item, a MapServer item and a
    FeatureServer item; NSTA maps in ED50 and in ETRS89) and stay apart;
  - `service-endpoints-merged`: one OGC endpoint asked under another protocol
    or request (`ows?service=WMS&request=GetCapabilities` and `service=WFS`,
    GeoServer's `/wms` and `/wfs`, ArcGIS's `MapServer/WMSServer` and
    `/WFSServer`, a bare `WmsServer?`); the other protocol's address becomes
    one of the record's links. A layer parameter (`typeName`) still names a
    record of its own;
  - `republished-dataset-merged`: a data.gov.uk dataset published again under
    its slug and a number (`property-land-tbc-owned`, `...-owned1`) with the
    same title, publisher, summary and date. Another summary or date may be
    another edition (Wolverhampton's brownfield sites of 2016 and 2023), so
    such a record stays;
  - `api-documentation-merged`: an API's reference documentation or endpoint
    listed under the API's own title and publisher, at the API's documentation
    page or under its path (`.../asset-management/doc/reference`,
    `api.os.uk/features/ngd/ofa/v1`). A reviewed or curated record is kept as
    for one URL; among imports, the API at its root;
  - `service-page-merged` (after services take their datasets' titles): a
    service titled as the dataset page that describes it (its documentation
    page, or one of the page's links) becomes one of that page's links; a
    curated service record is kept instead, with the page in `alsoKnownAs`.
- **Quality rules** (named and counted in `govsearch_build/quality.py`; the
  rules themselves in `text_repair.py`, `titles.py`, `code_titles.py`,
  `summaries.py`, `link_facts.py` and `url_identity.py`), each counted with
  examples in `report.quality` and in the site's build report and data-quality page:
  - `mojibake-repaired`: UTF-8 decoded as Latin-1/cp1252 at the source
    ("Solicitorâ\\x80\\x99s") is decoded once, in titles, summaries, publishers
    and access notes, and in the GOV.UK organisation names the publisher
    authority reads; a whole UTF-8 sequence only, so real accents stay;
  - `repeated-words`: "KADOE API API" -> "KADOE API" (titles and summaries);
  - `generic-title`: a title of only format words ("CSV", "Esri Rest API",
    "Link to WMS", "HTML"; a protocol's spelled-out name, "Web Map Service",
    is its acronym), access words ("View Data", "Download"), numbers ("0") or
    generic product words is qualified with the item's name from its catalogue
    page's slug ("Parks and open spaces (Esri Rest API)") or the one layer its
    service request asks (`typeName=dclg_inspire:English_Town_Centres_2004`:
    "English Town Centres 2004 (Geoserver shapefile download service)"), else
    with its publisher ("WFS from X Council"); a bare number with no item name is
    rejected with that reason. So is an access label that adds only its
    publisher, by name or initials ("View & Download from CDC" of Craven
    District Council), with no item name; a publisher's name with a format
    ("Companies House API") names that publisher's service and is kept. An API titled
    only with its publisher's name ("Companies House") becomes
    "Companies House API" (curated records too);
  - `formats-merged` (okf-search-shards): see that importer;
  - `code-title-spelled` (okf-search-shards): see that importer (a title of
    one lower-case word); the estate spells `underscore_codes` after services
    take their datasets' titles;
  - `type-from-evidence`: an `api` whose url is a file download (`.csv`,
    `.xlsx`, `.zip`, `.geojson`, ArcGIS `/api/download/`, `?f=csv`…) is a `dataset`;
  - `http-only-kept`: see URLs below;
  - `documentation-linked` (api-catalogue): see that importer;
  - `placeholder-text-absent`, `title-repeat-absent`: a description that is a
    placeholder ("{{description}}", "null", "no description", empty) or the
    title again is no summary; the importer writes its own, saying where the
    row is listed, or a merged record's own summary replaces it;
  - `test-record-left-out`: a row its publisher made to try the catalogue out
    ("TPO Test", "Allotment Plots TEST WMS", "MytesT geo987", "Test CSV";
    `titles.is_test_title`) is left out (`left_out.test-record`), and listed
    in full in the report with the links it took with it; also once the estate
    has spelled a code title ("allotmentstest" is "Allotment test");
  - `code-title-qualified` (estate): a title that is only a code ("Q 9",
    "LWLS20131120") is qualified from the record's own facts: the layer its
    address names, the dataset page it documents, its one-sentence summary
    ("Q 9: PDF map of quadrant 9"), else its publisher; codes joined by "_"
    and "." are spelled ("Common plan article 4 C3 to C4");
  - `links-accounted`: see okf-search-shards; a further link the schema
    refuses is dropped with its reason and its record kept;
  - `links-labelled` (estate): links of one record with one label are told
    apart by what differs in their own addresses (host, format, coordinate
    system: "CSV (British National Grid)"); the same address is listed once;
  - `type-rule` (estate): an API product listed at its documentation page on
    a developer portal is `api-documentation` (HMRC's from the API catalogue
    as HMRC's curated ones), at its endpoint or product page an `api` (DVLA's,
    OS's, the UKHO's); a data.gov.uk dataset page is a
    `dataset`; an ArcGIS web map application is a `dataset`, not an `api`;
  - `licence-from-description` (estate): an unreviewed record whose own
    description states the Open Government Licence says so ("Open Government
    Licence (stated in the description)"), and is `public` when the
    description also states no registration is needed;
  - `licence-from-govuk` (estate): a www.gov.uk page with no licence takes
    GOV.UK's own statement, the Open Government Licence v3.0 (all GOV.UK
    content is under it except where otherwise stated); not for reviewed records.
- **Provenance.** `source: {kind, file ("<folder>/<file>#row N" or "#N"),
  revision (the upstream commit, when given), observed, nativeId}`.
- **Ids.** Lower-case slugs with a prefix per source (`apic-`, `apic-doc-`,
  `apic-org-`, `govuk-org-`, `okf-`, `hmlr-`, `living-`, `okfmd-`), at most 120
  characters (longer ones keep 109 characters plus a hash of the native id).
  Two different resources whose slugs collide get a hash suffix.
- **Text.** Literal `\\n` escapes become spaces; HTML tags and Markdown markup
  are stripped to plain text; whitespace collapsed; a field over the schema
  limit (title 300, summary 2,000, accessNote 1,000, licence 200) is cut at a
  word boundary ending with "…" and counted under `trimmed`. A truncation
  ellipsis already in the source is kept as it is.
- **URLs.** https only; a scheme in any case is the scheme (`Https://`). An `http://` URL is upgraded to https only when the
  host is known to serve https: a short fixed list (www.gov.uk, data.gov.uk,
  environment.data.gov.uk, nationalarchives.gov.uk, …), ArcGIS Online/Hub
  hosts (`*.opendata.arcgis.com`, `*.hub.arcgis.com`, https-only since 2020),
  or a host the same export itself links over https. A plain-http link on a
  public-body host listed in the site config's `http_allowed_hosts` is kept
  and the record marked `linkSecurity: "http-only"` (pages say "This link is
  not encrypted"). Otherwise the row is rejected and the host counted under
  `http_only_hosts`; other schemes are always rejected.
- **Publishers.** Through `PublisherAuthority` (govsearch_build/publishers.py):
  the explicit alias table `publisher_aliases.toml`, exact GOV.UK titles,
  loose matching (case, "&"/"and", "the", punctuation), GOV.UK slugs and
  organisation URLs, then unambiguous GOV.UK abbreviations. Names that match
  nothing are kept as the source gives them and counted under
  `unmatched_publishers`. Without an authority only the alias table applies.
- **Collections.** `collection` routes every record; otherwise each importer's
  default, with publisher routing HM Land Registry -> `land-registry` and
  Office for National Statistics -> `ons` where stated below.
- **Unmapped values.** A source value with no entry in a mapping table is
  reported under `unmapped[field][value] = {count, examples}` and mapped to
  the cautious default stated in the table.

Each kind is its own module, with its mapping table in its docstring;
docs/importers.md is made from these docstrings (`python build.py docs`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

from ..records import Record
from .common import ImportBuilder, ImportResult
from .merge import merge_duplicates

if TYPE_CHECKING:  # pragma: no cover
    from ..publishers import PublisherAuthority
    from ..quality import QualityLog

__all__ = ["KINDS", "ImportResult", "run_import", "combine_results"]

# kind -> module name
_MODULES = {
    "api-catalogue": "api_catalogue",
    "govuk-organisations": "govuk_organisations",
    "okf-markdown": "okf_markdown",
    "okf-search-shards": "okf_search_shards",
    "okf-hmlr-csv": "okf_hmlr_csv",
    "okf-uk-living": "okf_uk_living",
}
KINDS: tuple[str, ...] = tuple(_MODULES)


def run_import(
    kind: str,
    paths: list[Path],
    *,
    collection: str | None = None,
    authority: PublisherAuthority | None = None,
    revision: str | None = None,
    observed: str | None = None,
    http_hosts: Iterable[str] = (),
) -> ImportResult:
    """Import `paths` (files or folders) of one kind of export.

    `collection` sends every record to that collection (otherwise each
    importer's default and publisher routing apply); `authority` normalises
    publisher names to exact GOV.UK titles; `revision` (upstream commit) and
    `observed` (YYYY-MM-DD snapshot date) go into each record's provenance;
    `http_hosts` are public-body hosts whose plain-http links are kept (marked http-only).
    """
    if kind not in _MODULES:
        raise ValueError(f"unknown import kind {kind!r}; expected one of: {', '.join(KINDS)}")
    module = import_module(f".{_MODULES[kind]}", __name__)
    builder = ImportBuilder(
        kind, authority=authority, collection=collection, revision=revision, observed=observed, http_hosts=http_hosts
    )
    module.import_paths([Path(p) for p in paths], builder)
    return builder.finish()


def combine_results(
    results: Iterable[ImportResult], log: QualityLog | None = None, moved: dict[str, str] | None = None
) -> tuple[list[Record], dict]:
    """Records of several imports with cross-source duplicates merged.

    Two sources can describe the same resource (the API catalogue and the
    OKF search shards both list the catalogue's APIs). The first import's
    record is kept and the later one merged into it, its title, summary and
    source kept among the kept record's other names; the count and examples
    are returned so nothing disappears silently. `moved` gets each merged
    record's id (within one import or across) -> the id of the record it is now
    part of, so the merged id still answers (`formerIds`).
    """
    results = list(results)
    kept, merged = merge_duplicates((record for result in results for record in result.records), log)
    if moved is not None:
        for result in results:
            moved.update(result.moved)
        moved.update({record.id: target.id for record, target in merged if record.id != target.id})
    by_kind = Counter(
        f"{record.data['source']['kind']} into {target.data['source']['kind']}" for record, target in merged
    )
    examples = [{"file": record.file, "into": target.file, "url": record.data["url"]} for record, target in merged[:20]]
    return kept, {"cross_source_merged": len(merged), "by_kind": dict(by_kind), "examples": examples}
