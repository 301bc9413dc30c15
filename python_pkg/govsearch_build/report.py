"""The build report: what was built, what was rejected and why."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .estate import ESTATE_LEFT_OUT, ESTATE_MERGES
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
        "totals": totals(loaded),
        "links": links_accounted(loaded),
        "by_collection": _counts(c for d in data for c in d.get("collections", [d["collection"]])),
        "by_resource_type": _counts(d["resourceType"] for d in data),
        "by_access_status": _counts(d["accessStatus"] for d in data),
        "publishers": _counts(d["publisher"] for d in data),
        "rejected_records": [problem.as_dict() for problem in loaded.rejected],
        "imports": loaded.imports,
        # per data-quality rule: what it changed, merged or rejected, with examples
        "quality": loaded.quality.as_dict(),
    }


def totals(loaded: LoadResult) -> dict[str, Any]:
    """Every input, curated or imported, from input to record: the records built plus
    everything merged, left out or rejected on the way (with the records some inputs
    add, API documentation pages) add up to the inputs; `reconciles` says they do."""
    imports = [report for report in loaded.imports if "accounting" in report]
    counted = loaded.quality.counts

    def summed(name: str) -> int:
        return sum(report["accounting"][name] for report in imports)

    parts = {
        "curated_inputs": loaded.curated_inputs,
        "annotated_inputs": loaded.annotated_inputs,
        "imported_inputs": summed("inputs"),
        "derived_records": sum(report["derived"]["built"] for report in imports),
        "built": len(loaded.records),
        "curated_rejected": loaded.curated_inputs - loaded.curated_built,
        "annotated_rejected": loaded.annotated_inputs - loaded.annotated_built,
        "merged_within_a_source": summed("merged"),
        "merged_across_sources": sum(report.get("cross_source_merged", 0) for report in loaded.imports),
        "merged_one_resource": sum(counted.get(rule, {}).get("merged", 0) for rule in ESTATE_MERGES),
        "left_out": summed("left_out") + counted.get("test-record-left-out", {}).get(ESTATE_LEFT_OUT, 0),
        "rejected": summed("rejected"),
        "duplicates_after_merge": loaded.duplicates_after_merge,
    }
    given_names = ("curated_inputs", "annotated_inputs", "imported_inputs", "derived_records")
    given = sum(parts[name] for name in given_names)
    accounted = sum(value for name, value in parts.items() if name not in given_names)
    inputs = parts["curated_inputs"] + parts["annotated_inputs"] + parts["imported_inputs"]
    return {"inputs": inputs, **parts, "reconciles": given == accounted}


def links_accounted(loaded: LoadResult) -> dict[str, Any]:
    """The links of folded rows: how many were kept (plain-http ones flagged), and
    how many dropped, by reason (one address listed once is counted under `links-labelled`)."""
    actions = loaded.quality.counts.get("links-accounted", {})
    kept = {action: count for action, count in actions.items() if action.startswith("kept")}
    dropped = {
        action.removeprefix("dropped: "): count for action, count in actions.items() if action.startswith("dropped")
    }
    return {
        "kept": sum(kept.values()),
        "kept_by_kind": kept,
        "dropped": sum(dropped.values()),
        "dropped_by_reason": dropped,
    }
