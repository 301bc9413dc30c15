// What the worker tells the page besides answers: progress for the bar and
// when each start-up step was done (messages.js names the types).
import { MESSAGE } from "../messages.js";

export function post(message) {
  self.postMessage(message);
}

export function progress(phase, label, loaded = 0, total = 0) {
  post({ type: MESSAGE.PROGRESS, phase, label, loaded, total });
}

// Tell the benchmark when a start-up step is done: `at` is wall-clock time
// (timeOrigin + now), which the page turns into time since its navigation.
export function mark(name) {
  post({ type: MESSAGE.TIMING, mark: name, at: performance.timeOrigin + performance.now() });
}
