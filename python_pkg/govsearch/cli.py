"""Command line: answer tool calls from a built site, print schemas, search for people.

    python -m govsearch call TOOL --site DIR < arguments.json
    python -m govsearch schema TOOL
    python -m govsearch search "terms" --site DIR [--collection ID ...]
    python -m govsearch mcp --site DIR      (an MCP server over stdio; needs govsearch[mcp])

`call` exits 0 whenever it prints a tool result (an error result included)
and 2 for usage errors or a missing or broken site; `mcp` refuses a broken
site the same way before it serves anything.
"""

from __future__ import annotations

import argparse
import codecs
import sys
from typing import Any

from .catalogue import Catalogue, SiteUnavailable
from .loaders import DirectoryLoader
from .session import MAX_ARGUMENT_BYTES, answer_json_text
from .tool_schemas import TOOL_NAMES, schema_text
from .tools import error_result, to_json

USAGE_ERROR = 2


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    try:
        options = parser.parse_args(argv)
    except SystemExit as stop:
        return USAGE_ERROR if stop.code else 0
    return options.run(options)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m govsearch", description="Search a built govsearch site.")
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    call = commands.add_parser("call", help="answer one tool call; arguments JSON on stdin")
    call.add_argument("tool", choices=TOOL_NAMES)
    call.add_argument("--site", required=True, help="the built site folder (for example _site)")
    call.set_defaults(run=_call)

    schema = commands.add_parser("schema", help="print a tool's input schema")
    schema.add_argument("tool", choices=TOOL_NAMES)
    schema.set_defaults(run=lambda options: _print(schema_text(options.tool, "input").rstrip("\n")))

    search = commands.add_parser("search", help="search for people, printing readable results")
    search.add_argument("terms")
    search.add_argument("--site", required=True)
    search.add_argument("--collection", action="append", dest="collections")
    search.add_argument("--type", action="append", dest="resourceTypes")
    search.add_argument("--publisher", action="append", dest="publishers")
    search.add_argument("--access", action="append", dest="accessStatuses")
    search.add_argument("--limit", type=int)
    search.set_defaults(run=_search)

    mcp = commands.add_parser("mcp", help="serve the tools to an MCP client over stdio (needs govsearch[mcp])")
    mcp.add_argument("--site", required=True, help="the built site folder (for example _site)")
    mcp.set_defaults(run=_mcp)
    return parser


def _print(text: str) -> int:
    # Tool results are ASCII; readable search output may still hold a lone
    # surrogate from the command line, which UTF-8 cannot encode.
    sys.stdout.buffer.write((text + "\n").encode("utf-8", "backslashreplace"))
    sys.stdout.flush()
    return 0


def _open(site: str) -> Catalogue | None:
    try:
        return Catalogue.open(DirectoryLoader(site))
    except SiteUnavailable as error:
        return _refuse(site, error)


def _refuse(site: str, error: SiteUnavailable) -> None:
    print(f"govsearch: the site at {site} cannot be used: {error}", file=sys.stderr)


def _call(options: argparse.Namespace) -> int:
    catalogue = _open(options.site)
    if catalogue is None:
        return USAGE_ERROR
    # One byte past the limit is enough to know the call is too large.
    data = sys.stdin.buffer.read(MAX_ARGUMENT_BYTES + 1)
    if len(data) > MAX_ARGUMENT_BYTES:
        return _print(answer_json_text(catalogue, options.tool, data))  # refused for its size, unread
    text, problem = utf8_text(data)
    if problem:
        return _print(to_json(error_result("invalid_arguments", problem)))
    return _print(answer_json_text(catalogue, options.tool, text))


def utf8_text(data: bytes) -> tuple[str, str]:
    """`data` as text, decoded once, or "" and why it is not UTF-8 JSON text
    as the tools take it.

    Python's json would read a byte order mark, UTF-16 or UTF-32, and
    surrogates encoded in UTF-8; the page and the MCP server take UTF-8
    text only, so the CLI takes the same."""
    if data.startswith(codecs.BOM_UTF8):
        return "", "The arguments start with a byte order mark. Send UTF-8 JSON text without one."
    if b"\0" in data:  # never in JSON text; every other character of ASCII text in UTF-16 or UTF-32
        return "", "The arguments hold NUL bytes, as UTF-16 or UTF-32 text does. Send UTF-8 JSON text."
    try:
        return data.decode("utf-8"), ""
    except UnicodeDecodeError as error:
        return "", (
            f"The arguments are not UTF-8 text (byte {error.start} cannot be read: {error.reason}). "
            "Send UTF-8 JSON text."
        )


def _search(options: argparse.Namespace) -> int:
    catalogue = _open(options.site)
    if catalogue is None:
        return USAGE_ERROR
    arguments: dict[str, Any] = {"query": options.terms}
    for name in ("collections", "resourceTypes", "publishers", "accessStatuses", "limit"):
        if getattr(options, name) is not None:
            arguments[name] = getattr(options, name)
    result = catalogue.call("search_government_knowledge", arguments)
    if not result["ok"]:
        for problem in result["error"].get("problems", []):
            print(problem["message"], file=sys.stderr)
        return USAGE_ERROR
    lines = [f"{result['total']} matching records ({result['match_mode'].replace('_', ' ')})"]
    for notice in result["notices"]:
        lines.append(f"note: {notice['message']}")
    for number, item in enumerate(result["results"], start=1):
        lines += [
            "",
            f"{number}. {item['title']}",
            f"   {item['publisher']} · {item['resourceType']} · {item['accessStatus']} · {item['collection']}",
            f"   {item['url']}",
            f"   {item['summary']}",
        ]
    return _print("\n".join(lines))


def _mcp(options: argparse.Namespace) -> int:
    catalogue = _open(options.site)  # before the SDK's slow import: a broken site is refused at once
    if catalogue is None:
        return USAGE_ERROR
    try:
        from . import mcp_server
    except ImportError as error:  # the optional extra is not installed
        print(
            f"govsearch: the MCP server needs the MCP Python SDK ({error}); install it with: pip install 'govsearch[mcp]'",
            file=sys.stderr,
        )
        return USAGE_ERROR
    try:
        mcp_server.check_every_file(catalogue)
    except SiteUnavailable as error:
        _refuse(options.site, error)
        return USAGE_ERROR
    return mcp_server.serve(catalogue)
