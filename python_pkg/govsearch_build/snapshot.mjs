// Make Pyodide's memory snapshot at build time:
//   node snapshot.mjs INDEX_DIR OUT_FILE MODULE...
// The interpreter after its bootstrap, with the standard-library modules
// govsearch imports already imported. A page that finds it in its HTTP cache
// starts from it instead of bootstrapping (see docs/startup.md).
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [indexDir, outFile, ...modules] = process.argv.slice(2);
const indexURL = indexDir.replace(/\/?$/, "/");
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL, _makeSnapshot: true, stdout: () => {}, stderr: () => {} });
for (const name of modules) {
  pyodide.pyimport(name);
}
writeFileSync(outFile, pyodide.makeMemorySnapshot());
