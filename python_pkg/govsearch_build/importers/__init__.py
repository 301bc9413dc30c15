"""Importers: turn real public exports into catalogue records.

```python
from govsearch_build.importers import KINDS, run_import, ImportResult
result = run_import("api-catalogue", [Path("../shared/data/api-catalogue")])
```

Each kind is its own module with its mapping table in the module docstring
(and in docs/importers.md). Every input ends up built, merged as a duplicate
(reported), left out with a reason (counted) or rejected (file, field,
reason); `result.report` accounts for all of them.
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


def run_import(kind: str, paths: list[Path], *, collection: str | None = None,
               authority: PublisherAuthority | None = None,
               revision: str | None = None, observed: str | None = None,
               http_hosts: Iterable[str] = ()) -> ImportResult:
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
    builder = ImportBuilder(kind, authority=authority, collection=collection, revision=revision, observed=observed, http_hosts=http_hosts)
    module.import_paths([Path(p) for p in paths], builder)
    return builder.finish()


def combine_results(results: Iterable[ImportResult]) -> tuple[list[Record], dict]:
    """Records of several imports with cross-source duplicates merged.

    Two sources can describe the same resource (the API catalogue and the
    OKF search shards both list the catalogue's APIs). The first import's
    record is kept and the later one merged into it; the count and examples
    are returned so nothing disappears silently.
    """
    kept, merged = merge_duplicates(record for result in results for record in result.records)
    by_kind = Counter(f"{record.data['source']['kind']} into {target.data['source']['kind']}" for record, target in merged)
    examples = [{"file": record.file, "into": target.file, "url": record.data["url"]} for record, target in merged[:20]]
    return kept, {"cross_source_merged": len(merged), "by_kind": dict(by_kind), "examples": examples}
