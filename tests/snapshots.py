"""Reading a stored memory snapshot by the layout the lock file describes,
as the worker does (site/static/js/worker/snapshot.js), for the tests."""

from __future__ import annotations

import struct


def read_snapshot(stored: bytes, layout: dict) -> tuple[dict, list[dict], bytes]:
    """The header's fields, each run's fields and the whole memory; fails
    loudly when the bytes are not in `layout` or do not add up."""
    assert layout["word"] == "u32le", layout
    magic = layout["magic"].encode("ascii")
    assert stored[: len(magic)] == magic, stored[: len(magic)]
    offset = len(magic)

    def fields(names: list[str]) -> dict:
        nonlocal offset
        values = struct.unpack_from(f"<{len(names)}I", stored, offset)
        offset += 4 * len(names)
        return dict(zip(names, values, strict=True))

    header = fields(layout["header"])
    runs = [fields(layout["run"]) for _ in range(header["runs"])]
    memory = bytearray(header["memory_bytes"])
    page = header["page_bytes"]
    for run in runs:
        start = run["first_page"] * page
        length = min(run["pages"] * page, header["memory_bytes"] - start)
        memory[start : start + length] = stored[offset : offset + length]
        offset += length
    assert offset == len(stored), "the runs do not add up to the stored length"
    return header, runs, bytes(memory)
