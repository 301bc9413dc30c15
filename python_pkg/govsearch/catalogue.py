"""A built site's catalogue: opened once, integrity-checked, then queried.

The manifest says which layout the site uses: `single` (one lunr index and
one record store, for small sites) or `sharded` (files fetched as queries
need them, for large ones). Either way the same tools answer the same way.
A data file that does not match its sha256 is never used: opening fails
closed with `SiteUnavailable`, and the tools answer `site_unavailable`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any, Protocol

from .data_reader import SiteUnavailable, parse, read_bytes, read_verified
from .engine import SearchEngine
from .facets import FacetTable
from .format import FORMAT, MANIFEST, SHARDED
from .loaders import LaterRead, Loader
from .ranking import RankingData
from .sharded import ShardDirectory, ShardedMatcher, ShardedStore
from .single import ListStore, LunrMatcher
from .tools import call_tool

__all__ = ["Catalogue", "SiteUnavailable", "MANIFEST", "FORMAT"]


class RecordStore(Protocol):
    def later_reads(self) -> list[LaterRead]:
        """Data files most later calls need that are not read yet."""

    def require(self, numbers: list[int]) -> None:
        """Make the rows of these records readable (a sharded store may raise MissingFiles)."""

    def rows_missing(self, numbers: list[int], after: list[int] | None = None) -> list[str]:
        """The data files these records' rows still need once `after`'s are
        read (none when every row is at hand): for a round the call makes anyway."""

    def series_at_hand(self) -> Mapping[int, int] | None:
        """Each record of a series of two or more: its series, when known without a download."""

    def newest_at_hand(self) -> Mapping[int, int] | None:
        """Each older dated edition's newest edition, when known without a download."""

    def row(self, number: int) -> dict[str, Any]:
        """What a search result shows of the record: at least tools.RESULT_FIELDS."""

    def newest_edition(self, number: int) -> int | None:
        """The newest edition of the record's series, if it is an older one (its row at hand)."""

    def find(self, record_id: str) -> dict[str, Any] | None:
        """The whole record with this id, if there is one."""

    def identified(self, key: str) -> list[int]:
        """The records an identifier key (ranking.identifier_key) names: ids, source ids, URL slugs."""


class Catalogue:
    """The records and search engine of one built site."""

    def __init__(
        self,
        manifest: dict[str, Any],
        store: RecordStore,
        engine: SearchEngine,
        ranking: RankingData | None = None,
        digest: str = "",
    ):
        self.manifest = manifest
        # The data snapshot answers come from (a citation names it): the
        # manifest's sha256 (it vouches for every data file) and build date.
        self.snapshot = {"manifestSha256": digest} if digest else {}
        if isinstance(manifest.get("built"), str):
            self.snapshot["built"] = manifest["built"]
        self.store = store
        self.engine = engine
        self.ranking = ranking or RankingData({})
        site = manifest.get("site", {})
        self.record_base = site.get("url", "").rstrip("/") + site.get("basePath", "/") + "records/"

    @classmethod
    def open(cls, loader: Loader) -> Catalogue:
        manifest_bytes = read_bytes(loader, MANIFEST)
        manifest = parse(manifest_bytes, MANIFEST)
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise SiteUnavailable(f"{MANIFEST} is not a {FORMAT} manifest")
        files = manifest.get("files", {})
        try:
            facets = FacetTable.from_json(read_verified(loader, files.get("facets"), "facets"), loader)
            ranking = RankingData(read_verified(loader, files.get("ranking"), "ranking"), facets.count)
            facets.listeners.append(ranking.set_flags)  # flags come with the records' profiles
            if manifest.get("layout") == SHARDED:
                shards = ShardDirectory(loader, read_verified(loader, files.get("directory"), "directory"))
                store, matcher = ShardedStore(shards), ShardedMatcher(shards)
            else:
                store = ListStore(read_verified(loader, files.get("records"), "records")["records"])
                matcher = LunrMatcher(read_verified(loader, files.get("index"), "index"), store.numbers)
        except (KeyError, TypeError, ValueError) as error:
            raise SiteUnavailable(f"the site's data is malformed ({error})") from None
        digest = hashlib.sha256(manifest_bytes).hexdigest()
        return cls(manifest, store, SearchEngine(matcher, facets), ranking, digest)

    def later_reads(self) -> list[LaterRead]:
        """Data files most later searches need that are not read yet (every
        record's profile, the pages locating shards, the series table), each with what reads it:
        fetched and read while nobody waits, each later search saves a round
        of downloads or two and the time to decode them."""
        return self.store.later_reads() + self.engine.facets.later_reads()

    def record_url(self, record_id: str) -> str:
        return f"{self.record_base}{record_id}/"

    def call(self, tool: str, arguments: Any, *, prefix_last: bool = False, offset: int = 0) -> dict[str, Any]:
        """Answer one tool call. Bad arguments give an error result, never an exception."""
        return call_tool(self, tool, arguments, prefix_last=prefix_last, offset=offset)
