// A tool call from the page: queued for its turn at Python, answered once the
// data files it needs are downloaded, and any fatal failure reported.
import { errorJson, LANE, MESSAGE, pageOffset } from "../messages.js";
import { downloadDataFile } from "./data-files.js";
import { warmWhenIdle } from "./idle.js";
import { post } from "./report.js";
import { state } from "./state.js";
import { traceCall } from "./trace.js";
import { DEADLINE_MS, estimate, grantSoon, takeTurn } from "./turns.js";

const MAX_FETCH_ROUNDS = 7; // at most: directory pages, postings, vocabulary, expansions, profile chunks, row pages, rows

// Answer a call, first downloading in parallel the shards it needs (a large
// site's index is split into shards fetched on demand).
async function answerWithData(call) {
  const { tool, argumentsJson, prefixLast, offset } = call;
  const rounds = traceCall(call);
  for (let round = 0; round < MAX_FETCH_ROUNDS; round++) {
    await takeTurn(call);
    if (round === 0 && performance.now() - call.arrived > DEADLINE_MS) {
      grantSoon();
      return errorJson("timeout", `The search engine was busy with other calls for more than ${DEADLINE_MS / 1000} seconds, so this call was not started. Try it again.`);
    }
    let outcome;
    const began = performance.now();
    try {
      outcome = state.attempt(tool, argumentsJson, prefixLast, offset);
    } finally {
      grantSoon();
    }
    const ran = performance.now();
    if (typeof outcome === "string") {
      rounds.push({ python: ran - began, files: [], fetch: 0 });
      return outcome;
    }
    const names = outcome.toJs();
    outcome.destroy();
    await Promise.all(names.map((name) => downloadDataFile(name)));
    rounds.push({ python: ran - began, files: names, fetch: performance.now() - ran });
  }
  await takeTurn(call);
  try {
    return state.answer(tool, argumentsJson, prefixLast, offset); // fetches what is still missing one by one, or fails closed
  } finally {
    grantSoon();
  }
}

// The call as this worker weighs it: its lane, arrival and cost.
function callOf(message) {
  const lane = message.lane === LANE.AGENT ? LANE.AGENT : LANE.PAGE;
  const call = { tool: String(message.tool), argumentsJson: String(message.argumentsJson), prefixLast: Boolean(message.prefixLast), lane, arrived: performance.now() };
  return { ...call, offset: pageOffset(lane, message.offset), cost: estimate(call.tool, call.argumentsJson) };
}

// The result JSON string for a call message; null when Python failed fatally
// (the worker has closed itself: the page answers the call).
async function resultOf(message) {
  if (!state.answer) {
    return state.fallback || errorJson("site_unavailable", "The search engine is not ready.");
  }
  state.busy++;
  try {
    return await answerWithData(callOf(message));
  } catch (error) {
    const text = error && error.message ? error.message.split("\n").slice(-2).join(" ") : String(error);
    if (error && (error.pyodide_fatal_error || /fatally failed/.test(text))) {
      // Pyodide cannot be used again (for example, out of memory).
      state.dead = true;
      post({ type: MESSAGE.CRASHED, message: `Python failed fatally (${text.slice(0, 200)}).` });
      self.close();
      return null;
    }
    return errorJson("internal_error", `The search failed: ${text}`);
  } finally {
    state.busy--;
    state.lastCallEnded = performance.now();
    if (state.warming) {
      warmWhenIdle();
    }
  }
}

export async function handleCall(message) {
  if (state.dead) {
    return; // the page has been told; it answers the call itself
  }
  const result = await resultOf(message);
  if (result !== null) {
    post({ type: MESSAGE.RESULT, id: message.id, result });
  }
}
