// Module Web Worker: runs the govsearch Python package in Pyodide.
//
// The messages (types in messages.js):
// Messages in: {type: "init", base, lock, saveData}, {type: "call", id, tool, argumentsJson, prefixLast, lane, offset}.
// Messages out: {type: "alive"} once the worker holds the Web Lock `lock`
// (it keeps it until it ends, so the page can tell when it is gone),
// {type: "progress", phase, label, loaded, total},
// {type: "ready", records} | {type: "unavailable", message} | {type: "failed", message},
// {type: "result", id, result} where result is the tool result JSON string,
// exactly what `python -m govsearch call TOOL --site DIR` prints,
// {type: "crashed", message} when Python has failed fatally; the worker then
// closes itself and the page starts a new one.
// {type: "stats"} in answers {type: "stats", wasmHeapBytes}: the size of
// Python's WebAssembly memory, for benchmarks (null before Pyodide starts).
// {type: "timing", mark, at}: a start-up step done (worker_started,
// runtime_ready, wheels_loaded, data_downloaded, catalogue_open,
// snapshot_cached, or snapshot_skipped when the browser asks to save data or
// says the connection is slow; snapshot_refused when the cached one is not the lock file's;
// after a start from the cached snapshot: snapshot_unpacked,
// snapshot_restored, then wheels_installed or wheels_refused once idle) at
// wall-clock time `at`.

import { download, IntegrityError, manifestOf, sha256Hex } from "./download.js";
import { errorJson, LANE, MESSAGE, pageOffset } from "./messages.js";
import { checkScripts, expandedResponse, provideWasm, savingData, snapshotMatches, trustedLock } from "./runtime-files.js";

const PYTHON = `
from govsearch import FetchingLoader
from govsearch.session import Session

# Files the worker downloaded sit in /site/data; shards of a large site are
# fetched when a query first needs them.
_session = Session(FetchingLoader("/site", GOVSEARCH_DATA_URL))
govsearch_answer = _session.answer_sync
govsearch_attempt = _session.attempt
govsearch_warm = _session.warm
govsearch_later = _session.later_files
govsearch_read_ahead = _session.read_ahead
govsearch_status = {"ok": _session.catalogue is not None, "message": _session.failure, "records": _session.records}
`;

let answer = null; // the Python govsearch_answer function, once ready
let attempt = null; // govsearch_attempt: the answer, or the data files to download first
let dataUrl = null; // absolute URL of the site's data folder
const MAX_FETCH_ROUNDS = 7; // at most: directory pages, postings, vocabulary, expansions, profile chunks, row pages, rows
let fallback = null; // an error result JSON string when Python never became ready
let dead = false; // Python failed fatally: nothing more can run here
let runtime = null; // the Pyodide instance, once loaded
let warming = null; // govsearch_warm while preparation remains: one piece per idle moment
let busy = 0; // calls being answered
let runtimeUrl = null; // absolute URL of the site's runtime folder
let snapshotEntry = null; // the lock file's memory snapshot, to be cached once search is idle
let wheelsLater = null; // after a snapshot start: installs the wheels' files once search is idle
let uncount = () => {}; // stops counting the runtime's bytes for the progress bar
let pageSavesData = false; // the page said the browser asks to save data (init's saveData)
// A call not started within DEADLINE_MS of arriving answers "timeout" (it
// waited behind other calls); a running call ends when its work does (each
// call's work is bounded, see docs/architecture.md "Work budget").
const DEADLINE_MS = 30000;
// A shard download that has not finished in STALL_MS is abandoned and tried
// again, up to DOWNLOAD_ATTEMPTS times; then only the calls needing it fail.
const STALL_MS = 8000;
const DOWNLOAD_ATTEMPTS = 2;
// Preparation waits this long after "ready" for the page's first calls.
const FIRST_CALL_GRACE_MS = 300;
const FETCH_AHEAD_QUIET_MS = 500; // no call for this long before files for later calls are fetched

function post(message) {
  self.postMessage(message);
}

function progress(phase, label, loaded = 0, total = 0) {
  post({ type: MESSAGE.PROGRESS, phase, label, loaded, total });
}

// The URL a fetch() was called with (a string, URL or Request).
function requestUrl(input) {
  return String(input && typeof input === "object" && "url" in input ? input.url : input);
}

