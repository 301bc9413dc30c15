"""Run one build step in this (fresh) process and print its cost as JSON.

    python bench/measure_build.py ours-build SITE_TOML OUT
    python bench/measure_build.py ours-index SITE_TOML OUT
    python bench/measure_build.py ours-index-single SITE_TOML OUT   (the one-file index lunr.js loads)
    python bench/measure_build.py pagefind RECORDS_JSONL OUT
    python bench/measure_build.py pagefind-as-shipped RECORDS_JSONL OUT   (keeps the wrapper's 0.1 s poll delay)

Wall time is measured around the step only (imports excluded). Peak memory
is this process's VmHWM and, separately, its children's: the Pagefind
service's own VmHWM, or ru_maxrss of waited-for children (sass under our
build). bench/run.py reports their sum as an upper bound of the step's peak
resident memory.
"""

from __future__ import annotations

import asyncio
import json
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python_pkg"))


def ours_build(config_path: Path, out: Path) -> dict:
    from govsearch_build.config import load_config
    from govsearch_build.pipeline import build

    config = load_config(config_path)
    started = time.perf_counter()
    report = build(config, out)
    return {"wall_s": time.perf_counter() - started, "records": report["records"]}


def ours_index(config_path: Path, out: Path, layout: str | None = None) -> dict:
    """Read and check the records, then write the data files only (index, record store, facets).

    layout None is what the site build chooses ("auto"); "single" writes the
    one-file lunr 2.3.9 index that lunr.js loads."""
    from govsearch_build.config import load_config
    from govsearch_build.data_writer import write_data
    from govsearch_build.records import load_content

    config = load_config(config_path)
    started = time.perf_counter()
    loaded = load_content(config.content_dir, http_allowed_hosts=config.http_allowed_hosts)
    read_s = time.perf_counter() - started
    manifest = write_data(config, loaded.records, out, layout=layout)
    return {
        "wall_s": time.perf_counter() - started,
        "read_s": read_s,
        "records": len(loaded.records),
        "layout": manifest.get("layout"),
        "files": manifest["files"],
    }


def pagefind_record(item: dict) -> dict:
    """One Pagefind custom record: the same text fields our index has, and the same filters."""
    data, body = item["data"], item["body"]
    content = "\n".join(
        part
        for part in (data["title"], data["summary"], data["publisher"], " ".join(data.get("keywords", [])), body)
        if part
    )
    return {
        "url": f"/records/{data['id']}/",
        "content": content,
        "language": "en",
        "meta": {"title": data["title"], "summary": data["summary"], "publisher": data["publisher"], "id": data["id"]},
        "filters": {
            "collection": [data["collection"]],
            "resourceType": [data["resourceType"]],
            "accessStatus": [data["accessStatus"]],
            "publisher": [data["publisher"]],
        },
    }


def _unthrottle_pagefind() -> None:
    """pagefind 1.5.2's Python service sleeps 0.1 s before reading each response
    (pagefind/service/__init__.py, _wait_for_responses), which caps it at ten
    records a second whatever the indexer does. Give that module an asyncio whose
    sleep yields without waiting; nothing else changes."""
    import types

    import pagefind.service as service

    real_sleep = asyncio.sleep
    shim = types.ModuleType("asyncio_no_poll_delay")
    shim.__dict__.update(vars(asyncio))
    shim.sleep = lambda delay, *args, **kwargs: real_sleep(0, *args, **kwargs)
    service.asyncio = shim


def peak_rss_kb(pid: int | str = "self") -> int:
    """VmHWM: the peak resident set of a process's current image (reset by exec, unlike ru_maxrss)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


async def _pagefind(items: list[dict], out: Path) -> int:
    """Index and write; returns the Pagefind service's peak RSS (kB), read before it exits."""
    from pagefind.index import IndexConfig, PagefindIndex

    index = PagefindIndex(IndexConfig(output_path=str(out), force_language="en"))
    await index.__aenter__()  # starts the service; closed below without __aexit__'s second write
    try:
        batch = 256
        for start in range(0, len(items), batch):
            await asyncio.gather(
                *(index.add_custom_record(**pagefind_record(item)) for item in items[start : start + batch])
            )
        await index.write_files()
        return peak_rss_kb(index._service._backend.pid)
    finally:
        await index._service.close()


def pagefind_build(records_jsonl: Path, out: Path, *, as_shipped: bool = False) -> dict:
    if not as_shipped:
        _unthrottle_pagefind()
    items = [json.loads(line) for line in records_jsonl.read_text("utf-8").splitlines() if line.strip()]
    started = time.perf_counter()
    service_peak = asyncio.run(_pagefind(items, out))
    return {
        "wall_s": time.perf_counter() - started,
        "records": len(items),
        "poll_delay_removed": not as_shipped,
        "service_peak_kb": service_peak,
    }


def main() -> None:
    mode, source, out = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    steps = {
        "ours-build": ours_build,
        "ours-index": ours_index,
        "pagefind": pagefind_build,
        "pagefind-as-shipped": lambda s, o: pagefind_build(s, o, as_shipped=True),
        "ours-index-single": lambda s, o: ours_index(s, o, layout="single"),
    }
    result = steps[mode](source, out)
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    result.update(
        {
            "mode": mode,
            # ru_maxrss survives exec on Linux (it would report the parent's size), so the
            # process's own peak is VmHWM; children's ru_maxrss is an upper bound (it can
            # include this process's size at fork). Pagefind's service peak is read
            # from its own VmHWM instead.
            "maxrss_self_kb": peak_rss_kb(),
            "maxrss_children_kb": result.get("service_peak_kb", children.ru_maxrss),
            "cpu_s": own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime,
        }
    )
    print("BENCH-RESULT " + json.dumps(result))


if __name__ == "__main__":
    main()
