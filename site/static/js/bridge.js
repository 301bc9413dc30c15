// Main-thread side of the worker protocol.
//
// call(tool, arguments) posts a call message (messages.js) to the worker and
// resolves with the result JSON string the worker sends back. Callers always
// get a tool result string, never a rejection:
//
// - before the runtime is ready, calls wait in a bounded queue; beyond
//   MAX_QUEUE waiting calls a call is answered at once with "busy";
// - every call has a timeout and then answers "timeout";
// - if Python cannot start, calls answer "site_unavailable"; retry() (or a
//   call made RETRY_AFTER_MS after the failure) starts again;
// - if the worker dies (crash, out of memory, terminated) or stops answering,
//   calls sent to it answer "internal_error" and the next call starts a new
//   worker. The worker holds a Web Lock for its whole life, so the lock
//   coming free tells us it is gone even when no error event fires.
//
// Events: "progress", "ready", "unavailable" (Python runs but the catalogue
// did not open: every call answers site_unavailable), "failed", "crashed",
// "loading" (a new worker is starting).
import { errorJson, LANE, MESSAGE, pageOffset } from "./messages.js";

export const DEFAULT_TIMEOUT_MS = 120000;
export const MAX_QUEUE = 256; // calls waiting for the runtime
export const MAX_PENDING = 1024; // calls not yet answered, in all
export const RETRY_AFTER_MS = 3000;
// The CLI and the MCP server refuse arguments over 1 MiB of UTF-8 before
// parsing them; the page counts the same bytes (not UTF-16 units, which
// undercount any text beyond ASCII) and refuses with the same words,
// without copying the text over to the worker.
const MAX_ARGUMENT_BYTES = 1 << 20;

// The length of `text` in UTF-8 bytes, or `limit + 1` once it is past `limit`.
function utf8Length(text, limit) {
  if (text.length > limit) {
    return limit + 1; // every UTF-16 unit is at least one byte
  }
  let bytes = 0;
  for (let i = 0; i < text.length && bytes <= limit; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) {
      bytes += 1;
    } else if (unit < 0x800) {
      bytes += 2;
    } else if (unit >= 0xd800 && unit < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4; // a surrogate pair: one character outside the BMP
      i++;
    } else {
      bytes += 3; // the rest of the BMP; a lone surrogate becomes U+FFFD
    }
  }
  return Math.min(bytes, limit + 1);
}
// The tools take flat objects. Very deep nesting overflows the worker's
// stack inside Python's JSON parser (a fatal Pyodide error at about 2,000
// levels), so it is refused here.
export const MAX_DEPTH = 256;

function argumentsText(args) {
  if (typeof args === "string") {
    return args;
  }
  try {
    const text = JSON.stringify(args === undefined ? {} : args);
    return text === undefined ? null : text;
  } catch (error) {
    return null; // cycles, BigInt, or nesting too deep for the stack (RangeError)
  }
}

// True when JSON text nests objects or arrays more than `limit` deep.
function tooDeep(text, limit) {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) {
        i++; // backslash: skip the escaped character
      } else if (c === 34) {
        inString = false;
      }
    } else if (c === 34) {
      inString = true;
    } else if (c === 123 || c === 91) {
      if (++depth > limit) {
        return true;
      }
    } else if (c === 125 || c === 93) {
      depth--;
    }
  }
  return false;
}

// The worker's module is imported from a blob: URL, not started from its
// own file: a worker started from a file takes its Content Security Policy
// from that file's HTTP headers, which GitHub Pages cannot set, while one
// started from a blob: URL takes this page's (the meta tag). So the browser
// itself refuses, inside the worker too, scripts from strings, data: and
// blob: URLs or other origins, and requests and fonts from other origins.
// The page's policy allows blob: workers for this (worker-src).
function startWorker(moduleUrl) {
  const source = `import ${JSON.stringify(moduleUrl.href)};\n`;
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  let worker;
  try {
    worker = new Worker(url, { type: "module", name: "govsearch" });
  } catch (error) {
    URL.revokeObjectURL(url);
    throw error;
  }
  // Its first word (or failure) says the worker has read its script.
  const revoke = () => URL.revokeObjectURL(url);
  worker.addEventListener("message", revoke, { once: true });
  worker.addEventListener("error", revoke, { once: true });
  return worker;
}

let workerCount = 0;

