// Work done while no call is waiting: preparation (validators, facet
// profiles, prefix and typo matching), then the data files later searches
// need, then reading them; last, the memory snapshot and the wheels' files.
import { downloadDataFile, onDisk } from "./data-files.js";
import { keepSnapshot } from "./snapshot.js";
import { savesData, state } from "./state.js";

const FETCH_AHEAD_QUIET_MS = 500; // no call for this long before files for later calls are fetched

// Prepare one piece per task, so a call never waits for all of it. A piece
// may first need data files: they download side by side, and preparation
// goes on once they are in. Then the files later searches need.
export function warmWhenIdle() {
  setTimeout(() => {
    if (!state.warming || state.busy > 0 || state.dead || state.fetchingForPiece) {
      return; // the running call, or the download, schedules this again when it ends
    }
    let more = false;
    try {
      more = state.warming();
    } catch (error) {
      // Only preparation: a real call will meet (and report) the same problem.
    }
    if (more && typeof more === "object") {
      const names = more.toJs();
      more.destroy();
      state.fetchingForPiece = true;
      // Saving data: not fetched now; Python leaves the piece out, and a search needing the file fetches it.
      Promise.all(savesData() ? [] : names.map((name) => downloadDataFile(name))).finally(() => {
        state.fetchingForPiece = false;
        warmWhenIdle();
      });
    } else if (more) {
      warmWhenIdle();
    } else {
      state.warming = null;
      fetchAhead().then(readAheadWhenIdle).finally(keepSnapshot);
      if (state.wheelsLater) {
        state.wheelsLater(); // a wheel that fails its integrity check stays out; nothing runs its code
        state.wheelsLater = null;
      }
    }
  }, 0);
}

// The data files most later searches need (every record's profile, the pages
// locating shards, the series table, the rows of the records our authors
// wrote; Python names those it has not read), once no call has run
// for a moment (a person reading results, an agent thinking) and at low
// priority, so they never hold up a call's own downloads. They wait on disk
// until read ahead (below) or by a search: each such search saves a round of
// downloads.
async function fetchAhead() {
  if (savesData()) {
    return; // the visitor's connection is saving data or slow: each search fetches what it needs
  }
  let names = [];
  try {
    const later = state.laterFiles();
    names = later.toJs().filter((name) => !onDisk(name));
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
  while (more && state.readAhead && !state.dead) {
    await untilQuiet();
    try {
      more = state.readAhead();
    } catch (error) {
      more = false; // only an optimisation: a call meets (and reports) the same problem
    }
    await new Promise((resolve) => setTimeout(resolve, 0)); // one piece per task
  }
}

// Resolves once no call is running and none has ended for FETCH_AHEAD_QUIET_MS.
async function untilQuiet() {
  while (state.busy > 0 || performance.now() - state.lastCallEnded < FETCH_AHEAD_QUIET_MS) {
    await new Promise((resolve) => setTimeout(resolve, FETCH_AHEAD_QUIET_MS / 4));
  }
}
