"""The build report: what was built, what was rejected and why."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .records import LoadResult


def _counts(values) -> dict[str, int]:
    return dict(sorted(Counter(values).items(), key=lambda item: (-item[1], item[0])))


def build_report(loaded: LoadResult) -> dict[str, Any]:
    """Counts by dimension, and every rejected input with its file, field and reason."""
    data = [record.data for record in loaded.records]
    return {
        "records": {
            "built": len(data),
            "rejected": len(loaded.rejected_files),
            "merged_same_resource": loaded.quality.counts.get("same-resource-merged", {}).get("merged", 0),
        },
        # a record of one resource in several collections counts in each
        "by_collection": _counts(c for d in data for c in d.get("collections", [d["collection"]])),
        "by_resource_type": _counts(d["resourceType"] for d in data),
        "by_access_status": _counts(d["accessStatus"] for d in data),
        "publishers": _counts(d["publisher"] for d in data),
        "rejected_records": [problem.as_dict() for problem in loaded.rejected],
        "imports": loaded.imports,
        # per data-quality rule: what it changed, merged or rejected, with examples
        "quality": loaded.quality.as_dict(),
    }
