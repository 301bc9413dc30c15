// The human search page: results as you type, filters with counts, and the
// query and filters kept in the URL fragment (never sent to the server).
// This module is the controller; results.js, filters.js and progress.js
// build what it shows, fragment.js reads and writes the page's state,
// search-elements.js finds the page's parts, skip-links.js moves focus and
// place.js keeps the reader's place for Back.
//
// One ranking for people and agents: a finished query (Enter, or typing
// paused) shows exactly what the search_government_knowledge tool answers
// for the same words and filters. Matching the last word as a prefix (it
// may still be being typed) only adds records below a complete answer;
// it never reorders it. "Show more" goes past the tool's maximum for
// people only: the worker protocol's offset (messages.js), in steps of
// that maximum, never a tool argument.
import { DIMENSIONS, keepFindsFor, renderFilterGroups, renderSelected, selectedCount } from "./filters.js";
import { blankState, initialState, lastWord, MAX_QUERY, parseFragment, toFragment, toolArguments } from "./fragment.js";
import { LANE, parseAnswer } from "./messages.js";
import { keepPlace, keptPlace, returnTo, TOP } from "./place.js";
import { showProgress, showWaiting } from "./progress.js";
import { appendResults, emptyState, failureText, moreButton, noticeList, statusText, suggestionLink, wordsToMark } from "./results.js";
import { labeller, pageElements } from "./search-elements.js";
import { skipTo } from "./skip-links.js";

export { parseFragment, toFragment };

const TOOL = "search_government_knowledge";
const DEBOUNCE_MS = 300; // a pause this long finishes the query
const FIRST_LIMIT = 10;
const MAX_LIMIT = 20; // the tool schema's maximum, and the step of each later page
const PREFIX_MIN = 3; // the engine matches a last word as a prefix from three letters
const SEARCH_TIMEOUT_MS = 120000;
const WIDE = "(min-width: 40.0625em)"; // GOV.UK's tablet breakpoint: filters open beside the results
const TOUCH = "(hover: none) and (pointer: coarse)"; // a screen keyboard covers the results while the box has focus

