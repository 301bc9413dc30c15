"""The full estate from ../shared/data: sharded answers equal the single lunr index.

Skips when the real exports are not beside the checkout. Slow (a few
minutes): it imports every export and indexes the whole estate twice.
"""

import collections
import gzip
import json
import random
import re
from pathlib import Path
from urllib.parse import quote

import pytest
from markupsafe import escape

from govsearch import Catalogue, DirectoryLoader, to_json
from govsearch.attribution import CATALOGUE_ATTRIBUTION, OGL_ATTRIBUTION
from govsearch.ranking.query import query_terms
from govsearch_build.assets import Assets
from govsearch_build.code_titles import is_bare_code
from govsearch_build.config import load_config
from govsearch_build.data_writer import write_data
from govsearch_build.quality import RULES
from govsearch_build.records import load_content
from govsearch_build.render import Renderer
from govsearch_build.report import build_report
from govsearch_build.summaries import is_placeholder, repeats_title
from govsearch_build.text_repair import collapse_repeats
from govsearch_build.titles import is_generic_title, is_test_record
from govsearch_build.url_identity import normalised_url

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"

pytestmark = [pytest.mark.shared_data, pytest.mark.skipif(not SHARED_DATA.exists(), reason="../shared/data is absent")]


@pytest.fixture(scope="module")
def estate(full_estate, tmp_path_factory):
    config, loaded = full_estate  # tests/conftest.py: read once per session
    sites = {}
    for layout in ("single", "sharded"):
        site = tmp_path_factory.mktemp(f"estate-{layout}")
        write_data(config, loaded.records, site / "data", layout=layout)
        sites[layout] = site
    return loaded, sites


def test_every_input_is_built_or_reported(estate):
    loaded, _ = estate
    # one dataset's formats are links of one record, one resource is one record
    assert len(loaded.records) > 10_000
    for report in loaded.imports:
        if "inputs" in report:
            accounted = (
                report["built"] + report["rejected"] + sum(report["left_out"].values()) + report["duplicates_merged"]
            )
            assert accounted >= report["inputs"], report["kind"]


def test_the_report_reconciles_inputs_to_records(estate):
    loaded, _ = estate
    report = build_report(loaded)
    totals = report["totals"]
    assert totals["reconciles"] and totals["built"] == len(loaded.records), totals
    assert totals["curated_inputs"] == len(list((REPO / "site" / "content").rglob("*.md")))
    assert totals["annotated_inputs"] == len(list((REPO / "site" / "annotations").rglob("*.md")))
    # every link of a folded row kept or dropped with its reason
    assert report["links"]["kept"] > 25_000 and report["links"]["kept_by_kind"]["kept (plain http, flagged)"] > 1_000
    assert all(reason for reason in report["links"]["dropped_by_reason"])


def test_every_annotation_is_built_over_its_import_with_our_words(estate):
    loaded, _ = estate
    annotations = load_content(REPO / "site" / "annotations")
    by_url = {record.data["url"]: record.data for record in loaded.records}
    for annotation in annotations.records:
        built = by_url[annotation.data["url"]]
        assert (built["id"], built["summary"]) == (annotation.id, annotation.data["summary"])
        assert built["source"]["kind"] == "annotated" and set(annotation.data["keywords"]) <= set(built["keywords"])
        # its page names the import's very file and row, not the annotation's pattern ("results-N.json")
        assert "-N." not in built["source"]["file"], (annotation.id, built["source"]["file"])


def _input_rows() -> list[tuple[str, list[str]]]:
    """Every row of the exports that names a web address: its file as the report names
    it and its addresses (its url; its documentation page, which a row sharing its url
    with other API Products takes as its own)."""
    rows = []
    for path in sorted((SHARED_DATA / "okf-uk-government-apis").glob("results-*.json.gz")):
        for number, item in enumerate(json.loads(gzip.decompress(path.read_bytes()))):
            urls = [str(item.get(key) or "") for key in ("url", "documentation")]
            rows.append((f"okf-uk-government-apis/{path.name}#{number}", [u for u in urls if u]))
    living = SHARED_DATA / "okf-uk-living" / "resources-0.json"
    for number, item in enumerate(json.loads(living.read_text("utf-8"))):
        rows.append((f"okf-uk-living/resources-0.json#{number}", [item["url"]] if item.get("url") else []))
    return [(file, urls) for file, urls in rows if urls]


def _address(url: str) -> str:
    return normalised_url(quote(url.strip(), safe=":/?#[]@!$&'()*+,;=%~"))


