// The search page's state (query and filters) and its URL fragment: shared
// searches and Back rebuild the page from it, and it is never sent to the server.
import { DIMENSIONS } from "./filters.js";

export const MAX_QUERY = 160; // characters of a query kept

export function blankState() {
  return { q: "", collections: [], resourceTypes: [], accessStatuses: [], publishers: [] };
}

export function parseFragment(hash) {
  const state = blankState();
  const params = new URLSearchParams(String(hash || "").replace(/^[#?]/, ""));
  state.q = (params.get("q") || "").slice(0, MAX_QUERY);
  for (const [name] of DIMENSIONS) {
    state[name] = [...new Set(params.getAll(name).filter(Boolean))];
  }
  return state;
}

export function toFragment(state) {
  const params = new URLSearchParams();
  if (state.q) {
    params.set("q", state.q);
  }
  for (const [name] of DIMENSIONS) {
    for (const value of state[name]) {
      params.append(name, value);
    }
  }
  const text = params.toString();
  return text ? "#" + text : "";
}

// The last word of a query, which may still be being typed.
export function lastWord(query) {
  const words = query.trim().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return words.length ? words[words.length - 1] : "";
}

// The tool's arguments for a state: the query, the filters in use, the limit.
export function toolArguments(state, limit) {
  const args = { query: state.q.trim() };
  for (const [name] of DIMENSIONS) {
    if (state[name].length) {
      args[name] = state[name];
    }
  }
  args.limit = limit;
  return args;
}

// The page's state at load. A search arriving in the query string (a header
// search box or the form without JavaScript) moves into the fragment, so it
// is not sent again.
export function initialState() {
  if (!location.hash && new URLSearchParams(location.search).get("q")) {
    const state = parseFragment(location.search);
    history.replaceState(null, "", location.pathname + toFragment(state));
    return state;
  }
  return parseFragment(location.hash);
}
