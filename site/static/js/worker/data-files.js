// The catalogue's data files: downloaded (a stalled download tried again),
// shared while on their way, and put where Python's loader reads them.
import { download } from "../download.js";
import { secondWave, state } from "./state.js";

// A download that has not finished in STALL_MS is abandoned and tried
// again, up to DOWNLOAD_ATTEMPTS times; then only the calls needing it fail.
export const STALL_MS = 8000;
const DOWNLOAD_ATTEMPTS = 2;
const DATA_DIR = "/site/data/";

// Every top-level file the manifest lists for the catalogue (not the page's
// tool list, which is outside `files`), and the shards a small sharded site
// sends with it (`upFront`: saves a first search rounds of requests; Python
// checks them against the files that list them as it reads them),
// downloaded in parallel once the runtime's first files are in (the second
// wave, state.js); rejects when the manifest cannot be downloaded.
export async function downloadCatalogue(listed, onBytes) {
  const { bytes, manifest } = await listed;
  await secondWave.ready;
  const upFront = manifest && Array.isArray(manifest.upFront) ? manifest.upFront : [];
  const entries = [...Object.values((manifest && manifest.files) || {}), ...upFront].filter((entry) => entry && typeof entry.path === "string");
  const total = entries.reduce((sum, entry) => sum + (Number(entry.size) || 0), 0);
  const files = await Promise.all(entries.map(async (entry) => [entry.path, await downloadData(entry.path, (count) => onBytes(count, total))]));
  return [["manifest.json", bytes], ...files.filter(([, data]) => data)];
}

// Put downloaded data files where Python's loader reads them.
export function store(files) {
  for (const [name, bytes] of files) {
    const target = DATA_DIR + name;
    state.runtime.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    state.runtime.FS.writeFile(target, bytes);
  }
}

// Download one data file (a name inside the data folder), trying a stalled
// or failed download again; null when it never arrives. Python checks every
// file against the sha256 that vouches for it before using it, and a file
// that is missing leaves the synchronous path to report it (fail closed).
async function downloadData(name, onBytes = () => {}, priority = "auto") {
  const url = new URL(name, state.dataUrl);
  if (typeof name !== "string" || name.split("/").includes("..") || !url.href.startsWith(state.dataUrl)) {
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

export function downloadDataFile(name, { priority = "auto" } = {}) {
  let pending = inFlight.get(name);
  if (!pending) {
    pending = downloadData(name, () => {}, priority)
      .then((bytes) => bytes && store([[name, bytes]]))
      .finally(() => inFlight.delete(name));
    inFlight.set(name, pending);
  }
  return pending;
}

// Whether a data file is already on Pyodide's disk.
export function onDisk(name) {
  return state.runtime.FS.analyzePath(DATA_DIR + name).exists;
}
