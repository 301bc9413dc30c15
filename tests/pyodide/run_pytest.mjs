// Run pytest inside Pyodide under Node, fully offline.
//
//   node tests/pyodide/run_pytest.mjs --project <repo> --site <siteDir> --wheels <dir> -- <pytest args>
//
// Pyodide starts from the project's own node_modules/pyodide (no CDN: nothing
// is fetched; packages are never loaded by name). Every *.whl in --wheels is
// unpacked straight into site-packages (no micropip). The project and the site
// are mounted from the host at their own absolute paths, GOVSEARCH_TEST_SITE
// names the site, <project>/python_pkg goes on sys.path, and pytest.main runs
// with the project's pyproject.toml as its ini file. The process exits with
// pytest's exit code; pytest's output goes to this process's stdout.

import { readdirSync, readFileSync, writeSync, realpathSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";

function parseArgs(argv) {
  const options = { pytestArgs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      options.pytestArgs = argv.slice(i + 1);
      break;
    }
    if (!["--project", "--site", "--wheels"].includes(arg) || i + 1 >= argv.length) {
      throw new Error(`unexpected argument ${JSON.stringify(arg)}`);
    }
    options[arg.slice(2)] = argv[++i];
  }
  for (const name of ["project", "site", "wheels"]) {
    if (!options[name]) throw new Error(`--${name} is required`);
  }
  return options;
}

function write(fd) {
  // Pyodide hands over raw bytes; pass them through unchanged.
  return { write: (buffer) => writeSync(fd, buffer) };
}

function isInside(child, parent) {
  return child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const project = realpathSync(resolve(options.project));
  const site = realpathSync(resolve(options.site));
  const wheelDir = resolve(options.wheels);

  const indexURL = join(project, "node_modules", "pyodide") + sep;
  const { loadPyodide } = await import(pathToFileURL(join(indexURL, "pyodide.mjs")).href);
  const started = Date.now();
  const pyodide = await loadPyodide({ indexURL });
  pyodide.setStdout(write(1));
  pyodide.setStderr(write(2));
  const loadedIn = Date.now() - started;

  const wheels = readdirSync(wheelDir).filter((name) => name.endsWith(".whl")).sort();
  if (wheels.length === 0) throw new Error(`no wheels in ${wheelDir}`);
  // unpackArchive extracts into the working directory unless told otherwise.
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  for (const name of wheels) {
    pyodide.unpackArchive(new Uint8Array(readFileSync(join(wheelDir, name))), "wheel", { extractDir: sitePackages });
  }

  // Mount at the host paths, so paths in tracebacks and in the environment
  // are the same inside and outside. A site inside the project needs no mount.
  const mounts = [project];
  if (!isInside(site, project)) mounts.push(site);
  for (const hostPath of mounts) {
    pyodide.FS.mkdirTree(hostPath);
    pyodide.mountNodeFS(hostPath, hostPath);
  }

  process.stderr.write(
    `pyodide ${pyodide.version} loaded in ${loadedIn} ms; unpacked ${wheels.length} wheels; mounted ${mounts.join(", ")}\n`,
  );

  pyodide.globals.set("PROJECT", project);
  pyodide.globals.set("SITE", site);
  pyodide.globals.set("PYTEST_ARGS", pyodide.toPy(options.pytestArgs));
  const code = await pyodide.runPythonAsync(`
import os, sys
os.environ["GOVSEARCH_TEST_SITE"] = SITE
os.environ["GOVSEARCH_EXPECT_PLATFORM"] = "emscripten"
os.chdir(PROJECT)
sys.path.insert(0, os.path.join(PROJECT, "python_pkg"))
sys.dont_write_bytecode = True  # never write __pycache__ into the mounted project
import pytest
int(pytest.main([
    *PYTEST_ARGS,
    "--rootdir", PROJECT,
    "-c", os.path.join(PROJECT, "pyproject.toml"),
    "-p", "no:cacheprovider",
]))
`);
  sys_flush(pyodide);
  return code;
}

function sys_flush(pyodide) {
  pyodide.runPython("import sys; sys.stdout.flush(); sys.stderr.flush()");
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`run_pytest.mjs: ${error && error.stack ? error.stack : error}\n`);
    process.exit(99);
  },
);
