// The human search page: results as you type, filters with counts, and the
// query and filters kept in the URL fragment (never sent to the server).
//
// One ranking for people and agents: a finished query (Enter, or typing
// paused) shows exactly what the search_government_knowledge tool answers
// for the same words and filters. Matching the last word as a prefix (it
// may still be being typed) only adds records below a complete answer;
// it never reorders it.
import { DIMENSIONS, renderFilterGroups, renderSelected, selectedCount } from "./filters.js";
import { showProgress } from "./progress.js";
import { element, emptyState, resultItem, statusText, suggestionLink, thousands } from "./results.js";

const DEBOUNCE_MS = 300; // a pause this long finishes the query
const FIRST_LIMIT = 10;
const MAX_LIMIT = 20; // the tool schema's maximum: people get no more than agents can ask for
const PREFIX_MIN = 3; // the engine matches a last word as a prefix from three letters
const SEARCH_TIMEOUT_MS = 120000;
const WIDE = "(min-width: 40.0625em)"; // GOV.UK's tablet breakpoint: filters open beside the results

function emptyState_() {
  return { q: "", collections: [], resourceTypes: [], accessStatuses: [], publishers: [] };
}

export function parseFragment(hash) {
  const state = emptyState_();
  const params = new URLSearchParams(String(hash || "").replace(/^[#?]/, ""));
  state.q = (params.get("q") || "").slice(0, 160);
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

function lastWord(query) {
  const words = query.trim().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return words.length ? words[words.length - 1] : "";
}

function parseAnswer(text) {
  try {
    return JSON.parse(text);
  } catch (error) {
    return { ok: false, error: { message: "The search engine gave an answer we could not read." } };
  }
}

function pageElements() {
  const get = (id) => document.getElementById(id);
  const ui = {
    form: get("search-form"), input: get("search-input"), area: get("search-area"), status: get("search-status"),
    notices: get("search-notices"), list: get("search-results"), filters: get("filters"), groups: get("filter-groups"),
    toggle: get("filters-toggle"), selected: get("search-selected"), suggestion: get("search-suggestion"),
    more: get("search-more"), empty: get("search-empty-state"),
  };
  return ui.form && ui.input && ui.area && ui.list && ui.filters ? ui : null;
}

function labeller(filters) {
  let labels = {};
  try {
    labels = JSON.parse(filters.dataset.labels || "{}");
  } catch (error) {
    labels = {};
  }
  return (dimension, token) => (labels[dimension] && labels[dimension][token]) || token;
}

// A search arriving in the query string (a header search box or the form
// without JavaScript) moves into the fragment, so it is not sent again.
function initialState() {
  if (!location.hash && new URLSearchParams(location.search).get("q")) {
    const state = parseFragment(location.search);
    history.replaceState(null, "", location.pathname + toFragment(state));
    return state;
  }
  return parseFragment(location.hash);
}

export function startSearch(bridge, base) {
  const ui = pageElements();
  if (ui) {
    showProgress(bridge, ui.status);
    bridge.start();
    new SearchPage(bridge, base, ui).start();
  }
}

class SearchPage {
  constructor(bridge, base, ui) {
    this.bridge = bridge;
    this.base = base;
    this.ui = ui;
    this.label = labeller(ui.filters);
    this.title = document.title;
    this.state = initialState();
    this.limit = FIRST_LIMIT;
    this.expanded = new Set(); // dimensions showing all their values
    this.sequence = 0;
    this.timer = null;
    this.typingEntry = false; // true while typing has its own history entry
    this.focusFrom = -1; // after "show more": focus the first new result
    this.shown = null; // the query and facets the filters were last drawn for
  }

  start() {
    const { ui } = this;
    ui.area.hidden = false;
    ui.filters.hidden = true;
    ui.filters.open = matchMedia(WIDE).matches;
    this.listen();
    ui.input.value = this.state.q;
    if (this.state.q) {
      this.run();
    }
  }

  args(current, limit) {
    const args = { query: current.q.trim() };
    for (const [name] of DIMENSIONS) {
      if (current[name].length) {
        args[name] = current[name];
      }
    }
    args.limit = limit;
    return args;
  }

  async ask(current, prefixLast) {
    const text = await this.bridge.call("search_government_knowledge", this.args(current, this.limit), { prefixLast, timeoutMs: SEARCH_TIMEOUT_MS });
    return parseAnswer(text);
  }

  writeHistory(push) {
    const fragment = toFragment(this.state);
    if (fragment === location.hash || (fragment === "" && location.hash === "")) {
      return;
    }
    const url = location.pathname + location.search + fragment;
    if (push) {
      history.pushState(null, "", url);
    } else {
      history.replaceState(null, "", url);
    }
  }

  async run() {
    const current = { ...this.state };
    const mine = ++this.sequence;
    document.body.classList.toggle("app-searching", Boolean(current.q.trim()));
    if (!current.q.trim()) {
      this.clear();
      return;
    }
    if (!this.bridge.ready) {
      this.ui.status.textContent = "Getting search ready…";
    }
    const answer = await this.ask(current, false);
    if (mine !== this.sequence) {
      return; // a newer search has started
    }
    // A complete answer may be followed by records whose words start with
    // the last word typed; an answer cut at the limit never is.
    let added = [];
    let facets = answer.facets || {};
    if (answer.ok && answer.total <= answer.returned && lastWord(current.q).length >= PREFIX_MIN) {
      const typed = await this.ask(current, true);
      if (mine !== this.sequence) {
        return;
      }
      if (typed.ok) {
        const seen = new Set(answer.results.map((item) => item.id));
        added = typed.results.filter((item) => !seen.has(item.id)).slice(0, Math.max(0, this.limit - answer.returned));
        facets = answer.total ? facets : typed.facets || {};
      }
    }
    this.render(current, answer, added, facets);
  }

  clear() {
    const { ui } = this;
    for (const node of [ui.list, ui.notices, ui.groups, ui.suggestion, ui.more, ui.empty, ui.selected]) {
      node.replaceChildren();
    }
    ui.filters.hidden = true;
    ui.selected.hidden = true;
    ui.status.textContent = "";
    document.title = this.title;
  }

  render(current, result, added, facets) {
    const { ui } = this;
    const active = document.activeElement;
    const focused = active && active.dataset && ui.groups.contains(active) ? { ...active.dataset } : {};
    this.clear();
    const query = current.q.trim();
    if (!result.ok) {
      const error = result.error || {};
      const problems = (error.problems || []).map((problem) => problem.message).filter(Boolean);
      ui.status.textContent = problems.length ? problems.join(" ") : error.message || "The search failed.";
      return;
    }
    ui.status.textContent = statusText(query, result, added.length);
    document.title = `${ui.status.textContent} – ${this.title}`;
    if (typeof result.suggestion === "string" && result.suggestion.trim() && result.suggestion.trim() !== query) {
      ui.suggestion.append(suggestionLink(result.suggestion.trim(), toFragment({ ...current, q: result.suggestion.trim() })));
    }
    this.showNotices(query, result, added);
    const context = { base: this.base, label: this.label, query };
    for (const item of result.results) {
      ui.list.append(resultItem(item, context));
    }
    for (const item of added) {
      ui.list.append(resultItem(item, { ...context, query }));
    }
    if (!result.total && !added.length) {
      ui.empty.append(emptyState({ base: this.base, filtered: selectedCount(current) > 0, onClear: () => this.clearFilters() }));
    }
    this.showMore(result);
    this.shown = { current, facets };
    this.renderFilters(current, facets, focused);
  }

  showNotices(query, result, added) {
    const messages = [];
    if (result.match_mode === "any_term" && result.total) {
      messages.push("No record matches all of your words, so these match some of them.");
    } else if (result.match_mode === "fuzzy" && result.total) {
      messages.push("No exact matches, so these are close spellings.");
    }
    if (added.length && result.total) {
      messages.push(`The last ${added.length} also match words starting with ‘${lastWord(query)}’.`);
    }
    for (const notice of result.notices || []) {
      if (notice.code !== "empty_filter") {
        messages.push(notice.message);
      }
    }
    for (const message of messages) {
      this.ui.notices.append(element("p", "govuk-inset-text", message));
    }
  }

  // "Show more" up to the tool's own maximum, then say how many remain.
  showMore(result) {
    const { ui } = this;
    if (this.focusFrom >= 0) {
      const link = ui.list.querySelectorAll(".app-result__title a")[this.focusFrom];
      this.focusFrom = -1;
      if (link) {
        link.focus();
      }
    }
    if (result.total <= result.returned) {
      return;
    }
    if (this.limit < MAX_LIMIT) {
      const button = element("button", "govuk-button govuk-button--secondary", "Show more results");
      button.type = "button";
      button.id = "search-show-more";
      button.addEventListener("click", () => {
        this.focusFrom = result.returned;
        this.limit = MAX_LIMIT;
        this.run();
      });
      ui.more.append(button);
    } else {
      const rest = result.total - result.returned;
      const more = rest === 1 ? "1 more record matches" : `${thousands(rest)} more records match`;
      ui.more.append(element("p", "govuk-body app-more-note", `${more}. Add words or choose filters to find them.`));
    }
  }

  // Draw the filters; focus returns to the control that had it (`focused`: its data attributes).
  renderFilters(current, facets, focused) {
    const { ui } = this;
    const drawn = renderFilterGroups(ui.groups, current, facets, this.label, this.expanded);
    renderSelected(ui.selected, current, this.label);
    const count = selectedCount(current);
    ui.toggle.textContent = count ? `Filters (${count} selected)` : "Filters";
    ui.filters.hidden = drawn === 0;
    let refocus = null;
    if (focused.dimension) {
      refocus = ui.groups.querySelector(`input[data-dimension="${CSS.escape(focused.dimension)}"][data-value="${CSS.escape(focused.value)}"]`);
    } else if (focused.toggle) {
      refocus = ui.groups.querySelector(`button[data-toggle="${CSS.escape(focused.toggle)}"]`);
    }
    if (refocus) {
      refocus.focus();
    }
  }

  newSearch(push) {
    this.limit = FIRST_LIMIT;
    this.typingEntry = false;
    this.writeHistory(push);
    this.run();
  }

  clearFilters() {
    for (const [name] of DIMENSIONS) {
      this.state[name] = [];
    }
    this.newSearch(true);
    this.ui.input.focus();
  }

  listen() {
    const { ui } = this;
    ui.input.addEventListener("input", () => {
      this.state.q = ui.input.value.slice(0, 160);
      this.limit = FIRST_LIMIT;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.writeHistory(!this.typingEntry);
        this.typingEntry = true;
        this.run();
      }, DEBOUNCE_MS);
    });
    ui.form.addEventListener("submit", (event) => {
      event.preventDefault();
      clearTimeout(this.timer);
      this.state.q = ui.input.value.slice(0, 160);
      this.newSearch(!this.typingEntry);
    });
    ui.input.addEventListener("keydown", (event) => this.escape(event));
    ui.groups.addEventListener("change", (event) => this.filterChanged(event.target));
    ui.groups.addEventListener("click", (event) => this.toggleAll(event.target.closest("button[data-toggle]")));
    ui.selected.addEventListener("click", (event) => this.removeSelected(event.target.closest("button")));
    window.addEventListener("popstate", () => this.restore());
    window.addEventListener("hashchange", () => this.restore());
  }

  // Escape clears the query and the filters (a new history entry, so Back
  // brings the search back). Focus stays in the search box.
  escape(event) {
    if (event.key !== "Escape" || event.isComposing) {
      return;
    }
    const empty = emptyState_();
    if (!this.ui.input.value && toFragment(this.state) === toFragment(empty)) {
      return;
    }
    event.preventDefault();
    clearTimeout(this.timer);
    this.ui.input.value = "";
    this.state = empty;
    this.newSearch(true);
  }

  filterChanged(box) {
    if (!box || !box.dataset || !box.dataset.dimension) {
      return;
    }
    const name = box.dataset.dimension;
    const values = new Set(this.state[name]);
    if (box.checked) {
      values.add(box.value);
    } else {
      values.delete(box.value);
    }
    this.state[name] = [...values];
    this.newSearch(true);
  }

  toggleAll(button) {
    if (!button) {
      return;
    }
    const name = button.dataset.toggle;
    if (this.expanded.has(name)) {
      this.expanded.delete(name);
    } else {
      this.expanded.add(name);
    }
    if (this.shown) {
      this.renderFilters(this.shown.current, this.shown.facets, { ...button.dataset });
    }
  }

  removeSelected(button) {
    if (!button) {
      return;
    }
    if (button.dataset.clear) {
      this.clearFilters();
      return;
    }
    const name = button.dataset.remove;
    this.state[name] = this.state[name].filter((value) => value !== button.dataset.value);
    this.newSearch(true);
    this.ui.input.focus();
  }

  restore() {
    const next = parseFragment(location.hash);
    if (toFragment(next) === toFragment(this.state) && this.ui.input.value === this.state.q) {
      return;
    }
    this.state = next;
    this.ui.input.value = this.state.q;
    this.limit = FIRST_LIMIT;
    this.typingEntry = false;
    this.run();
  }
}
