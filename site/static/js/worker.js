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

// The worker's modules (site/static/js/worker/), one concern each: lockdown
// (its own fence), state (what it holds), start and runtime (start-up),
// pyodide-files and snapshot (the runtime's files), data-files (downloads),
// idle (work while no call waits), turns and calls (answering), report and
// trace (what it tells the page and the benchmark). This file only dispatches.
// Their top-level code only defines (no request is made before `init`), and
// the lockdown is on the worker's global scope, so it covers every module.
import { MESSAGE } from "./messages.js";
import { handleCall } from "./worker/calls.js";
import { lockDown } from "./worker/lockdown.js";
import { mark, post } from "./worker/report.js";
import { start } from "./worker/start.js";
import { state } from "./worker/state.js";

let starting = null;
const waiting = []; // calls that arrived before start-up ended

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

function init(message) {
  mark("worker_started");
  state.pageSavesData = message.saveData === true;
  lockDown(String(message.base || "/"));
  holdLock(message.lock);
  starting = start(String(message.base || "/")).then(() => {
    for (const call of waiting.splice(0)) {
      handleCall(call);
    }
  });
}

self.addEventListener("message", (event) => {
  const message = event.data;
  if (!message || typeof message !== "object") {
    return;
  }
  if (message.type === MESSAGE.INIT && !starting) {
    init(message);
  } else if (message.type === MESSAGE.STATS) {
    // Pyodide keeps its WebAssembly memory on the (internal) Emscripten module.
    const heap = state.runtime && state.runtime._module && state.runtime._module.HEAPU8;
    post({ type: MESSAGE.STATS, wasmHeapBytes: heap ? heap.buffer.byteLength : null });
  } else if (message.type === MESSAGE.CALL) {
    if (state.answer || state.fallback) {
      handleCall(message);
    } else {
      waiting.push(message);
    }
  }
});
