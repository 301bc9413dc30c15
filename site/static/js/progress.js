// Start-up people can follow: the bar moves with the bytes of the search
// engine (the runtime, whose size the build writes into the page) and of the
// catalogue as they arrive, and the label says so in plain words.
import { MESSAGE } from "./messages.js";

// Share of the bar for each step the worker reports, what it is doing while bytes
// arrive, and once they are all in (from the browser's cache, on the way back to a
// search, they all are at once: "1 kB of 5.7 MB left" then stood for seconds).
const STEPS = {
  runtime: [0, 85, "downloading the search engine", "starting the search engine"],
  package: [0, 85, "downloading the search engine", "starting the search engine"],
  data: [85, 97, "downloading the catalogue", "opening the catalogue"],
  index: [97, 99, "opening the catalogue", "opening the catalogue"],
};

export function formatBytes(bytes) {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1e3))} kB`;
}

// How long the rest will take at the speed seen so far ("" until there is a
// speed worth quoting): the visitor on a slow link can decide to browse instead.
const ESTIMATE_AFTER_MS = 1000;

export function timeLeft(bytesLeft, bytesSoFar, elapsedMs) {
  if (bytesLeft <= 0 || bytesSoFar <= 0 || elapsedMs < ESTIMATE_AFTER_MS) {
    return "";
  }
  const seconds = Math.ceil((bytesLeft / bytesSoFar) * (elapsedMs / 1000));
  return seconds < 60 ? `about ${Math.max(1, seconds)} s left` : `about ${Math.ceil(seconds / 60)} min left`;
}

export function labelFor(phase, loaded, total, started) {
  const [, , what, done] = STEPS[phase] || [0, 0, "starting", "starting"];
  if (!total) {
    return `Getting search ready: ${what}…`;
  }
  const left = Math.max(0, total - loaded);
  if (!left) {
    return `Getting search ready: ${done}…`;
  }
  const estimate = timeLeft(left, loaded, performance.now() - started);
  return `Getting search ready: ${what}, ${formatBytes(left)} of ${formatBytes(total)} left${estimate ? ` (${estimate})` : ""}`;
}

// A search typed before the engine is ready waits for it, and the status line (a live
// region, which the bar's label is not) says so. Where the bar or the "Try again" notice
// says it on screen already, only screen readers hear it: a visitor's trial on a phone
// read "Getting search ready" twice, one line under the other.
export function showWaiting(status) {
  const shown = ["search-progress", "search-runtime-notice"].some((id) => document.getElementById(id)?.hidden === false);
  const text = document.createElement("span");
  text.className = shown ? "govuk-visually-hidden" : "";
  text.textContent = "Getting search ready…";
  status.replaceChildren(text);
}

// While search loads, the browse pages (plain pages, no search engine needed) are one click away.
function browseLink(box, base) {
  const text = document.createElement("p");
  text.className = "govuk-body-s";
  text.id = "loading-browse";
  const link = document.createElement("a");
  link.className = "govuk-link";
  link.href = base + "browse/";
  link.textContent = "browse the catalogue";
  text.append("While search gets ready you can ", link, ".");
  box.append(text);
}

export function showProgress(bridge, status) {
  const box = document.getElementById("search-progress");
  const bar = document.getElementById("loading-progress");
  const label = document.getElementById("loading-label");
  if (!box || !bar || !label) {
    return;
  }
  const runtimeBytes = Number(box.dataset.runtimeBytes) || 0;
  const started = {}; // phase -> performance.now() when its first bytes arrived
  const update = (detail) => {
    const [from, to] = STEPS[detail.phase] || [0, 0];
    const engine = detail.phase === "runtime" || detail.phase === "package";
    const loaded = detail.loaded || 0;
    const total = engine && runtimeBytes ? Math.max(runtimeBytes, loaded) : detail.total;
    const fraction = total ? Math.min(1, loaded / total) : 0;
    started[detail.phase] = started[detail.phase] || (loaded ? performance.now() : 0);
    bar.value = Math.max(bar.value, Math.round(from + (to - from) * fraction));
    bar.textContent = `${bar.value}%`;
    label.textContent = labelFor(detail.phase, loaded, total, started[detail.phase] || performance.now());
  };
  if (!document.getElementById("loading-browse")) {
    browseLink(box, bridge.base);
  }
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