export function startSearch(bridge, base) {
  // The page a form reaches without JavaScript: with it, search instead.
  if (document.querySelector("[data-search-redirect]")) {
    location.replace(base + toFragment(parseFragment(location.search)));
    return;
  }
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
    this.shown = null; // the query, answer and facets last drawn
    this.later = 0; // results shown from pages after the first answer
    this.seen = new Map(); // each record shown (a result or behind one in its series) -> its result
    this.nextOffset = MAX_LIMIT; // where the next page starts, in steps of the largest limit
    this.focusResults = false; // after "Did you mean": focus the new results' count
    this.place = null; // where the reader was when they left this entry (place.js), once drawn again
    this.drawn = null; // the search drawn: its fragment, limit and later pages (place.js keeps them)
  }

  start() {
    const { ui } = this;
    ui.area.hidden = false;
    ui.filters.hidden = true;
    ui.filters.open = matchMedia(WIDE).matches;
    keepPlace(ui.list, () => this.drawn);
    this.recall(null);
    this.listen();
    ui.input.value = this.state.q;
    if (this.state.q) {
      this.run();
    }
  }

  async ask(current, { prefixLast = false, limit = this.limit, offset = 0 } = {}) {
    const options = { prefixLast, offset, lane: LANE.PAGE, timeoutMs: SEARCH_TIMEOUT_MS };
    return parseAnswer(await this.bridge.call(TOOL, toolArguments(current, limit), options));
  }

  writeHistory(push) {
    const fragment = toFragment(this.state);
    if (fragment === location.hash || (fragment === "" && location.hash === "")) {
      return;
    }
    // A new entry keeps no place (place.js): the new search starts at its top.
    history[push ? "pushState" : "replaceState"](null, "", location.pathname + location.search + fragment);
  }

  async run() {
    const current = { ...this.state };
    const mine = ++this.sequence;
    keepFindsFor(current.q); // new words start with empty find boxes (facet-find.js)
    document.body.classList.toggle("app-searching", Boolean(current.q.trim()));
    if (!current.q.trim()) {
      this.focusResults = false; // nothing drawn: a later answer (Back, a filter) must not take focus
      this.clear();
      return;
    }
    if (!this.bridge.ready) {
      showWaiting(this.ui.status);
    }
    const answer = await this.ask(current);
    if (mine !== this.sequence) {
      return; // a newer search has started
    }
    // A complete answer may be followed by records whose words start with
    // the last word typed; an answer cut at the limit never is.
    let added = [];
    let facets = answer.facets || {};
    if (answer.ok && answer.total <= answer.returned && lastWord(current.q).length >= PREFIX_MIN) {
      const typed = await this.ask(current, { prefixLast: true });
      if (mine !== this.sequence) {
        return;
      }
      if (typed.ok) {
        const seen = new Set(answer.results.flatMap((item) => [item, ...(item.others || [])].map((record) => record.id)));
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
    if (ui.skip) {
      ui.skip.hidden = true;
    }
    ui.status.textContent = "";
    document.title = this.title;
    this.later = 0;
    this.seen.clear();
    this.nextOffset = MAX_LIMIT;
  }

  announce(query, result, added) {
    const returned = this.ui.list.children.length; // the results drawn, and the records behind them
    this.ui.status.textContent = statusText(query, { ...result, returned, behind: this.seen.size - returned }, added);
    document.title = `${this.ui.status.textContent} – ${this.title}`;
  }

  // The place this entry kept, else `otherwise` (Back to an entry never kept: its top).
  recall(otherwise) {
    const kept = keptPlace(toFragment(this.state));
    this.limit = kept && kept.limit === MAX_LIMIT ? MAX_LIMIT : FIRST_LIMIT;
    this.place = kept ? { ...kept, pages: this.limit === MAX_LIMIT ? kept.pages : 0 } : otherwise;
  }

  render(current, result, added, facets) {
    const { ui } = this;
    const active = document.activeElement;
    const focused = active && active.dataset && ui.groups.contains(active) ? { ...active.dataset } : {};
    this.clear();
    if (this.focusResults) {
      this.focusResults = false;
      ui.status.focus(); // the count (or why the search failed), then the results; never lost to <body>
    }
    const query = current.q.trim();
    if (!result.ok) {
      ui.status.textContent = failureText(result);
      return;
    }
    this.showResults(wordsToMark(query, result), result.results);
    this.announce(query, result, added.length);
    if (typeof result.suggestion === "string" && result.suggestion.trim() && result.suggestion.trim() !== query) {
      ui.suggestion.append(suggestionLink(result.suggestion.trim(), toFragment({ ...current, q: result.suggestion.trim() })));
    }
    ui.notices.append(...noticeList(result, added.length, lastWord(query), (q) => toFragment({ ...current, q })));
    this.showResults(query, added);
    if (!result.total && !added.length) {
      ui.empty.append(emptyState({ base: this.base, filtered: selectedCount(current) > 0, onClear: () => this.clearFilters() }));
    }
    this.shown = { current, result, facets };
    this.showMore(result);
    this.renderFilters(current, facets, focused);
    this.drawn = { fragment: toFragment(current), limit: this.limit, pages: 0 };
    if (this.place) {
      const mine = this.sequence;
      const more = () => this.ui.more.childElementCount > 0;
      returnTo(this.place, ui.list, { nextPage: () => this.nextPage(), current: () => mine === this.sequence, more });
      this.place = null;
    }
  }

  showResults(query, items) {
    return appendResults(this.ui.list, items, this.seen, { base: this.base, label: this.label, query });
  }

  // Show more: up to the tool's maximum by asking again, then page by page
  // (steps of MAX_LIMIT), until every match has been shown.
  showMore(result) {
    const { ui } = this;
    if (this.focusFrom >= 0) {
      const link = ui.list.querySelectorAll(".app-result__title a")[this.focusFrom];
      this.focusFrom = -1;
      (link || ui.status).focus(); // no new result (a series grew behind one): the count
    }
    ui.more.replaceChildren();
    const shown = result.returned + this.later;
    if (result.total > this.seen.size) {
      ui.more.append(moreButton(() => this.more(shown)));
    }
  }

  more(shown) {
    this.focusFrom = shown;
    // Asking again with the larger limit shows more only if the answer was cut at its limit:
    // one its series folded to fewer results holds all its windows had, and would come back the same.
    const cut = this.limit < MAX_LIMIT && this.shown.result.returned >= this.limit;
    this.drawn.limit = this.limit = MAX_LIMIT;
    if (cut) {
      this.run();
    } else {
      this.nextPage();
    }
  }

  async nextPage() {
    const mine = this.sequence;
    const { current, result } = this.shown;
    const page = await this.ask(current, { limit: MAX_LIMIT, offset: this.nextOffset });
    if (mine !== this.sequence) {
      return; // a newer search has started
    }
    if (!page.ok) {
      this.ui.status.textContent = failureText(page);
      this.focusFrom = -1;
      this.showMore(result);
      return;
    }
    this.nextOffset += MAX_LIMIT;
    const added = this.showResults(wordsToMark(current.q.trim(), this.shown.result), page.results); // a later page spells no suggestion
    if (!added && page.results.length) {
      return this.nextPage(); // no new result: its records were shown, or joined results shown (one press may read several pages)
    }
    this.drawn.pages += 1; // a page the reader saw: Back asks for it again (place.js)
    this.later += added;
    this.announce(current.q.trim(), result, 0);
    this.showMore(page.results.length ? result : { ...result, total: 0 });
  }

  // Draw the filters; focus returns to the control that had it (`focused`: its data attributes).
  renderFilters(current, facets, focused) {
    const { ui } = this;
    const drawn = renderFilterGroups(ui.groups, current, facets, this.label, this.expanded);
    renderSelected(ui.selected, current, this.label);
    const count = selectedCount(current);
    ui.toggle.textContent = count ? `Filters (${count} selected)` : "Filters";
    ui.filters.hidden = drawn === 0;
    if (ui.skip) {
      ui.skip.hidden = ui.filters.hidden;
    }
    const same = Object.entries(focused).map(([key, value]) => `[data-${key}="${CSS.escape(value)}"]`).join(""); // a value, "Show all", a find box
    const refocus = same && ui.groups.querySelector(same);
    if (refocus) {
      // "Show all" stays focused but below the whole list (417 publishers): scrolling to it
      // threw a visitor past every value it had just shown. "Show fewer" comes back into view.
      refocus.focus({ preventScroll: Boolean(focused.toggle) && this.expanded.has(focused.toggle) });
    }
  }

  newSearch(push) {
    this.limit = FIRST_LIMIT;
    this.place = null;
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
      this.focusResults = false; // typing again keeps the box
      this.state.q = ui.input.value.slice(0, MAX_QUERY);
      this.limit = FIRST_LIMIT;
      this.place = null;
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
      this.state.q = ui.input.value.slice(0, MAX_QUERY);
      this.focusResults = matchMedia(TOUCH).matches; // on a phone "Go" puts the keyboard away, onto the count
      this.newSearch(!this.typingEntry);
    });
    ui.input.addEventListener("keydown", (event) => this.escape(event));
    ui.groups.addEventListener("change", (event) => this.filterChanged(event.target));
    ui.groups.addEventListener("click", (event) => this.toggleAll(event.target.closest("button[data-toggle]")));
    ui.selected.addEventListener("click", (event) => this.removeSelected(event.target.closest("button")));
    ui.suggestion.addEventListener("click", (event) => {
      this.focusResults = Boolean(event.target.closest("a"));
    });
    document.addEventListener("click", (event) => skipTo(event));
    window.addEventListener("popstate", () => this.restore());
    window.addEventListener("hashchange", () => this.restore());
  }

  // Escape clears the query and the filters (a new history entry, so Back
  // brings the search back). Focus stays in the search box.
  escape(event) {
    if (event.key !== "Escape" || event.isComposing) {
      return;
    }
    const empty = blankState();
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
    this.recall(TOP);
    this.typingEntry = false;
    this.run();
  }
}
