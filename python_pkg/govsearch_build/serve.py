"""Serve a built site on 127.0.0.1, as GitHub Pages would (static files only)."""

from __future__ import annotations

import functools
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class SiteHandler(SimpleHTTPRequestHandler):
    # Headers and body go out in separate writes; without this, Nagle's
    # algorithm can hold the body back for the client's delayed ACK (~40 ms).
    disable_nagle_algorithm = True
    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".svg": "image/svg+xml",
    }

    def send_error(self, code, message=None, explain=None):
        # Like GitHub Pages: a missing path gets the site's own 404 page.
        page = Path(self.directory) / "404.html"
        if code == 404 and page.exists():
            body = page.read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
            return
        super().send_error(code, message, explain)

    def log_message(self, format, *args):  # quiet: one line per request is noise here
        pass


def make_server(site_dir: Path, port: int = 0) -> ThreadingHTTPServer:
    handler = functools.partial(SiteHandler, directory=str(site_dir))
    return ThreadingHTTPServer(("127.0.0.1", port), handler)


def serve(site_dir: Path, port: int = 8000) -> None:
    server = make_server(site_dir, port)
    print(f"Serving {site_dir} at http://127.0.0.1:{server.server_address[1]}/ (Ctrl+C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
