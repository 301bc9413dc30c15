"""`build.py fetch` against a mirror of ../shared/data on 127.0.0.1 (no internet).

The mirror serves the upstream form of every locked file (the gzipped shards
of ../shared/data decompressed), plus a few misbehaving routes: /tamper/
changes one byte of a file, /stall/ answers nothing, /stall-body/ sends the
headers and half the body, then nothing. The full-estate test builds the data
files from the fetched cache and from ../shared/data and compares them byte
for byte: it reads and indexes the whole estate twice, minutes of CPU time
in one process (see `pytest --durations`).
"""

from __future__ import annotations

import gzip
import json
import re
import shutil
import threading
import time
import tomllib
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from govsearch_build.fetch import FetchError, fetch, load_lock, verify_folder
from needs import need

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"
LOCK = REPO / "site" / "sources.lock.toml"

pytestmark = pytest.mark.shared_data


@pytest.fixture(scope="module")
def shared_data() -> Path:
    need(SHARED_DATA.is_dir(), "../shared/data (the real exports)")
    return SHARED_DATA


@pytest.fixture(scope="module")
def mirror_dir(shared_data, tmp_path_factory) -> Path:
    """A copy of ../shared/data in the upstream form the lock hashes."""
    root = tmp_path_factory.mktemp("mirror")
    for item in load_lock(LOCK):
        source = SHARED_DATA / item.local
        target = root / item.source / item.file
        target.parent.mkdir(parents=True, exist_ok=True)
        if item.gzip:
            target.write_bytes(gzip.decompress(source.read_bytes()))
        else:
            shutil.copyfile(source, target)
    return root


class MirrorHandler(SimpleHTTPRequestHandler):
    requests: list[str]
    release: threading.Event

    def log_message(self, *args) -> None:  # keep the test output clean
        pass

    def do_GET(self) -> None:
        self.requests.append(self.path)
        if self.path.startswith("/stall/"):
            self.release.wait(30)
            return
        if self.path.startswith("/tamper/") or self.path.startswith("/stall-body/"):
            prefix, _, rest = self.path[1:].partition("/")
            body = (Path(self.directory) / rest).read_bytes()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if prefix == "tamper":
                self.wfile.write(body[:100] + bytes([body[100] ^ 1]) + body[101:])
            else:
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                self.release.wait(30)
            return
        super().do_GET()


@pytest.fixture(scope="module")
def mirror(mirror_dir):
    """(base URL, list of requested paths) of a mirror server on 127.0.0.1."""
    handler = type("Handler", (MirrorHandler,), {"requests": [], "release": threading.Event()})
    server = ThreadingHTTPServer(("127.0.0.1", 0), lambda *a: handler(*a, directory=str(mirror_dir)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", handler.requests
    handler.release.set()
    server.shutdown()
    server.server_close()


def small_lock(tmp_path: Path, name: str = "api-catalogue") -> Path:
    """A lock of one source of the real lock (a few files), for the fast tests."""
    source = next(s for s in tomllib.loads(LOCK.read_text("utf-8"))["sources"] if s["name"] == name)
    lines = ["[[sources]]", f'name = "{name}"', f"gzip = {str(source.get('gzip', False)).lower()}", "files = ["]
    for entry in source["files"]:
        fields = ", ".join(f"{key} = {json.dumps(entry[key])}" for key in ("file", "path", "size", "sha256", "url"))
        lines.append(f"  {{ {fields} }},")
    path = tmp_path / "lock.toml"
    path.write_text("\n".join(lines + ["]"]) + "\n", "utf-8")
    return path


def test_full_estate_from_the_fetched_cache_equals_the_shared_data(mirror, full_estate, tmp_path):
    from govsearch_build.config import load_config
    from govsearch_build.data_writer import write_data
    from govsearch_build.pipeline import collect_records

    base, requests = mirror
    cache = tmp_path / "cache"
    summary = fetch(LOCK, cache, mirror=base, timeout=10, progress=False)
    assert summary.downloaded == len(load_lock(LOCK)) and summary.cached == 0
    verify_folder(LOCK, cache)  # what the build checks before it reads
    assert not list(cache.rglob(".fetch-*"))

    again = len(requests)
    second = fetch(LOCK, cache, mirror=base, timeout=10, progress=False)
    assert (second.downloaded, second.cached) == (0, summary.downloaded)
    assert len(requests) == again, "a second fetch must download nothing"

    manifests = {}
    from_cache = load_config(REPO / "site" / "full-estate.toml", cache)
    shared_config, from_shared = full_estate  # tests/conftest.py: ../shared/data read once per session
    for name, config, loaded in (
        ("cache", from_cache, collect_records(from_cache)),
        ("shared", shared_config, from_shared),
    ):
        write_data(config, loaded.records, tmp_path / name / "data")
        manifests[name] = (tmp_path / name / "data" / "manifest.json").read_bytes()
    assert json.loads(manifests["cache"])["records"] > 10_000  # one record per resource: 11,780 on 2026-11-30
    assert manifests["cache"] == manifests["shared"]


def test_a_tampered_file_is_refused_naming_it_and_nothing_is_kept(mirror, tmp_path):
    base, _ = mirror
    lock = small_lock(tmp_path)
    cache = tmp_path / "cache"
    with pytest.raises(FetchError) as refused:
        fetch(lock, cache, mirror=base + "/tamper", timeout=5, attempts=2, backoff=0.05, workers=1, progress=False)
    message = str(refused.value)
    assert "api-catalogue/catalogue.csv" in message and f"{base}/tamper/api-catalogue/catalogue.csv" in message
    assert "sha256" in message
    assert not (cache / "api-catalogue" / "catalogue.csv").exists()
    assert not list(cache.rglob(".fetch-*"))


def test_a_changed_cached_file_is_downloaded_again(mirror, tmp_path):
    base, _ = mirror
    lock = small_lock(tmp_path)
    cache = tmp_path / "cache"
    fetch(lock, cache, mirror=base, progress=False)
    cached = cache / "api-catalogue" / "organisation.csv"
    cached.write_bytes(cached.read_bytes() + b"x")
    summary = fetch(lock, cache, mirror=base, progress=False)
    assert (summary.downloaded, summary.cached) == (1, 2)
    verify_folder(lock, cache)


def test_a_missing_file_stops_with_the_404_at_once(mirror, tmp_path):
    base, _ = mirror
    started = time.monotonic()
    with pytest.raises(FetchError) as refused:
        fetch(
            small_lock(tmp_path),
            tmp_path / "cache",
            mirror=base + "/nowhere",
            timeout=5,
            attempts=4,
            backoff=1,
            progress=False,
        )
    assert time.monotonic() - started < 5, "a 404 is not worth retrying"
    assert "HTTP 404" in str(refused.value) and f"{base}/nowhere/api-catalogue/" in str(refused.value)
    assert not list((tmp_path / "cache").rglob("*.csv"))


@pytest.mark.parametrize("route", ["stall", "stall-body"])
def test_a_stalled_server_ends_with_a_timeout_error(mirror, tmp_path, route):
    base, _ = mirror
    started = time.monotonic()
    with pytest.raises(FetchError) as refused:
        fetch(
            small_lock(tmp_path),
            tmp_path / "cache",
            mirror=f"{base}/{route}",
            timeout=1,
            attempts=2,
            backoff=0.1,
            progress=False,
        )
    elapsed = time.monotonic() - started
    # two attempts of one second each and one back-off, with room for a loaded machine
    assert elapsed < 6, elapsed
    message = str(refused.value)
    assert "timed out" in message and "gave up after 2 attempts" in message and "api-catalogue/" in message
    assert not list((tmp_path / "cache").rglob("*.csv")) and not list((tmp_path / "cache").rglob(".fetch-*"))


def test_the_build_refuses_a_sources_folder_that_is_not_the_locked_bytes(mirror_dir, tmp_path):
    folder = tmp_path / "sources"
    shutil.copytree(mirror_dir / "api-catalogue", folder / "api-catalogue")
    lock = small_lock(tmp_path)
    verify_folder(lock, folder)
    (folder / "api-catalogue" / "organisation.csv").write_text("name\n", "utf-8")
    with pytest.raises(FetchError, match="api-catalogue/organisation.csv"):
        verify_folder(lock, folder)


def test_the_lock_pins_every_export_the_full_estate_reads(shared_data):
    from govsearch_build.config import load_config

    lock = tomllib.loads(LOCK.read_text("utf-8"))
    for source in lock["sources"]:
        commit = source["commit"]
        assert source["repository"].count("/") == 1 and source["licence"] and source["commit_note"], source["name"]
        assert re.fullmatch(r"[0-9a-f]{40}", commit) and source["commit_resolved"] is True, source["name"]
        assert all(f"/{source['repository']}/{commit}/{entry['path']}" in entry["url"] for entry in source["files"])
    locked = {item.local for item in load_lock(LOCK)}
    shared = {
        str(path.relative_to(SHARED_DATA))
        for path in SHARED_DATA.rglob("*")
        if path.is_file() and path.name != "SOURCES.md"
    }
    assert locked == shared
    config = load_config(REPO / "site" / "full-estate.toml")
    for source in config.sources:
        assert any(str((SHARED_DATA / local).resolve()).startswith(str(source.path)) for local in locked), source.path
