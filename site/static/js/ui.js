// The human search page: search as you type, filters with counts, and the
// query and filters kept in the URL fragment (never sent to the server).
// Every piece of record text is set with textContent, never as HTML.

const DIMENSIONS = [
  ["collections", "Collection"],
  ["resourceTypes", "Type"],
  ["accessStatuses", "Access"],
  ["publishers", "Publisher"],
];
const DEBOUNCE_MS = 200;
const LIMIT = 20;
const SEARCH_TIMEOUT_MS = 120000;
const ACCESS_TAGS = {
  public: "govuk-tag--green",
  restricted: "govuk-tag--red",
  "authentication-required": "govuk-tag--yellow",
};

function emptyState() {
  return { q: "", collections: [], resourceTypes: [], accessStatuses: [], publishers: [] };
}

export function parseFragment(hash) {
  const state = emptyState();
  const params = new URLSearchParams(String(hash || "").replace(/^#/, ""));
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

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) {
    node.className = className;
  }
  if (text !== undefined) {
    node.textContent = text;
  }
  return node;
}

function formatBytes(bytes) {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1e3))} kB`;
}

export function startSearch(bridge, base) {
  const form = document.getElementById("search-form");
  const input = document.getElementById("search-input");
  const area = document.getElementById("search-area");
  const status = document.getElementById("search-status");
  const notices = document.getElementById("search-notices");
  const list = document.getElementById("search-results");
  const filters = document.getElementById("filters");
  const groups = document.getElementById("filter-groups");
  const progressBox = document.getElementById("search-progress");
  const progressBar = document.getElementById("loading-progress");
  const progressLabel = document.getElementById("loading-label");
  if (!form || !input || !area) {
    return;
  }
  let labels = {};
  try {
    labels = JSON.parse(filters.dataset.labels || "{}");
  } catch (error) {
    labels = {};
  }
  const label = (dimension, token) => (labels[dimension] && labels[dimension][token]) || token;

  let state = parseFragment(location.hash);
  let sequence = 0;
  let timer = null;
  let typingEntry = false; // true while typing has its own history entry

  // Progress of the first load.
  const weights = { runtime: [0, 55], package: [55, 65], data: [65, 95], index: [95, 99] };
  function showProgress(detail) {
    const [from, to] = weights[detail.phase] || [0, 0];
    const fraction = detail.total ? Math.min(1, detail.loaded / detail.total) : 0;
    const value = Math.round(from + (to - from) * fraction);
    progressBar.value = Math.max(progressBar.value, value);
    progressBar.textContent = `${progressBar.value}%`;
    progressLabel.textContent = detail.total
      ? `${detail.label}: ${formatBytes(detail.loaded)} of ${formatBytes(detail.total)}`
      : `${detail.label}…`;
  }
  progressBox.hidden = false;
  area.hidden = false;
  filters.hidden = true;
  bridge.addEventListener("progress", (event) => showProgress(event.detail));
  const finishLoading = () => {
    progressBar.value = 100;
    progressBox.hidden = true;
  };
  bridge.addEventListener("ready", finishLoading);
  bridge.addEventListener("unavailable", (event) => {
    finishLoading();
    status.textContent = "Search is unavailable: the catalogue did not load. You can still browse the catalogue.";
  });
  bridge.addEventListener("failed", (event) => {
    progressBox.hidden = true;
    status.textContent = "Search could not start in this browser. You can still browse the catalogue.";
  });
  bridge.start();

  function arguments_(current) {
    const args = { query: current.q.trim() };
    for (const [name] of DIMENSIONS) {
      if (current[name].length) {
        args[name] = current[name];
      }
    }
    args.limit = LIMIT;
    return args;
  }

  function writeHistory(push) {
    const fragment = toFragment(state);
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

  async function run() {
    const current = { ...state };
    const mine = ++sequence;
    if (!current.q.trim()) {
      list.replaceChildren();
      notices.replaceChildren();
      groups.replaceChildren();
      filters.hidden = true;
      status.textContent = "";
      return;
    }
    if (!bridge.ready) {
      status.textContent = "Loading the search engine…";
    }
    const ask = async (prefixLast) => {
      const text = await bridge.call("search_government_knowledge", arguments_(current), { prefixLast, timeoutMs: SEARCH_TIMEOUT_MS });
      try {
        return JSON.parse(text);
      } catch (error) {
        return { ok: false, error: { message: "The search engine gave an answer we could not read." } };
      }
    };
    // The last word also matches as a prefix, so results appear while typing.
    // A prefix is never typo-tolerant: when the prefix search finds nothing
    // or only loose matches, the whole-word answer (which can fall back to
    // typo tolerance) is shown if it is better.
    let result = await ask(true);
    if (mine !== sequence) {
      return; // a newer search has started
    }
    if (result.ok && (result.total === 0 || result.match_mode !== "all_terms")) {
      const whole = await ask(false);
      if (mine !== sequence) {
        return;
      }
      if (whole.ok && whole.total > 0 && (result.total === 0 || whole.match_mode === "all_terms")) {
        result = whole;
      }
    }
    render(current, result);
  }

  function render(current, result) {
    notices.replaceChildren();
    list.replaceChildren();
    if (!result.ok) {
      const error = result.error || {};
      const problems = (error.problems || []).map((problem) => problem.message).filter(Boolean);
      status.textContent = problems.length ? problems.join(" ") : error.message || "The search failed.";
      return;
    }
    const quoted = `‘${current.q.trim()}’`;
    if (result.total === 0) {
      status.textContent = `No results for ${quoted}`;
    } else if (result.total > result.returned) {
      status.textContent = `${result.total} results for ${quoted}, showing the best ${result.returned}`;
    } else {
      status.textContent = `${result.total} result${result.total === 1 ? "" : "s"} for ${quoted}`;
    }
    const messages = [];
    if (result.match_mode === "any_term" && result.total) {
      messages.push("No record matches all of your words, so these match some of them.");
    } else if (result.match_mode === "fuzzy" && result.total) {
      messages.push("No exact matches, so these are close spellings.");
    }
    for (const notice of result.notices || []) {
      if (notice.code !== "empty_filter") {
        messages.push(notice.message);
      }
    }
    for (const message of messages) {
      notices.append(element("p", "govuk-inset-text", message));
    }
    for (const item of result.results) {
      list.append(resultItem(item));
    }
    renderFilters(current, result.facets || {});
  }

  function resultItem(item) {
    const li = element("li", "app-result");
    const heading = element("h2", "app-result__title");
    const link = element("a", "govuk-link", item.title);
    link.href = `${base}records/${encodeURIComponent(item.id)}/`;
    heading.append(link);
    li.append(heading, element("p", "app-result__summary", item.summary));
    const meta = element("ul", "app-meta");
    meta.append(element("li", "", item.publisher));
    const type = element("li");
    type.append(element("strong", "govuk-tag govuk-tag--blue", label("resourceTypes", item.resourceType)));
    const access = element("li");
    access.append(element("strong", `govuk-tag ${ACCESS_TAGS[item.accessStatus] || "govuk-tag--grey"}`, label("accessStatuses", item.accessStatus)));
    meta.append(type, access, element("li", "", label("collections", item.collection)));
    li.append(meta, element("p", "app-url", item.url));
    return li;
  }

  function renderFilters(current, facets) {
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset : {};
    const keep = focused.dimension ? [focused.dimension, focused.value] : null;
    groups.replaceChildren();
    let refocus = null;
    for (const [name, legendText] of DIMENSIONS) {
      const counts = { ...(facets[name] || {}) };
      for (const value of current[name]) {
        if (!(value in counts)) {
          counts[value] = 0;
        }
      }
      const values = Object.keys(counts);
      if (!values.length) {
        continue;
      }
      const fieldset = element("fieldset", "govuk-fieldset");
      const legend = element("legend", "govuk-fieldset__legend govuk-fieldset__legend--s", legendText);
      const boxes = element("div", "govuk-checkboxes govuk-checkboxes--small");
      values.forEach((value, index) => {
        const id = `filter-${name}-${index}`;
        const item = element("div", "govuk-checkboxes__item");
        const box = element("input", "govuk-checkboxes__input");
        box.type = "checkbox";
        box.id = id;
        box.value = value;
        box.dataset.dimension = name;
        box.dataset.value = value;
        box.checked = current[name].includes(value);
        const text = element("label", "govuk-label govuk-checkboxes__label", `${label(name, value)} (${counts[value]})`);
        text.htmlFor = id;
        item.append(box, text);
        boxes.append(item);
        if (keep && keep[0] === name && keep[1] === value) {
          refocus = box;
        }
      });
      fieldset.append(legend, boxes);
      groups.append(fieldset);
    }
    filters.hidden = groups.childElementCount === 0;
    if (refocus) {
      refocus.focus();
    }
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(() => {
      writeHistory(!typingEntry);
      typingEntry = true;
      run();
    }, DEBOUNCE_MS);
  }

  input.addEventListener("input", () => {
    state.q = input.value.slice(0, 160);
    schedule();
  });

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(timer);
    state.q = input.value.slice(0, 160);
    writeHistory(!typingEntry);
    typingEntry = false;
    run();
  });

  // Escape in the search box clears the query and the filters and restores
  // the page as it was before searching (a new history entry, so Back
  // brings the search back). Focus stays in the search box.
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || event.isComposing) {
      return;
    }
    const empty = emptyState();
    if (!input.value && toFragment(state) === toFragment(empty)) {
      return;
    }
    event.preventDefault();
    clearTimeout(timer);
    input.value = "";
    state = empty;
    typingEntry = false;
    writeHistory(true);
    run();
  });

  groups.addEventListener("change", (event) => {
    const box = event.target;
    if (!box || !box.dataset || !box.dataset.dimension) {
      return;
    }
    const name = box.dataset.dimension;
    const values = new Set(state[name]);
    if (box.checked) {
      values.add(box.value);
    } else {
      values.delete(box.value);
    }
    state[name] = [...values];
    typingEntry = false;
    writeHistory(true);
    run();
  });

  function restore() {
    const next = parseFragment(location.hash);
    if (toFragment(next) === toFragment(state) && input.value === state.q) {
      return;
    }
    state = next;
    input.value = state.q;
    typingEntry = false;
    run();
  }
  window.addEventListener("popstate", restore);
  window.addEventListener("hashchange", restore);

  input.value = state.q;
  if (state.q) {
    run();
  }
}
