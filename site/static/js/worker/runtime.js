// Pyodide with govsearch loaded: from the cached memory snapshot when it can,
// else bootstrapped, every file checked before use (runtime-files.js).
import { IntegrityError } from "../download.js";
import { checkScripts, provideWasm, snapshotMatches, trustedLock } from "../runtime-files.js";
import { STALL_MS } from "./data-files.js";
import { wrapFetch } from "./lockdown.js";
import { packageIntegrity, prefetchRuntimeFiles, stdlibUrl } from "./pyodide-files.js";
import { mark } from "./report.js";
import { cachedSnapshot } from "./snapshot.js";
import { secondWave, state } from "./state.js";

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

// Every runtime file is checked before use (runtime-files.js): the lock file
// against the manifest, then Pyodide's scripts, its WebAssembly (downloaded
// gzipped and compiled while it streams in), the standard library and the
// wheels against the lock file, and a cached snapshot against both.
async function bootRuntime(indexURL, lock, problems) {
  const wasmIn = provideWasm(indexURL, lock, wrapFetch); // its fetch wrapper, beneath the lockdown's one check
  await checkScripts(indexURL, lock, { stallMs: STALL_MS });
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  const contents = await lock;
  const rest = contents.govsearch_stdlib_rest;
  if (rest && typeof rest.file_name === "string") {
    // The standard library is cut to what the search imports; Python fetches
    // (and checks) the whole one only if it imports anything else (precompile.mjs).
    self.govsearchStdlibRest = { url: new URL(rest.file_name, indexURL).href, sha256: rest.sha256, file_name: rest.file_name };
  }
  const checked = prefetchRuntimeFiles(indexURL, contents, wasmIn);
  const options = { indexURL, stdLibURL: stdlibUrl(indexURL, contents), lockFileContents: contents, packageBaseUrl: indexURL, packages: ["govsearch"], stdout: () => {}, stderr: (line) => problems.length < 8 && problems.push(String(line)) };
  const usable = snapshotMatches(contents);
  const snapshot = usable ? await cachedSnapshot(indexURL, contents.govsearch_snapshot) : null;
  if (snapshot) {
    secondWave.open(); // everything comes from the HTTP cache: nothing to wait for
    state.uncount(); // ... and no download to show
    // The snapshot holds the wheels' code: they (and the standard library)
    // must pass their checks before it runs, though their files are only
    // installed once search is idle. One that fails fails the start.
    await checked;
    try {
      const pyodide = await failOnWasmWarning(loadPyodide({ ...options, packages: [], _loadSnapshot: snapshot.bytes }));
      state.wheelsLater = () =>
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
    state.snapshotEntry = contents.govsearch_snapshot;
  }
  return await failOnWasmWarning(loadPyodide(options));
}

// Pyodide, with govsearch and its dependencies loaded during its bootstrap.
export async function loadRuntime(indexURL, listed) {
  const lock = trustedLock(indexURL, listed, { stallMs: STALL_MS });
  lock.catch(() => {});
  state.runtimeUrl = indexURL;
  const problems = [];
  let pyodide;
  try {
    pyodide = await bootRuntime(indexURL, lock, problems);
  } catch (error) {
    secondWave.open(); // the catalogue's files are not held back by a start that failed
    const why = error instanceof IntegrityError ? "" : await packageIntegrity(indexURL);
    throw why ? new Error(`the govsearch package did not load: ${why}`, { cause: error }) : error;
  }
  state.runtime = pyodide;
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
