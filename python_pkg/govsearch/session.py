"""A session over one site: tool calls as text in, JSON text out, the boundary the CLI and the browser share.

Both callers hand over the arguments exactly as received, so the size limit,
JSON parsing and error wording live here once, and the same call gives the
same bytes from `python -m govsearch call` and from the page's worker.
"""

from __future__ import annotations

import gc
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial

from .catalogue import Catalogue
from .data_reader import SiteUnavailable
from .loaders import Loader, MissingFiles
from .names import name_index
from .tool_schemas import TOOL_NAMES, load_schema
from .tools import error_result, to_json, validator

MAX_ARGUMENT_BYTES = 1 << 20
# The tools take flat objects. Deeper nesting is refused before parsing: in
# Pyodide, parsing a few thousand levels overflows the wasm stack and kills
# the runtime. The page's bridge applies the same limit with the same words.
MAX_DEPTH = 256
# Files read_ahead reads per piece: few, so that a call arriving while Pyodide
# reads a piece (profile chunks, directory pages) waits little.
READS_PER_PIECE = 4


class Session:
    """One opened site (or the reason it could not be opened), answering calls."""

    def __init__(self, loader: Loader):
        self.loader = loader
        try:
            self.catalogue: Catalogue | None = Catalogue.open(loader)
            self.failure = ""
        except SiteUnavailable as error:
            self.catalogue, self.failure = None, str(error)
        self._preparations = preparations(self.catalogue)
        self._asked: set[str] = set()  # files the next piece asked for
        self._reads: list[Callable[[], object]] | None = None  # what read_ahead has still to read

    @property
    def records(self) -> int:
        return int(self.catalogue.manifest.get("records", 0)) if self.catalogue else 0

    def warm(self) -> bool | list[str]:
        """Do the next piece of deferred preparation (argument validators, facet
        profiles, the expansion TokenSet); True while more remain, or the data
        files the piece needs first (download them, then call again).

        The worker calls it only while no call is in flight, one piece at a
        time: a call that arrives meanwhile waits for one piece at most, not
        for all of them (the TokenSet alone takes ~150 ms in Pyodide at full
        estate). A piece that asks again for a file it asked for before (its
        download failed) or meets a broken file is left out: a call that
        needs the file will report it.
        """
        if not self._preparations:
            return False
        with self._deferring():
            try:
                self._preparations[0]()
            except MissingFiles as missing:
                if not self._asked.intersection(missing.names):
                    self._asked.update(missing.names)
                    return missing.names
            except SiteUnavailable:
                pass
        self._preparations.pop(0)
        self._asked.clear()
        return bool(self._preparations)

    def later_files(self) -> list[str]:
        """Data files later searches need that are not read yet (Catalogue.later_reads):
        the worker fetches them once preparation is done and no call has run for a moment."""
        return [name for name, _ in self.catalogue.later_reads()] if self.catalogue else []

    def read_ahead(self) -> bool:
        """Read the next few of the files fetched ahead (later_files), so a
        later search does not decode them (at 300,000 records that took a
        one-word search's Python in Chromium from 42 to 22 ms); True while
        more remain. Like `warm`, one piece per idle moment. A file
        that is not on disk is left for the call that needs it to fetch."""
        if self.catalogue is None:
            return False
        if self._reads is None:
            self._reads = [read for _, read in self.catalogue.later_reads()]
        piece, self._reads = self._reads[:READS_PER_PIECE], self._reads[READS_PER_PIECE:]
        with self._deferring():
            for read in piece:
                try:
                    read()
                except (MissingFiles, SiteUnavailable):
                    pass  # fetched (or reported) by the call that needs it
        return bool(self._reads)

    def attempt(
        self, tool: str, arguments_text: str | bytes, prefix_last: bool = False, offset: int = 0
    ) -> str | list[str]:
        """The answer, or the data files to download first (then ask again).

        Lets the browser fetch all the shards a call needs in parallel rather
        than one synchronous request at a time.
        """
        with self._deferring():
            try:
                return self.answer_sync(tool, arguments_text, prefix_last, offset)
            except MissingFiles as missing:
                return missing.names

    @contextmanager
    def _deferring(self) -> Iterator[None]:
        """While inside, a loader that can (the worker's) names missing files
        (MissingFiles) instead of fetching them one at a time."""
        if not hasattr(self.loader, "deferring"):
            yield
            return
        self.loader.deferring = True
        try:
            yield
        finally:
            self.loader.deferring = False

    def answer_sync(self, tool: str, arguments_text: str | bytes, prefix_last: bool = False, offset: int = 0) -> str:
        """The answer, reading each data file it needs there and then (in the
        browser, one synchronous request at a time)."""
        if self.catalogue is None:
            return to_json(error_result("site_unavailable", f"The catalogue's data could not be used: {self.failure}"))
        return answer_json_text(self.catalogue, tool, arguments_text, prefix_last=prefix_last, offset=offset)


