"""The tools' JSON Schemas, shipped as data files inside the package.

The search tool's input schema is the project's contract: it is the seed
schema byte for byte, and is never edited here.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

SEARCH_TOOL = "search_government_knowledge"
RECORD_TOOL = "get_resource_record"
FILTER_TOOL = "list_filter_values"
TOOL_NAMES = (SEARCH_TOOL, RECORD_TOOL, FILTER_TOOL)


def load_schema(tool: str, kind: str = "input") -> dict[str, Any]:
    """The `input` or `output` JSON Schema of one tool, as a fresh object callers may keep."""
    return json.loads(schema_text(tool, kind))


@cache
def schema_text(tool: str, kind: str = "input") -> str:
    """The schema file's text exactly as shipped."""
    if tool not in TOOL_NAMES or kind not in ("input", "output"):
        raise KeyError(f"no {kind} schema for tool {tool!r}")
    return resources.files(__package__).joinpath(f"schemas/{tool}.{kind}.json").read_text("utf-8")


def search_enum(name: str) -> tuple[str, ...]:
    """The tokens of one of the search tool's enums (`$defs/<name>`), in the schema's order."""
    return tuple(load_schema(SEARCH_TOOL)["$defs"][name]["enum"])


# The catalogue's vocabularies, from the contract itself: the build, the pages
# and the tests take them from here, never from a list of their own.
COLLECTIONS = search_enum("knowledgeCollection")
RESOURCE_TYPES = search_enum("resourceType")
ACCESS_STATUSES = search_enum("accessStatus")
