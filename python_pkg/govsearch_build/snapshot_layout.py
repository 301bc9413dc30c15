"""The memory snapshot's stored layout, defined once.

Half of Pyodide's memory is zero pages in a few long runs, and a repeat visit
spends its time decompressing, so the build stores only the other pages.
`SNAPSHOT_LAYOUT.pack` writes that layout; `describe()` is written into the
lock file's snapshot entry (`govsearch_snapshot.layout`), which is what the
worker (site/static/js/worker/snapshot.js) and the tests read it from.

The layout: `magic`, then words (little-endian u32): the `header` fields in
order, then for each stored run its `run` fields; then the runs' bytes in
order. Every page no run covers is zero.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class SnapshotLayout:
    magic: bytes
    page_bytes: int
    header: tuple[str, ...] = ("memory_bytes", "page_bytes", "runs")
    run: tuple[str, ...] = ("first_page", "pages")
    word: str = "u32le"  # the only word the worker reads

    def describe(self) -> dict:
        """The layout as JSON for the lock file: what the worker unpacks by."""
        return {
            "magic": self.magic.decode("ascii"),
            "word": self.word,
            "header": list(self.header),
            "run": list(self.run),
        }

    def pack(self, memory: bytes) -> bytes:
        """`memory` stored without its zero pages."""
        page_bytes = self.page_bytes
        runs: list[tuple[int, int]] = []
        for page in range(0, -(-len(memory) // page_bytes)):
            chunk = memory[page * page_bytes : (page + 1) * page_bytes]
            if chunk.count(0) == len(chunk):
                continue
            if runs and runs[-1][0] + runs[-1][1] == page:
                runs[-1] = (runs[-1][0], runs[-1][1] + 1)
            else:
                runs.append((page, 1))
        values = {"memory_bytes": len(memory), "page_bytes": page_bytes, "runs": len(runs)}
        header = _words(values[name] for name in self.header)
        for first, count in runs:
            fields = {"first_page": first, "pages": count}
            header += _words(fields[name] for name in self.run)
        stored = (memory[first * page_bytes : (first + count) * page_bytes] for first, count in runs)
        return self.magic + header + b"".join(stored)


def _words(values: Iterable[int]) -> bytes:
    return b"".join(struct.pack("<I", value) for value in values)


SNAPSHOT_LAYOUT = SnapshotLayout(magic=b"GSNAP1\0\0", page_bytes=4096)
