// Time (and optionally profile) the bench's queries inside Pyodide under Node:
// the same interpreter the browser's worker runs, without downloads or
// message passing, so Python hot spots show as Pyodide meets them.
//
//   node bench/pyodide_profile.mjs --project . --site SITE --queries FILE.json [--profile N]
//
// FILE.json holds {"warmup": [args...], "timed": [args...]} (bench/breakdown.py
// --queries-out writes it). Prints per query ms; with --profile, the N
// costliest functions (cumulative) over all timed queries.

import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";

function parseArgs(argv) {
  const options = { profile: "0" };
  for (let i = 0; i < argv.length; i += 2) {
    options[argv[i].replace(/^--/, "")] = argv[i + 1];
  }
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const project = realpathSync(resolve(options.project));
  const site = realpathSync(resolve(options.site));
  const indexURL = join(project, "node_modules", "pyodide") + sep;
  const { loadPyodide } = await import(pathToFileURL(join(indexURL, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({ indexURL });
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  const wheels = join(site, "pyodide");
  for (const name of readdirSync(wheels).filter((n) => n.endsWith(".whl") && !n.startsWith("govsearch"))) {
    pyodide.unpackArchive(new Uint8Array(readFileSync(join(wheels, name))), "wheel", { extractDir: sitePackages });
  }
  pyodide.FS.mkdirTree(project);
  pyodide.mountNodeFS(project, project);
  // The data files in Pyodide's in-memory file system, as the worker stores them.
  const copy = (from, to) => {
    pyodide.FS.mkdirTree(to);
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      if (entry.isDirectory()) copy(join(from, entry.name), to + "/" + entry.name);
      else pyodide.FS.writeFile(to + "/" + entry.name, readFileSync(join(from, entry.name)));
    }
  };
  copy(join(site, "data"), "/site/data");
  pyodide.globals.set("PROJECT", project);
  pyodide.globals.set("SITE", site);
  pyodide.globals.set("QUERIES", readFileSync(resolve(options.queries), "utf-8"));
  pyodide.globals.set("PROFILE", Number(options.profile));
  pyodide.setStdout({ batched: (line) => console.log(line) });
  pyodide.runPython(`
import sys, json, time, cProfile, pstats, io
sys.path.insert(0, PROJECT + "/python_pkg")
from govsearch.loaders import DirectoryLoader
from govsearch.session import Session
session = Session(DirectoryLoader("/site"))
while session.warm():
    pass
queries = json.loads(QUERIES)
for args in queries["warmup"]:
    session.answer_sync("search_government_knowledge", json.dumps(args))
profiler = cProfile.Profile() if PROFILE else None
times = []
for args in queries["timed"]:
    text = json.dumps(args)
    started = time.perf_counter()
    if profiler:
        profiler.enable()
    session.answer_sync("search_government_knowledge", text)
    if profiler:
        profiler.disable()
    times.append((time.perf_counter() - started) * 1000)
    print(f"{times[-1]:7.1f} ms  {text}")
ordered = sorted(times)
print(f"p50 {ordered[len(ordered) // 2]:.1f} ms, p95 {ordered[int(0.95 * len(ordered)) - 1]:.1f} ms, total {sum(times):.0f} ms")
if profiler:
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(PROFILE)
    print(out.getvalue())
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(PROFILE)
    print(out.getvalue())
`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
