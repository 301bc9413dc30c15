"""Where a catalogue's bytes come from.

A loader only answers "the bytes of this data file". The catalogue decides
which files to ask for, so the storage layout can change (for example into
shards for large sites) without touching the places that open a catalogue.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

from .format import DATA_FOLDER

# A data file later searches need, not read yet, and what reads it (checks and
# decodes it into the catalogue): the worker fetches the file while nobody
# waits, then reads it while nobody waits, so a later search does neither.
LaterRead = tuple[str, Callable[[], object]]


class Loader(Protocol):
    def read(self, name: str) -> bytes:
        """The bytes of the data file `name` (a path relative to the data folder)."""


class DirectoryLoader:
    """Reads a built site's data folder from disk (CPython, or Pyodide's file system)."""

    def __init__(self, site_dir: str | Path):
        self.data_dir = Path(site_dir) / DATA_FOLDER

    def read(self, name: str) -> bytes:
        path = (self.data_dir / name).resolve()
        if not path.is_relative_to(self.data_dir.resolve()):
            raise FileNotFoundError(f"{name} is outside the data folder")
        return path.read_bytes()


class MemoryLoader:
    """Serves bytes already fetched, for example by the browser."""

    def __init__(self, files: Mapping[str, bytes]):
        self.files = dict(files)

    def read(self, name: str) -> bytes:
        try:
            return self.files[name]
        except KeyError:
            raise FileNotFoundError(name) from None


class MissingFiles(Exception):
    """Data files a call needs that are not downloaded yet (raised only while deferring)."""

    def __init__(self, names: list[str]):
        super().__init__(", ".join(names))
        self.names = list(names)


def gather(*steps: Callable[[], Any]) -> list[Any]:
    """Run every step; if any needs files not downloaded yet, raise one
    MissingFiles naming all of them (one round of parallel downloads)."""
    missing: list[str] = []
    results = []
    for step in steps:
        try:
            results.append(step())
        except MissingFiles as error:
            missing.extend(error.names)
            results.append(None)
    if missing:
        raise MissingFiles(sorted(set(missing)))
    return results


class FetchingLoader:
    """In the browser's worker: files already on Pyodide's disk, else fetched on demand.

    The large-site layout asks for shards only when a query needs them, so
    they cannot all be downloaded up front. While `deferring`, a missing file
    raises MissingFiles, so the worker can download all of a call's files in
    parallel and ask again; otherwise it is fetched synchronously (allowed in
    a Web Worker), one at a time.
    """

    def __init__(self, site_dir: str | Path, data_url: str):
        self.data_dir = str(Path(site_dir) / DATA_FOLDER)
        self.data_url = data_url if data_url.endswith("/") else data_url + "/"
        self.deferring = False

    def read(self, name: str) -> bytes:
        if ".." in name.split("/") or name.startswith("/") or ":" in name:
            raise FileNotFoundError(f"{name} is not a data file name")
        # The name cannot leave the data folder (checked above), and only the
        # worker writes to Pyodide's disk (no links): read it directly, as
        # DirectoryLoader's path resolving costs a millisecond a file in Pyodide.
        path = os.path.join(self.data_dir, name)
        try:
            with open(path, "rb") as file:
                data = file.read()
        except OSError:
            if self.deferring:
                raise MissingFiles([name]) from None
            return _fetch_sync(self.data_url + name)
        # Read once: the catalogue keeps what it parsed (or fetches it again),
        # and a copy left on Pyodide's in-memory disk would only hold memory.
        os.unlink(path)
        return data


SYNC_TIMEOUT_MS = 10_000  # a stalled file fails the call that needs it, not the session


def _fetch_sync(url: str) -> bytes:
    # Errors say what happened, not the URL: the caller names the data file.
    from js import XMLHttpRequest  # only inside Pyodide

    request = XMLHttpRequest.new()
    request.open("GET", url, False)
    request.responseType = "arraybuffer"
    request.timeout = SYNC_TIMEOUT_MS
    try:
        request.send(None)
    except Exception as error:  # a JsException: timeout or network error
        raise FileNotFoundError(f"it did not arrive ({str(error)[:80]})") from None
    if request.status != 200:
        raise FileNotFoundError(f"the server answered {request.status}")
    return request.response.to_bytes()
