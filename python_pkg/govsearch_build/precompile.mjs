// Compile, at build time, the Python the page imports to bytecode:
//   node precompile.mjs INDEX_DIR OUT_DIR WHEEL... -- MODULE...
// Pyodide's python_stdlib.zip holds only sources, so every module imported
// while the runtime starts, loads our wheels and imports govsearch is
// compiled in the page, by Python running in WebAssembly: most of the
// start-up's time (see docs/startup.md). Here Pyodide itself (so the bytecode
// matches its Python exactly) boots, installs the wheels as the page does,
// imports MODULE..., and writes to OUT_DIR:
// - python_stdlib.zip: the same archive, with every standard-library module
//   it imported stored as bytecode in place of its source (the rest stay
//   source and compile on first import, as before: nothing is left out);
// - each wheel, with each module it imported stored as bytecode in place of
//   its source (module.pyc, which Python imports as it is: the wheel's
//   sha256 in pyodide-lock.json vouches for it), so the page neither
//   compiles nor downloads the source; modules it did not import stay source.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const [indexDir, outDir] = args;
const split = args.indexOf("--");
const wheels = args.slice(2, split);
const modules = args.slice(split + 1);
const indexURL = indexDir.replace(/\/?$/, "/");
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL, stdout: () => {}, stderr: (line) => console.error(line) });
await pyodide.loadPackage(wheels, { messageCallback: () => {} });
for (const name of modules) {
  pyodide.pyimport(name);
}
pyodide.FS.mkdirTree("/tmp/in");
pyodide.FS.mkdirTree("/tmp/out");
pyodide.FS.writeFile("/tmp/in/python_stdlib.zip", readFileSync(indexURL + "python_stdlib.zip"));
for (const wheel of wheels) {
  pyodide.FS.writeFile("/tmp/in/" + basename(wheel), readFileSync(wheel));
}
pyodide.runPython(`
import base64, hashlib, os, sys, zipfile
from importlib._bootstrap_external import _code_to_timestamp_pyc

STDLIB = next(path for path in sys.path if path.endswith(".zip")) + "/"
SITE = next(path for path in sys.path if path.endswith("site-packages")) + "/"
origins = {(getattr(module, "__spec__", None) and module.__spec__.origin) or "" for module in list(sys.modules.values())}
imported = {origin[len(STDLIB):] for origin in origins if origin.startswith(STDLIB)}
installed = {origin[len(SITE):] for origin in origins if origin.startswith(SITE)}

def entry(name, data):
    info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    return info, data

def stdlib_entries(source):
    for info in source.infolist():
        data = source.read(info)
        if info.filename in imported:
            # Sourceless bytecode: zipimport uses it as it is (no source to compare with).
            code = compile(data, STDLIB + info.filename, "exec", dont_inherit=True)
            yield entry(info.filename + "c", bytes(_code_to_timestamp_pyc(code, 0, 0)))
        else:
            yield entry(info.filename, data)

def wheel_entries(source):
    compiled, records = {}, []
    for info in source.infolist():
        data = source.read(info)
        if info.filename.endswith(".dist-info/RECORD"):
            record_name, record = info.filename, data.decode()
        elif info.filename in installed:
            # Sourceless bytecode, as in the standard library above.
            code = compile(data, SITE + info.filename, "exec", dont_inherit=True)
            pyc = bytes(_code_to_timestamp_pyc(code, 0, 0))
            compiled[info.filename] = info.filename + "c"
            digest = base64.urlsafe_b64encode(hashlib.sha256(pyc).digest()).rstrip(b"=").decode()
            records.append(f"{info.filename}c,sha256={digest},{len(pyc)}")
            yield entry(info.filename + "c", pyc)
        else:
            yield entry(info.filename, data)
    kept = [line for line in record.splitlines() if line.split(",", 1)[0] not in compiled]
    yield entry(record_name, ("\\n".join(kept + records) + "\\n").encode())

for name in sorted(os.listdir("/tmp/in")):
    with zipfile.ZipFile("/tmp/in/" + name) as source, zipfile.ZipFile("/tmp/out/" + name, "w", compresslevel=9) as out:
        made = stdlib_entries(source) if name == "python_stdlib.zip" else wheel_entries(source)
        for info, data in made:
            out.writestr(info, data)
`);
mkdirSync(outDir, { recursive: true });
for (const name of pyodide.FS.readdir("/tmp/out").filter((name) => !name.startsWith("."))) {
  writeFileSync(outDir.replace(/\/?$/, "/") + name, pyodide.FS.readFile("/tmp/out/" + name));
}
