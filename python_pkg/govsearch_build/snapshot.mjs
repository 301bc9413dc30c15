// Make Pyodide's memory snapshot at build time:
//   node snapshot.mjs INDEX_DIR STDLIB_ZIP OUT_FILE WHEEL... -- MODULE...
// The interpreter after its bootstrap, with our wheels unpacked and the
// modules govsearch needs (its own, its dependencies', the standard
// library's) already imported and the tools' validators built. STDLIB_ZIP must be the standard library the
// page loads with it (its zip index is in the snapshot). A page that finds the snapshot in its HTTP
// cache starts from it instead of bootstrapping and importing (see
// docs/startup.md). The wheels are unpacked by Python's zipfile, not
// loadPackage, which would leave JavaScript references a snapshot cannot hold;
// the page still installs them with loadPackage (integrity-checked), so their
// files are on disk as after a normal start.
import { readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const [indexDir, stdLibURL, outFile] = args;
const split = args.indexOf("--");
const wheels = args.slice(3, split);
const modules = args.slice(split + 1);
const indexURL = indexDir.replace(/\/?$/, "/");
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL, stdLibURL, _makeSnapshot: true, stdout: () => {}, stderr: () => {} });
pyodide.FS.mkdirTree("/tmp/wheels");
for (const wheel of wheels) {
  pyodide.FS.writeFile("/tmp/wheels/" + basename(wheel), readFileSync(wheel));
}
pyodide.runPython(`
import os, site, sys, zipfile
target = next(path for path in sys.path if path.endswith("site-packages"))
for name in sorted(os.listdir("/tmp/wheels")):
    zipfile.ZipFile("/tmp/wheels/" + name).extractall(target)
    os.remove("/tmp/wheels/" + name)
`);
for (const name of modules) {
  pyodide.pyimport(name);
}
// The tools' validators and every other module of the wheels (page_imports.py).
pyodide.runPython(readFileSync(new URL("page_imports.py", import.meta.url), "utf-8"));
writeFileSync(outFile, pyodide.makeMemorySnapshot());
