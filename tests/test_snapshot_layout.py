"""The memory snapshot's layout is defined once (govsearch_build/snapshot_layout.py)
and travels in the lock file: what the build packs, the worker's own unpacking
code (run by node) and the tests' reader give back byte for byte."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from govsearch_build.snapshot_layout import SNAPSHOT_LAYOUT
from needs import need
from snapshots import read_snapshot

REPO = Path(__file__).resolve().parents[1]
WORKER_SNAPSHOT = REPO / "site" / "static" / "js" / "worker" / "snapshot.js"
PAGE = SNAPSHOT_LAYOUT.page_bytes

# Zero pages at the start, between runs and at the end, a run of two pages,
# a page with one non-zero byte, and a last page cut short.
MEMORY = bytes(2 * PAGE) + b"\x01" * (2 * PAGE) + bytes(3 * PAGE) + bytes(PAGE - 1) + b"\x07" + bytes(PAGE) + b"tail"

UNPACK = """
import { readFileSync, writeFileSync } from "node:fs";
const [module, stored, layout, out] = process.argv.slice(1);
const { unpackSnapshot } = await import(module);
const bytes = readFileSync(stored);
const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
writeFileSync(out, unpackSnapshot(buffer, JSON.parse(readFileSync(layout, "utf-8"))));
"""


def test_the_stored_snapshot_leaves_out_zero_pages_and_reads_back_whole():
    stored = SNAPSHOT_LAYOUT.pack(MEMORY)
    header, runs, memory = read_snapshot(stored, SNAPSHOT_LAYOUT.describe())
    assert memory == MEMORY
    assert [(run["first_page"], run["pages"]) for run in runs] == [(2, 2), (7, 1), (9, 1)]
    assert header == {"memory_bytes": len(MEMORY), "page_bytes": PAGE, "runs": 3}


def test_the_worker_unpacks_what_the_build_packs_by_the_described_layout(tmp_path: Path):
    need(shutil.which("node") is not None, "node")
    stored, layout, out = tmp_path / "stored.bin", tmp_path / "layout.json", tmp_path / "memory.bin"
    stored.write_bytes(SNAPSHOT_LAYOUT.pack(MEMORY))
    layout.write_text(json.dumps(SNAPSHOT_LAYOUT.describe()), "utf-8")
    command = [
        "node",
        "--input-type=module",
        "-e",
        UNPACK,
        WORKER_SNAPSHOT.as_uri(),
        str(stored),
        str(layout),
        str(out),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == MEMORY
    # A layout naming other magic bytes is refused, not misread.
    layout.write_text(json.dumps({**SNAPSHOT_LAYOUT.describe(), "magic": "OTHER\0\0\0"}), "utf-8")
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode != 0 and "not in the layout this page reads" in done.stderr
