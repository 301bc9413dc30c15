// What the worker holds, in one object: every module that needs to know how
// far start-up, Python and the idle work have got reads and writes it here.
import { savingData } from "../runtime-files.js";

export const state = {
  dataUrl: null, // absolute URL of the site's data folder
  runtimeUrl: null, // absolute URL of the site's runtime folder
  pageSavesData: false, // the page said the browser asks to save data (init's saveData)
  runtime: null, // the Pyodide instance, once loaded
  answer: null, // the Python govsearch_answer function, once ready
  attempt: null, // govsearch_attempt: the answer, or the data files to download first
  fallback: null, // an error result JSON string when Python never became ready
  dead: false, // Python failed fatally: nothing more can run here
  busy: 0, // calls being answered
  lastCallEnded: 0, // performance.now() when the last call ended
  warming: null, // govsearch_warm while preparation remains: one piece per idle moment
  fetchingForPiece: false, // a piece's files are on their way: no other piece runs meanwhile
  laterFiles: null, // govsearch_later: the data files later searches need, not read yet
  readAhead: null, // govsearch_read_ahead: reads a few of those once fetched; true while more remain
  snapshotEntry: null, // the lock file's memory snapshot, to be cached once search is idle
  wheelsLater: null, // after a snapshot start: installs the wheels' files once search is idle
  uncount: () => {}, // stops counting the runtime's bytes for the progress bar
};

// Start-up downloads come in two waves (docs/startup.md, "The order of
// things"): first what Python's start needs (Pyodide's scripts, its
// WebAssembly, the standard library), alone on the link; then what is needed
// once Python runs (the wheels, the catalogue's files), downloading while the
// WebAssembly finishes compiling and Python starts. runtime.js opens the
// second wave; the wheels' and the catalogue's downloads wait for it.
let openWave;
export const secondWave = { ready: new Promise((resolve) => (openWave = resolve)), open: () => openWave() };

// The visitor's browser asks to save data (as the page or this worker sees
// it) or says the connection is slow: fetch nothing the searches do not need.
export function savesData() {
  return savingData(state.pageSavesData);
}
