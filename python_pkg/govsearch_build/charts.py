"""A collection's composition as chart rows: its resource types, access
statuses and top publishers, each row linking to the page of that value."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from .labels import ACCESS_STATUSES, RESOURCE_TYPES

TOP_PUBLISHERS = 10


def composition(
    records: Iterable[dict[str, Any]], field: str, labels: dict[str, str] | None = None, top: int | None = None
) -> list[dict[str, Any]]:
    """Counts of one field's values as chart rows: label, count, percent."""
    records = list(records)
    counts = Counter(record[field] for record in records)
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    total = len(records) or 1
    if top is not None and len(rows) > top:
        rest = sum(count for _, count in rows[top:])
        rows = rows[:top] + [("", rest)]
    biggest = max((count for _, count in rows), default=1) or 1
    return [
        {
            "token": token,
            "label": (labels or {}).get(token, token) if token else "All other publishers",
            "count": count,
            "share": round(100 * count / total),
            "bar": round(100 * count / biggest, 1),
        }
        for token, count in rows
    ]


def collection_charts(records: tuple[dict[str, Any], ...], publisher_slug: dict[str, str]) -> list[dict[str, Any]]:
    """A collection's composition; each row links to the page listing that value's records."""
    charts = [
        {
            "id": "types",
            "caption": "Resource types",
            "column": "Resource type",
            "rows": composition(records, "resourceType", RESOURCE_TYPES),
        },
        {
            "id": "access",
            "caption": "Access statuses",
            "column": "Access status",
            "rows": composition(records, "accessStatus", ACCESS_STATUSES),
        },
        {
            "id": "publishers",
            "caption": "Top publishers",
            "column": "Publisher",
            "rows": composition(records, "publisher", top=TOP_PUBLISHERS),
        },
    ]
    paths = {
        "types": lambda token: f"types/{token}/",
        "access": lambda token: f"access/{token}/",
        "publishers": lambda token: f"publishers/{publisher_slug[token]}/",
    }
    for chart in charts:
        for row in chart["rows"]:
            row["href"] = paths[chart["id"]](row["token"]) if row["token"] else None
    return charts