export class Bridge extends EventTarget {
  constructor(base, { maxQueue = MAX_QUEUE, maxPending = MAX_PENDING, retryAfterMs = RETRY_AFTER_MS } = {}) {
    super();
    this.base = base;
    this.limits = { maxQueue, maxPending, retryAfterMs };
    this.worker = null;
    this.state = "idle"; // idle | loading | ready | failed
    this.catalogue = false; // true once the catalogue opened (ready, not unavailable)
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, message, timer, sentAt}
    this.queue = []; // messages waiting for the runtime
    this.progress = null;
    this.failure = null;
    this.failedAt = 0;
    this.lastHeard = 0; // when the worker last posted anything
    this.setState("idle");
  }

  // The page state, also on <html data-search-runtime>: idle, loading,
  // ready, unavailable or failed.
  setState(state) {
    this.state = state;
    if (typeof document !== "undefined") {
      document.documentElement.dataset.searchRuntime = state === "ready" && !this.catalogue ? "unavailable" : state;
    }
  }

  // Start the worker (once). Search pages start it at load; other pages
  // only when an agent first calls a tool.
  start() {
    if (this.worker || this.state === "failed") {
      return;
    }
    this.catalogue = false;
    this.failure = null;
    this.setState("loading");
    this.dispatchEvent(new CustomEvent("loading"));
    let worker;
    try {
      worker = startWorker(new URL("./worker.js", import.meta.url));
    } catch (error) {
      this.fail(`The search engine could not start: ${error.message}`);
      return;
    }
    this.worker = worker;
    const lock = `govsearch-worker-${Date.now()}-${++workerCount}-${Math.random().toString(36).slice(2)}`;
    worker.addEventListener("message", (event) => {
      if (worker === this.worker) {
        this.lastHeard = performance.now();
        this.onMessage(event.data, lock);
      }
    });
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      if (worker === this.worker) {
        this.lost(`The search engine stopped: ${event.message || "the worker failed"}`);
      }
    });
    worker.addEventListener("messageerror", () => {
      if (worker === this.worker) {
        this.lost("The search engine sent a message that could not be read.");
      }
    });
    // The page's own view of "save data" (a worker may not see it): docs/startup.md.
    const saveData = Boolean(navigator.connection && navigator.connection.saveData);
    worker.postMessage({ type: MESSAGE.INIT, base: this.base, lock, saveData });
  }

  // The worker holds `lock` until it ends; when we are granted it, it has ended.
  watch(lock) {
    const worker = this.worker;
    if (!worker || typeof navigator === "undefined" || !navigator.locks) {
      return;
    }
    navigator.locks.request(lock, () => {
      if (worker === this.worker) {
        this.lost("The search engine stopped unexpectedly.");
      }
    }).catch(() => {});
  }

  onMessage(message, lock) {
    if (!message || typeof message !== "object") {
      return;
    }
    if (message.type === MESSAGE.ALIVE) {
      this.watch(lock);
    } else if (message.type === MESSAGE.PROGRESS) {
      this.progress = message;
      this.dispatchEvent(new CustomEvent(MESSAGE.PROGRESS, { detail: message }));
    } else if (message.type === MESSAGE.READY || message.type === MESSAGE.UNAVAILABLE) {
      this.catalogue = message.type === MESSAGE.READY;
      this.failure = this.catalogue ? null : String(message.message || "the catalogue did not open");
      this.setState("ready");
      this.dispatchEvent(new CustomEvent(message.type, { detail: message }));
      this.flush();
    } else if (message.type === MESSAGE.FAILED) {
      this.fail(message.message);
    } else if (message.type === MESSAGE.CRASHED) {
      this.lost(`The search engine stopped: ${message.message}`);
    } else if (message.type === MESSAGE.RESULT) {
      this.settle(message.id, String(message.result));
    }
  }

  settle(id, result) {
    const entry = this.pending.get(id);
    if (entry) {
      this.pending.delete(id);
      clearTimeout(entry.timer);
      entry.resolve(result);
    }
  }

  settleAll(answer) {
    for (const id of [...this.pending.keys()]) {
      this.settle(id, answer);
    }
    this.queue = [];
  }

  stopWorker() {
    const worker = this.worker;
    this.worker = null;
    if (worker) {
      worker.terminate();
    }
  }

  // Python could not start: answer everything waiting, until a retry.
  fail(reason) {
    this.stopWorker();
    this.failure = String(reason || "The search engine could not start.");
    this.failedAt = performance.now();
    this.setState("failed");
    this.settleAll(errorJson("site_unavailable", this.failure));
    this.dispatchEvent(new CustomEvent(MESSAGE.FAILED, { detail: { message: this.failure } }));
  }

  // The worker died or hung. Before it was ready, that is a failed start;
  // after, the calls it held fail and the next call starts a new worker.
  lost(reason) {
    if (this.state !== "ready") {
      this.fail(reason);
      return;
    }
    this.stopWorker();
    this.setState("idle");
    this.settleAll(errorJson("internal_error", `${reason} Try the call again.`));
    this.dispatchEvent(new CustomEvent(MESSAGE.CRASHED, { detail: { message: reason } }));
  }

  // Start again from scratch (the page's "Try again" control). Calls the
  // old worker held are sent again to the new one: the tools only read.
  retry() {
    this.stopWorker();
    for (const entry of this.pending.values()) {
      if (entry.sentAt) {
        entry.sentAt = 0;
        this.queue.push(entry.message);
      }
    }
    this.setState("idle");
    this.start();
  }

  flush() {
    const waiting = this.queue;
    this.queue = [];
    for (const message of waiting) {
      const entry = this.pending.get(message.id);
      if (entry) {
        entry.sentAt = performance.now();
        this.worker.postMessage(message);
      }
    }
  }

  get ready() {
    return this.state === "ready";
  }

  // Answer one tool call: resolves with the result JSON string.
  // lane: LANE.PAGE (the search box) or LANE.AGENT (WebMCP); the worker
  // serves the page first. offset: the page's "show more" (ignored for agents).
  call(tool, args, { prefixLast = false, timeoutMs = DEFAULT_TIMEOUT_MS, lane = LANE.PAGE, offset = 0 } = {}) {
    const argumentsJson = argumentsText(args);
    if (argumentsJson === null) {
      return Promise.resolve(errorJson("invalid_arguments", "The arguments could not be read as JSON (too deeply nested, circular, or not plain data). Send one small, flat JSON object."));
    }
    if (utf8Length(argumentsJson, MAX_ARGUMENT_BYTES) > MAX_ARGUMENT_BYTES) {
      return Promise.resolve(errorJson("invalid_arguments", `The arguments are larger than ${MAX_ARGUMENT_BYTES} bytes. Send one small JSON object.`));
    }
    if (tooDeep(argumentsJson, MAX_DEPTH)) {
      return Promise.resolve(errorJson("invalid_arguments", `The arguments are nested more than ${MAX_DEPTH} levels deep. Send one flat JSON object.`));
    }
    if (this.state === "failed") {
      if (performance.now() - this.failedAt < this.limits.retryAfterMs) {
        return Promise.resolve(errorJson("site_unavailable", this.failure));
      }
      this.retry();
    }
    if (this.pending.size >= this.limits.maxPending || (!this.ready && this.queue.length >= this.limits.maxQueue)) {
      return Promise.resolve(errorJson("busy", `The search engine already has ${this.pending.size} calls waiting. Wait for some answers, then try again.`));
    }
    this.start();
    if (this.state === "failed") {
      return Promise.resolve(errorJson("site_unavailable", this.failure));
    }
    const id = this.nextId++;
    const sender = lane === LANE.AGENT ? LANE.AGENT : LANE.PAGE;
    const message = { type: MESSAGE.CALL, id, tool: String(tool), argumentsJson, prefixLast: Boolean(prefixLast), lane: sender, offset: pageOffset(sender, offset) };
    return new Promise((resolve) => {
      const entry = { resolve, message, timer: null, sentAt: 0 };
      entry.timer = setTimeout(() => {
        const waited = Math.round(timeoutMs / 1000);
        const why = this.ready ? "answer" : "start";
        this.settle(id, errorJson("timeout", `The search engine did not ${why} within ${waited} seconds. Try the call again.`));
        if (!entry.sentAt) {
          this.queue = this.queue.filter((queued) => queued.id !== id);
        }
        if (entry.sentAt && this.lastHeard < entry.sentAt && this.ready) {
          // Sent, and not a word from the worker since: it is stuck.
          this.lost(`The search engine did not answer for ${waited} seconds.`);
        }
      }, timeoutMs);
      this.pending.set(id, entry);
      if (this.ready) {
        entry.sentAt = performance.now();
        this.worker.postMessage(message);
      } else {
        this.queue.push(message);
      }
    });
  }
}
