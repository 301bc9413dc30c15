// The search page's filters: checkboxes with counts (long lists show their
// top values first), and the summary of what is selected, each removable.
import { findBox } from "./facet-find.js";
export { keepFindsFor } from "./facet-find.js";
import { element, thousands } from "./results.js";

export const DIMENSIONS = [
  ["collections", "Collection"],
  ["resourceTypes", "Type"],
  ["accessStatuses", "Access"],
  ["publishers", "Publisher"],
];
export const TOP_VALUES = 6; // values shown before "Show all"

function checkbox(name, value, index, checked, text) {
  const id = `filter-${name}-${index}`;
  const item = element("div", "govuk-checkboxes__item");
  const box = element("input", "govuk-checkboxes__input");
  box.type = "checkbox";
  box.id = id;
  box.value = value;
  box.dataset.dimension = name;
  box.dataset.value = value;
  box.checked = checked;
  const label = element("label", "govuk-label govuk-checkboxes__label", text);
  label.htmlFor = id;
  item.append(box, label);
  return item;
}

// One dimension's fieldset: every value, or when folded only the top ones and
// any selected further down. Folded values are not drawn at all (a long list
// of publishers, 219 for "companies house", was a quarter of drawing an
// answer: 10.9 -> 7.8 ms of CPU); "Show all" redraws the group. A list that
// folds has a box above it to find a value by its name (facet-find.js).
// Ids keep the value's place in the whole list, folded or not.
function dimensionGroup(name, legendText, counts, selected, label, folded) {
  const values = Object.keys(counts);
  const fieldset = element("fieldset", "govuk-fieldset");
  fieldset.dataset.dimension = name;
  fieldset.append(element("legend", "govuk-fieldset__legend govuk-fieldset__legend--s", legendText));
  const boxes = element("div", "govuk-checkboxes govuk-checkboxes--small");
  // The values whose index `keep` passes, and every ticked one.
  const draw = (keep) => boxes.replaceChildren(...values.flatMap((value, index) => {
    const checked = selected.includes(value);
    return keep(index) || checked ? [checkbox(name, value, index, checked, `${label(name, value)} (${thousands(counts[value])})`)] : [];
  }));
  const unfolded = (index) => !folded || index < TOP_VALUES;
  if (values.length <= TOP_VALUES) {
    draw(unfolded);
    fieldset.append(boxes);
    return fieldset;
  }
  const toggle = element("button", "app-link-button app-filters__more", folded ? `Show all ${thousands(values.length)}` : "Show fewer");
  toggle.type = "button";
  toggle.dataset.toggle = name;
  toggle.setAttribute("aria-expanded", String(!folded));
  if (folded) {
    toggle.append(element("span", "govuk-visually-hidden", ` ${legendText.toLowerCase()} values`));
  }
  const names = values.map((value) => label(name, value));
  fieldset.append(findBox({ name, noun: legendText.toLowerCase(), names, draw, unfolded, toggle }), boxes, toggle);
  return fieldset;
}

// Fill `groups` with a fieldset per dimension; returns how many were drawn.
export function renderFilterGroups(groups, current, facets, label, expanded) {
  groups.replaceChildren();
  for (const [name, legendText] of DIMENSIONS) {
    const counts = { ...(facets[name] || {}) };
    for (const value of current[name]) {
      if (!(value in counts)) {
        counts[value] = 0;
      }
    }
    if (Object.keys(counts).length) {
      groups.append(dimensionGroup(name, legendText, counts, current[name], label, !expanded.has(name)));
    }
  }
  return groups.childElementCount;
}

export function selectedCount(current) {
  return DIMENSIONS.reduce((sum, [name]) => sum + current[name].length, 0);
}

// "Selected filters": one button per value that removes it, and "Clear all".
export function renderSelected(box, current, label) {
  box.replaceChildren();
  const count = selectedCount(current);
  box.hidden = count === 0;
  if (!count) {
    return;
  }
  box.append(element("h2", "govuk-heading-s app-selected__heading", "Selected filters"));
  const list = element("ul", "app-selected__list");
  for (const [name, legendText] of DIMENSIONS) {
    for (const value of current[name]) {
      const item = element("li");
      const remove = element("button", "app-chip");
      remove.type = "button";
      remove.dataset.remove = name;
      remove.dataset.value = value;
      remove.append(element("span", "govuk-visually-hidden", "Remove filter "), document.createTextNode(`${legendText}: ${label(name, value)}`));
      remove.append(element("span", "app-chip__cross", "×"));
      remove.lastChild.setAttribute("aria-hidden", "true");
      item.append(remove);
      list.append(item);
    }
  }
  const clear = element("button", "app-link-button", "Clear all filters");
  clear.type = "button";
  clear.dataset.clear = "all";
  box.append(list, clear);
}
