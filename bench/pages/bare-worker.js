// The bare runtime: Pyodide from the site's own /pyodide/ folder, nothing else.
// Posts {type: "timing", mark: "runtime_ready", at} like the site's worker.
// With `?precompiled` in its URL it loads the build's precompiled standard
// library (pyodide-lock.json's govsearch_stdlib) instead of the npm one, as
// our worker does: the floor for what govsearch adds beyond the runtime.
const indexURL = new URL("/pyodide/", self.location.origin).href;
try {
  const { loadPyodide } = await import(indexURL + "pyodide.mjs");
  let stdLibURL;
  if (new URL(self.location.href).searchParams.has("precompiled")) {
    const lock = await (await fetch(indexURL + "pyodide-lock.json")).json();
    if (lock.govsearch_stdlib) {
      // Published as one gzip stream (runtime.py `_publish_stdlib`): expanded here, as the site's worker does.
      const packed = await fetch(indexURL + lock.govsearch_stdlib.file_name);
      stdLibURL = URL.createObjectURL(await new Response(packed.body.pipeThrough(new DecompressionStream("gzip"))).blob());
    }
  }
  await loadPyodide({ indexURL, stdLibURL, stdout: () => {}, stderr: () => {} });
  self.postMessage({ type: "timing", mark: "runtime_ready", at: performance.timeOrigin + performance.now() });
} catch (error) {
  self.postMessage({ type: "failed", message: String(error) });
}
