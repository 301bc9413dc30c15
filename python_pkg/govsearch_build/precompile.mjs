// Compile, at build time, the Python the page imports to bytecode:
//   node precompile.mjs INDEX_DIR OUT_DIR WHEEL... -- MODULE...
// Pyodide's python_stdlib.zip holds only sources, so every module imported
// while the runtime starts, loads our wheels and imports govsearch is
// compiled in the page, by Python running in WebAssembly: most of the
// start-up's time (see docs/startup.md). Here Pyodide itself (so the bytecode
// matches its Python exactly) boots, installs the wheels as the page does,
// imports MODULE..., and writes to OUT_DIR:
// - python_stdlib.zip: the top-level modules and packages of the archive of
//   which it imported anything, each imported module stored as bytecode in
//   place of its source, and a sitecustomize.py that fetches the whole npm
//   archive (checked against its sha256) on the first import of anything else:
//   a first visit downloads what the search needs, and nothing fails to import;
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
pyodide.runPython(readFileSync(new URL("page_imports.py", import.meta.url), "utf-8"));
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

# Run by Python's site module at start-up (before anything else imports): the
# first import of a standard-library module this archive leaves out fetches
# the whole npm archive once (synchronously: imports cannot wait), checks it
# against the sha256 the worker passes from the lock file, and imports from
# it. Outside the page (no govsearchStdlibRest) it finds nothing, as before.
SITECUSTOMIZE = """\
import sys

REST = frozenset(%r)
TARGET = "/lib/python_stdlib_rest.zip"


class RestOfStdlib:
    busy = False

    def find_spec(self, name, path=None, target=None):
        if name not in REST or self.busy:
            return None
        self.busy = True
        try:
            where = fetch_rest()
        finally:
            self.busy = False
        if where is None:
            return None
        from importlib.machinery import PathFinder

        parent = name.rpartition(".")[0]
        return PathFinder.find_spec(name, [where + "/" + parent.replace(".", "/") if parent else where])


def fetch_rest():
    import os

    if not os.path.exists(TARGET):
        import hashlib

        import js

        wanted = getattr(js, "govsearchStdlibRest", None)
        if wanted is None:
            return None
        request = js.XMLHttpRequest.new()
        request.open("GET", wanted.url, False)
        request.responseType = "arraybuffer"
        request.send()
        data = request.response.to_bytes() if request.status == 200 else b""
        if hashlib.sha256(data).hexdigest() != wanted.sha256:
            raise ImportError(f"{wanted.file_name} failed its integrity check (its sha256 differs from pyodide-lock.json), so it was not used")
        with open(TARGET, "wb") as file:
            file.write(data)
    if TARGET not in sys.path:
        sys.path.append(TARGET)
    return TARGET


sys.meta_path.append(RestOfStdlib())
"""

def entry(name, data):
    info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    return info, data

# The standard library's bytecode is about a third line table (where each
# instruction came from, for tracebacks). What is shipped says only that each
# instruction is on its function's first line (location entries "no columns",
# line delta 0, eight code units each): a third fewer bytes for the first
# visit, and a traceback through the standard library names the function, not the line.
def at_def_lines(code):
    units, table = len(code.co_code) // 2, bytearray()
    while units > 0:
        step = min(8, units)
        table += bytes([0x80 | (13 << 3) | (step - 1), 0])
        units -= step
    consts = tuple(at_def_lines(const) if isinstance(const, type(code)) else const for const in code.co_consts)
    return code.replace(co_linetable=bytes(table), co_consts=consts)

def module_name(path):
    stem = path[: -len("/__init__.py")] if path.endswith("/__init__.py") else path[: -len(".py")]
    return stem.replace("/", ".")

# Only the modules it imported (and hashlib, which the fallback below needs),
# with the data files beside them; every other module is listed for the fallback.
kept = imported | {"hashlib.py"}
kept_dirs = {path.rsplit("/", 1)[0] for path in kept if "/" in path}

def stdlib_entries(source):
    names = [info.filename for info in source.infolist()]
    rest = sorted(module_name(name) for name in names if name.endswith(".py") and name not in kept)
    yield entry("sitecustomize.py", (SITECUSTOMIZE % (rest,)).encode())
    for info in source.infolist():
        folder = info.filename.rsplit("/", 1)[0] if "/" in info.filename else ""
        if info.filename not in kept and (info.filename.endswith(".py") or folder not in kept_dirs):
            continue
        data = source.read(info)
        if info.filename in imported:
            # Sourceless bytecode: zipimport uses it as it is (no source to compare with).
            # Without docstrings and asserts (as python -OO; Pyodide's own packages keep
            # theirs, which its JavaScript API reads) and with one line per function.
            level = 0 if info.filename.startswith(("_pyodide/", "pyodide/")) else 2
            code = compile(data, STDLIB + info.filename, "exec", dont_inherit=True, optimize=level)
            yield entry(info.filename + "c", bytes(_code_to_timestamp_pyc(at_def_lines(code), 0, 0)))
        else:
            yield entry(info.filename, data)

def wheel_entries(source):
    compiled, records = {}, []
    for info in source.infolist():
        data = source.read(info)
        if info.filename.endswith(".dist-info/RECORD"):
            record_name, record = info.filename, data.decode()
        elif info.filename in installed:
            # Sourceless bytecode, as in the standard library above (none of the
            # three packages reads a docstring or needs an assert to work).
            code = compile(data, SITE + info.filename, "exec", dont_inherit=True, optimize=2)
            pyc = bytes(_code_to_timestamp_pyc(at_def_lines(code), 0, 0))
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