// The page starts this worker from a blob: URL (bridge.js), so the browser
// applies the page's Content Security Policy here too: no script from other
// origins, data: or blob: URLs, no eval, requests and fonts only from this
// origin. GitHub Pages cannot send a CSP header for the worker's own file.
// Within the origin the worker narrows itself further, before it loads
// anything: requests only to the site's data and runtime folders (paths
// decoded and normalised first), no other ways out (sockets, event streams,
// nested workers, storage, fonts), and no code from strings. Each is fixed
// (non-configurable), so code running here cannot undo it; see SECURITY.md.
function lockDown(base) {
  const inside = folderCheck(base);
  const refuse = (url) => new TypeError(`govsearch worker: ${String(url).slice(0, 80)} is outside the site's data and runtime folders`);
  guardFetch(inside, refuse);
  const open = XMLHttpRequest.prototype.open;
  fixed(XMLHttpRequest.prototype, "open", function (method, url, ...rest) {
    const href = inside(String(url)); // read once: the URL checked is the URL opened
    if (!href) {
      throw refuse(url);
    }
    return open.call(this, method, href, ...rest);
  });
  for (const name of ["WebSocket", "EventSource", "WebTransport", "Worker", "SharedWorker", "indexedDB", "caches", "importScripts", "FontFace", "fonts"]) {
    remove(name);
  }
  noCodeFromStrings();
}

// A property no later code can change or delete.
function fixed(target, name, value) {
  Object.defineProperty(target, name, { value, configurable: false, writable: false });
}

// Take `name` away from the worker's global scope and every prototype that
// holds it (Chromium keeps fetch, fonts, caches and the like on
// WorkerGlobalScope.prototype, where deleting the global's copy finds them).
function remove(name) {
  for (let target = self; target; target = Object.getPrototypeOf(target)) {
    if (target === self || Object.prototype.hasOwnProperty.call(target, name)) {
      try {
        fixed(target, name, undefined);
      } catch (error) {
        // not present in this browser
      }
    }
  }
}

// The absolute URL of a request that stays inside the site's data or runtime
// folder, else null. The path is checked as the server will read it: percent-
// decoded, so "%2E%2E%2F" is the ".." it stands for.
function folderCheck(base) {
  const origin = self.location.origin;
  const home = new URL(base, origin);
  const folders = ["data/", "pyodide/"].map((folder) => new URL(folder, home).pathname);
  return (text) => {
    try {
      const url = new URL(text, home); // a blob: worker has no base of its own for relative URLs
      const path = decodeURIComponent(url.pathname);
      const parts = path.split(/[/\\]/);
      const plain = ![...path].some((char) => char < " ") && !parts.includes("..") && !parts.includes(".");
      return url.origin === origin && !url.username && !url.password && plain && folders.some((folder) => path.startsWith(folder)) ? url.href : null;
    } catch (error) {
      return null; // not a URL, or a malformed escape
    }
  };
}

// fetch only inside the folders, wherever it is found: the global's (an
// accessor: code that wraps fetch, as this worker's start-up does, assigns
// its wrapper, which then runs after the check, never instead of it) and the
// prototype's. A Request's URL is read with the browser's own getter, and
// any other input turned into a string once, so the URL checked is the URL fetched.
function guardFetch(inside, refuse) {
  let owner = self; // where the browser keeps fetch
  while (owner && !Object.prototype.hasOwnProperty.call(owner, "fetch")) {
    owner = Object.getPrototypeOf(owner);
  }
  const native = self.fetch.bind(self);
  const urlOf = Object.getOwnPropertyDescriptor(Request.prototype, "url").get;
  const checked = (next) => (input, init) => {
    let request = null;
    try {
      request = urlOf.call(input) && input;
    } catch (error) {
      // not a Request
    }
    const text = request ? urlOf.call(request) : String(input);
    const href = inside(text);
    return href ? next(request || href, init) : Promise.reject(refuse(text));
  };
  let inner = native;
  Object.defineProperty(self, "fetch", {
    configurable: false,
    enumerable: true,
    get: () => checked(inner),
    set: (wrapper) => {
      if (typeof wrapper === "function") {
        inner = wrapper;
      }
    },
  });
  if (owner && owner !== self) {
    fixed(owner, "fetch", checked(native));
  }
}

// No eval, Function or (async, generator) function constructors, and no
// timers with a string: the same as the page's CSP, kept even if a browser
// does not carry the policy into a blob: worker.
function noCodeFromStrings() {
  const blocked = (prototype) => {
    const noCode = function () {
      throw new EvalError("govsearch worker: code from strings is switched off");
    };
    noCode.prototype = prototype; // instanceof checks keep working
    return noCode;
  };
  fixed(self, "eval", blocked(undefined));
  for (const fn of [function () {}, async function () {}, function* () {}, async function* () {}]) {
    const prototype = Object.getPrototypeOf(fn);
    fixed(prototype, "constructor", blocked(prototype));
  }
  fixed(self, "Function", Function.prototype.constructor);
  for (const name of ["setTimeout", "setInterval"]) {
    const native = self[name].bind(self);
    fixed(self, name, (handler, ...rest) => (typeof handler === "function" ? native(handler, ...rest) : blocked(undefined)()));
  }
}

// Every top-level file the manifest lists for the catalogue (not the page's
// tool list, which is outside `files`), and the shards a small sharded site
// sends with it (`upFront`: saves a first search rounds of requests; Python
// checks them against the files that list them as it reads them),
// downloaded in parallel; rejects when the manifest cannot be downloaded.
async function downloadCatalogue(listed, onBytes) {
  const { bytes, manifest } = await listed;
  const upFront = manifest && Array.isArray(manifest.upFront) ? manifest.upFront : [];
  const entries = [...Object.values((manifest && manifest.files) || {}), ...upFront].filter((entry) => entry && typeof entry.path === "string");
  const total = entries.reduce((sum, entry) => sum + (Number(entry.size) || 0), 0);
  const files = await Promise.all(entries.map(async (entry) => [entry.path, await downloadData(entry.path, (count) => onBytes(count, total))]));
  return [["manifest.json", bytes], ...files.filter(([, data]) => data)];
}

// Put downloaded data files where Python's loader reads them.
const DATA_DIR = "/site/data/";

function store(files) {
  for (const [name, bytes] of files) {
    const target = DATA_DIR + name;
    runtime.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    runtime.FS.writeFile(target, bytes);
  }
}

// Each wheel and the precompiled standard library are checked against their
// sha256 in pyodide-lock.json (fetch integrity), but a mismatch surfaces only
// as "Failed to fetch" (or, for the standard library, a broken bootstrap).
// After a failed load, check them ourselves to name the integrity check.
async function packageIntegrity(indexURL) {
  try {
    const lock = JSON.parse(new TextDecoder().decode(await download(new URL("pyodide-lock.json", indexURL).href, { stallMs: STALL_MS })));
    const names = ["govsearch", ...((lock.packages.govsearch && lock.packages.govsearch.depends) || [])];
    for (const entry of [lock.govsearch_stdlib, ...names.map((name) => lock.packages[name])]) {
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

// When pyodide.asm.wasm does not load (404, network error, corrupt bytes)
// Pyodide only logs "wasm instantiation failed!" with console.warn, and
// loadPyodide never settles. Turn that warning into an error.
function failOnWasmWarning(loading) {
  const warn = console.warn;
  let failed = null; // what Pyodide warned after "wasm instantiation failed!"
  return new Promise((resolve, reject) => {
    console.warn = (...args) => {
      warn.apply(console, args);
      if (failed) {
        failed.push(args.map((arg) => (arg && arg.message ? arg.message : String(arg))).join(" "));
      } else if (/wasm instantiation failed/i.test(String(args[0]))) {
        failed = [];
        // Pyodide warns the cause next, in the same task.
        setTimeout(() => reject(new Error(`the WebAssembly runtime (pyodide.asm.wasm) did not load${failed.length ? ": " + failed.join(" ") : ""}`)), 0);
      }
    };
    loading.then(resolve, reject);
  }).finally(() => {
    console.warn = warn;
  });
}

// While the runtime loads, count the bytes of every response from `prefix`
// as they arrive (Pyodide offers no progress of its own); returns the stop
// (the wrapper stays, passing responses through: other wrappers sit on it).
// The count reads a clone: Pyodide gets the browser's own response, so
// WebAssembly compiles it while streaming and the browser can cache the
// compiled code beside the HTTP-cached file (a synthetic Response cannot).
function countRuntimeBytes(prefix) {
  const original = self.fetch;
  let loaded = 0;
  let counting = true;
  const readers = [];
  self.fetch = async (...args) => {
    const response = await original.apply(self, args);
    if (!counting || !response.url.startsWith(prefix) || !response.body) {
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
  };
  return () => {
    counting = false;
    for (const reader of readers.splice(0)) {
      reader.cancel().catch(() => {}); // the response itself reads on
    }
  };
}

// Tell the benchmark when a start-up step is done: `at` is wall-clock time
// (timeOrigin + now), which the page turns into time since its navigation.
function mark(name) {
  post({ type: MESSAGE.TIMING, mark: name, at: performance.timeOrigin + performance.now() });
}

// The wheels the lock file lists for govsearch and our precompiled standard
// library, fetched with their sha256 as fetch integrity while the runtime
// compiles; Pyodide's own requests for them are answered with these
// responses (so a file that fails its check fails the start, closed).
// Returns a promise of them all (rejected when any fails its check).
function prefetchRuntimeFiles(indexURL, lock) {
  const early = new Map();
  const names = ["govsearch", ...((lock.packages.govsearch && lock.packages.govsearch.depends) || [])];
  const entries = names.map((name) => lock.packages[name]).filter(Boolean);
  const stdlib = stdlibUrl(indexURL, lock);
  for (const entry of stdlib ? [...entries, lock.govsearch_stdlib] : entries) {
    const href = new URL(entry.file_name, indexURL).href;
    const integrity = integrityOf(entry.sha256);
    const response = fetch(href, { credentials: "same-origin", integrity });
    response.catch(() => {}); // Pyodide meets (and reports) the failure when it asks
    early.set(href, { integrity, response });
  }
  const original = self.fetch;
  self.fetch = (input, init) => {
    const href = requestUrl(input);
    const waiting = early.get(href);
    // Pyodide asks for the wheels with their integrity and for the standard library without.
    // Issue 34: the standard library comes gzipped (runtime.py `_publish_stdlib`); Pyodide gets it
    // expanded, the worker's own downloads (download.js, with an AbortSignal) the file as it is.
    if (waiting && href === stdlib && !(init && init.signal)) {
      early.delete(href);
      return waiting.response.then(expandedResponse);
    }
    if (waiting && href !== stdlib && init && init.integrity === waiting.integrity) {
      early.delete(href);
      return waiting.response;
    }
    return original(input, init);
  };
  return Promise.all([...early.values()].map((waiting) => waiting.response)); // resolves once every file passed its check
}

// The standard library with what govsearch imports compiled (the build's
// precompile.mjs), or undefined: Pyodide's own, compiled in the page.
function stdlibUrl(indexURL, lock) {
  const entry = lock.govsearch_stdlib;
  return entry && typeof entry.file_name === "string" && typeof entry.sha256 === "string" ? new URL(entry.file_name, indexURL).href : undefined;
}

function integrityOf(hex) {
  return "sha256-" + btoa(String.fromCharCode(...(String(hex).match(/../g) || []).map((pair) => parseInt(pair, 16))));
}

// Pyodide's memory snapshot (made by the build), only when the HTTP cache
// already holds it: a first visit does not wait for its bytes (see
// docs/startup.md); null otherwise. Its bytes come as a promise ({bytes}),
// and the response is taken as soon as the cache answers: the bytes are
// hashed and decompressed side by side while Pyodide loads its JavaScript
// and WebAssembly, and Pyodide gets them only once their sha256 is the lock
// file's (a fetch with `integrity` would hold everything back until it had
// read and checked the whole file).
async function cachedSnapshot(indexURL, entry) {
  if (!entry || typeof entry.file_name !== "string" || typeof entry.sha256 !== "string" || typeof DecompressionStream !== "function") {
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
      const memory = unpackSnapshot(unpacked);
      mark("snapshot_unpacked");
      return memory;
    });
    bytes.catch(() => {}); // loadPyodide meets (and reports) a failure
    return { bytes }; // wrapped: an async function would wait for a promise it returns
  } catch (error) {
    return null; // not cached: bootstrap instead
  }
}

// The snapshot as the build stores it (runtime.without_zero_pages): a header of
// little-endian u32s (memory size, page size, run count, each run's first page
// and page count), then the runs' bytes; every other page of the memory is zero.
// Half the memory is zero pages, so they are not decompressed on every visit.
const SNAPSHOT_MAGIC = "GSNAP1\0\0";

function unpackSnapshot(buffer) {
  const view = new DataView(buffer);
  if (new TextDecoder().decode(new Uint8Array(buffer, 0, 8)) !== SNAPSHOT_MAGIC) {
    throw new Error("the memory snapshot is not in the layout this page reads");
  }
  const [size, page, runs] = [8, 12, 16].map((offset) => view.getUint32(offset, true));
  const memory = new Uint8Array(size);
  let from = 20 + 8 * runs;
  for (let run = 0; run < runs; run++) {
    const start = view.getUint32(20 + 8 * run, true) * page;
    const length = Math.min(view.getUint32(24 + 8 * run, true) * page, size - start);
    memory.set(new Uint8Array(buffer, from, length), start);
    from += length;
  }
  if (from !== buffer.byteLength) {
    throw new Error("the memory snapshot's runs do not add up to its length");
  }
  return memory;
}

// Once search is ready and idle, put the snapshot into the HTTP cache for the next visit.
function keepSnapshot() {
  const entry = snapshotEntry;
  snapshotEntry = null;
  if (entry && savingData(pageSavesData)) {
    mark("snapshot_skipped"); // saving data: the next visit bootstraps instead
  } else if (entry && typeof entry.file_name === "string") {
    fetch(new URL(entry.file_name, runtimeUrl).href, { credentials: "same-origin", integrity: integrityOf(entry.sha256) })
      .then((response) => response.arrayBuffer())
      .then(() => mark("snapshot_cached"), () => {});
  }
}

// Every runtime file is checked before use (runtime-files.js): the lock file
// against the manifest, then Pyodide's scripts, its WebAssembly (downloaded
// gzipped and compiled while it streams in), the standard library and the
// wheels against the lock file, and a cached snapshot against both.
async function bootRuntime(indexURL, lock, problems) {
  provideWasm(indexURL, lock);
  await checkScripts(indexURL, lock, { stallMs: STALL_MS });
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  const contents = await lock;
  const rest = contents.govsearch_stdlib_rest;
  if (rest && typeof rest.file_name === "string") {
    // The standard library is cut to what the search imports; Python fetches
    // (and checks) the whole one only if it imports anything else (precompile.mjs).
    self.govsearchStdlibRest = { url: new URL(rest.file_name, indexURL).href, sha256: rest.sha256, file_name: rest.file_name };
  }
  const checked = prefetchRuntimeFiles(indexURL, contents);
  const options = { indexURL, stdLibURL: stdlibUrl(indexURL, contents), lockFileContents: contents, packageBaseUrl: indexURL, packages: ["govsearch"], stdout: () => {}, stderr: (line) => problems.length < 8 && problems.push(String(line)) };
  const usable = snapshotMatches(contents);
  const snapshot = usable ? await cachedSnapshot(indexURL, contents.govsearch_snapshot) : null;
  if (snapshot) {
    uncount(); // everything comes from the HTTP cache: no download to show
    // The snapshot holds the wheels' code: they (and the standard library)
    // must pass their checks before it runs, though their files are only
    // installed once search is idle. One that fails fails the start.
    await checked;
    try {
      const pyodide = await failOnWasmWarning(loadPyodide({ ...options, packages: [], _loadSnapshot: snapshot.bytes }));
      wheelsLater = () =>
        pyodide
          .loadPackage("govsearch", { messageCallback: () => {}, errorCallback: () => {} })
          .then((loaded) => (loaded || []).some((entry) => entry && entry.name === "govsearch"), () => false)
          .then((installed) => mark(installed ? "wheels_installed" : "wheels_refused"));
      mark("snapshot_restored");
      return pyodide;
    } catch (error) {
      prefetchRuntimeFiles(indexURL, contents); // the first attempt took them
    }
  } else if (usable) {
    snapshotEntry = contents.govsearch_snapshot;
  }
  return await failOnWasmWarning(loadPyodide(options));
}

// Pyodide, with govsearch and its dependencies loaded during its bootstrap.
async function loadRuntime(indexURL, listed) {
  const lock = trustedLock(indexURL, listed, { stallMs: STALL_MS });
  lock.catch(() => {});
  runtimeUrl = indexURL;
  const problems = [];
  let pyodide;
  try {
    pyodide = await bootRuntime(indexURL, lock, problems);
  } catch (error) {
    const why = error instanceof IntegrityError ? "" : await packageIntegrity(indexURL);
    throw why ? new Error(`the govsearch package did not load: ${why}`, { cause: error }) : error;
  }
  runtime = pyodide;
  mark("runtime_ready");
  try {
    pyodide.pyimport("govsearch");
  } catch (error) {
    const why = (await packageIntegrity(indexURL)) || problems.join("; ");
    throw new Error(`the govsearch package did not load${why ? ": " + why : ""}`, { cause: error });
  }
  mark("wheels_loaded");
  return pyodide;
}

// Start-up, everything that can overlap overlapping: the catalogue's files
// download while the runtime (and the wheels) download and compile.
async function start(base) {
  dataUrl = new URL(base + "data/", self.location.origin).href;
  let dataLoaded = 0;
  let dataTotal = 0;
  const listed = manifestOf(dataUrl);
  listed.catch(() => {}); // the catalogue and the runtime each report it
  const catalogue = downloadCatalogue(listed, (count, total) => {
    dataLoaded += count;
    dataTotal = total;
    if (runtime) {
      progress("data", "Downloading the catalogue", dataLoaded, dataTotal);
    }
  });
  catalogue.then(() => mark("data_downloaded"), () => {});
  try {
    progress("runtime", "Downloading the search engine");
    const indexURL = new URL(base + "pyodide/", self.location.origin).href;
    uncount = countRuntimeBytes(indexURL);
    const pyodide = await loadRuntime(indexURL, listed);
    uncount();
    progress("data", "Downloading the catalogue", dataLoaded, dataTotal);
    pyodide.FS.mkdirTree("/site/data");
    try {
      store(await catalogue);
    } catch (error) {
      // Python opens what it can; a missing or broken file gives site_unavailable.
      progress("data", `The catalogue could not be downloaded: ${error.message}`);
    }
    await openCatalogue(pyodide);
  } catch (error) {
    uncount();
    fallback = errorJson("site_unavailable", `The search engine could not start: ${error && error.message ? error.message : error}`);
    post({ type: MESSAGE.FAILED, message: fallback && JSON.parse(fallback).error.message });
  }
}

async function openCatalogue(pyodide) {
  progress("index", "Opening the search index");
  pyodide.globals.set("GOVSEARCH_DATA_URL", dataUrl);
  await pyodide.runPythonAsync(PYTHON);
  answer = pyodide.globals.get("govsearch_answer");
  attempt = pyodide.globals.get("govsearch_attempt");
  const status = pyodide.globals.get("govsearch_status").toJs({ dict_converter: Object.fromEntries });
  mark("catalogue_open");
  if (status.ok) {
    post({ type: MESSAGE.READY, records: status.records });
    warming = pyodide.globals.get("govsearch_warm");
    laterFiles = pyodide.globals.get("govsearch_later");
    readAhead = pyodide.globals.get("govsearch_read_ahead");
    // The page sends the calls it queued when it hears "ready": let them go
    // first (each call starts preparation again when it ends).
    setTimeout(() => busy === 0 && warmWhenIdle(), FIRST_CALL_GRACE_MS);
  } else {
    post({ type: MESSAGE.UNAVAILABLE, message: status.message });
  }
}

// Prepare (validators, facet profiles, prefix and typo matching) while no
// call is waiting, one piece per task, so a call never waits for all of it.
// A piece may first need data files: they download side by side, and
// preparation goes on once they are in. Then the files later searches need.
let fetchingForPiece = false; // a piece's files are on their way: no other piece runs meanwhile
let laterFiles = null; // govsearch_later: the data files later searches need, not read yet
let readAhead = null; // govsearch_read_ahead: reads a few of those once fetched; true while more remain
let lastCallEnded = 0; // performance.now() when the last call ended

function warmWhenIdle() {
  setTimeout(() => {
    if (!warming || busy > 0 || dead || fetchingForPiece) {
      return; // the running call, or the download, schedules this again when it ends
    }
    let more = false;
    try {
      more = warming();
    } catch (error) {
      // Only preparation: a real call will meet (and report) the same problem.
    }
    if (more && typeof more === "object") {
      const names = more.toJs();
      more.destroy();
      fetchingForPiece = true;
      // Saving data: not fetched now; Python leaves the piece out, and a search needing the file fetches it.
      Promise.all(savingData(pageSavesData) ? [] : names.map((name) => downloadDataFile(name))).finally(() => {
        fetchingForPiece = false;
        warmWhenIdle();
      });
    } else if (more) {
      warmWhenIdle();
    } else {
      warming = null;
      fetchAhead().then(readAheadWhenIdle).finally(keepSnapshot);
      if (wheelsLater) {
        wheelsLater(); // a wheel that fails its integrity check stays out; nothing runs its code
        wheelsLater = null;
      }
    }
  }, 0);
}

// The data files most later searches need (every record's profile, the pages
// locating shards; Python names those it has not read), once no call has run
// for a moment (a person reading results, an agent thinking) and at low
// priority, so they never hold up a call's own downloads. They wait on disk
// until read ahead (below) or by a search: each such search saves a round of
// downloads.
async function fetchAhead() {
  if (savingData(pageSavesData)) {
    return; // the visitor's connection is saving data or slow: each search fetches what it needs
  }
  let names = [];
  try {
    const later = laterFiles();
    names = later.toJs().filter((name) => !runtime.FS.analyzePath(DATA_DIR + name).exists);
    later.destroy();
  } catch (error) {
    return; // only an optimisation
  }
  await untilQuiet();
  await Promise.all(names.map((name) => downloadDataFile(name, { priority: "low" })));
}

// Then read them (Python checks and decodes them), a few per task and only
// while no call has run for a moment, so a later search finds them ready.
async function readAheadWhenIdle() {
  let more = true;
  while (more && readAhead && !dead) {
    await untilQuiet();
    try {
      more = readAhead();
    } catch (error) {
      more = false; // only an optimisation: a call meets (and reports) the same problem
    }
    await new Promise((resolve) => setTimeout(resolve, 0)); // one piece per task
  }
}

// Resolves once no call is running and none has ended for FETCH_AHEAD_QUIET_MS.
async function untilQuiet() {
  while (busy > 0 || performance.now() - lastCallEnded < FETCH_AHEAD_QUIET_MS) {
    await new Promise((resolve) => setTimeout(resolve, FETCH_AHEAD_QUIET_MS / 4));
  }
}

// Download one data file (a name inside the data folder), trying a stalled
// or failed download again; null when it never arrives. Python checks every
// file against the sha256 that vouches for it before using it, and a file
// that is missing leaves the synchronous path to report it (fail closed).
async function downloadData(name, onBytes = () => {}, priority = "auto") {
  const url = new URL(name, dataUrl);
  if (typeof name !== "string" || name.split("/").includes("..") || !url.href.startsWith(dataUrl)) {
    return null;
  }
  for (let attempt = 0; attempt < DOWNLOAD_ATTEMPTS; attempt++) {
    try {
      return await download(url.href, { onBytes, stallMs: STALL_MS, priority });
    } catch (error) {
      // stalled or cut off: try again
    }
  }
  return null;
}

// A shard a call asked for, onto Pyodide's disk. Calls that ask for the same
// file while it is on its way share its download (the page's own first
// search and an agent's first call usually need the same postings shard).
const inFlight = new Map();

function downloadDataFile(name, { priority = "auto" } = {}) {
  let pending = inFlight.get(name);
  if (!pending) {
    pending = downloadData(name, () => {}, priority)
      .then((bytes) => bytes && store([[name, bytes]]))
      .finally(() => inFlight.delete(name));
    inFlight.set(name, pending);
  }
  return pending;
}

// Fair turns at Python: it answers one step of one call at a time (between
// steps a call waits for its downloads). The page's own searches (lane
// "page") go before agent calls; within a lane the cheapest call goes
// first, and every second of waiting counts as one term less, so a light
// call is never held behind a queue of heavy ones and none starves.
const turns = { [LANE.PAGE]: [], [LANE.AGENT]: [] };
let granting = false;
// Python searches at most this many distinct terms a call (its work budget).
const MAX_QUERY_TERMS = 8;
const MAX_PUBLISHERS = 8; // the schema's maxItems
// lunr's word separators (lunr.py's tokenizer), and "*", which plain-text queries read as one.
const SEPARATORS = /[ \t\n\r\f\v\u00a0*-]+/;

// A call's cost from its parsed arguments, never from its text's length
// (padding that JSON escapes at 6 characters each, such as U+001C-U+001F,
// made heavy calls look "oversized" and so light): 1, plus its distinct
// words as Python's tokenizer splits them (an upper bound on the terms it
// searches: stop words, stems and synonyms only merge them) up to the work
// budget, plus 4 per publisher filter (each is matched, or suggested for).
// Arguments over 1 MiB never reach the worker (the page refuses them).
function estimate(tool, argumentsJson) {
  let args = null;
  try {
    args = tool === "search_government_knowledge" ? JSON.parse(argumentsJson) : null;
  } catch (error) {
    return 1; // refused at once by Python
  }
  if (!args || typeof args !== "object") {
    return 1; // lookups by id, and arguments Python refuses at once
  }
  const words = typeof args.query === "string" ? new Set(args.query.toLowerCase().split(SEPARATORS).filter(Boolean)).size : 0;
  const publishers = Array.isArray(args.publishers) ? args.publishers.length : 0;
  return 1 + Math.min(words, MAX_QUERY_TERMS) + 4 * Math.min(publishers, MAX_PUBLISHERS);
}

function takeTurn(call) {
  return new Promise((resolve) => {
    turns[call.lane].push({ call, resolve });
    grantSoon();
  });
}

function grantSoon() {
  if (!granting) {
    granting = true;
    setTimeout(grant, 0); // a task: calls that arrived meanwhile are queued first
  }
}

function grant() {
  granting = false;
  const queue = turns[LANE.PAGE].length ? turns[LANE.PAGE] : turns[LANE.AGENT];
  if (!queue.length) {
    return;
  }
  const now = performance.now();
  const urgency = (entry) => entry.call.cost - (now - entry.call.arrived) / 1000;
  let best = 0;
  for (let i = 1; i < queue.length; i++) {
    if (urgency(queue[i]) < urgency(queue[best])) {
      best = i;
    }
  }
  queue.splice(best, 1)[0].resolve();
}

// Where each recent call's time went (Python per round, the files it then
// fetched, the wait for them), for bench/breakdown.py to read over the
// DevTools protocol; the last few calls only, so memory stays flat.
const TRACED_CALLS = 64;
self.govsearchTrace = [];

function traceCall(call) {
  const rounds = [];
  self.govsearchTrace.push({ arrived: call.arrived, rounds });
  if (self.govsearchTrace.length > TRACED_CALLS) {
    self.govsearchTrace.shift();
  }
  return rounds;
}

// Answer a call, first downloading in parallel the shards it needs (a large
// site's index is split into shards fetched on demand).
async function answerWithData(call) {
  const { tool, argumentsJson, prefixLast, offset } = call;
  const rounds = traceCall(call);
  for (let round = 0; round < MAX_FETCH_ROUNDS; round++) {
    await takeTurn(call);
    if (round === 0 && performance.now() - call.arrived > DEADLINE_MS) {
      grantSoon();
      return errorJson("timeout", `The search engine was busy with other calls for more than ${DEADLINE_MS / 1000} seconds, so this call was not started. Try it again.`);
    }
    let outcome;
    const began = performance.now();
    try {
      outcome = attempt(tool, argumentsJson, prefixLast, offset);
    } finally {
      grantSoon();
    }
    const ran = performance.now();
    if (typeof outcome === "string") {
      rounds.push({ python: ran - began, files: [], fetch: 0 });
      return outcome;
    }
    const names = outcome.toJs();
    outcome.destroy();
    await Promise.all(names.map((name) => downloadDataFile(name)));
    rounds.push({ python: ran - began, files: names, fetch: performance.now() - ran });
  }
  await takeTurn(call);
  try {
    return answer(tool, argumentsJson, prefixLast, offset); // fetches what is still missing one by one, or fails closed
  } finally {
    grantSoon();
  }
}

async function handleCall(message) {
  let result;
  if (dead) {
    return; // the page has been told; it answers the call itself
  }
  if (answer) {
    busy++;
    const call = {
      tool: String(message.tool),
      argumentsJson: String(message.argumentsJson),
      prefixLast: Boolean(message.prefixLast),
      lane: message.lane === LANE.AGENT ? LANE.AGENT : LANE.PAGE,
      arrived: performance.now(),
    };
    call.offset = pageOffset(call.lane, message.offset);
    call.cost = estimate(call.tool, call.argumentsJson);
    try {
      result = await answerWithData(call);
    } catch (error) {
      const text = error && error.message ? error.message.split("\n").slice(-2).join(" ") : String(error);
      if (error && (error.pyodide_fatal_error || /fatally failed/.test(text))) {
        // Pyodide cannot be used again (for example, out of memory).
        dead = true;
        post({ type: MESSAGE.CRASHED, message: `Python failed fatally (${text.slice(0, 200)}).` });
        self.close();
        return;
      }
      result = errorJson("internal_error", `The search failed: ${text}`);
    } finally {
      busy--;
      lastCallEnded = performance.now();
      if (warming) {
        warmWhenIdle();
      }
    }
  } else {
    result = fallback || errorJson("site_unavailable", "The search engine is not ready.");
  }
  post({ type: MESSAGE.RESULT, id: message.id, result });
}

// Hold the page's lock for as long as this worker lives.
function holdLock(name) {
  if (!name || !self.navigator || !self.navigator.locks) {
    return;
  }
  self.navigator.locks
    .request(String(name), () => {
      post({ type: MESSAGE.ALIVE });
      return new Promise(() => {});
    })
    .catch(() => {});
}

let starting = null;
const waiting = [];

self.addEventListener("message", (event) => {
  const message = event.data;
  if (!message || typeof message !== "object") {
    return;
  }
  if (message.type === MESSAGE.INIT && !starting) {
    mark("worker_started");
    pageSavesData = message.saveData === true;
    lockDown(String(message.base || "/"));
    holdLock(message.lock);
    starting = start(String(message.base || "/")).then(() => {
      for (const call of waiting.splice(0)) {
        handleCall(call);
      }
    });
  } else if (message.type === MESSAGE.STATS) {
    // Pyodide keeps its WebAssembly memory on the (internal) Emscripten module.
    const heap = runtime && runtime._module && runtime._module.HEAPU8;
    post({ type: MESSAGE.STATS, wasmHeapBytes: heap ? heap.buffer.byteLength : null });
  } else if (message.type === MESSAGE.CALL) {
    if (answer || fallback) {
      handleCall(message);
    } else {
      waiting.push(message);
    }
  }
});
