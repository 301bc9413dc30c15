"""The bench's HTTP/1.1 server compresses as GitHub Pages' CDN documents:
text types only; WebAssembly, archives and `.gz` files go as they are, with
no Content-Encoding (bench/README.md, "The host"). The log says when each
request arrived, so bytes can be counted by when the browser asked."""

from __future__ import annotations

import gzip
import sys
import time
import urllib.request
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

from server import BenchServer  # noqa: E402


def test_only_text_is_compressed_and_every_request_is_logged_with_its_arrival(tmp_path: Path):
    files = {
        "page.html": b"<p>" + b"hello " * 500 + b"</p>",
        "code.mjs": b"export const x = 1;\n" * 200,
        "data.json": b'{"a": 1}' * 300,
        "runtime.wasm": b"\0asm" + bytes(4000),
        "stdlib.zip": b"PK" + bytes(4000),
        "runtime.wasm.gz": gzip.compress(bytes(4000)),
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    server = BenchServer(tmp_path).start()
    try:
        encodings = {}
        for name, data in files.items():
            request = urllib.request.Request(server.url + name, headers={"Accept-Encoding": "gzip"})
            with urllib.request.urlopen(request) as response:
                body = response.read()
                encodings[name] = response.headers.get("Content-Encoding")
            assert (gzip.decompress(body) if encodings[name] else body) == data
        log = server.take_log()
        for _ in range(100):  # the server logs a response just after sending it
            if len(log) == len(files):
                break
            time.sleep(0.02)
            log += server.take_log()
    finally:
        server.stop()
    assert encodings == {
        "page.html": "gzip",
        "code.mjs": "gzip",
        "data.json": "gzip",
        "runtime.wasm": None,
        "stdlib.zip": None,
        "runtime.wasm.gz": None,
    }
    assert len(log) == len(files) and all(entry["requested"] <= entry["t"] for entry in log)
