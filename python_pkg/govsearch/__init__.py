"""govsearch: validated search over a prebuilt catalogue of UK government knowledge.

The same code answers tool calls in CPython and, inside a Web Worker, in
Pyodide. Open a built site with `Catalogue.open(DirectoryLoader(site_dir))`
and answer calls with `catalogue.call(tool, arguments)`.
"""

from .catalogue import Catalogue
from .data_reader import SiteUnavailable
from .loaders import DirectoryLoader, FetchingLoader, Loader, MemoryLoader
from .tool_schemas import FILTER_TOOL, RECORD_TOOL, SEARCH_TOOL, TOOL_NAMES, load_schema
from .tools import error_result, to_json, tool_definitions

__all__ = [
    "Catalogue",
    "DirectoryLoader",
    "FILTER_TOOL",
    "FetchingLoader",
    "Loader",
    "MemoryLoader",
    "RECORD_TOOL",
    "SEARCH_TOOL",
    "SiteUnavailable",
    "TOOL_NAMES",
    "error_result",
    "load_schema",
    "to_json",
    "tool_definitions",
]
