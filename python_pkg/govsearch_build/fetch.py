"""`build.py fetch`: download every locked source export into a local cache.

The Pages build has no ../shared/data; it reads the exports from a cache this
module fills from `site/sources.lock.toml`. Every file is checked against the
size and sha256 the lock pins before it is kept, and written through a
temporary file renamed into place, so the cache only ever holds verified
files: an interrupted or refused download leaves nothing behind. The cache has
the layout (and names) of ../shared/data, so the importers read either folder
the same way and the built data files are byte-identical.

    python build.py fetch [--lock site/sources.lock.toml] [--cache .cache/sources]
                          [--mirror BASE] [--timeout 30] [--attempts 4]
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import http.client
import os
import tempfile
import threading
import time
import tomllib
import urllib.error
import urllib.parse
import urllib.request
import zlib
from collections.abc import Callable
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_LOCK = PROJECT_ROOT / "site" / "sources.lock.toml"
DEFAULT_CACHE = PROJECT_ROOT / ".cache" / "sources"
CHUNK = 1 << 16
# Worth another attempt: the server or the path to it may recover.
RETRYABLE_STATUS = {408, 425, 429, 500, 502, 503, 504}


class FetchError(Exception):
    """A source could not be fetched or verified; the message names file, URL and reason."""


@dataclass(frozen=True)
class LockedFile:
    source: str  # folder under the cache (and ../shared/data)
    file: str  # path inside that folder, as upstream names it
    url: str  # the upstream download URL at the pinned commit
    size: int
    sha256: str
    gzip: bool = False  # stored as <file>.gz, as the importers read it

    @property
    def local(self) -> str:
        """Where the file lives in the cache, relative to it."""
        return f"{self.source}/{self.file}" + (".gz" if self.gzip else "")

    def url_from(self, mirror: str | None) -> str:
        """The upstream URL, or the same file under a mirror's base URL."""
        if not mirror:
            return self.url
        return mirror.rstrip("/") + "/" + urllib.parse.quote(f"{self.source}/{self.file}")


@dataclass(frozen=True)
class FetchSummary:
    downloaded: int
    cached: int
    bytes_downloaded: int
    seconds: float


def load_lock(path: Path) -> list[LockedFile]:
    """Every file of the lock, checked for the fields a fetch relies on."""
    try:
        raw = tomllib.loads(Path(path).read_text("utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise FetchError(f"{path}: cannot read the sources lock: {error}") from None
    files: list[LockedFile] = []
    for number, source in enumerate(raw.get("sources", []), 1):
        for entry in source.get("files", []):
            try:
                item = LockedFile(
                    source=source["name"],
                    file=entry["file"],
                    url=entry["url"],
                    size=int(entry["size"]),
                    sha256=entry["sha256"].lower(),
                    gzip=bool(source.get("gzip", False)),
                )
            except (KeyError, TypeError, ValueError, AttributeError):
                raise FetchError(f"{path}: [[sources]] #{number}: each file needs file, url, size and sha256") from None
            if len(item.sha256) != 64 or ".." in Path(item.local).parts or Path(item.local).is_absolute():
                raise FetchError(f"{path}: {item.local}: bad sha256 or path")
            files.append(item)
    if not files:
        raise FetchError(f"{path}: the sources lock lists no files")
    return files


def upstream_bytes(path: Path, gzipped: bool) -> bytes:
    """A stored file's upstream form (a `.gz` copy is decompressed)."""
    data = path.read_bytes()
    return gzip.decompress(data) if gzipped else data


def is_verified(item: LockedFile, folder: Path) -> bool:
    """True when `folder` holds this file with the locked size and sha256."""
    path = folder / item.local
    try:
        data = upstream_bytes(path, item.gzip)
    except (OSError, EOFError, zlib.error):
        return False
    return len(data) == item.size and hashlib.sha256(data).hexdigest() == item.sha256


def verify_folder(lock: Path, folder: Path) -> None:
    """Refuse a sources folder (../shared/data or the cache) that does not hold the locked bytes."""
    wrong = [item.local for item in load_lock(lock) if not is_verified(item, folder)]
    if wrong:
        listed = ", ".join(wrong[:5]) + (f" and {len(wrong) - 5} more" if len(wrong) > 5 else "")
        raise FetchError(
            f"{folder} does not hold the locked bytes of {listed} "
            f"(missing or changed; see {lock}); run `make fetch` or pass --sources"
        )


def fetch(
    lock: Path = DEFAULT_LOCK,
    cache: Path = DEFAULT_CACHE,
    *,
    mirror: str | None = None,
    timeout: float = 30.0,
    attempts: int = 4,
    backoff: float = 1.0,
    workers: int = 6,
    progress: bool = True,
) -> FetchSummary:
    """Make `cache` hold every locked file, downloading only those not already verified there.

    Stops at the first file that cannot be fetched or verified (after the
    other downloads under way have finished or failed), naming file, URL and
    reason; files verified before then stay, so a second run resumes.
    """
    started = time.monotonic()
    items = load_lock(lock)
    cache = Path(cache)
    cache.mkdir(parents=True, exist_ok=True)
    _remove_leftovers(cache)
    wanted = [item for item in items if not is_verified(item, cache)]
    with _Progress(progress, sum(item.size for item in wanted), len(wanted)) as bar:
        get = lambda item: _fetch_one(item, item.url_from(mirror), cache, timeout, attempts, backoff, bar.advance)  # noqa: E731
        _run_all(get, wanted, workers)
    return FetchSummary(
        downloaded=len(wanted),
        cached=len(items) - len(wanted),
        bytes_downloaded=sum(item.size for item in wanted),
        seconds=time.monotonic() - started,
    )


def _run_all(get: Callable[[LockedFile], None], items: list[LockedFile], workers: int) -> None:
    """Run `get` over `items` in a few threads; the first failure stops the rest from starting."""
    if not items:
        return
    stop = threading.Event()

    def guarded(item: LockedFile) -> None:
        if stop.is_set():
            return
        try:
            get(item)
        except BaseException:
            stop.set()
            raise

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        futures = [pool.submit(guarded, item) for item in items]
        wait(futures, return_when=FIRST_EXCEPTION)
        stop.set()
    for future in futures:
        if future.exception() is not None:
            raise future.exception()


def _fetch_one(
    item: LockedFile,
    url: str,
    cache: Path,
    timeout: float,
    attempts: int,
    backoff: float,
    advance: Callable[[int], None],
) -> None:
    """Download one file with bounded retries and back-off; keep it only if it verifies."""
    target = cache / item.local
    target.parent.mkdir(parents=True, exist_ok=True)
    attempts = max(1, attempts)
    for attempt in range(1, attempts + 1):
        handle = tempfile.NamedTemporaryFile(dir=target.parent, prefix=".fetch-", suffix=".part", delete=False)
        temp = Path(handle.name)
        try:
            with handle:
                received, digest = _download(url, handle, timeout, advance)
            if received != item.size or digest != item.sha256:
                raise FetchError(
                    f"{item.local}: {url}: refused: got {received} bytes with sha256 {digest}, "
                    f"the lock pins {item.size} bytes with sha256 {item.sha256}"
                )
            _store(temp, target, item.gzip)
            return
        except _Transient as error:
            if attempt == attempts:
                raise FetchError(f"{item.local}: {url}: {error} (gave up after {attempts} attempts)") from None
            time.sleep(backoff * 2 ** (attempt - 1))
        except _Permanent as error:
            raise FetchError(f"{item.local}: {url}: {error}") from None
        finally:
            temp.unlink(missing_ok=True)


class _Transient(Exception):
    """Worth another attempt: a timeout, a dropped connection, a 5xx or 429."""


class _Permanent(Exception):
    """Asking again cannot help: 404, 403 and other client errors."""


def _download(url: str, out, timeout: float, advance: Callable[[int], None]) -> tuple[int, str]:
    """Stream `url` into `out`; returns (bytes, sha256). `timeout` bounds every wait for data."""
    digest = hashlib.sha256()
    received = 0
    request = urllib.request.Request(url, headers={"User-Agent": "govsearch-fetch/1"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            while chunk := response.read(CHUNK):
                out.write(chunk)
                digest.update(chunk)
                received += len(chunk)
                advance(len(chunk))
    except urllib.error.HTTPError as error:
        advance(-received)
        kind = _Transient if error.code in RETRYABLE_STATUS else _Permanent
        raise kind(f"HTTP {error.code} {error.reason}") from None
    except TimeoutError:
        advance(-received)
        raise _Transient(f"timed out: no data for {timeout:g} s") from None
    except http.client.HTTPException as error:
        advance(-received)
        raise _Transient(f"connection broke: {error!r}") from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        advance(-received)
        reason = getattr(error, "reason", error)
        if isinstance(reason, TimeoutError):
            raise _Transient(f"timed out: no data for {timeout:g} s") from None
        if isinstance(error, ValueError) or isinstance(reason, str) and "unknown url type" in reason:
            raise _Permanent(f"bad URL: {reason}") from None
        raise _Transient(f"connection failed: {reason}") from None
    return received, digest.hexdigest()


def _store(temp: Path, target: Path, gzipped: bool) -> None:
    """Move a verified download into place in one rename (gzipped first when the cache keeps it so)."""
    if gzipped:
        packed = temp.with_name(temp.name + ".gz")
        try:
            with open(temp, "rb") as source, open(packed, "wb") as raw:
                # mtime=0 and no file name: the same input gives the same bytes.
                with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as zipped:
                    while chunk := source.read(CHUNK):
                        zipped.write(chunk)
            os.replace(packed, target)
        finally:
            packed.unlink(missing_ok=True)
    else:
        os.replace(temp, target)


def _remove_leftovers(cache: Path) -> None:
    """Temporary files of a fetch that was killed outright (they are never read)."""
    for leftover in cache.rglob(".fetch-*.part*"):
        leftover.unlink(missing_ok=True)


class _Progress:
    """A byte progress bar on stderr (rich), or nothing when `shown` is false."""

    def __init__(self, shown: bool, total: int, files: int):
        self._bar = None
        if shown and files:
            from rich.progress import (
                BarColumn,
                DownloadColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
                TransferSpeedColumn,
            )

            from .console import console

            self._bar = Progress(
                TextColumn(f"Fetching {files} source file(s)"),
                BarColumn(),
                DownloadColumn(),
                TransferSpeedColumn(),
                TimeRemainingColumn(),
                console=console,
            )
            self._task = self._bar.add_task("fetch", total=total)

    def __enter__(self) -> _Progress:
        if self._bar:
            self._bar.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._bar:
            self._bar.stop()

    def advance(self, count: int) -> None:
        if self._bar:
            self._bar.advance(self._task, count)


def main(argv: list[str]) -> int:
    """`build.py fetch`: returns 0 when the cache holds every locked file, verified."""
    from .console import console

    options = _parser().parse_args(argv)
    try:
        summary = fetch(
            Path(options.lock),
            Path(options.cache),
            mirror=options.mirror or os.environ.get("GOVSEARCH_MIRROR") or None,
            timeout=options.timeout,
            attempts=options.attempts,
            progress=not options.quiet,
        )
    except FetchError as error:
        console.print(f"[red]fetch failed:[/red] {error}")
        return 1
    console.print(
        f"[green]Sources ready[/green] in {options.cache}: {summary.downloaded} downloaded "
        f"({summary.bytes_downloaded / 1e6:.1f} MB), {summary.cached} already cached and verified, "
        f"in {summary.seconds:.1f} s"
    )
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python build.py fetch", description="Download the locked source exports into a verified cache."
    )
    parser.add_argument("--lock", default=str(DEFAULT_LOCK), help="the sources lock (default: site/sources.lock.toml)")
    parser.add_argument("--cache", default=str(DEFAULT_CACHE), help="the cache folder (default: .cache/sources)")
    parser.add_argument(
        "--mirror",
        help="fetch BASE/<name>/<file> instead of each file's upstream URL "
        "(also the GOVSEARCH_MIRROR environment variable)",
    )
    parser.add_argument(
        "--timeout", type=float, default=30.0, help="seconds without data before an attempt fails (default 30)"
    )
    parser.add_argument(
        "--attempts",
        type=int,
        default=4,
        help="attempts per file, with a back-off doubling from 1 s between them (default 4)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser
