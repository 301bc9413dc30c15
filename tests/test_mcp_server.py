"""The MCP server, driven by the official SDK's own client over stdio.

A real subprocess (`python -m govsearch mcp --site DIR`) is started the way a
desktop client starts it; its tools must be the page's tools, and every
answer, valid call or not, must be the very bytes `python -m govsearch call`
prints for the same arguments, as text and as structured content. Meanwhile
an audit hook checks that the server reads only the site folder (and
Python's own files) and never touches the network.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import anyio
import jsonschema
import pytest

pytest.importorskip("mcp", reason="the MCP extra (govsearch[mcp]) is not installed")

from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402

from govsearch import TOOL_NAMES, load_schema, to_json, tool_definitions  # noqa: E402
from govsearch_build.config import load_config  # noqa: E402
from govsearch_build.data_writer import write_data  # noqa: E402
from govsearch_build.records import load_content  # noqa: E402
from sitefixture import FIXTURE_CORPUS, REPO, build_fixture_site  # noqa: E402

SEARCH, RECORD, FILTER = TOOL_NAMES
OUTPUT = {tool: jsonschema.Draft202012Validator(load_schema(tool, "output")) for tool in TOOL_NAMES}
ENV = {"PYTHONPATH": str(REPO / "python_pkg")}

# Valid and invalid calls of every tool; each answer must equal the CLI's bytes.
CALLS: list[tuple[str, dict[str, Any]]] = [
    (SEARCH, {"query": "vat"}),
    (SEARCH, {"query": "companies house", "limit": 3}),
    (SEARCH, {"query": "land", "collections": ["land-registry"], "accessStatuses": ["public"]}),
    (SEARCH, {"query": "statistics", "publishers": ["Office for National Statistics"], "limit": 20}),
    (SEARCH, {"query": "houzing"}),
    (SEARCH, {"query": "the and of"}),
    (SEARCH, {"query": "vat", "publishers": ["hm revenue & customs"]}),
    (SEARCH, {"query": "<script>alert(1)</script> ~ ^ : + -"}),
    (SEARCH, {"query": "Llywodraeth Cymru – café \U0001f600"}),
    (SEARCH, {"query": "vat", "collections": []}),
    (SEARCH, {"query": ""}),
    (SEARCH, {"query": "vat", "limit": 50}),
    (SEARCH, {"query": "vat", "limit": 8.0}),
    (SEARCH, {"query": "vat", "resourceTypes": ["API"]}),
    (SEARCH, {"query": "vat", "extra": True}),
    (SEARCH, {"query": ["vat"], "limit": "8"}),
    (SEARCH, {}),
    (RECORD, {"recordId": "vat-api"}),
    (RECORD, {"recordId": "business-gateway"}),
    (RECORD, {"recordId": "no-such-record"}),
    (RECORD, {"recordId": "Bad Id", "extra": 1}),
    (RECORD, {"recordId": 7}),
    (RECORD, {}),
    (FILTER, {"dimension": "publishers"}),
    (FILTER, {"dimension": "publishers", "prefix": "hm"}),
    (FILTER, {"dimension": "publishers", "prefix": "OFFICE FOR", "limit": 1}),
    (FILTER, {"dimension": "publishers", "prefix": "registry"}),
    (FILTER, {"dimension": "collections"}),
    (FILTER, {"dimension": "resourceTypes", "limit": 100}),
    (FILTER, {"dimension": "accessStatuses", "prefix": "p"}),
    (FILTER, {"dimension": "publisher"}),
    (FILTER, {"dimension": "publishers", "prefix": "", "limit": 0}),
    (FILTER, {"dimension": "publishers", "limit": 101, "query": "vat"}),
    (FILTER, {"prefix": "hm"}),
    (FILTER, {}),
]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return build_fixture_site(tmp_path_factory.mktemp("mcp-site"))


@pytest.fixture(scope="module")
def sharded_site(tmp_path_factory) -> Path:
    config = load_config(REPO / "site" / "site.toml")
    out = tmp_path_factory.mktemp("mcp-sharded")
    write_data(config, load_content(FIXTURE_CORPUS).records, out / "data", layout="sharded")
    return out


def cli(site: Path, tool: str, arguments: Any) -> str:
    """What `python -m govsearch call TOOL --site DIR` prints, less its newline."""
    done = subprocess.run(
        [sys.executable, "-m", "govsearch", "call", tool, "--site", str(site)],
        input=json.dumps(arguments, ensure_ascii=False).encode("utf-8"),
        capture_output=True,
        env={**os.environ, **ENV},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode("utf-8").removesuffix("\n")


# The CLI's own main() for many calls in one process (one interpreter start,
# not one per call): stdin and stdout are swapped per call; cli() checks the
# real command agrees.
CLI_MAIN = """
import io, json, sys
from govsearch.cli import main
site, calls, printed = sys.argv[1], json.load(sys.stdin), []
for tool, stdin in calls:
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    assert main(["call", tool, "--site", site]) == 0, (tool, stdin)
    sys.stdout.flush()
    printed.append(sys.stdout.buffer.getvalue().decode("utf-8"))
