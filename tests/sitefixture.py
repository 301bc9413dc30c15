"""Build a site's data folder from a content folder, for tests.

Shared by the runtime tests (tests/runtime/conftest.py), the Pyodide run
(tests/test_in_pyodide.py) and the lunr.js parity test.
"""

from __future__ import annotations

from pathlib import Path

from govsearch_build.config import load_config
from govsearch_build.data_writer import write_data
from govsearch_build.records import Record, load_content

REPO = Path(__file__).resolve().parent.parent
SITE_TOML = REPO / "site" / "site.toml"
FIXTURE_CORPUS = REPO / "tests" / "fixtures" / "corpus"


def build_fixture_site(out_dir: Path, content_dir: Path = FIXTURE_CORPUS) -> Path:
    """Write out_dir/"data" (index, records, tools, manifest) from content_dir; return out_dir.

    Fails if any file in content_dir is rejected or none is loaded, so a
    broken fixture cannot silently shrink the corpus a test runs against.
    """
    config = load_config(SITE_TOML)
    loaded = load_content(Path(content_dir), http_allowed_hosts=config.http_allowed_hosts)
    if not loaded.records:
        raise AssertionError(f"no records loaded from {content_dir}")
    if loaded.rejected:
        problems = "; ".join(f"{r.file} {r.field}: {r.reason}" for r in loaded.rejected)
        raise AssertionError(f"{len(loaded.rejected)} file(s) rejected in {content_dir}: {problems}")
    out_dir = Path(out_dir)
    write_data(config, loaded.records, out_dir / "data")
    return out_dir


def curated_record(number: int, title: str, **fields: str) -> Record:
    """A curated record `r<number>` built in memory, for tests that write a site from a few."""
    data = {
        "id": f"r{number}",
        "title": title,
        "summary": f"Record {number}.",
        "url": f"https://www.example.gov.uk/r{number}",
        "resourceType": "dataset",
        "publisher": "Office for National Statistics",
        "accessStatus": "public",
        "collection": "uk-living",
        "licence": "Open Government Licence v3.0",
        "observed": "2026-07-14",
        "source": {"kind": "curated"},
        **fields,
    }
    return Record(data, "", f"r{number}.md")
