// Finding a value in a long filter list. A search can count 400 and more
// publishers, and the list showed its top six and "Show all 417" with no way
// to find one but scrolling (a visitor's trial on a phone). Above a list long
// enough to fold (it has "Show all N"), a text box narrows the values drawn to
// those whose name holds what is typed, in any case, and a polite live region
// says how many match. It never searches: only ticking a value does, and a
// ticked value is always drawn. What was typed stays for the list's next
// drawing (every answer draws the filters again) while the query is the same:
// ticking a value or "Show all" keeps it, new words start with empty boxes
// (keepFindsFor, which ui.js calls at each search). Names come from the sources:
// they are set as text, never as markup. A module of its own so that ui.js,
// the controller, stays within its 400 lines.
import { element, thousands } from "./results.js";

const typed = new Map(); // dimension -> what its box holds, for the query `typedFor`
let typedFor = "";
const COUNT_AFTER_MS = 400; // the count is said once typing pauses, not at every key

// A search for `query`: what was typed is kept for the same words (any case or
// spacing), and forgotten for others, or none (a new query, or Back to an older one).
export function keepFindsFor(query) {
  const words = query.trim().replace(/\s+/g, " ").toLowerCase();
  if (words !== typedFor) {
    typed.clear();
    typedFor = words;
  }
}

// The box, its label and its count, for the list of `names` (in the list's
// order) of one dimension. It draws the list now and at each key:
// draw(keep) draws the values whose index `keep` passes, and the ticked ones;
// `unfolded` is the list's own choice, with nothing typed; `toggle` its
// "Show all", hidden while the box narrows the list.
export function findBox({ name, noun, names, draw, unfolded, toggle }) {
  const group = element("div", "govuk-form-group app-filters__find-group");
  const label = element("label", "govuk-label app-filters__find-label", `Find ${/^[aeiou]/i.test(noun) ? "an" : "a"} ${noun}`);
  const input = element("input", "govuk-input app-filters__find");
  const count = element("p", "govuk-hint app-filters__found");
  input.id = `filter-find-${name}`;
  label.htmlFor = input.id;
  Object.assign(input, { type: "text", autocomplete: "off", spellcheck: false, value: typed.get(name) || "" });
  input.dataset.find = name; // ui.js gives focus back to the box after the filters are drawn again
  count.setAttribute("aria-live", "polite");
  let timer = 0;
  const narrow = (later) => {
    typed.set(name, input.value);
    const words = input.value.trim().toLowerCase();
    const matches = names.map((text) => Boolean(words) && text.toLowerCase().includes(words));
    draw(words ? (index) => matches[index] : unfolded);
    toggle.hidden = Boolean(words);
    const found = matches.filter(Boolean).length;
    const text = words ? `${thousands(found)} of ${thousands(names.length)} ${noun}s ${found === 1 ? "matches" : "match"}` : "";
    clearTimeout(timer);
    if (later) {
      timer = setTimeout(() => {
        count.textContent = text;
      }, COUNT_AFTER_MS);
    } else {
      count.textContent = text;
    }
  };
  input.addEventListener("input", () => narrow(true));
  input.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && input.value) {
      event.preventDefault(); // Escape empties the box, and the list is as it was
      input.value = "";
      narrow(true);
    }
  });
  narrow(false);
  group.append(label, input, count);
  return group;
}
