// The runtime's own requests while it starts: its bytes counted for the
// progress bar, the wheels and standard library fetched early with their
// sha256 as fetch integrity, and the integrity check named when a load fails.
import { download, requestUrl, sha256Hex } from "../download.js";
import { expandedResponse } from "../runtime-files.js";
import { STALL_MS } from "./data-files.js";
import { wrapFetch } from "./lockdown.js";
import { progress } from "./report.js";
import { secondWave } from "./state.js";

// The lock file's entries for govsearch's wheel and those it depends on.
function wheels(lock) {
  const names = ["govsearch", ...((lock.packages.govsearch && lock.packages.govsearch.depends) || [])];
  return names.map((name) => lock.packages[name]);
}

// A sha256 in hex as a fetch `integrity` value.
export function integrityOf(hex) {
  return "sha256-" + btoa(String.fromCharCode(...(String(hex).match(/../g) || []).map((pair) => parseInt(pair, 16))));
}

// The standard library with what govsearch imports compiled (the build's
// precompile.mjs), or undefined: Pyodide's own, compiled in the page.
export function stdlibUrl(indexURL, lock) {
  const entry = lock.govsearch_stdlib;
  return entry && typeof entry.file_name === "string" && typeof entry.sha256 === "string" ? new URL(entry.file_name, indexURL).href : undefined;
}

// While the runtime loads, count the bytes of every response from `prefix`
// as they arrive (Pyodide offers no progress of its own); returns the stop
// (the wrapper stays, passing responses through: other wrappers sit on it).
// The count reads a clone: Pyodide gets the browser's own response, so
// WebAssembly compiles it while streaming and the browser can cache the
// compiled code beside the HTTP-cached file (a synthetic Response cannot).
export function countRuntimeBytes(prefix) {
  let loaded = 0;
  let counting = true;
  const readers = [];
  wrapFetch((next) => async (input, init) => {
    const response = await next(input, init);
    // A look into the HTTP cache (`only-if-cached`: is the WebAssembly or the snapshot there?) downloads nothing.
    if (!counting || !response.url.startsWith(prefix) || !response.body || (init && init.cache === "only-if-cached")) {
      return response;
    }
    const reader = response.clone().body.getReader();
    readers.push(reader);
    const count = async () => {
      for (let part = await reader.read(); !part.done; part = await reader.read()) {
        loaded += part.value.byteLength;
        progress("runtime", "Downloading the search engine", loaded);
      }
    };
    count().catch(() => {}); // the original response reports any failure
    return response;
  });
  return () => {
    counting = false;
    for (const reader of readers.splice(0)) {
      reader.cancel().catch(() => {}); // the response itself reads on
    }
  };
}

// Our precompiled standard library and the wheels the lock file lists for
// govsearch, fetched with their sha256 as fetch integrity while the runtime
// compiles: the standard library at once, the wheels in the second wave
// (state.js), which opens once it and `wasmIn` (the WebAssembly's download)
// are in. Pyodide's own requests for them are answered with these responses
// (so a file that fails its check fails the start, closed). Returns a
// promise of them all (rejected when any fails its check).
export function prefetchRuntimeFiles(indexURL, lock, wasmIn = Promise.resolve()) {
  const early = new Map();
  const entries = wheels(lock).filter(Boolean);
  const stdlib = stdlibUrl(indexURL, lock);
  for (const entry of stdlib ? [lock.govsearch_stdlib, ...entries] : entries) {
    const href = new URL(entry.file_name, indexURL).href;
    const integrity = integrityOf(entry.sha256);
    const own = { credentials: "same-origin", integrity }; // tells this fetch from Pyodide's below
    const response = href === stdlib ? fetch(href, own) : secondWave.ready.then(() => fetch(href, own));
    response.catch(() => {}); // Pyodide meets (and reports) the failure when it asks
    early.set(href, { integrity, own, response });
  }
  const first = stdlib ? early.get(stdlib).response : null;
  Promise.allSettled([wasmIn, first]).then(secondWave.open);
  wrapFetch((next) => (input, init) => {
    const href = requestUrl(input);
    const waiting = early.get(href);
    if (waiting && init === waiting.own) {
      return next(input, init); // the early fetch itself (a wheel's goes out after this wrapper is in place)
    }
    // Pyodide asks for the wheels with their integrity and for the standard library without.
    // The standard library comes gzipped (runtime.py `_publish_stdlib`): Pyodide gets it
    // expanded, the worker's own downloads (download.js, with an AbortSignal) the file as it is.
    if (waiting && href === stdlib && !(init && init.signal)) {
      early.delete(href);
      return waiting.response.then(expandedResponse);
    }
    if (waiting && href !== stdlib && init && init.integrity === waiting.integrity) {
      early.delete(href);
      return waiting.response;
    }
    return next(input, init);
  });
  return Promise.all([...early.values()].map((waiting) => waiting.response)); // resolves once every file passed its check
}

// Each wheel and the precompiled standard library are checked against their
// sha256 in pyodide-lock.json (fetch integrity), but a mismatch surfaces only
// as "Failed to fetch" (or, for the standard library, a broken bootstrap).
// After a failed load, check them ourselves to name the integrity check.
export async function packageIntegrity(indexURL) {
  try {
    const lock = JSON.parse(new TextDecoder().decode(await download(new URL("pyodide-lock.json", indexURL).href, { stallMs: STALL_MS })));
    for (const entry of [lock.govsearch_stdlib, ...wheels(lock)]) {
      const bytes = entry && (await download(new URL(entry.file_name, indexURL).href, { stallMs: STALL_MS }));
      if (!bytes) {
        continue;
      }
      if ((await sha256Hex(bytes)) !== entry.sha256) {
        return `${entry.file_name} failed its integrity check (its sha256 differs from pyodide-lock.json), so it was not used`;
      }
    }
  } catch (error) {
    // nothing more to say than Pyodide's own message
  }
  return "";
}
