// Start-up, everything that can overlap overlapping: the catalogue's files
// download while the runtime (and the wheels) download and compile; then
// Python opens the catalogue and the page hears "ready".
import { manifestOf } from "../download.js";
import { errorJson, MESSAGE } from "../messages.js";
import { downloadCatalogue, store } from "./data-files.js";
import { warmWhenIdle } from "./idle.js";
import { countRuntimeBytes } from "./pyodide-files.js";
import { mark, post, progress } from "./report.js";
import { loadRuntime } from "./runtime.js";
import { state } from "./state.js";

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
// Preparation waits this long after "ready" for the page's first calls.
const FIRST_CALL_GRACE_MS = 300;

export async function start(base) {
  state.dataUrl = new URL(base + "data/", self.location.origin).href;
  let dataLoaded = 0;
  let dataTotal = 0;
  const listed = manifestOf(state.dataUrl);
  listed.catch(() => {}); // the catalogue and the runtime each report it
  const catalogue = downloadCatalogue(listed, (count, total) => {
    dataLoaded += count;
    dataTotal = total;
    if (state.runtime) {
      progress("data", "Downloading the catalogue", dataLoaded, dataTotal);
    }
  });
  catalogue.then(() => mark("data_downloaded"), () => {});
  try {
    progress("runtime", "Downloading the search engine");
    const indexURL = new URL(base + "pyodide/", self.location.origin).href;
    state.uncount = countRuntimeBytes(indexURL);
    const pyodide = await loadRuntime(indexURL, listed);
    state.uncount();
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
    state.uncount();
    state.fallback = errorJson("site_unavailable", `The search engine could not start: ${error && error.message ? error.message : error}`);
    post({ type: MESSAGE.FAILED, message: JSON.parse(state.fallback).error.message });
  }
}

async function openCatalogue(pyodide) {
  progress("index", "Opening the search index");
  pyodide.globals.set("GOVSEARCH_DATA_URL", state.dataUrl);
  await pyodide.runPythonAsync(PYTHON);
  state.answer = pyodide.globals.get("govsearch_answer");
  state.attempt = pyodide.globals.get("govsearch_attempt");
  const status = pyodide.globals.get("govsearch_status").toJs({ dict_converter: Object.fromEntries });
  mark("catalogue_open");
  if (status.ok) {
    post({ type: MESSAGE.READY, records: status.records });
    state.warming = pyodide.globals.get("govsearch_warm");
    state.laterFiles = pyodide.globals.get("govsearch_later");
    state.readAhead = pyodide.globals.get("govsearch_read_ahead");
    // The page sends the calls it queued when it hears "ready": let them go
    // first (each call starts preparation again when it ends).
    setTimeout(() => state.busy === 0 && warmWhenIdle(), FIRST_CALL_GRACE_MS);
  } else {
    post({ type: MESSAGE.UNAVAILABLE, message: status.message });
  }
}
