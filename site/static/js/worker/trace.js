// Where each recent call's time went (Python per round, the files it then
// fetched, the wait for them), for bench/breakdown.py to read over the
// DevTools protocol; the last few calls only, so memory stays flat.
const TRACED_CALLS = 64;
self.govsearchTrace = [];

// The list a call's rounds go into: {python, files, fetch} per round.
export function traceCall(call) {
  const rounds = [];
  self.govsearchTrace.push({ arrived: call.arrived, rounds });
  if (self.govsearchTrace.length > TRACED_CALLS) {
    self.govsearchTrace.shift();
  }
  return rounds;
}
