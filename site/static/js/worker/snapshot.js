// Pyodide's memory snapshot (made by the build): read from the HTTP cache on
// a repeat visit, unpacked in the layout the lock file describes, and put
// into the cache for the next visit once search is idle.
import { sha256Hex } from "../download.js";
import { integrityOf } from "./pyodide-files.js";
import { mark } from "./report.js";
import { savesData, state } from "./state.js";

// The snapshot, only when the HTTP cache already holds it: a first visit does
// not wait for its bytes (see docs/startup.md); null otherwise. Its bytes
// come as a promise ({bytes}), and the response is taken as soon as the cache
// answers: the bytes are hashed and decompressed side by side while Pyodide
// loads its JavaScript and WebAssembly, and Pyodide gets them only once their
// sha256 is the lock file's (a fetch with `integrity` would hold everything
// back until it had read and checked the whole file).
export async function cachedSnapshot(indexURL, entry) {
  if (!entry || typeof entry.file_name !== "string" || typeof entry.sha256 !== "string" || !readable(entry.layout) || typeof DecompressionStream !== "function") {
    return null;
  }
  try {
    const url = new URL(entry.file_name, indexURL).href;
    const response = await fetch(url, { cache: "only-if-cached", mode: "same-origin", credentials: "same-origin" });
    if (!response.ok) {
      return null;
    }
    const [hashed, packed] = response.body.tee();
    const sha256 = new Response(hashed).arrayBuffer().then(sha256Hex);
    const buffer = new Response(packed.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
    const bytes = Promise.all([sha256, buffer]).then(([hex, unpacked]) => {
      if (hex !== entry.sha256.toLowerCase()) {
        mark("snapshot_refused");
        throw new Error("the cached memory snapshot is not the one the lock file names");
      }
      const memory = unpackSnapshot(unpacked, entry.layout);
      mark("snapshot_unpacked");
      return memory;
    });
    bytes.catch(() => {}); // loadPyodide meets (and reports) a failure
    return { bytes }; // wrapped: an async function would wait for a promise it returns
  } catch (error) {
    return null; // not cached: bootstrap instead
  }
}

// The layout is defined once, by the build (govsearch_build/snapshot_layout.py),
// and written into the lock file's snapshot entry: its magic, then words (the
// only kind this page reads: little-endian u32), first the header's fields in
// order, then each stored run's; then the runs' bytes. Every page no run
// covers is zero: half the memory is, so zero pages are not decompressed on
// every visit. A layout this page cannot read means bootstrapping instead.
const WORD = "u32le";

function readable(layout) {
  const names = (list) => Array.isArray(list) && list.every((name) => typeof name === "string");
  return Boolean(layout) && layout.word === WORD && typeof layout.magic === "string" && names(layout.header) && names(layout.run);
}

export function unpackSnapshot(buffer, layout) {
  const magic = new TextEncoder().encode(layout.magic);
  const view = new DataView(buffer);
  const word = (index) => view.getUint32(magic.length + 4 * index, true);
  const fields = (names, first) => Object.fromEntries(names.map((name, index) => [name, word(first + index)]));
  if (!new Uint8Array(buffer, 0, magic.length).every((byte, index) => byte === magic[index])) {
    throw new Error("the memory snapshot is not in the layout this page reads");
  }
  const { memory_bytes: size, page_bytes: page, runs } = fields(layout.header, 0);
  const memory = new Uint8Array(size);
  const headerWords = layout.header.length + layout.run.length * runs;
  let from = magic.length + 4 * headerWords;
  for (let run = 0; run < runs; run++) {
    const { first_page: first, pages } = fields(layout.run, layout.header.length + layout.run.length * run);
    const length = Math.min(pages * page, size - first * page);
    memory.set(new Uint8Array(buffer, from, length), first * page);
    from += length;
  }
  if (from !== buffer.byteLength) {
    throw new Error("the memory snapshot's runs do not add up to its length");
  }
  return memory;
}

// Once search is ready and idle, put the snapshot into the HTTP cache for the next visit.
export function keepSnapshot() {
  const entry = state.snapshotEntry;
  state.snapshotEntry = null;
  if (entry && savesData()) {
    mark("snapshot_skipped"); // saving data: the next visit bootstraps instead
  } else if (entry && typeof entry.file_name === "string") {
    fetch(new URL(entry.file_name, state.runtimeUrl).href, { credentials: "same-origin", integrity: integrityOf(entry.sha256) })
      .then((response) => response.arrayBuffer())
      .then(() => mark("snapshot_cached"), () => {});
  }
}
