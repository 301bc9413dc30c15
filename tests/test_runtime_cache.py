"""Builds running at once in one checkout share its runtime cache (.cache/wheels):
`make build-full` beside `make check` once failed when one build unlinked the
memory snapshot the other was still packing. Each now makes it under a name
of its own and moves it into place whole."""

import threading
import time
from pathlib import Path

from govsearch_build import runtime


def test_builds_at_once_each_publish_the_whole_snapshot_and_leave_one_in_the_cache(tmp_path, monkeypatch):
    stdlib = tmp_path / "python_stdlib.zip"
    stdlib.write_bytes(b"stdlib")
    wheel = tmp_path / "lunr-0.8.0-py3-none-any.whl"
    wheel.write_bytes(b"wheel")
    sites = [tmp_path / f"site-{n}" for n in range(2)]
    for site in sites:
        site.mkdir()
        (site / "pyodide.asm.wasm").write_bytes(b"wasm")
    together = threading.Barrier(len(sites))

    def snapshot_in_node(script: str, out_dir: str, stdlib: str, raw: str, *rest: str) -> None:
        together.wait(timeout=30)  # both builds find no snapshot cached and make one
        Path(raw).write_bytes(bytes(range(256)) * 256)
        time.sleep(0.1)  # the other build finishes meanwhile

    monkeypatch.setattr(runtime, "_node", snapshot_in_node)
    cache = tmp_path / "cache"
    entries: list = [None] * len(sites)
    errors: list = []

    def build(n: int) -> None:
        try:
            entries[n] = runtime._publish_snapshot(sites[n], stdlib, [wheel], cache)
        except Exception as error:  # noqa: BLE001 (the test reports what a build raised)
            errors.append(error)

    threads = [threading.Thread(target=build, args=(n,)) for n in range(len(sites))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors and all(entries)
    assert entries[0]["sha256"] == entries[1]["sha256"]
    assert all((site / entry["file_name"]).stat().st_size == entry["size"] for site, entry in zip(sites, entries))
    names = [path.name for path in cache.iterdir()]  # the packed snapshot, and no build's leftovers
    assert len(names) == 1 and names[0].startswith("snapshot-") and names[0].endswith(".bin.gz")
