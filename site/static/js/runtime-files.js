// The runtime's own files, each checked against the sha256 that vouches for it
// before it is used (docs/startup.md, "Integrity"). The data manifest, fetched
// fresh and the root of every check, vouches for pyodide-lock.json; the lock
// file for Pyodide's two scripts, its WebAssembly, the standard library, the
// wheels and the memory snapshot. A file that differs fails the start, closed,
// with an IntegrityError naming it.
import { IntegrityError, download, requestUrl, verify } from "./download.js";

export const LOCK = "pyodide-lock.json";
const WASM = "pyodide.asm.wasm";
const WASM_GZ = "pyodide.asm.wasm.gz"; // runtime.py publishes it: the host sends WebAssembly uncompressed
const SCRIPTS = ["pyodide.mjs", "pyodide.asm.mjs"];

// The lock file's contents, once the manifest's entry for it matches its bytes.
export async function trustedLock(indexURL, manifest, options) {
  const [bytes, listed] = await Promise.all([download(new URL(LOCK, indexURL).href, options), manifest]);
  const entry = listed && listed.manifest && listed.manifest.runtime;
  if (!entry || entry.path !== LOCK) {
    throw new IntegrityError(`the data manifest does not vouch for ${LOCK}, so the runtime was not used`);
  }
  await verify(bytes, entry);
  return JSON.parse(new TextDecoder().decode(bytes));
}

// Pyodide's two scripts, downloaded at once; resolves when both match the lock
// file. Importing them then takes the copies just checked from the HTTP cache
// (a worker cannot give import() an integrity of its own).
export async function checkScripts(indexURL, lock, options) {
  const files = SCRIPTS.map((name) => download(new URL(name, indexURL).href, options));
  files.forEach((file) => file.catch(() => {})); // reported below, in order
  const contents = await lock;
  for (const [index, name] of SCRIPTS.entries()) {
    await verify(await files[index], contents.govsearch_runtime && contents.govsearch_runtime[name], name, LOCK);
  }
}

// The body, expanded when it is gzip (a host may already have expanded it).
async function expanded(body) {
  const reader = body.getReader();
  const first = await reader.read();
  const whole = new ReadableStream({
    start(controller) {
      if (first.done) {
        controller.close();
      } else {
        controller.enqueue(first.value);
      }
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        controller.close();
      } else {
        controller.enqueue(value);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const gzip = !first.done && first.value[0] === 0x1f && first.value[1] === 0x8b;
  return gzip ? whole.pipeThrough(new DecompressionStream("gzip")) : whole;
}

// The response with its body expanded when it is gzip: the standard library
// is published as one gzip stream over a stored zip (runtime.py
// `_publish_stdlib`), checked as it came (fetch integrity) and handed to
// Pyodide expanded. Any other body passes through as it is.
export async function expandedResponse(response) {
  if (!response.ok || !response.body) {
    return response;
  }
  return new Response(await expanded(response.body), { status: response.status, statusText: response.statusText });
}

// pyodide.asm.wasm from its gzipped copy: expanded as it downloads and streamed
// into compilation at once, so compiling keeps pace with a slow link; Pyodide
// gets the module only once the expanded bytes match the lock file. Its own
// request for pyodide.asm.wasm is answered with a marker, and its
// instantiateStreaming of that marker with an instance of the checked module
// (a new one each time, so a start that falls back to bootstrapping reuses it).
// `wrap(make)` installs the answering fetch, `make(next)`: the worker's
// lockdown puts it beneath its one check (wrapFetch). Returns a promise that
// settles once the whole file has arrived (or failed to), or at once when the
// HTTP cache holds it (a repeat visit: nothing large is downloading).
export function provideWasm(indexURL, lock, wrap = assignFetch) {
  const href = new URL(WASM_GZ, indexURL).href;
  // Asked before the download below, so a first visit's entry is not yet being written.
  const cached = self.fetch(href, { cache: "only-if-cached", mode: "same-origin", credentials: "same-origin" }).then(
    (response) => (response.body && response.body.cancel(), response.ok),
    () => false,
  );
  const streams = self
    .fetch(href, { credentials: "same-origin" })
    .then((response) => {
      if (!response.ok) {
        throw new Error(`${WASM_GZ} answered ${response.status}`);
      }
      return expanded(response.body);
    })
    .then((stream) => stream.tee());
  const compiled = streams.then(([bytes]) => WebAssembly.compileStreaming(new Response(bytes, { headers: { "Content-Type": "application/wasm" } })));
  compiled.catch(() => {}); // the check below speaks first
  const read = streams.then(([, bytes]) => new Response(bytes).arrayBuffer());
  const checked = Promise.all([lock, read]).then(([contents, bytes]) => {
    const entry = contents.govsearch_runtime && contents.govsearch_runtime[WASM];
    return verify(bytes, entry && entry.file_name === WASM_GZ ? entry : null, WASM_GZ, LOCK);
  });
  const module = checked.then(() => compiled);
  module.catch(() => {}); // Pyodide meets (and reports) the failure when it instantiates
  const url = new URL(WASM, indexURL).href;
  const marker = Promise.resolve(new Response(null));
  wrap((next) => (input, init) => (requestUrl(input) === url ? marker : next(input, init)));
  const { instantiateStreaming } = WebAssembly;
  WebAssembly.instantiateStreaming = async (source, imports) => {
    if (source !== marker) {
      return instantiateStreaming(source, imports);
    }
    const checkedModule = await module;
    return { module: checkedModule, instance: await WebAssembly.instantiate(checkedModule, imports) };
  };
  return new Promise((resolve) => {
    read.then(resolve, resolve); // a failure reaches Pyodide through `module`
    cached.then((hit) => hit && resolve());
  });
}

// Wrapping by assignment, where no lockdown offers a way beneath its check.
function assignFetch(make) {
  self.fetch = make(self.fetch);
}

// The memory snapshot holds the code of the wheels and standard library it was
// made from: it is used only while the lock file names those very files.
export function snapshotMatches(lock) {
  const made = lock.govsearch_snapshot && lock.govsearch_snapshot.made_with;
  if (!made || typeof made !== "object") {
    return false;
  }
  const listed = [lock.govsearch_stdlib, ...Object.values(lock.packages || {})].filter((entry) => entry && entry.file_name);
  const current = new Map(listed.map((entry) => [entry.file_name, entry.sha256]));
  return Object.entries(made).every(([name, sha256]) => current.get(name) === sha256);
}

// The visitor's browser asks to save data (as the page or the worker sees it:
// `pageSaysSaveData`), or says the connection is slow (effectiveType below
// 4g): then nothing is downloaded that the searches themselves do not need.
export function savingData(pageSaysSaveData) {
  const connection = self.navigator && self.navigator.connection;
  const slow = Boolean(connection) && /^(slow-2g|2g|3g)$/.test(String(connection.effectiveType || ""));
  return Boolean(pageSaysSaveData) || Boolean(connection && connection.saveData) || slow;
}
