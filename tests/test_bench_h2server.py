"""The bench's HTTP/2 server (bench/h2server.mjs behind server.H2BenchServer) serves as GitHub Pages does.

Requests go through Node's own HTTP/2 client, so the test also shows the
server speaks HTTP/2 over TLS, not HTTP/1.1.
"""

from __future__ import annotations

import base64
import gzip
import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

from server import H2BenchServer  # noqa: E402

# Node's HTTP/2 client: one request per line of argv[2] (JSON [path, headers]),
# prints [status, headers, body as base64] per request.
CLIENT = r"""
const http2 = require("node:http2");
const [origin, requests] = [process.argv[1], JSON.parse(process.argv[2])];
const session = http2.connect(origin, { rejectUnauthorized: false });
(async () => {
  const out = [];
  for (const [path, headers] of requests) {
    out.push(await new Promise((resolve, reject) => {
      const stream = session.request({ ":path": path, ...headers });
      const chunks = [];
      let head = null;
      stream.on("response", (h) => { head = h; });
      stream.on("data", (c) => chunks.push(c));
      stream.on("end", () => resolve([head[":status"], head, Buffer.concat(chunks).toString("base64")]));
      stream.on("error", reject);
    }));
  }
  session.close();
  console.log(JSON.stringify(out));
})();
"""


def _get(server: H2BenchServer, *requests: tuple[str, dict]) -> list:
    result = subprocess.run(
        ["node", "-e", CLIENT, server.url.rstrip("/"), json.dumps(requests)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return [(status, headers, base64.b64decode(body)) for status, headers, body in json.loads(result.stdout)]


def test_h2_server_gzips_caches_and_refuses_paths_outside_its_folder(tmp_path: Path):
    site = tmp_path / "site"
    (site / "data").mkdir(parents=True)
    text = json.dumps({"words": ["land"] * 200}).encode()
    (site / "data" / "shard.json").write_bytes(text)
    (tmp_path / "secret.txt").write_text("not served")
    server = H2BenchServer(site, cache_max_age=600).start()
    try:
        server.precompress("data")
        [(status, headers, body)] = _get(server, ("/data/shard.json", {"accept-encoding": "gzip"}))
        assert status == 200 and headers["content-encoding"] == "gzip"
        assert gzip.decompress(body) == text
        assert headers["cache-control"] == "max-age=600" and headers["etag"]
        again, outside = _get(
            server,
            ("/data/shard.json", {"if-none-match": headers["etag"]}),
            ("/..%2fsecret.txt", {}),  # decoded only after the URL is resolved
        )
        assert again[0] == 304 and again[2] == b""
        assert outside[0] == 404
        log = server.take_log()
        assert [(entry["path"], entry["status"]) for entry in log] == [
            ("/data/shard.json", 200),
            ("/data/shard.json", 304),
            ("/../secret.txt", 404),
        ]
        assert log[0]["raw"] == len(text) and log[0]["sent"] == len(body) and log[0]["gzip"]
    finally:
        server.stop()
