"""Browse pages split into numbered pages: collections/<id>/, collections/<id>/page-2/, ..."""

from __future__ import annotations

from typing import Any

# Browse pages list at most this many records each: collections/<id>/,
# collections/<id>/page-2/, ... so no page lists tens of thousands of records.
RECORDS_PER_PAGE = 100


def page_numbers(current: int, pages: int) -> list[int | None]:
    """The page links to show: the first, the last and the current page with its
    neighbours; None marks a gap (shown as an ellipsis)."""
    wanted = sorted({1, pages, current - 1, current, current + 1} & set(range(1, pages + 1)))
    shown: list[int | None] = []
    for number in wanted:
        if shown and number - shown[-1] == 2:  # a gap of one page: show it rather than an ellipsis
            shown.append(number - 1)
        elif shown and number - shown[-1] > 2:
            shown.append(None)
        shown.append(number)
    return shown


def page_path(base: str, number: int) -> str:
    """The path of page `number` of a browse page whose first page is `base`."""
    return base if number == 1 else f"{base}page-{number}/"


def pages_of(records: tuple[Any, ...], base: str, size: int) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
    """A browse page's records `size` to a page: (the page's records, its
    pagination: number, pages, the first and last record shown, links)."""
    pages = max(1, -(-len(records) // size))
    split = []
    for number in range(1, pages + 1):
        start = (number - 1) * size
        page_records = records[start : start + size]
        pagination = {
            "number": number,
            "pages": pages,
            "first": start + 1,
            "last": start + len(page_records),
            "previous": page_path(base, number - 1) if number > 1 else None,
            "next": page_path(base, number + 1) if number < pages else None,
            "links": [(n, page_path(base, n) if n else None) for n in page_numbers(number, pages)],
        }
        split.append((page_records, pagination))
    return split
