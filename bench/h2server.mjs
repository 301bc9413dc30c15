// The bench's static server over HTTP/2 with TLS, as GitHub Pages serves
// (bench/server.py's H2BenchServer starts it; see its docstring):
//   node bench/h2server.mjs ROOT CERT KEY MAX_AGE OPTIONS_JSON
// MAX_AGE "-" sends no caching headers; OPTIONS_JSON holds {overlay: {url
// path: file}, types: {suffix: content type}, gzip: [suffix, ...]} (server.py's
// TYPES and GZIP, defined there once). On stdin it takes "precompress REL"
// lines (answered "precompressed"); on stdout it writes "listening PORT", then
// one JSON line per response sent: {t, path, status, raw, sent, gzip}.
import { readFileSync, statSync, readdirSync } from "node:fs";
import { createSecureServer } from "node:http2";
import { extname, join, resolve, sep } from "node:path";
import { createInterface } from "node:readline";
import { gzipSync } from "node:zlib";

const [root, certFile, keyFile, maxAgeArg, optionsJson] = process.argv.slice(2);
const ROOT = resolve(root);
const maxAge = maxAgeArg === "-" ? null : Number(maxAgeArg);
const { overlay, types: TYPES, gzip } = JSON.parse(optionsJson);
const GZIP = new Set(gzip);
const gzipped = new Map(); // file -> gzip bytes (level 6, as bench/server.py)

function compressed(file) {
  if (!gzipped.has(file)) {
    gzipped.set(file, gzipSync(readFileSync(file), { level: 6 }));
  }
  return gzipped.get(file);
}

function precompress(relative) {
  const walk = (path) => {
    let stat;
    try {
      stat = statSync(path);
    } catch (error) {
      return;
    }
    if (stat.isDirectory()) {
      for (const name of readdirSync(path)) {
        walk(join(path, name));
      }
    } else if (GZIP.has(extname(path))) {
      compressed(path);
    }
  };
  walk(join(ROOT, relative));
}

function target(urlPath) {
  if (overlay[urlPath]) {
    return overlay[urlPath];
  }
  const file = resolve(ROOT, "." + urlPath);
  if (file !== ROOT && !file.startsWith(ROOT + sep)) {
    return null;
  }
  try {
    return statSync(file).isDirectory() ? join(file, "index.html") : file;
  } catch (error) {
    return null;
  }
}

function respond(stream, headers) {
  const urlPath = decodeURIComponent(new URL(headers[":path"], "https://host").pathname);
  const file = target(urlPath);
  let stat = null;
  try {
    stat = file && statSync(file);
  } catch (error) {
    stat = null;
  }
  const out = { "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp" };
  const send = (status, body, raw, encoding) => {
    stream.respond({ ...out, ":status": status, "content-length": body.length, ...(encoding ? { "content-encoding": encoding } : {}) });
    stream.end(body);
    process.stdout.write(JSON.stringify({ t: Date.now() / 1000, path: urlPath, status, raw, sent: body.length, gzip: Boolean(encoding) }) + "\n");
  };
  if (!stat || !stat.isFile()) {
    out["content-type"] = "text/plain";
    out["cache-control"] = "no-cache";
    return send(404, Buffer.from("not found"), 9, null);
  }
  out["content-type"] = TYPES[extname(file)] || "application/octet-stream";
  if (maxAge === null) {
    out["cache-control"] = "no-cache";
  } else {
    const etag = `"${stat.mtimeMs.toString(16)}-${stat.size.toString(16)}"`;
    Object.assign(out, { "cache-control": `max-age=${maxAge}`, etag, "last-modified": stat.mtime.toUTCString() });
    if (headers["if-none-match"] === etag) {
      return send(304, Buffer.alloc(0), 0, null);
    }
  }
  if (GZIP.has(extname(file)) && /gzip/.test(headers["accept-encoding"] || "")) {
    return send(200, compressed(file), stat.size, "gzip");
  }
  return send(200, readFileSync(file), stat.size, null);
}

const server = createSecureServer({ cert: readFileSync(certFile), key: readFileSync(keyFile), allowHTTP1: false });
server.on("stream", (stream, headers) => {
  stream.on("error", () => {});
  respond(stream, headers);
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`listening ${server.address().port}\n`));
createInterface({ input: process.stdin }).on("line", (line) => {
  const [command, relative] = line.split(" ");
  if (command === "precompress") {
    precompress(relative);
    process.stdout.write("precompressed\n");
  }
});
