// The search page's elements, found once by id, and the filter labels the
// build wrote into the page (data-labels: dimension -> token -> label).

export function pageElements() {
  const get = (id) => document.getElementById(id);
  const ui = {
    form: get("search-form"), input: get("search-input"), area: get("search-area"), status: get("search-status"),
    notices: get("search-notices"), list: get("search-results"), filters: get("filters"), groups: get("filter-groups"),
    toggle: get("filters-toggle"), selected: get("search-selected"), suggestion: get("search-suggestion"),
    more: get("search-more"), empty: get("search-empty-state"), skip: get("skip-to-results"),
  };
  return ui.form && ui.input && ui.area && ui.list && ui.filters ? ui : null;
}

export function labeller(filters) {
  let labels = {};
  try {
    labels = JSON.parse(filters.dataset.labels || "{}");
  } catch (error) {
    labels = {};
  }
  return (dimension, token) => (labels[dimension] && labels[dimension][token]) || token;
}