def answer_json_text(
    catalogue: Catalogue, tool: str, arguments_text: str | bytes, *, prefix_last: bool = False, offset: int = 0
) -> str:
    """Answer a call whose arguments are still JSON text; never raises on bad input.

    `offset`: where in the ranking the search page's "show more" starts (a
    worker message field, never a tool argument; anything but a whole
    number of 0 or more is read as 0).
    """
    if len(arguments_text) > MAX_ARGUMENT_BYTES:
        # Refused before parsing: nothing heavy runs on an oversized call.
        return to_json(
            error_result(
                "invalid_arguments",
                f"The arguments are larger than {MAX_ARGUMENT_BYTES} bytes. Send one small JSON object.",
            )
        )
    if nesting_depth(arguments_text) > MAX_DEPTH:
        return to_json(
            error_result(
                "invalid_arguments",
                f"The arguments are nested more than {MAX_DEPTH} levels deep. Send one flat JSON object.",
            )
        )
    try:
        arguments = json.loads(arguments_text, parse_int=_whole_number)
    except NumberTooLong as error:
        return to_json(error_result("invalid_arguments", str(error)))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        return to_json(
            error_result(
                "invalid_arguments", f"The arguments are not valid JSON: {str(error)[:120]} Send one JSON object."
            )
        )
    start = offset if isinstance(offset, int) and not isinstance(offset, bool) and offset > 0 else 0
    return to_json(catalogue.call(tool, arguments, prefix_last=prefix_last, offset=start))


def preparations(catalogue: Catalogue | None) -> list[Callable[[], object]]:
    """What can be built before the first call needs it, in pieces: argument
    validators, facet profiles, the typo vocabulary, publisher names, and
    last the checks that explain a rejected call's every property."""
    prepare: list[Callable[[], object]] = [partial(validator, tool) for tool in TOOL_NAMES]
    if catalogue is not None:
        prepare += catalogue.engine.preparations()
        prepare.append(partial(name_index, catalogue.engine.facets.values("publisher")))
    # One piece per property: a call arriving meanwhile waits for one compile, not a tool's dozen.
    prepare += [
        partial(_prepare_explanation, tool, name)
        for tool in TOOL_NAMES
        for name in load_schema(tool, "input").get("properties", {})
    ]
    return [*prepare, _settle]


def _prepare_explanation(tool: str, name: str) -> None:
    validator(tool).prepare_explanation(name)


class NumberTooLong(ValueError):
    """A whole number in the arguments longer than Python reads (valid JSON all the same)."""


def _whole_number(digits: str) -> int:
    """json's reading of a whole number, refusing in our own words one
    longer than Python converts (sys.get_int_max_str_digits, 4,300 by
    default), whose own message calls valid JSON invalid."""
    length = len(digits.lstrip("-"))
    limit = sys.get_int_max_str_digits()
    if limit and length > limit:
        raise NumberTooLong(
            f"The arguments hold a whole number {length} digits long; numbers over {limit} digits are not read. "
            "Send small whole numbers."
        )
    return int(digits)


def _settle() -> None:
    """Exempt what is built by now (index, vocabulary automaton, validators:
    50,000-80,000 objects) from the cyclic garbage collector. Its full
    collections walked all of it, 15-25 ms in CPython, more in Pyodide, in
    the middle of whichever query set one off."""
    gc.collect()
    gc.freeze()


def nesting_depth(text: str | bytes) -> int:
    """The deepest nesting of [ and { in JSON text, ignoring brackets inside strings."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest
