"""Where a catalogue's bytes come from.

A loader only answers "the bytes of this data file". The catalogue decides
which files to ask for, so the storage layout can change (for example into
shards for large sites) without touching the places that open a catalogue.
"""

from __future__ import annotations

from pathlib import Path
from typing import Mapping, Protocol


class Loader(Protocol):
    def read(self, name: str) -> bytes:
        """The bytes of the data file `name` (a path relative to the data folder)."""


class DirectoryLoader:
    """Reads a built site's data folder from disk (CPython, or Pyodide's file system)."""

    def __init__(self, site_dir: str | Path):
        self.data_dir = Path(site_dir) / "data"

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
