// The worker's own fence, put up before it loads anything.
//
// The page starts this worker from a blob: URL (bridge.js), so the browser
// applies the page's Content Security Policy here too: no script from other
// origins, data: or blob: URLs, no eval, requests and fonts only from this
// origin. GitHub Pages cannot send a CSP header for the worker's own file.
// Within the origin the worker narrows itself further: requests only to the
// site's data and runtime folders (paths decoded and normalised first), no
// other ways out (sockets, event streams, nested workers, storage, fonts),
// and no code from strings. Each is fixed (non-configurable), so code
// running here cannot undo it; see SECURITY.md.

let wrapInner = null; // set by lockDown: puts a start-up wrapper beneath the check

export function lockDown(base) {
  const inside = folderCheck(base);
  const refuse = (url) => new TypeError(`govsearch worker: ${String(url).slice(0, 80)} is outside the site's data and runtime folders`);
  wrapInner = guardFetch(inside, refuse);
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

// The worker's own start-up wrappers (counting bytes, answering from
// prefetched files) go beneath the folder check: `make(next)` returns the
// new fetch, calling `next` for what it does not answer itself. Every
// request is checked once, at the top; only this module's importers can
// wrap this way (the global's setter is for code that assigns self.fetch).
export function wrapFetch(make) {
  wrapInner(make);
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

// fetch only inside the folders, wherever it is found: the global's and the
// prototype's. The global's is an accessor that always gives the same checked
// function while the wrappers beneath it stay the same: any other code that
// assigns a wrapper has it run after the check, never instead of it. A Request's URL is read with the browser's own getter,
// and any other input turned into a string once, so the URL checked is the
// URL fetched. Returns the way to wrap beneath the check (wrapFetch).
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
  let current = checked(native);
  const wrap = (wrapper) => {
    inner = wrapper;
    current = checked(wrapper);
  };
  Object.defineProperty(self, "fetch", {
    configurable: false,
    enumerable: true,
    get: () => current,
    set: (wrapper) => {
      if (typeof wrapper !== "function") {
        return;
      }
      wrap(wrapper);
    },
  });
  if (owner && owner !== self) {
    fixed(owner, "fetch", checked(native));
  }
  return (make) => wrap(make(inner));
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
