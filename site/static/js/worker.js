// Module Web Worker: runs the govsearch Python package in Pyodide.
//
// Messages in: {type: "init", base, lock}, {type: "call", id, tool, argumentsJson, prefixLast}.
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

const PYTHON = `
from govsearch import FetchingLoader
from govsearch.protocol import Session

# Files the worker downloaded sit in /site/data; shards of a large site are
# fetched when a query first needs them.
_session = Session(FetchingLoader("/site", GOVSEARCH_DATA_URL))
govsearch_answer = _session.answer
govsearch_attempt = _session.attempt
govsearch_warm = _session.warm
govsearch_status = {"ok": _session.catalogue is not None, "message": _session.failure, "records": _session.records}
`;

let answer = null; // the Python govsearch_answer function, once ready
let attempt = null; // govsearch_attempt: the answer, or the data files to download first
let dataUrl = null; // absolute URL of the site's data folder
const MAX_FETCH_ROUNDS = 4; // a call needs at most postings, expansions, then records
let fallback = null; // an error result JSON string when Python never became ready
let dead = false; // Python failed fatally: nothing more can run here
let runtime = null; // the Pyodide instance, once loaded
let warming = null; // govsearch_warm while preparation remains: one piece per idle moment
let busy = 0; // calls being answered

function post(message) {
  self.postMessage(message);
}

function progress(phase, label, loaded = 0, total = 0) {
  post({ type: "progress", phase, label, loaded, total });
}

function errorJson(code, message) {
  return JSON.stringify({ ok: false, error: { code, message } });
}

async function fetchBytes(url, onBytes) {
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) {
    throw new Error(`${url} answered ${response.status}`);
  }
  if (!response.body || !response.body.getReader) {
    const buffer = new Uint8Array(await response.arrayBuffer());
    onBytes(buffer.length);
    return buffer;
  }
  const reader = response.body.getReader();
  const chunks = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }
    chunks.push(value);
    length += value.length;
    onBytes(value.length);
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

