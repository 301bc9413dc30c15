"""The runtime itself is inside the integrity chain (issue 38), and a visitor
saving data downloads nothing the searches do not need (issue 34).

The data manifest (fetched fresh) vouches for pyodide-lock.json; the lock
file for Pyodide's scripts, its gzipped WebAssembly, the standard library,
the wheels and the memory snapshot. A runtime file whose bytes differ makes
the page say search is unavailable, naming the file, and every tool call
answer site_unavailable naming it too: nothing it holds runs.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from browserkit import SEARCH_TOOL, execute_tools, wait_for_runtime
from test_faults import _tamper

SETTLED = ("ready", "unavailable", "failed")
NOTICE = "#search-runtime-notice"


def _wasm_with_a_byte_flipped(body: bytes) -> bytes:
    # Still a valid gzip: only the WebAssembly inside differs (in a function
    # body near the end, where a compiler may not even notice).
    wasm = bytearray(gzip.decompress(body))
    wasm[len(wasm) - 1000] ^= 0x01
    return gzip.compress(bytes(wasm), compresslevel=1)


def _code_appended(body: bytes) -> bytes:
    return body + b'\nglobalThis.govsearchTampered = "yes";\n'


def _lock_reformatted(body: bytes) -> bytes:
    # The same JSON, other bytes: a lock file the manifest does not vouch for.
    return json.dumps(json.loads(body)).encode("utf-8")


@pytest.mark.parametrize(
    "name, change",
    [
        ("pyodide.asm.wasm.gz", _wasm_with_a_byte_flipped),
        ("pyodide.asm.mjs", _code_appended),
        ("pyodide.mjs", _code_appended),
        ("pyodide-lock.json", _lock_reformatted),
    ],
)
def test_a_tampered_runtime_file_makes_search_unavailable_naming_it(open_page, name, change):
    page, guard = open_page(None)
    guard.expect_console_errors(r"integrity", r"wasm instantiation failed", r"did not load")
    page.route(f"**/pyodide/{name}", _tamper(change))
    page.goto(guard.origin + "/#q=land%20registry")
    assert wait_for_runtime(page, *SETTLED, timeout_ms=90_000) == "failed"

    # People: the notice says search is unavailable and names the file.
    notice = page.locator(NOTICE)
    notice.wait_for(state="visible")
    text = notice.text_content()
    assert "Search is unavailable" in text and name in text and "integrity check" in text, text
    assert page.locator("#search-results li").count() == 0

    # Agents: the same, as a site_unavailable error.
    result = execute_tools(page, [(SEARCH_TOOL, {"query": "vat"})])["results"][0]
    error = json.loads(result["text"])["error"]
    assert error["code"] == "site_unavailable" and name in error["message"], error
    # Nothing the tampered file holds ran.
    assert page.evaluate("() => globalThis.govsearchTampered === undefined")


def test_the_manifest_vouches_for_the_lock_and_the_lock_for_every_runtime_file(site_dir: Path):
    import hashlib

    runtime = site_dir / "pyodide"
    manifest = json.loads((site_dir / "data" / "manifest.json").read_text("utf-8"))
    lock_bytes = (runtime / "pyodide-lock.json").read_bytes()
    assert manifest["runtime"] == {
        "path": "pyodide-lock.json",
        "sha256": hashlib.sha256(lock_bytes).hexdigest(),
        "size": len(lock_bytes),
    }
    lock = json.loads(lock_bytes)
    files = lock["govsearch_runtime"]
    for name in ("pyodide.mjs", "pyodide.asm.mjs"):
        assert files[name]["sha256"] == hashlib.sha256((runtime / name).read_bytes()).hexdigest()
    wasm = files["pyodide.asm.wasm"]
    expanded = gzip.decompress((runtime / wasm["file_name"]).read_bytes())
    assert expanded == (runtime / "pyodide.asm.wasm").read_bytes()
    assert wasm["sha256"] == hashlib.sha256(expanded).hexdigest() and wasm["size"] == len(expanded)
    # The snapshot names the files its memory was made from: today's standard library and wheels.
    made = lock["govsearch_snapshot"]["made_with"]
    listed = {entry["file_name"]: entry["sha256"] for entry in [lock["govsearch_stdlib"], *lock["packages"].values()]}
    assert made == listed


def test_a_visitor_saving_data_downloads_nothing_for_later(browser, served):
    # With "save data" on, the first visit answers, but neither keeps the
    # memory snapshot for a next visit nor fetches files ahead for later searches.
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setDataSaverOverride", {"dataSaverEnabled": True})
        marks: dict[str, bool] = {}
        requests: list[str] = []
        # Downloads that arrived (a look in the cache for a kept snapshot, which misses, is not one).
        context.on("requestfinished", lambda request: requests.append(request.url))
        page.expose_function("govsearchMark", lambda name: marks.__setitem__(name, True))
        page.add_init_script(
            """(() => { const Native = window.Worker; window.Worker = class extends Native {
                 constructor(...args) { super(...args); this.addEventListener("message", (event) => {
                   if (event.data && event.data.type === "timing") window.govsearchMark(event.data.mark); }); } }; })();"""
        )
        page.goto(served.url("/#q=land%20registry"))
        assert page.evaluate("() => navigator.connection.saveData") is True
        assert wait_for_runtime(page, *SETTLED) == "ready"
        page.locator("#search-results li").first.wait_for()
        for _ in range(200):
            if marks.get("snapshot_skipped") or marks.get("snapshot_cached"):
                break
            page.wait_for_timeout(100)
        assert marks.get("snapshot_skipped") and not marks.get("snapshot_cached"), marks
        assert not [url for url in requests if "/pyodide/snapshot." in url], requests
    finally:
        context.close()