def test_every_input_url_is_a_record_another_name_a_link_or_reported(estate):
    """Nothing the exports name is lost silently: each row's address is a record's,
    one of its other names' or one of its links, or the row is reported (rejected with
    its reason, left out under a reason, or a test record listed with its links)."""
    loaded, _ = estate
    report = build_report(loaded)
    kept = set()
    for record in loaded.records:
        data = record.data
        kept.update(_address(u) for u in (data["url"], data.get("documentationUrl") or data["url"]))
        kept.update(_address(link["url"]) for link in data.get("links", []))
        kept.update(_address(alias["url"]) for alias in data.get("alsoKnownAs", []) if alias.get("url"))
    reported = {problem.file for problem in loaded.rejected}
    reported.update(
        file for imp in loaded.imports for files in imp.get("left_out_files", {}).values() for file in files
    )
    tests = report["quality"]["test-record-left-out"]["listed"]
    reported.update(case["file"] for case in tests)
    kept.update(_address(url) for case in tests for url in case["links"])  # dropped with that reason
    rows = _input_rows()
    lost = [(file, urls) for file, urls in rows if file not in reported and not {_address(u) for u in urls} & kept]
    assert len(rows) > 40_000 and lost == []


def test_names_summaries_titles_and_ids_are_kept(estate):
    loaded, _ = estate
    records = [record.data for record in loaded.records]
    names = {
        " ".join(n.lower().split())
        for d in records
        for n in [d["title"], *(a["title"] for a in d.get("alsoKnownAs", []))]
    }
    services = SHARED_DATA / "okf-uk-living" / "services"
    titles = [re.search(r'^title: "?(.*?)"?$', path.read_text("utf-8"), re.M) for path in services.glob("*.md")]
    missing = [t.group(1) for t in titles if t and " ".join(t.group(1).lower().split()) not in names]
    assert len(titles) > 300 and missing == []
    assert not [d["id"] for d in records if is_placeholder(d["summary"])]
    assert len([d["id"] for d in records if repeats_title(d["summary"], d["title"])]) <= 50
    assert not [d["title"] for d in records if d["resourceType"] != "organisation" and is_bare_code(d["title"])]
    assert not [d["title"] for d in records if is_test_record(d["title"], d["resourceType"])]
    # a record merged into another still answers by its id
    former = {old for d in records for old in d.get("formerIds", [])}
    assert former and not former & {d["id"] for d in records}


def test_sharded_equals_single_at_full_scale(estate):
    loaded, sites = estate
    single = Catalogue.open(DirectoryLoader(sites["single"]))
    sharded = Catalogue.open(DirectoryLoader(sites["sharded"]))
    rng = random.Random(7)
    titles = [record.data["title"] for record in rng.sample(loaded.records, 400)]
    words = sorted({w for t in titles for w in re.findall(r"[A-Za-z]{4,}", t)})
    queries = (
        rng.sample(words, 120)
        + [" ".join(rng.sample(words, 2)) for _ in range(60)]
        + [w[:-1] + "x" for w in rng.sample(words, 20)]
    )
    filters = [{}, {"collections": ["ons"]}, {"resourceTypes": ["dataset"], "accessStatuses": ["public"], "limit": 20}]
    compared = found = 0
    for text in queries:
        for extra in filters:
            arguments = {"query": text, **extra}
            expected = to_json(single.call("search_government_knowledge", arguments))
            assert to_json(sharded.call("search_government_knowledge", arguments)) == expected, arguments
            compared += 1
            found += json.loads(expected)["total"] > 0
    assert compared >= 600 and found > compared // 2


def test_terms_with_digits_are_found_whole_and_as_prefixes(estate):
    """lunr's own vocabulary automaton merges nodes wrongly for such terms (see
    govsearch.terms.vocabulary_token_set): at full estate, typing "ppg" failed."""
    _, sites = estate
    single = Catalogue.open(DirectoryLoader(sites["single"]))
    sharded = Catalogue.open(DirectoryLoader(sites["sharded"]))
    vocabulary = sorted(single.engine.matcher.index.inverted_index)
    digits = [term for term in vocabulary if re.fullmatch(r"[a-z]{2,}[0-9]+", term)]
    assert {"ppg13", "ppg17"} <= set(digits)
    for term in ["ppg13", "ppg17"] + random.Random(3).sample(digits, 150):
        # Three letters the stemmer shortens ("gms" of "gms1" -> "gm") are read as that stem, not as a
        # prefix (ranking.query: a prefix keeps what the word and its stem share, from 3 letters).
        typed = [(term, False)] + [(term[:3], True)] * query_terms(term[:3], prefix_last=True)[0].prefix
        for text, prefix_last in typed:
            answers = [
                to_json(c.call("search_government_knowledge", {"query": text, "limit": 20}, prefix_last=prefix_last))
                for c in (single, sharded)
            ]
            assert answers[0] == answers[1], (text, prefix_last)
            result = json.loads(answers[0])
            assert result["ok"] and result["total"] > 0, (text, prefix_last, result)


def _bench_queries(records):
    import sys

    sys.path.insert(0, str(REPO / "bench"))
    from queries import make_queries

    return make_queries(records, per_kind=40)