async function loadData(pyodide, base) {
  const dataUrl = new URL(base + "data/", self.location.origin).href;
  const manifestBytes = await fetchBytes(new URL("manifest.json", dataUrl).href, () => {});
  const manifest = JSON.parse(new TextDecoder().decode(manifestBytes));
  const entries = Object.values((manifest && manifest.files) || {}).filter((entry) => entry && typeof entry.path === "string");
  const total = entries.reduce((sum, entry) => sum + (Number(entry.size) || 0), 0);
  let loaded = 0;
  progress("data", "Downloading the catalogue", loaded, total);
  pyodide.FS.mkdirTree("/site/data");
  pyodide.FS.writeFile("/site/data/manifest.json", manifestBytes);
  for (const entry of entries) {
    const url = new URL(entry.path, dataUrl);
    if (url.origin !== self.location.origin || !url.href.startsWith(dataUrl)) {
      continue; // only files inside our own data folder
    }
    const bytes = await fetchBytes(url.href, (count) => {
      loaded += count;
      progress("data", "Downloading the catalogue", loaded, total);
    });
    const target = "/site/data/" + entry.path;
    const folder = target.slice(0, target.lastIndexOf("/"));
    pyodide.FS.mkdirTree(folder);
    pyodide.FS.writeFile(target, bytes);
  }
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
// as they arrive (Pyodide offers no progress of its own); returns the undo.
function countRuntimeBytes(prefix) {
  const original = self.fetch;
  let loaded = 0;
  self.fetch = async (...args) => {
    const response = await original.apply(self, args);
    if (!response.url.startsWith(prefix) || !response.body || typeof TransformStream !== "function") {
      return response;
    }
    const counter = new TransformStream({
      transform(chunk, controller) {
        loaded += chunk.byteLength;
        progress("runtime", "Downloading the search engine", loaded);
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(counter), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return () => {
    self.fetch = original;
  };
}

async function start(base) {
  let uncount = () => {};
  try {
    progress("runtime", "Downloading the search engine");
    const indexURL = new URL(base + "pyodide/", self.location.origin).href;
    uncount = countRuntimeBytes(indexURL);
    const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
    const pyodide = await failOnWasmWarning(loadPyodide({ indexURL, stdout: () => {}, stderr: () => {} }));
    runtime = pyodide;
    const problems = [];
    await pyodide.loadPackage("govsearch", {
      messageCallback: () => {},
      errorCallback: (message) => problems.push(String(message)),
    });
    uncount();
    try {
      pyodide.pyimport("govsearch");
    } catch (error) {
      throw new Error(`the govsearch package did not load${problems.length ? ": " + problems.join("; ") : ""}`);
    }
    try {
      await loadData(pyodide, base);
    } catch (error) {
      // Python opens what it can; a missing or broken file gives site_unavailable.
      progress("data", `The catalogue could not be downloaded: ${error.message}`);
    }
    progress("index", "Opening the search index");
    pyodide.globals.set("GOVSEARCH_DATA_URL", new URL(base + "data/", self.location.origin).href);
    await pyodide.runPythonAsync(PYTHON);
    answer = pyodide.globals.get("govsearch_answer");
    attempt = pyodide.globals.get("govsearch_attempt");
    dataUrl = new URL(base + "data/", self.location.origin).href;
    const status = pyodide.globals.get("govsearch_status").toJs({ dict_converter: Object.fromEntries });
    if (status.ok) {
      post({ type: "ready", records: status.records });
      warming = pyodide.globals.get("govsearch_warm");
      warmWhenIdle();
    } else {
      post({ type: "unavailable", message: status.message });
    }
  } catch (error) {
    uncount();
    fallback = errorJson("site_unavailable", `The search engine could not start: ${error && error.message ? error.message : error}`);
    post({ type: "failed", message: fallback && JSON.parse(fallback).error.message });
  }
}

// Prepare (validators, facet profiles, prefix and typo matching) while no
// call is waiting, one piece per task, so a call never waits for all of it.
function warmWhenIdle() {
  setTimeout(() => {
    if (!warming || busy > 0 || dead) {
      return; // the running call schedules this again when it ends
    }
    let more = false;
    try {
      more = warming();
    } catch (error) {
      // Only preparation: a real call will meet (and report) the same problem.
    }
    if (more) {
      warmWhenIdle();
    } else {
      warming = null;
    }
  }, 0);
}

// Download one data file a call asked for into Pyodide's disk. Failures are
// left for the synchronous path, which reports them (fail closed).
async function downloadDataFile(name) {
  const url = new URL(name, dataUrl);
  if (typeof name !== "string" || name.split("/").includes("..") || !url.href.startsWith(dataUrl)) {
    return;
  }
  try {
    const response = await fetch(url.href, { credentials: "same-origin" });
    if (!response.ok) {
      return;
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    const target = "/site/data/" + name;
    runtime.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    runtime.FS.writeFile(target, bytes);
  } catch (error) {
    // the synchronous retry below meets the same problem and answers it
  }
}

// Answer a call, first downloading in parallel the shards it needs (a large
// site's index is split into shards fetched on demand).
async function answerWithData(tool, argumentsJson, prefixLast) {
  for (let round = 0; round < MAX_FETCH_ROUNDS; round++) {
    const outcome = attempt(tool, argumentsJson, prefixLast);
    if (typeof outcome === "string") {
      return outcome;
    }
    const names = outcome.toJs();
    outcome.destroy();
    await Promise.all(names.map(downloadDataFile));
  }
  return answer(tool, argumentsJson, prefixLast); // fetches what is still missing one by one, or fails closed
}

async function handleCall(message) {
  let result;
  if (dead) {
    return; // the page has been told; it answers the call itself
  }
  if (answer) {
    busy++;
    try {
      result = await answerWithData(String(message.tool), String(message.argumentsJson), Boolean(message.prefixLast));
    } catch (error) {
      const text = error && error.message ? error.message.split("\n").slice(-2).join(" ") : String(error);
      if (error && (error.pyodide_fatal_error || /fatally failed/.test(text))) {
        // Pyodide cannot be used again (for example, out of memory).
        dead = true;
        post({ type: "crashed", message: `Python failed fatally (${text.slice(0, 200)}).` });
        self.close();
        return;
      }
      result = errorJson("internal_error", `The search failed: ${text}`);
    } finally {
      busy--;
      if (warming) {
        warmWhenIdle();
      }
    }
  } else {
    result = fallback || errorJson("site_unavailable", "The search engine is not ready.");
  }
  post({ type: "result", id: message.id, result });
}

// Hold the page's lock for as long as this worker lives.
function holdLock(name) {
  if (!name || !self.navigator || !self.navigator.locks) {
    return;
  }
  self.navigator.locks
    .request(String(name), () => {
      post({ type: "alive" });
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
  if (message.type === "init" && !starting) {
    holdLock(message.lock);
    starting = start(String(message.base || "/")).then(() => {
      for (const call of waiting.splice(0)) {
        handleCall(call);
      }
    });
  } else if (message.type === "stats") {
    // Pyodide keeps its WebAssembly memory on the (internal) Emscripten module.
    const heap = runtime && runtime._module && runtime._module.HEAPU8;
    post({ type: "stats", wasmHeapBytes: heap ? heap.buffer.byteLength : null });
  } else if (message.type === "call") {
    if (answer || fallback) {
      handleCall(message);
    } else {
      waiting.push(message);
    }
  }
});
