// The bare runtime: Pyodide from the site's own /pyodide/ folder, nothing else.
// Posts {type: "timing", mark: "runtime_ready", at} like the site's worker.
const indexURL = new URL("/pyodide/", self.location.origin).href;
try {
  const { loadPyodide } = await import(indexURL + "pyodide.mjs");
  await loadPyodide({ indexURL, stdout: () => {}, stderr: () => {} });
  self.postMessage({ type: "timing", mark: "runtime_ready", at: performance.timeOrigin + performance.now() });
} catch (error) {
  self.postMessage({ type: "failed", message: String(error) });
}
