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
import queue
import shutil
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import anyio
import jsonschema
import pytest

pytest.importorskip("mcp", reason="the MCP extra (govsearch[mcp]) is not installed")

from mcp import Client, types  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402

from govsearch import TOOL_NAMES, load_schema, to_json, tool_definitions  # noqa: E402
from govsearch.mcp_server import RECORD_URI  # noqa: E402
from govsearch.tools import TOOL_TITLES  # noqa: E402
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


def cli(site: Path, tool: str, arguments: Any, sent: bytes | None = None) -> str:
    """What `python -m govsearch call TOOL --site DIR` prints, less its newline, for the
    arguments as UTF-8 JSON (or as `sent`)."""
    done = subprocess.run(
        [sys.executable, "-m", "govsearch", "call", tool, "--site", str(site)],
        input=json.dumps(arguments, ensure_ascii=False).encode("utf-8") if sent is None else sent,
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

    async def act(client: Client) -> tuple[Any, list[Any]]:
        tools = await client.list_tools()
        return tools, [await client.call_tool(tool, arguments) for tool, arguments in calls]

    return with_client(site, act, mode)


def with_client(site: Path, act: Callable[[Client], Awaitable[Any]], mode: str = "legacy") -> Any:
    """What `act` makes of a client session with the audited server (see session)."""
    audit_log = site.parent / f"{site.name}-audit.log"
    audit_log.write_text("")

    async def run() -> Any:
        with anyio.fail_after(180):
            async with Client(server(site, audit_log), mode=mode, read_timeout_seconds=60) as client:
                return await act(client)

    outcome = run_apart(run)
    assert audit_log.read_text() == "", audit_log.read_text()
    return outcome


def run_apart(run: Callable[[], Awaitable[Any]]) -> Any:
    """`anyio.run(run)` in a thread of its own: in the whole suite the browser
    tests' Playwright session keeps an event loop running in the main thread."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(anyio.run, run).result()


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
        assert tool.title == page[name]["title"] == TOOL_TITLES[name]
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


@pytest.mark.parametrize("shard_glob", ["records/*.json", "series.*.json"])
def test_a_tampered_shard_is_refused_at_start_not_mid_session(sharded_site, tmp_path, shard_glob):
    copy = tmp_path / "site"
    shutil.copytree(sharded_site, copy)
    shard = sorted((copy / "data").glob(shard_glob))[-1]
    shard.write_bytes(shard.read_bytes().replace(b"[", b"[ ", 1))
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


@pytest.fixture(scope="module")
def merged_site(tmp_path_factory) -> Path:
    """A site where one record was merged into another (test_estate's records): the loser's id is a former id."""
    from govsearch_build.estate import finish_estate, record_former_ids
    from govsearch_build.quality import QualityLog
    from test_estate import _records

    moved: dict[str, str] = {}
    records = finish_estate(_records(), QualityLog(), moved)
    record_former_ids(records, moved)
    out = tmp_path_factory.mktemp("mcp-merged")
    write_data(load_config(REPO / "site" / "site.toml"), records, out / "data")
    return out


def read_resources(site: Path, uris: list[str]) -> tuple[Any, Any, list[Any]]:
    """(resource templates, every listed resource, what reading each uri gave: its result or its MCPError)."""

    async def act(client: Client) -> tuple[Any, Any, list[Any]]:
        templates = await client.list_resource_templates()
        listed, cursor = [], None
        while True:
            page = await client.list_resources(cursor=cursor)
            listed += page.resources
            if not (cursor := page.next_cursor):
                break
        read = []
        for uri in uris:
            try:
                read.append(await client.read_resource(uri))
            except MCPError as error:
                read.append(error)
        return templates, listed, read

    return with_client(site, act)


def test_records_are_resources_that_read_as_the_record_tool_answers(site):
    ids = ["vat-api", "business-gateway", "hostile"]
    uris = [RECORD_URI + record_id for record_id in ids] + [
        RECORD_URI + "no-such-record",
        "https://example.org/vat-api",
    ]
    templates, listed, read = read_resources(site, uris)
    [template] = templates.resource_templates
    assert template.uri_template == RECORD_URI + "{id}" and template.mime_type == "application/json"
    records = json.loads(next((site / "data").glob("records.*.json")).read_text("utf-8"))["records"]
    assert sorted(resource.uri for resource in listed) == sorted(RECORD_URI + record["id"] for record in records)
    expected = cli_answers(site, [(RECORD, {"recordId": record_id}) for record_id in ids])
    for uri, result, answer in zip(uris, read, expected, strict=False):
        [contents] = result.contents
        assert contents.uri == uri and contents.mime_type == "application/json" and contents.text == answer
        OUTPUT[RECORD].validate(json.loads(contents.text))
        assert "citation" in json.loads(contents.text)
    missing, elsewhere = read[-2:]
    assert (
        isinstance(missing, MCPError) and missing.code == types.INVALID_PARAMS and '"no-such-record"' in missing.message
    )
    assert isinstance(elsewhere, MCPError) and RECORD_URI + "{id}" in elsewhere.message


def test_a_former_id_reads_the_record_it_was_merged_into(merged_site):
    _, listed, [by_id, by_former_id] = read_resources(
        merged_site, [RECORD_URI + "de-weather-api", RECORD_URI + "apic-weather"]
    )
    assert RECORD_URI + "apic-weather" not in {resource.uri for resource in listed}  # listed once, as the survivor
    survivor = json.loads(by_former_id.contents[0].text)["record"]
    assert survivor["id"] == "de-weather-api" and survivor["formerIds"] == ["apic-weather"]
    assert by_former_id.contents[0].text == by_id.contents[0].text
    [answer] = cli_answers(merged_site, [(RECORD, {"recordId": "apic-weather"})])
    assert by_former_id.contents[0].text == answer


def test_the_record_list_comes_in_pages_a_cursor_continues(site):
    from govsearch import Catalogue, DirectoryLoader
    from govsearch.mcp_server import record_list

    catalogue = Catalogue.open(DirectoryLoader(site))
    pages, cursor = [], None
    while True:
        page = record_list(catalogue, cursor, page=5)
        pages.append([resource.name for resource in page.resources])
        if not (cursor := page.next_cursor):
            break
    assert [len(names) for names in pages] == [5, 5, 5, 1]
    everything = [name for names in pages for name in names]
    assert len(set(everything)) == len(everything) == catalogue.manifest["records"]
    for wrong in ("16", "-1", "x", "5 ", "\u00b2"):  # "²" is a digit to str.isdigit, not to int()
        with pytest.raises(MCPError, match="cursor"):
            record_list(catalogue, wrong, page=5)


class RawServer:
    """The server over plain pipes, speaking JSON-RPC line by line as any client might."""

    def __init__(self, site: Path):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "govsearch", "mcp", "--site", str(site)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, **ENV},
        )
        self.answers: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=lambda: [self.answers.put(line) for line in self.process.stdout], daemon=True).start()

    def send(self, *pieces: bytes) -> dict[str, Any]:
        """Write one message (in pieces, never held whole here) and its newline; the answer."""
        for piece in pieces:
            self.process.stdin.write(piece)
        self.process.stdin.write(b"\n")
        self.process.stdin.flush()
        return json.loads(self.answers.get(timeout=120))  # a guard against hanging, not a timing


def call_line(request_id: int, arguments_json: bytes) -> tuple[bytes, bytes]:
    """A tools/call request's text around its arguments."""
    head = f'{{"jsonrpc":"2.0","id":{request_id},"method":"tools/call","params":{{"name":"{SEARCH}","arguments":'
    return head.encode(), b"}}"


def test_every_message_the_sdk_cannot_parse_is_answered_with_an_error(site):
    server = RawServer(site)
    try:
        hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}
        opened = server.send(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello}).encode())
        assert opened["id"] == 0 and "result" in opened
        server.process.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        deep = b'{"query":' + b"[" * 199 + b"]" * 199 + b"}"
        long_number = b'{"query":"vat","limit":' + b"9" * 5000 + b"}"
        head, tail = call_line(1, deep)
        refusals = {
            1: (types.PARSE_ERROR, [head, deep, tail]),
            2: (types.PARSE_ERROR, [call_line(2, b"")[0], long_number, b"}}"]),
            3: (types.PARSE_ERROR, [*call_line(3, b""), b'{"query":"vat"}}} trailing']),
            4: (types.INVALID_REQUEST, [call_line(4, b"")[0], b'{"query":"', *[b"a" * (1 << 20)] * 100, b'"}}}']),
            5: (types.INVALID_REQUEST, [b'{"jsonrpc":"2.0","id":5,"method":7}']),
            # Its arguments hold an "id" before the message's own, which a client library may write last.
            6: (
                types.PARSE_ERROR,
                [
                    f'{{"method":"tools/call","params":{{"name":"{SEARCH}","arguments":{{"id":2,"query":'.encode(),
                    b"[" * 210 + b"]" * 210,
                    b'}},"jsonrpc":"2.0","id":6}',
                ],
            ),
            # A value "id" before the message's own id, which is not its last member.
            7: (
                types.PARSE_ERROR,
                [b'{"jsonrpc":"2.0","method":"id","id":7,"params":{"x":', b"[" * 210 + b"]" * 210, b"}}"],
            ),
        }
        for request_id, (code, pieces) in refusals.items():
            answer = server.send(*pieces)
            assert answer["id"] == request_id and answer["error"]["code"] == code, answer
            assert "result" not in answer and answer["error"]["message"]
        assert server.send(b"not json at all")["id"] is None  # no id to be found: null, as JSON-RPC says
        # The server still answers, exactly as the CLI does.
        answered = server.send(
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": 9,
                    "method": "tools/call",
                    "params": {"name": SEARCH, "arguments": {"query": "vat"}},
                }
            ).encode()
        )
        assert answered["id"] == 9 and answered["result"]["content"][0]["text"] == cli(site, SEARCH, {"query": "vat"})
        # A lone surrogate's escape is legal JSON, which the SDK's parser refuses and the CLI answers.
        head, tail = call_line(10, b"")
        lone = server.send(head, escaped := b'{"query":"vat \\ud800"}', tail)
        assert lone["id"] == 10 and lone["result"]["content"][0]["text"] == cli(site, SEARCH, None, escaped)
        assert lone["result"]["structuredContent"]["query"] == "vat \ud800"
        # Python's parser, which reads the escape, would read NaN too: no JSON, still refused.
        head, tail = call_line(11, b"")
        not_json = server.send(head, b'{"query":"vat \\ud800","limit":NaN}', tail)
        assert not_json["id"] == 11 and not_json["error"]["code"] == types.PARSE_ERROR
    finally:
        server.process.stdin.close()
        assert server.process.wait(timeout=60) == 0


