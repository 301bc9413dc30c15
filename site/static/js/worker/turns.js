// Fair turns at Python: it answers one step of one call at a time (between
// steps a call waits for its downloads). The page's own searches (lane
// "page") go before agent calls; within a lane the cheapest call goes
// first, and waiting counts against cost, so a light call is never held
// behind a queue of heavy ones and none starves: the costliest call waiting
// goes before a fresh cheapest one within half of DEADLINE_MS.
import { LANE } from "../messages.js";

const turns = { [LANE.PAGE]: [], [LANE.AGENT]: [] };
let granting = false;
// Python searches at most this many distinct terms a call (its work budget).
const MAX_QUERY_TERMS = 16;
const MAX_PUBLISHERS = 8; // the schema's maxItems
const MAX_COST = 1 + MAX_QUERY_TERMS + 4 * MAX_PUBLISHERS;
// A call not started within this long of arriving answers "timeout" (it
// waited behind other calls); a running call ends when its work does (each
// call's work is bounded, see docs/architecture.md "Work budget").
export const DEADLINE_MS = 30000;
// Cost forgiven per millisecond waited: at one term a second, a call
// filtering on eight publishers lost to every fresh call past its deadline.
const WAIT_WEIGHT = (MAX_COST - 1) / (DEADLINE_MS / 2);
// lunr's word separators (lunr.py's tokenizer), and "*", which plain-text queries read as one.
const SEPARATORS = /[ \t\n\r\f\v\u00a0*-]+/;

// A call's cost from its parsed arguments, never from its text's length
// (padding that JSON escapes at 6 characters each, such as U+001C-U+001F,
// made heavy calls look "oversized" and so light): 1, plus its distinct
// words as Python's tokenizer splits them (an upper bound on the terms it
// searches: stop words, stems and synonyms only merge them) up to the work
// budget, plus 4 per publisher filter (each is matched, or suggested for).
// Arguments over 1 MiB never reach the worker (the page refuses them).
export function estimate(tool, argumentsJson) {
  let args = null;
  try {
    args = tool === "search_government_knowledge" ? JSON.parse(argumentsJson) : null;
  } catch (error) {
    return 1; // refused at once by Python
  }
  if (!args || typeof args !== "object") {
    return 1; // lookups by id, and arguments Python refuses at once
  }
  const words = typeof args.query === "string" ? new Set(args.query.toLowerCase().split(SEPARATORS).filter(Boolean)).size : 0;
  const publishers = Array.isArray(args.publishers) ? args.publishers.length : 0;
  return 1 + Math.min(words, MAX_QUERY_TERMS) + 4 * Math.min(publishers, MAX_PUBLISHERS);
}

// Resolves when it is `call`'s turn; the caller gives the turn back with grantSoon.
export function takeTurn(call) {
  return new Promise((resolve) => {
    turns[call.lane].push({ call, resolve });
    grantSoon();
  });
}

export function grantSoon() {
  if (!granting) {
    granting = true;
    setTimeout(grant, 0); // a task: calls that arrived meanwhile are queued first
  }
}

function grant() {
  granting = false;
  const queue = turns[LANE.PAGE].length ? turns[LANE.PAGE] : turns[LANE.AGENT];
  if (!queue.length) {
    return;
  }
  const now = performance.now();
  const urgency = (entry) => entry.call.cost - (now - entry.call.arrived) * WAIT_WEIGHT;
  let best = 0;
  for (let i = 1; i < queue.length; i++) {
    if (urgency(queue[i]) < urgency(queue[best])) {
      best = i;
    }
  }
  queue.splice(best, 1)[0].resolve();
}
