"""The build pipeline: sources and curated content -> records -> data, runtime, assets, pages.

`build` makes a whole site from a configuration; `collect_records` is its
first half (every input read, imported, merged or rejected), which the tests,
eval/ and bench/ call to get the estate without writing a site.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import TYPE_CHECKING

from govsearch.format import DATA_FOLDER, MANIFEST

from .config import SiteConfig, Source
from .console import console, step
from .estate import finish_estate, record_former_ids
from .records import LoadResult, drop_duplicates, load_content
from .report import build_report

if TYPE_CHECKING:  # the importers load only when a configuration names sources
    from .importers.common import ImportResult
    from .publishers import PublisherAuthority

PROJECT_ROOT = Path(__file__).resolve().parents[2]
REPORT_NAME = "build-report.json"


class BuildFailed(Exception):
    pass


def build(config: SiteConfig, out: Path, *, keep_going: bool = False) -> dict:
    """Build the site into `out`; returns the build report."""
    started = time.monotonic()
    _refuse_unsafe_out(config, out)
    _check_sources(config)
    loaded = step("Reading records", lambda: collect_records(config))
    if loaded.rejected and not keep_going:
        for problem in loaded.rejected[:20]:
            console.print(f"  {problem.file}: {problem.field}: {problem.reason}")
        more = len(loaded.rejected) - 20
        raise BuildFailed(
            f"{len(loaded.rejected_files)} input(s) rejected{f' (and {more} more problems)' if more > 0 else ''}; "
            "fix them or pass --keep-going to build the rest"
        )
    if not loaded.records:
        raise BuildFailed(f"no records found in {config.content_dir}")
    _prepare(out)
    from .assets import Assets
    from .data_writer import write_data
    from .llms import write_llms_txt
    from .render import render_site
    from .runtime import publish_runtime

    records = loaded.records
    step(f"Indexing {len(records)} records", lambda: write_data(config, records, out / DATA_FOLDER))
    step(
        "Publishing the Pyodide runtime",
        lambda: publish_runtime(
            out / "pyodide", PROJECT_ROOT, PROJECT_ROOT / ".cache" / "wheels", out / DATA_FOLDER / MANIFEST
        ),
    )
    assets = step(
        "Compiling assets",
        lambda: Assets.publish(
            static_dir=PROJECT_ROOT / "site" / "static",
            out_dir=out / "static",
            node_modules=PROJECT_ROOT / "node_modules",
            base_path=config.base_path,
        ),
    )
    report = build_report(loaded)
    pages = step(
        "Rendering pages", lambda: render_site(config, records, out, assets, report=report, moved=loaded.moved)
    )
    step("Writing llms.txt", lambda: write_llms_txt(config, records, out))
    (out / REPORT_NAME).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", "utf-8")
    published = _published_size(out)
    console.print(
        f"[green]Built[/green] {len(records)} records, {len(pages)} pages into {out} "
        f"in {time.monotonic() - started:.1f} s; {report['records']['rejected']} rejected (see {REPORT_NAME})"
    )
    console.print(f"  GitHub Pages limits: {published.summary()}")
    return report


def collect_records(config: SiteConfig) -> LoadResult:
    """Curated content plus every configured source, each input built, merged or rejected.

    Curated records come first; records of the same resource (same normalised
    URL, any collection) then become one (see govsearch_build/estate.py: a
    reviewed record's facts win, then curated and annotated, then sources in order).
    """
    loaded = load_content(config.content_dir, http_allowed_hosts=config.http_allowed_hosts)
    if config.annotations_dir is not None:
        loaded.absorb(
            load_content(config.annotations_dir, http_allowed_hosts=config.http_allowed_hosts, label="annotations/")
        )
    records = loaded.records
    if config.sources:
        from .importers import combine_results

        authority = publisher_authority(config)
        results = []
        for source in config.sources:
            console.print(f"  importing {source.kind} from {source.path}")
            result = import_source(config, source, authority)
            loaded.reject(result.rejected)
            loaded.imports.append(result.report)
            loaded.quality.extend(result.quality)
            results.append(result)
        imported, merged = combine_results(results, loaded.quality, loaded.moved)
        loaded.imports.append(merged)
        records = records + imported
    kept, duplicates = drop_duplicates(finish_estate(records, loaded.quality, loaded.moved))
    loaded.records = kept
    loaded.reject(duplicates)
    loaded.duplicates_after_merge = len(duplicates)
    built = {record.id for record in kept}
    loaded.moved = {old: new for old, new in loaded.moved.items() if old not in built and new in built}
    record_former_ids(kept, loaded.moved)
    return loaded


def import_source(config: SiteConfig, source: Source, authority: PublisherAuthority | None) -> ImportResult:
    """One configured source through its importer, as the build reads it."""
    from .importers import run_import

    return run_import(
        source.kind,
        [source.path],
        collection=source.collection,
        authority=authority,
        revision=source.revision,
        observed=source.observed,
        http_hosts=config.http_allowed_hosts,
    )


def publisher_authority(config: SiteConfig):
    """The GOV.UK organisations list, when a source provides it, names publishers exactly."""
    from .publishers import PublisherAuthority

    for source in config.sources:
        if source.kind == "govuk-organisations":
            files = sorted(source.path.glob("*.json")) if source.path.is_dir() else [source.path]
            if files:
                return PublisherAuthority.from_govuk_json(files[0])
    return None


def _check_sources(config: SiteConfig) -> None:
    """Refuse to build from sources that are absent or not the locked bytes.

    Without this a missing export would only reject its rows, and a
    --keep-going build would publish the curated records alone.
    """
    missing = [source.path for source in config.sources if not source.path.exists()]
    if missing:
        raise BuildFailed(
            f"source {missing[0]} does not exist: put ../shared/data beside the checkout, "
            "or run `make fetch` and build with --sources .cache/sources"
        )
    if config.sources_lock and config.sources_dir:
        from .fetch import FetchError, verify_folder

        try:
            verify_folder(config.sources_lock, config.sources_dir)
        except FetchError as error:
            raise BuildFailed(str(error)) from None


def _published_size(out: Path):
    """The built tree measured against GitHub Pages' limits; a crossed limit fails the build."""
    from .pages_limits import LimitExceeded, check_pages_limits

    try:
        return check_pages_limits(out)
    except LimitExceeded as error:
        raise BuildFailed(str(error)) from None


def _refuse_unsafe_out(config: SiteConfig, out: Path) -> None:
    """Refuse an output folder that is, holds or lies inside our own inputs.

    _prepare() empties `out`; its "is it a previous build?" test alone would
    not stop a build report left in the wrong place from costing the content
    folder or the repository. Checked before anything is read or written.
    """
    target = out.resolve()
    protected = {
        "the repository": PROJECT_ROOT,
        "the content folder": config.content_dir.resolve(),
        **({"the annotations folder": config.annotations_dir.resolve()} if config.annotations_dir else {}),
        "the folder holding the configuration": config.file.resolve().parent,
        **{f"the {source.kind} source": source.path.resolve() for source in config.sources},
    }
    for name, folder in protected.items():
        if target == folder or folder.is_relative_to(target):
            raise BuildFailed(f"--out {out} would replace {name} ({folder}); choose another --out")
    if target.is_relative_to(protected["the content folder"]):
        raise BuildFailed(f"--out {out} is inside the content folder; choose another --out")


def _prepare(out: Path) -> None:
    """Empty the output folder, refusing to wipe anything that is not a previous build."""
    if out.exists() and any(out.iterdir()):
        if not (out / REPORT_NAME).exists() and not (out / DATA_FOLDER / MANIFEST).exists():
            raise BuildFailed(f"{out} is not empty and does not hold a previous build; choose another --out")
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
