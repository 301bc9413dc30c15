"""The corpora `make eval` judges: the full estate (built once into a cache)
and the curated site.

The full estate is built the way build.py builds it (the same record
collection, importers and data files) but without pages or the runtime,
which search does not read. The cache is reused while a fingerprint of its
inputs (the configuration, the curated content, every source file and all
code under python_pkg) is unchanged, so a second `make eval` costs seconds.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python_pkg"))

from govsearch.ranking.series import group_of  # noqa: E402
from govsearch_build.config import SiteConfig, load_config  # noqa: E402
from govsearch_build.data_writer import write_data  # noqa: E402
from govsearch_build.records import load_content  # noqa: E402

FULL_CONFIG = REPO / "site" / "full-estate.toml"
CURATED_CONFIG = REPO / "site" / "site.toml"
SHARED_DATA = REPO.parent / "shared" / "data"
FULL_CACHE = REPO / ".cache" / "eval-full"
URLS = "urls.json"  # every built record's URL (one per record), for judged URLs missing from the corpus
LINKS = "links.json"  # each record's URL with its documentation page's: one result for the ideal list
SERIES = "series.json"  # the URLs of each series (govsearch.ranking.series): one result for the ideal list


def fingerprint(config: SiteConfig) -> str:
    """Changes whenever an input of the full-estate build changes (path, size, mtime)."""
    roots = [
        Path(__file__),
        config.file,
        config.content_dir,
        *([config.annotations_dir] if config.annotations_dir else []),
        REPO / "python_pkg",
        *(source.path for source in config.sources),
    ]
    digest = hashlib.sha256()
    for root in roots:
        files = (
            [root]
            if root.is_file()
            else sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
        )
        for path in files:
            stat = path.stat()
            digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def full_estate(cache: Path = FULL_CACHE) -> Path:
    """The full estate's site folder, rebuilt only when its inputs changed."""
    config = load_config(FULL_CONFIG)
    stamp = fingerprint(config)
    if (cache / "fingerprint").is_file() and (cache / "fingerprint").read_text() == stamp:
        return cache
    from govsearch_build.pipeline import collect_records

    print(f"eval: building the full estate into {cache} (inputs changed or no cache)", file=sys.stderr)
    records = collect_records(config).records
    staging = cache.with_name(cache.name + ".new")
    shutil.rmtree(staging, ignore_errors=True)
    write_data(config, records, staging / "data")
    (staging / URLS).write_text(json.dumps(record_urls(records)), "utf-8")
    (staging / LINKS).write_text(json.dumps(record_links(records)), "utf-8")
    (staging / SERIES).write_text(json.dumps(record_series(records)), "utf-8")
    (staging / "fingerprint").write_text(stamp)
    shutil.rmtree(cache, ignore_errors=True)
    staging.rename(cache)
    return cache


def curated_site(out: Path) -> Path:
    """The curated corpus (site/content) built into `out`."""
    config = load_config(CURATED_CONFIG)
    loaded = load_content(config.content_dir, http_allowed_hosts=config.http_allowed_hosts)
    if loaded.rejected:
        raise SystemExit(f"eval: {len(loaded.rejected)} curated file(s) rejected; run the build to see why")
    write_data(config, loaded.records, out / "data")
    (out / URLS).write_text(json.dumps(record_urls(loaded.records)), "utf-8")
    (out / LINKS).write_text(json.dumps(record_links(loaded.records)), "utf-8")
    (out / SERIES).write_text(json.dumps(record_series(loaded.records)), "utf-8")
    return out


def _answers_for(record: Any) -> list[str]:
    """The URLs one record answers for: its own, its documentation page's, and
    those of the records merged into it (`alsoKnownAs`: `.../places/v1`)."""
    data = record.data
    aliases = [alias["url"] for alias in data.get("alsoKnownAs", []) if "url" in alias]
    return [data["url"], *([data["documentationUrl"]] if data.get("documentationUrl") else []), *aliases]


def record_urls(records: list[Any]) -> list[str]:
    """Every URL a built record answers for."""
    return sorted(url for r in records for url in _answers_for(r))


def record_series(records: list[Any]) -> list[list[str]]:
    """The URLs of each group of two records or more (govsearch.ranking.series.group_of:
    one publisher's records of one type under one title, editions apart, or one title
    that local authorities each publish). An answer shows a group as one result, so
    its judged URLs are one ideal result."""
    members: dict[tuple[str, str, str], list[Any]] = {}
    for record in records:
        key = group_of(record.data)
        if key:
            members.setdefault(key, []).append(record)
    return sorted(
        sorted(url for record in group for url in _answers_for(record)) for group in members.values() if len(group) > 1
    )


def record_links(records: list[Any]) -> list[list[str]]:
    """The records that answer for two URLs or more, each led by its own URL."""
    return sorted(urls for urls in map(_answers_for, records) if len(urls) > 1)


def corpus_links(site: Path) -> list[list[str]]:
    """The links of every record in a site built here (none for a site built elsewhere)."""
    path = site / LINKS
    return json.loads(path.read_text("utf-8")) if path.is_file() else []


def corpus_series(site: Path) -> list[list[str]]:
    """The URLs of each series of a site built here (none for a site built elsewhere)."""
    path = site / SERIES
    return json.loads(path.read_text("utf-8")) if path.is_file() else []


def corpus_urls(site: Path) -> list[str] | None:
    """The URLs of every record in a site built here (None for a site built elsewhere)."""
    path = site / URLS
    return json.loads(path.read_text("utf-8")) if path.is_file() else None
