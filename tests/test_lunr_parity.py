"""lunr.py (what govsearch searches with) answers exactly as lunr.js 2.3.9 does.

The site's index is built by lunr.py and is meant to be a standard lunr 2.3.9
serialisation. For many queries, in every match mode and with the search
box's prefix matching, the clause list govsearch builds is run through lunr.py
(as the engine runs it) and through lunr.js (one Node process for all of
them). Both must return the same records with the same scores (to the 6
places the engine keeps) in the same order.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from govsearch import Catalogue, DirectoryLoader
from govsearch.engine import SCORE_PLACES
from govsearch.ranking import rules
from govsearch.ranking.query import MATCH_MODES, clauses_for, query_terms
from govsearch.terms import Clause, to_lunr_query
from govsearch_build.records import load_content
from needs import need
from sitefixture import FIXTURE_CORPUS, REPO, build_fixture_site

QUERY_SCRIPT = REPO / "tests" / "parity" / "lunr_query.mjs"
CURATED = REPO / "site" / "content"
MIN_CURATED_RECORDS = 100
NODE = shutil.which("node") or "/usr/bin/node"

QUERIES = [
    # plain words
    "house",
    "prices",
    "population",
    "pensions",
    "passport",
    "tariff",
    "companies",
    "weather",
    "water",
    "schools",
    "postcode",
    "census",
    "benefits",
    "vehicle",
    "api",
    # several terms
    "house prices",
    "uk house price index",
    "national insurance record",
    "companies house",
    "bank holidays",
    "water quality",
    "land registry search",
    "ordnance survey maps",
    "free school meals",
    "driver licence check",
    "trade tariff commodities",
    "official search of whole",
    "population projections older people",
    "apply for a blue badge",
    "ons beta api filter a dataset",
    # stemming variants
    "housing",
    "houses",
    "housed",
    "registering",
    "registration",
    "registers",
    "searches",
    "searching",
    "statistics",
    "statistical",
    "applying",
    "applications",
    "tides",
    "tidal",
    # lunr query syntax is plain text here
    "api:key",
    "title:house",
    "+vat",
    "-vat",
    "house~1",
    "price^2",
    "hous*",
    '"house prices"',
    "'land registry'",
    "+house -price",
    "publisher:ons prices",
    "a:b:c",
    "~",
    "^10",
    "*",
    # typos (found only by the fuzzy mode)
    "pensoins",
    "passprot",
    "populaton",
    "compnaies",
    "tarrif",
    "statistcs",
    "registy",
    "bathng water",
    # stop words only, punctuation, unicode, numbers
    "the and of",
    "???",
    "café",
    "2021",
    "april 2025",
    "NaPTAN",
    "e-document",
    "GOV.UK",
    # partial words, as typed in the search box (prefix_last)
    "hous",
    "house pri",
    "popul",
    "nation",
    "land reg",
    "comp",
    "ta",
    "o",
]


def _curated_or_fixture() -> Path:
    """site/content when it is a real corpus (enough records, none rejected), else the test fixture."""
    if CURATED.is_dir():
        loaded = load_content(CURATED)
        if len(loaded.records) >= MIN_CURATED_RECORDS and not loaded.rejected:
            return CURATED
    return FIXTURE_CORPUS


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    content = _curated_or_fixture()
    return build_fixture_site(tmp_path_factory.mktemp("parity-site"), content), content


def _cases() -> list[tuple[str, str, bool, list[Clause]]]:
    """(query, mode, prefix_last, clauses) for every query, mode and prefix setting; no empty clause lists."""
    cases, seen = [], set()
    for text in QUERIES:
        for prefix_last in (False, True):
            terms = query_terms(text, prefix_last=prefix_last)
            for mode in MATCH_MODES:
                clauses = clauses_for(terms, mode)
                # any_term also searches related words at a lower clause boost (ranking.related).
                boosted = (
                    [replace(clauses[-1], boost=rules.ALTERNATIVE_BOOST)] if mode == "any_term" and clauses else []
                )
                for variant in (clauses, clauses[:-1] + boosted):
                    key = tuple(variant)
                    if variant and key not in seen:
                        seen.add(key)
                        cases.append((text, mode, prefix_last, variant))
    return cases


def _ordered(hits) -> list[tuple[float, str]]:
    return sorted(((round(score, SCORE_PLACES), ref) for ref, score in hits), key=lambda item: (-item[0], item[1]))


def test_lunr_py_and_lunr_js_agree(site):
    need((REPO / "node_modules" / "lunr" / "lunr.js").exists(), "lunr.js (npm)")
    site_dir, content = site
    catalogue = Catalogue.open(DirectoryLoader(site_dir))
    manifest = json.loads((site_dir / "data" / "manifest.json").read_text("utf-8"))
    index_path = site_dir / "data" / manifest["files"]["index"]["path"]
    index = catalogue.engine.matcher.index

    cases = _cases()
    assert len({text for text, *_ in cases}) >= 60, "too few distinct queries reach lunr"

    done = subprocess.run(
        [NODE, str(QUERY_SCRIPT)],
        input=json.dumps(
            {"indexPath": str(index_path), "queries": [[c.as_dict() for c in clauses] for *_, clauses in cases]}
        ),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["lunr"] == "2.3.9"
    js_results = answer["results"]
    assert len(js_results) == len(cases)

    differences, with_hits, queries_with_hits, largest_gap = [], 0, set(), 0.0
    for (text, mode, prefix_last, clauses), js in zip(cases, js_results):
        py = index.query(to_lunr_query(index.create_query(), clauses))
        py_hits = [(hit["ref"], hit["score"]) for hit in py]
        js_hits = [(hit["ref"], hit["score"]) for hit in js]
        if py_hits:
            with_hits += 1
            queries_with_hits.add(text)
        label = f"{text!r} mode={mode} prefix_last={prefix_last} clauses={[c.as_dict() for c in clauses]}"
        if {ref for ref, _ in py_hits} != {ref for ref, _ in js_hits}:
            differences.append(
                f"{label}: refs differ; only lunr.py {sorted({r for r, _ in py_hits} - {r for r, _ in js_hits})}, only lunr.js {sorted({r for r, _ in js_hits} - {r for r, _ in py_hits})}"
            )
        elif _ordered(py_hits) != _ordered(js_hits):
            py_scores, js_scores = dict(py_hits), dict(js_hits)
            worst = max(py_scores, key=lambda ref: abs(py_scores[ref] - js_scores[ref]))
            differences.append(
                f"{label}: scores differ, most at {worst!r}: lunr.py {py_scores[worst]!r} lunr.js {js_scores[worst]!r}"
            )
        else:
            js_scores = dict(js_hits)
            largest_gap = max([largest_gap, *(abs(score - js_scores[ref]) for ref, score in py_hits)])

    print(
        f"{len(cases)} clause lists from {len({c[0] for c in cases})} queries over {catalogue.manifest['records']} records ({content}); "
        f"{with_hits} clause lists and {len(queries_with_hits)} queries found something; largest raw score gap {largest_gap:.3g}"
    )
    assert not differences, f"{len(differences)} of {len(cases)} queries differ ({content}):\n" + "\n".join(differences)
    assert len(queries_with_hits) >= 40, (
        f"only {len(queries_with_hits)} queries found anything in {content}: the parity check proves little"
    )
