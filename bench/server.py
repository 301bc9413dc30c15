"""A static server on 127.0.0.1 that gzips like GitHub Pages and logs every byte it sends.

HTML, CSS, JavaScript, JSON, SVG and plain text are sent gzip-compressed
(level 6) when the browser asks for it, as GitHub Pages' CDN does with its
default policy; everything else (WebAssembly, zip archives and wheels,
`.gz` files) as is, with no Content-Encoding (bench/README.md, "The host",
gives the sources). Compressed
bodies are prepared before timing starts (`precompress`), so compression time
is never part of a measurement. Each response is logged with its path, the
file's size and the body bytes actually sent.

With `cache_max_age` set, responses carry the caching headers GitHub Pages
sends (`Cache-Control: max-age=N`, `ETag`, `Last-Modified`) and a
conditional request for an unchanged file is answered 304, so a repeat
visit meets the HTTP cache as it would there. `overlay` serves extra files
(bench pages) at URL paths outside the site folder without copying them in.
"""

from __future__ import annotations

import gzip
import json
import queue
import shutil
import subprocess
import tempfile
import threading
import time
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".woff": "font/woff",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".txt": "text/plain; charset=utf-8",
    ".map": "application/json",
}
# What Fastly's default compression policy covers (by extension: css js html
# eot ico otf ttf json svg; by type: text/javascript, text/plain, ...), which is
# what GitHub Pages sends compressed. Not application/wasm, not zip.
GZIP = {".html", ".js", ".mjs", ".css", ".json", ".svg", ".txt", ".map", ".ico"}


class _RequestLog:
    """The responses a bench server sent, each {t, requested, path, status, raw, sent, gzip}, for the bench to read.

    `requested` is when the request arrived, `t` when its body was written."""

    def _open_log(self) -> None:
        self.log: list[dict] = []
        self.lock = threading.Lock()

    def take_log(self) -> list[dict]:
        with self.lock:
            entries, self.log = self.log, []
        return entries

    def record(self, entry: dict) -> None:
        with self.lock:
            self.log.append(entry)


class BenchServer(_RequestLog, ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, root: Path, cache_max_age: int | None = None, overlay: dict[str, Path] | None = None):
        self.root = root.resolve()
        self.cache_max_age = cache_max_age
        self.overlay = {path: Path(file).resolve() for path, file in (overlay or {}).items()}
        self._open_log()
        self.gz: dict[Path, bytes] = {}
        super().__init__(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"

    def start(self) -> BenchServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()

    def precompress(self, *relative: str) -> None:
        """Gzip every eligible file under these paths (files or folders) ahead of time."""
        for rel in relative:
            base = self.root / rel
            files = [base] if base.is_file() else (p for p in base.rglob("*") if p.is_file()) if base.is_dir() else []
            for path in files:
                if path.suffix in GZIP:
                    self.compressed(path)

    def compressed(self, path: Path) -> bytes:
        with self.lock:
            cached = self.gz.get(path)
        if cached is None:
            cached = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
            with self.lock:
                self.gz[path] = cached
        return cached


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body are two writes; with Nagle's algorithm on a kept-alive
    # connection the body waits for the client's delayed ACK (about 40 ms on
    # Linux), a cost no CDN adds.
    disable_nagle_algorithm = True
    server: BenchServer

    def log_message(self, format, *args):  # noqa: A002 - quiet
        pass

    def do_GET(self):  # noqa: N802
        self.requested = time.time()
        path = unquote(urlsplit(self.path).path)
        target = self.server.overlay.get(path) or (self.server.root / path.lstrip("/")).resolve()
        if not target.is_relative_to(self.server.root) and path not in self.server.overlay:
            return self._send(404, b"not found", "text/plain", path)
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file():
            return self._send(404, b"not found", "text/plain", path)
        kind = TYPES.get(target.suffix, "application/octet-stream")
        raw_size = target.stat().st_size
        self.validator = None
        if self.server.cache_max_age is not None:
            stat = target.stat()
            self.validator = (f'"{stat.st_mtime_ns:x}-{raw_size:x}"', formatdate(stat.st_mtime, usegmt=True))
            if self.headers.get("If-None-Match") == self.validator[0]:
                return self._send(304, b"", kind, path, 0)
        if target.suffix in GZIP and "gzip" in self.headers.get("Accept-Encoding", ""):
            body = self.server.compressed(target)
            return self._send(200, body, kind, path, raw_size, encoding="gzip")
        return self._send(200, target.read_bytes(), kind, path, raw_size)

    def _send(self, status, body, kind, path, raw_size=None, encoding=None):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        validator = getattr(self, "validator", None)
        if validator and status in (200, 304):
            self.send_header("Cache-Control", f"max-age={self.server.cache_max_age}")
            self.send_header("ETag", validator[0])
            self.send_header("Last-Modified", validator[1])
        else:
            self.send_header("Cache-Control", "no-cache")
        # Cross-origin isolation, so performance.measureUserAgentSpecificMemory() is available
        # (every resource of the three pages is same-origin).
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        if encoding:
            self.send_header("Content-Encoding", encoding)
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            return
        self.server.record(
            {
                "t": time.time(),
                "requested": getattr(self, "requested", time.time()),
                "path": path,
                "status": status,
                "raw": raw_size if raw_size is not None else len(body),
                "sent": len(body),
                "gzip": bool(encoding),
            }
        )


class H2BenchServer(_RequestLog):
    """The same server over HTTP/2 with TLS (bench/h2server.mjs, Node's http2), as GitHub Pages serves.

    Over HTTP/1.1 Chromium opens at most six connections to a host, so a
    round of twenty shard requests goes in four waves; over HTTP/2 they share
    one connection. The certificate is self-signed, made for 127.0.0.1 at
    start: the browser context must ignore certificate errors. Same interface
    as BenchServer (url, start, stop, precompress, take_log)."""

    def __init__(self, root: Path, cache_max_age: int | None = None, overlay: dict[str, Path] | None = None):
        self.root = root.resolve()
        self.cache_max_age = cache_max_age
        self.overlay = {path: str(Path(file).resolve()) for path, file in (overlay or {}).items()}
        self._open_log()
        self.port: int | None = None
        self.answers: queue.Queue[str] = queue.Queue()
        self.folder = Path(tempfile.mkdtemp(prefix="govsearch-h2-"))
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}/"

    def start(self) -> H2BenchServer:
        cert, key = self.folder / "cert.pem", self.folder / "key.pem"
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
             "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
            check=True, capture_output=True,
        )  # fmt: skip
        max_age = "-" if self.cache_max_age is None else str(self.cache_max_age)
        self.process = subprocess.Popen(
            ["node", str(Path(__file__).with_name("h2server.mjs")), str(self.root), str(cert), str(key), max_age,
             json.dumps({"overlay": self.overlay, "types": TYPES, "gzip": sorted(GZIP)})],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        threading.Thread(target=self._read, daemon=True).start()
        self.port = int(self.answers.get(timeout=30).split()[1])
        return self

    def _read(self) -> None:
        for line in self.process.stdout:
            if line.startswith("{"):
                self.record(json.loads(line))
            else:
                self.answers.put(line.strip())

    def precompress(self, *relative: str) -> None:
        for rel in relative:
            self.process.stdin.write(f"precompress {rel}\n")
            self.process.stdin.flush()
            self.answers.get(timeout=3600)

    def stop(self) -> None:
        if self.process:
            self.process.terminate()
            self.process.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)