def test_input_that_ends_is_answered_in_full_before_the_server_stops(site):
    """A script pipes its requests in and closes its end: every request read is answered,
    more of them than the server takes on at once, before it exits."""
    from govsearch.mcp_server import IN_FLIGHT

    hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "script", "version": "0"}}
    messages = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        *(
            {
                "jsonrpc": "2.0",
                "id": n,
                "method": "tools/call",
                "params": {"name": SEARCH, "arguments": {"query": "vat"}},
            }
            for n in range(1, IN_FLIGHT + 11)
        ),
    ]
    done = subprocess.run(
        [sys.executable, "-m", "govsearch", "mcp", "--site", str(site)],
        input="".join(json.dumps(message) + "\n" for message in messages).encode(),
        capture_output=True,
        env={**os.environ, **ENV},
        timeout=300,  # a guard against hanging, not a timing
        check=True,
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert sorted(answer["id"] for answer in answers) == list(range(IN_FLIGHT + 11))
    assert all("result" in answer for answer in answers)


def test_a_request_the_client_cancels_frees_its_place():
    """The SDK never answers a request its client cancelled: the cancellation, not an answer,
    frees its place, so a server taking one request at a time reads the next."""
    from govsearch.mcp_server import Pending

    def request(n: int) -> types.JSONRPCRequest:
        return types.JSONRPCRequest(jsonrpc="2.0", id=n, method="ping")

    async def steps() -> list[str]:
        pending, seen = Pending(1), []
        with anyio.fail_after(30):  # a guard against hanging, not a timing
            await pending.read(request(1))
            await pending.read(
                types.JSONRPCNotification(jsonrpc="2.0", method="notifications/cancelled", params={"requestId": 1})
            )
            await pending.read(request(2))  # would wait for ever if the cancellation had freed nothing
            seen.append("second read")
            pending.written(types.JSONRPCResponse(jsonrpc="2.0", id=2, result={}))
            await pending.answered()
            seen.append("all answered")
        return seen

    assert run_apart(steps) == ["second read", "all answered"]


def test_an_oversized_last_line_is_skipped_once():
    """A line too long to read, last in the input with no newline, begun in an earlier block:
    it is refused once (its start and end), and then the input ends; its start is not read again."""
    import io

    from govsearch.mcp_server import MAX_MESSAGE_BYTES, Lines

    oversized = b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":' + b"a" * (MAX_MESSAGE_BYTES + 10)
    lines = Lines(io.BytesIO(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n' + oversized))
    assert lines.next() == b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n'
    head, tail = lines.next()
    assert head.startswith(b'{"jsonrpc":"2.0","id":7,') and tail.endswith(b"a")
    assert lines.next() is None