sys.__stdout__.write(json.dumps(printed))
"""


def cli_answers(site: Path, calls: list[tuple[str, Any]]) -> list[str]:
    stdins = [[tool, json.dumps(arguments, ensure_ascii=False)] for tool, arguments in calls]
    done = subprocess.run(
        [sys.executable, "-c", CLI_MAIN, str(site)],
        input=json.dumps(stdins),
        capture_output=True,
        text=True,
        env={**os.environ, **ENV},
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert all(text.endswith("\n") for text in printed)
    assert printed[0][:-1] == cli(site, *calls[0]) and printed[-1][:-1] == cli(site, *calls[-1])
    return [text[:-1] for text in printed]


# `python -m govsearch mcp --site DIR` under an audit hook (PEP 578) that logs
# any network use, any file opened for writing, and any file read outside the
# site folder and Python's own: the privacy statement, checked. The log's
# descriptor is opened before the hook, so logging opens nothing; -B keeps
# Python from writing its bytecode cache, which is not the server's doing.
AUDITED_SERVER = """
import os, runpy, sys
site = os.path.realpath(sys.argv[-1])
log = os.open(os.environ["AUDIT_LOG"], os.O_WRONLY | os.O_CREAT | os.O_APPEND)
readable = tuple(os.path.realpath(path) + os.sep for path in (site, sys.prefix, sys.base_prefix, os.environ["PYTHONPATH"]))
network = {"socket.connect", "socket.bind", "socket.getaddrinfo", "socket.gethostbyname", "socket.sendto", "socket.sendmsg"}
writing = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC

def audit(event, args):
    if event in network:
        os.write(log, f"network: {event} {args!r}\\n".encode())
    elif event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        path, mode, flags = args
        writes = any(c in mode for c in "wax+") if mode else bool(flags & writing)
        real = os.path.realpath(os.fsdecode(path))
        if writes or (real != os.devnull and not (real + os.sep).startswith(readable)):
            os.write(log, f"open: {path!r} {mode!r} {flags}\\n".encode())

sys.addaudithook(audit)
sys.argv = ["govsearch", *sys.argv[1:]]
runpy.run_module("govsearch", run_name="__main__", alter_sys=True)
"""


def server(site: Path, audit_log: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-B", "-c", AUDITED_SERVER, "mcp", "--site", str(site)],
        env={**ENV, "AUDIT_LOG": str(audit_log)},
        cwd=str(REPO),
    )


def session(site: Path, calls: list[tuple[str, Any]], mode: str = "legacy") -> tuple[Any, list[Any]]:
    """Start the server, list its tools, make the calls; (tools, results).

    Fails if the server touched the network or any file but the site's."""
    audit_log = site.parent / f"{site.name}-audit.log"
    audit_log.write_text("")

    async def run() -> tuple[Any, list[Any]]:
        with anyio.fail_after(180):
            async with Client(server(site, audit_log), mode=mode, read_timeout_seconds=60) as client:
                tools = await client.list_tools()
                results = [await client.call_tool(tool, arguments) for tool, arguments in calls]
                return tools, results

    # A thread of its own: in the whole suite the browser tests' Playwright
    # session keeps an event loop running in the main thread.
    with ThreadPoolExecutor(max_workers=1) as pool:
        outcome = pool.submit(anyio.run, run).result()
    assert audit_log.read_text() == "", audit_log.read_text()
    return outcome