def test_no_answer_lists_one_resource_twice(estate):
    """The benchmark's queries and the issue's examples, 20 results each, unfiltered and by collection."""
    loaded, sites = estate
    catalogue = Catalogue.open(DirectoryLoader(sites["sharded"]))
    queries = [{"query": q["query"], **q["filters"]} for q in _bench_queries(loaded.records)]
    queries += [
        {"query": text} for text in ("bank holidays", "companies house", "get information about schools", "food alerts")
    ]
    seen_multi = 0
    for arguments in queries:
        answer = catalogue.call("search_government_knowledge", {**arguments, "limit": 20})
        urls = [normalised_url(result["url"]) for result in answer["results"]]
        assert len(urls) == len(set(urls)), (arguments, urls)
        seen_multi += any(len(result.get("collections", [])) > 1 for result in answer["results"])
    assert len(queries) >= 200 and seen_multi >= 1


def test_titles_name_their_resource(estate):
    loaded, _ = estate
    generic = [r.data["title"] for r in loaded.records if is_generic_title(r.data["title"])]
    repeated = [r.data["title"] for r in loaded.records if collapse_repeats(r.data["title"]) != r.data["title"]]
    only_publisher = [
        r.data["title"]
        for r in loaded.records
        if r.data["resourceType"] == "api" and r.data["title"] == r.data["publisher"]
    ]
    assert generic == [] and repeated == [] and only_publisher == []
    assert not [r.id for r in loaded.records if "API API" in r.data["summary"]]


def test_http_only_official_links_are_searchable(estate):
    loaded, sites = estate
    flagged = [r for r in loaded.records if r.data.get("linkSecurity") == "http-only"]
    assert len(flagged) >= 200 and all(r.data["url"].startswith("http://") for r in flagged)
    catalogue = Catalogue.open(DirectoryLoader(sites["sharded"]))
    # a title only one record has: one many councils share ("Tree Preservation Orders") is one
    # result whose other records stand behind it (docs/ranking.md, series)
    titles = collections.Counter(r.data["title"] for r in loaded.records)
    own_titles = [r for r in flagged if titles[r.data["title"]] == 1]
    for record in random.Random(5).sample(own_titles, 10):
        answer = catalogue.call("search_government_knowledge", {"query": record.data["title"], "limit": 20})
        hit = [result for result in answer["results"] if result["id"] == record.id]
        assert hit and hit[0]["linkSecurity"] == "http-only", record.data["title"]


_LICENCE = re.compile(r'<dd class="govuk-summary-list__value app-wrap" id="licence">([^<]*)')


def test_record_pages_state_the_licence_once_and_consistently(estate, tmp_path):
    """Every record page of the full estate: one licence line; the OGL attribution
    only when that line is the OGL, otherwise the catalogue-details wording."""
    loaded, _ = estate
    config = load_config(REPO / "site" / "full-estate.toml")
    assets = Assets.publish(
        static_dir=REPO / "site" / "static", out_dir=tmp_path / "static", node_modules=REPO / "node_modules"
    )
    renderer = Renderer(config, loaded.records, tmp_path, assets)
    catalogue_words = CATALOGUE_ATTRIBUTION.replace("'", "&#39;")
    counts = {"ogl": 0, "other": 0, "not stated": 0}
    for record in renderer.records:
        renderer.render_record(record)
        page = renderer.written.pop().read_text("utf-8")
        assert page.count(">Licence</dt>") == 1 and "Licence status" not in page, record["id"]
        line = _LICENCE.search(page).group(1).strip()
        if "Open Government Licence" in line:
            counts["ogl"] += 1
            assert catalogue_words not in page, record["id"]
        else:
            counts["not stated" if line.startswith("Not stated") else "other"] += 1
            assert OGL_ATTRIBUTION not in page, (record["id"], line)
    assert len(renderer.records) == sum(counts.values()) and min(counts.values()) > 0, counts


def test_data_quality_page_counts_every_rule(estate, tmp_path):
    loaded, _ = estate
    report = build_report(loaded)
    assert set(report["quality"]) == set(RULES)  # every rule does something on the real exports
    assets = Assets.publish(
        static_dir=REPO / "site" / "static", out_dir=tmp_path / "static", node_modules=REPO / "node_modules"
    )
    renderer = Renderer(
        load_config(REPO / "site" / "full-estate.toml"), loaded.records[:10], tmp_path, assets, report=report
    )
    renderer.write_data_quality()
    page = (tmp_path / "data-quality" / "index.html").read_text("utf-8")
    for name, entry in report["quality"].items():
        section = page[page.index(f'id="rule-{name}"') :]
        section = section[: section.index("</section>")]
        for action, count in entry.items():
            if action not in ("title", "description", "examples", "listed"):
                assert f"<strong>{count:,}</strong> {str(escape(action))}" in section, (name, action)
        assert all(str(escape(case["title"])) in section for case in entry.get("listed", [])), name
