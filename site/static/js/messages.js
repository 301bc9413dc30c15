// The worker protocol, defined once for both ends: the page's bridge
// (bridge.js) posts and reads these messages, the worker (worker.js) answers
// them, and the page's modules listen for the bridge events named after them.
//
// In:  {type: INIT, base, lock}
//      {type: CALL, id, tool, argumentsJson, prefixLast, lane, offset}
//      {type: STATS}
// Out: {type: ALIVE} | {type: PROGRESS, phase, label, loaded, total}
//      {type: READY, records} | {type: UNAVAILABLE, message} | {type: FAILED, message}
//      {type: RESULT, id, result} | {type: CRASHED, message} | {type: STATS, wasmHeapBytes}
//      {type: TIMING, mark, at}: a start-up step done, for the benchmark's timeline
//
// `offset` is the search page's own "show more" (lane PAGE only): where in
// the ranking its results start. It is not a tool argument, so agents never
// see it and the tool's schema and `limit` stay as they are.

export const MESSAGE = Object.freeze({
  INIT: "init",
  CALL: "call",
  STATS: "stats",
  ALIVE: "alive",
  PROGRESS: "progress",
  READY: "ready",
  UNAVAILABLE: "unavailable",
  FAILED: "failed",
  RESULT: "result",
  CRASHED: "crashed",
  TIMING: "timing",
});

// Who is asking: the worker answers the page's own searches first.
export const LANE = Object.freeze({ PAGE: "page", AGENT: "agent" });

// A tool error result as JSON text, ASCII-escaped like every answer Python
// writes (govsearch.tools.to_json), so both ends give the same bytes.
export function errorJson(code, message) {
  return JSON.stringify({ ok: false, error: { code, message } }).replace(/[\u007f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}

// An answer's JSON text read, or a tool error saying it could not be.
export function parseAnswer(text) {
  try {
    return JSON.parse(text);
  } catch (error) {
    return JSON.parse(errorJson("internal_error", "The search engine gave an answer we could not read."));
  }
}

// The people-only start of a call's results: a whole number of 0 or more,
// and always 0 for agents.
export function pageOffset(lane, offset) {
  const value = Math.floor(Number(offset));
  return lane === LANE.PAGE && Number.isFinite(value) && value > 0 ? value : 0;
}
