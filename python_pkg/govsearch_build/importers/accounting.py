"""What an import reports: every input accounted for, and how its text was cleaned.

Each input ends as exactly one of: built (its primary record), merged into
another as a duplicate, left out with a reason, or rejected. The report
says how many of each, with examples, so nothing disappears silently.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from typing import Any

from ..records import Record, Rejection

EXAMPLES = 5
DUPLICATE_EXAMPLES = 20


class ImportAccount:
    """The counts and examples an import's report is made of."""

    def __init__(self, kind: str):
        self.kind = kind
        self.inputs = 0
        self.rejected: list[Rejection] = []
        self.rejected_inputs: set[str] = set()
        self.left_out: Counter[str] = Counter()
        self.left_out_examples: dict[str, list[str]] = defaultdict(list)
        self.left_out_files: dict[str, list[str]] = defaultdict(list)  # every one, so each is reported
        self.unmapped: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
        self.unmatched: Counter[str] = Counter()
        self.trimmed: Counter[str] = Counter()
        self.extra_merges: list[dict[str, str]] = []

    def input(self, count: int = 1) -> None:
        self.inputs += count

    def reject(self, file: str, field_name: str, reason: str) -> None:
        self.rejected.append(Rejection(file, field_name, reason))
        self.rejected_inputs.add(file)

    def leave_out(self, reason: str, file: str) -> None:
        self.left_out[reason] += 1
        self.left_out_files[reason].append(file)
        if len(self.left_out_examples[reason]) < EXAMPLES:
            self.left_out_examples[reason].append(file)

    def merged_before_build(self, file: str, into: str, why: str) -> None:
        """An input merged into another input before records were made."""
        self.extra_merges.append({"file": file, "into": into, "reason": why})

    def note_unmapped(self, field_name: str, value: Any, file: str) -> None:
        slot = self.unmapped[field_name].setdefault(str(value), {"count": 0, "examples": []})
        slot["count"] += 1
        if len(slot["examples"]) < EXAMPLES:
            slot["examples"].append(file)

    def report(
        self,
        kept: list[Record],
        merged: list[tuple[Record, Record]],
        primary_of: dict[str, bool],
        derived_rejected: int,
    ) -> dict[str, Any]:
        """The report of an import that kept `kept` and merged each duplicate of `merged` into its target."""
        merged_primary = sum(1 for record, _ in merged if primary_of.get(record.file, True))
        examples = [
            {"file": record.file, "into": target.file, "url": record.data["url"], "title": record.data["title"][:120]}
            for record, target in merged[:DUPLICATE_EXAMPLES]
        ]
        examples += self.extra_merges[: DUPLICATE_EXAMPLES - len(examples)]
        built_primary = sum(1 for r in kept if primary_of.get(r.file, True))
        return {
            "kind": self.kind,
            "inputs": self.inputs,
            "built": len(kept),
            "rejected": len(self.rejected_inputs),
            "left_out": dict(sorted(self.left_out.items())),
            "unmapped": {
                name: dict(sorted(values.items(), key=lambda kv: -kv[1]["count"]))
                for name, values in sorted(self.unmapped.items())
            },
            "unmatched_publishers": dict(self.unmatched.most_common()),
            "duplicates_merged": merged_primary + len(self.extra_merges),
            "duplicates": examples,
            # every input is exactly one of: built (primary record), merged, left out, rejected
            "accounting": {
                "inputs": self.inputs,
                "built_primary": built_primary,
                "merged": merged_primary + len(self.extra_merges),
                "left_out": sum(self.left_out.values()),
                "rejected": len(self.rejected_inputs),
            },
            # records made in addition to an input's own record (e.g. documentation pages)
            "derived": {
                "built": len(kept) - built_primary,
                "merged": len(merged) - merged_primary,
                "rejected": derived_rejected,
            },
            "left_out_examples": dict(sorted(self.left_out_examples.items())),
            "left_out_files": dict(sorted(self.left_out_files.items())),
            "trimmed": dict(self.trimmed),
        }


def reason_counts(rejections: list[Rejection]) -> dict[str, int]:
    counts: Counter[str] = Counter()
    for rejection in rejections:
        reason = re.sub(r"'[^']*'|\"[^\"]*\"|\bon \S+|\d+", "…", rejection.reason)
        counts[f"{rejection.field}: {reason}"] += 1
    return dict(counts.most_common())
