// Start-up people can follow: the bar moves with the bytes of the search
// engine (the runtime, whose size the build writes into the page) and of the
// catalogue as they arrive, and the label says so in plain words.
import { MESSAGE } from "./messages.js";

// Share of the bar for each step the worker reports.
const STEPS = {
  runtime: [0, 85, "downloading the search engine"],
  package: [0, 85, "downloading the search engine"],
  data: [85, 97, "downloading the catalogue"],
  index: [97, 99, "opening the catalogue"],
};

export function formatBytes(bytes) {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1e3))} kB`;
}

export function showProgress(bridge, status) {
  const box = document.getElementById("search-progress");
  const bar = document.getElementById("loading-progress");
  const label = document.getElementById("loading-label");
  if (!box || !bar || !label) {
    return;
  }
  const runtimeBytes = Number(box.dataset.runtimeBytes) || 0;
  const update = (detail) => {
    const [from, to, what] = STEPS[detail.phase] || [0, 0, "starting"];
    const engine = detail.phase === "runtime" || detail.phase === "package";
    const total = engine && runtimeBytes ? Math.max(runtimeBytes, detail.loaded || 0) : detail.total;
    const fraction = total ? Math.min(1, (detail.loaded || 0) / total) : 0;
    bar.value = Math.max(bar.value, Math.round(from + (to - from) * fraction));
    bar.textContent = `${bar.value}%`;
    label.textContent = total ? `Getting search ready: ${what} (${formatBytes(detail.loaded)} of ${formatBytes(total)})` : `Getting search ready: ${what}…`;
  };
  box.hidden = false;
  if (bridge.progress) {
    update(bridge.progress);
  }
  bridge.addEventListener(MESSAGE.PROGRESS, (event) => update(event.detail));
  const finish = () => {
    bar.value = 100;
    bar.textContent = "100%";
    box.hidden = true;
  };
  bridge.addEventListener(MESSAGE.READY, finish);
  bridge.addEventListener(MESSAGE.UNAVAILABLE, () => {
    finish();
    status.textContent = "Search is unavailable: the catalogue did not load. You can still browse the catalogue.";
  });
  bridge.addEventListener(MESSAGE.FAILED, () => {
    box.hidden = true;
    status.textContent = "Search could not start in this browser. You can still browse the catalogue.";
  });
}