def answers_equal_cli(site: Path, calls: list[tuple[str, Any]], results: list[Any]) -> int:
    same = 0
    for (tool, arguments), result, expected in zip(calls, results, cli_answers(site, calls), strict=True):
        [content] = result.content
        assert content.type == "text" and content.text == expected, (tool, arguments)
        assert to_json(result.structured_content) == expected, (tool, arguments)
        answer = json.loads(expected)
        OUTPUT[tool].validate(answer)
        assert result.is_error is (not answer["ok"]), (tool, arguments)
        same += 1
    return same


def test_a_client_session_lists_the_page_tools_and_gets_the_cli_bytes(site):
    tools, results = session(site, CALLS)
    listed = {tool.name: tool for tool in tools.tools}
    assert list(listed) == list(TOOL_NAMES)
    page = {definition["name"]: definition for definition in tool_definitions()}
    for name, tool in listed.items():
        assert tool.input_schema == load_schema(name, "input") == page[name]["inputSchema"]
        assert tool.description == page[name]["description"]
        assert tool.output_schema == load_schema(name, "output")
        assert tool.annotations.read_only_hint is True and tool.annotations.open_world_hint is False
    assert listed[SEARCH].description.startswith(
        load_schema(SEARCH)["description"] + " "
    )  # the seed's own words, then how to read scores
    assert "before filtering by publisher" in listed[FILTER].description
    outcomes = {json.loads(result.content[0].text)["ok"] for result in results}
    assert outcomes == {True, False}
    assert answers_equal_cli(site, CALLS, results) == len(CALLS) >= 30


def test_a_sharded_site_answers_like_the_cli_from_the_first_call(sharded_site):
    # The default (auto) mode negotiates the newest protocol instead of the handshake.
    calls = [CALLS[0], CALLS[3], CALLS[17], CALLS[19], CALLS[23], CALLS[25]]
    _, results = session(sharded_site, calls, mode="auto")
    assert answers_equal_cli(sharded_site, calls, results) == len(calls)


def refused(site: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "govsearch", "mcp", "--site", str(site)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env={**os.environ, **ENV},
        timeout=120,
    )


def test_a_tampered_site_is_refused_at_start(site, tmp_path):
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    [records] = (copy / "data").glob("records.*.json")
    records.write_text(records.read_text("utf-8").replace("Office", "Offize"), "utf-8")
    done = refused(copy)
    assert done.returncode == 2 and done.stdout == ""
    assert (
        f"the site at {copy} cannot be used" in done.stderr
        and "integrity check" in done.stderr
        and records.name in done.stderr
    )
    # The SDK client sees the server go away instead of a session.
    with pytest.raises(BaseExceptionGroup) as failed:
        session(copy, [])
    assert "Connection closed" in str(failed.value.exceptions[0].exceptions[0])


def test_a_tampered_shard_is_refused_at_start_not_mid_session(sharded_site, tmp_path):
    copy = tmp_path / "site"
    shutil.copytree(sharded_site, copy)
    shard = sorted((copy / "data" / "records").glob("*.json"))[-1]
    shard.write_bytes(shard.read_bytes().replace(b'"title":', b'"title": '))
    done = refused(copy)
    assert done.returncode == 2 and "integrity check" in done.stderr and shard.name in done.stderr
    assert refused(tmp_path / "nowhere").returncode == 2


def test_the_runtime_imports_and_the_cli_explains_without_the_extra(site):
    # `mcp` made unimportable: the package and its CLI still load; `mcp` says what to install.
    script = (
        "import sys; sys.modules['mcp'] = None\n"
        "import govsearch, govsearch.cli\n"
        "assert not any(name == 'mcp' or name.startswith('mcp.') for name in sys.modules if sys.modules[name])\n"
        f"sys.exit(govsearch.cli.main(['mcp', '--site', {str(site)!r}]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env={**os.environ, **ENV}, timeout=120
    )
    assert done.returncode == 2, done.stderr
    assert "pip install 'govsearch[mcp]'" in done.stderr
