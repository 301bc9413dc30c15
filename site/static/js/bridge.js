// Main-thread side of the worker protocol.
//
// call(tool, arguments) posts {type: "call", id, tool, argumentsJson,
// prefixLast} to the worker and resolves with the result JSON string the
// worker sends back ({type: "result", id, result}). Calls made before the
// runtime is ready wait in a queue and are sent once it is. Every call has a
// timeout; a call that times out resolves with a timeout error result, so
// callers always get a tool result string and never a rejection.

export const DEFAULT_TIMEOUT_MS = 120000;

export function errorJson(code, message) {
  return JSON.stringify({ ok: false, error: { code, message } });
}

export class Bridge extends EventTarget {
  constructor(base) {
    super();
    this.base = base;
    this.worker = null;
    this.state = "idle"; // idle | loading | ready | failed
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, timer}
    this.queue = []; // messages waiting for the runtime
    this.progress = null;
    this.failure = null;
  }

  // Start the worker (once). Search pages start it at load; other pages
  // only when an agent first calls a tool.
  start() {
    if (this.worker || this.state === "failed") {
      return;
    }
    this.state = "loading";
    try {
      this.worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module", name: "govsearch" });
    } catch (error) {
      this.fail(`The search engine could not start: ${error.message}`);
      return;
    }
    this.worker.addEventListener("message", (event) => this.onMessage(event.data));
    this.worker.addEventListener("error", (event) => {
      event.preventDefault();
      this.fail(`The search engine stopped: ${event.message || "worker error"}`);
    });
    this.worker.postMessage({ type: "init", base: this.base });
  }

  onMessage(message) {
    if (!message || typeof message !== "object") {
      return;
    }
    if (message.type === "progress") {
      this.progress = message;
      this.dispatchEvent(new CustomEvent("progress", { detail: message }));
    } else if (message.type === "ready" || message.type === "unavailable") {
      // "unavailable": Python runs but the catalogue did not open; the worker
      // still answers every call (with a site_unavailable result).
      this.state = "ready";
      this.dispatchEvent(new CustomEvent(message.type, { detail: message }));
      this.flush();
    } else if (message.type === "failed") {
      this.fail(message.message);
    } else if (message.type === "result") {
      const entry = this.pending.get(message.id);
      if (entry) {
        this.pending.delete(message.id);
        clearTimeout(entry.timer);
        entry.resolve(String(message.result));
      }
    }
  }

  fail(reason) {
    this.state = "failed";
    this.failure = reason;
    this.queue = [];
    const answer = errorJson("site_unavailable", reason);
    for (const [id, entry] of this.pending) {
      clearTimeout(entry.timer);
      entry.resolve(answer);
      this.pending.delete(id);
    }
    if (this.worker) {
      this.worker.terminate();
    }
    this.dispatchEvent(new CustomEvent("failed", { detail: { message: reason } }));
  }

  flush() {
    const waiting = this.queue;
    this.queue = [];
    for (const message of waiting) {
      if (this.pending.has(message.id)) {
        this.worker.postMessage(message);
      }
    }
  }

  get ready() {
    return this.state === "ready";
  }

  // Answer one tool call: resolves with the result JSON string.
  call(tool, args, { prefixLast = false, timeoutMs = DEFAULT_TIMEOUT_MS } = {}) {
    if (this.state === "failed") {
      return Promise.resolve(errorJson("site_unavailable", this.failure));
    }
    let argumentsJson;
    try {
      argumentsJson = typeof args === "string" ? args : JSON.stringify(args === undefined ? {} : args);
    } catch (error) {
      argumentsJson = "";
    }
    this.start();
    const id = this.nextId++;
    const message = { type: "call", id, tool: String(tool), argumentsJson, prefixLast: Boolean(prefixLast) };
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        const waited = Math.round(timeoutMs / 1000);
        const why = this.ready ? "answer" : "start";
        resolve(errorJson("timeout", `The search engine did not ${why} within ${waited} seconds. Try the call again.`));
      }, timeoutMs);
      this.pending.set(id, { resolve, timer });
      if (this.ready) {
        this.worker.postMessage(message);
      } else if (this.state === "failed") {
        resolve(errorJson("site_unavailable", this.failure));
      } else {
        this.queue.push(message);
      }
    });
  }
}
