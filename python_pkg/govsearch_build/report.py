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
        "records": {"built": len(data), "rejected": len(loaded.rejected_files)},
        "by_collection": _counts(d["collection"] for d in data),
        "by_resource_type": _counts(d["resourceType"] for d in data),
        "by_access_status": _counts(d["accessStatus"] for d in data),
        "publishers": _counts(d["publisher"] for d in data),
        "rejected_records": [problem.as_dict() for problem in loaded.rejected],
        "imports": loaded.imports,
    }
