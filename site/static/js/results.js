// What the search page shows of one answer: the result list with the
// searched words marked, the count, the did-you-mean link and the empty
// state. Record text is only ever set as text nodes, never as HTML.

// Words too common to mark (the engine ignores them too).
const COMMON = new Set(["a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "is", "it", "of", "on", "or", "the", "to", "with"]);

export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) {
    node.className = className;
  }
  if (text !== undefined) {
    node.textContent = text;
  }
  return node;
}

// A whole number as en-GB writes it ("1,234"). Written out here, not with
// toLocaleString: the page's first call to that loads the ICU number data,
// 40 ms of the main thread (2026-12-03, Chromium) while the first answer is
// drawn, and an agent's first answer waits behind that drawing. Anything else
// (a fraction, not a number) still goes through toLocaleString.
export function thousands(number) {
  const value = Number(number);
  if (!Number.isSafeInteger(value) || Object.is(value, -0)) {
    return value.toLocaleString("en-GB");
  }
  const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, ",");
  return value < 0 ? `-${digits}` : digits;
}

// The words to mark in an answer's results: the query's, and where typo correction
// found them the words as the results spell them ("drivng" marks "driving").
export function wordsToMark(query, answer) {
  return typeof answer.suggestion === "string" ? `${query} ${answer.suggestion}` : query;
}

// The stems to mark for a query: each word less a plural or verb ending, so
// "prices" also marks "price" and "pricing".
export function markWords(query, matched) {
  const words = new Set();
  const add = (word) => {
    const lower = String(word).toLowerCase();
    if (lower.length < 2 || COMMON.has(lower)) {
      return;
    }
    const stem = lower.replace(/(?:ies|es|ing|ed|s)$/u, "");
    words.add(stem.length >= 3 ? stem : lower);
  };
  for (const word of String(query).split(/[^\p{L}\p{N}]+/u)) {
    add(word);
  }
  // Ranking may say which words matched each record (an optional field).
  if (Array.isArray(matched)) {
    for (const word of matched) {
      if (typeof word === "string") {
        add(word);
      }
    }
  }
  return [...words];
}

// `text` as text nodes, with each word starting with one of `words` in <mark>.
export function highlighted(text, words) {
  const fragment = document.createDocumentFragment();
  const value = String(text == null ? "" : text);
  if (!words.length) {
    fragment.append(document.createTextNode(value));
    return fragment;
  }
  const escaped = words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join("|")})[\\p{L}\\p{N}]*`, "giu");
  let last = 0;
  for (const match of value.matchAll(pattern)) {
    if (match.index > last) {
      fragment.append(document.createTextNode(value.slice(last, match.index)));
    }
    fragment.append(element("mark", "app-mark", match[0]));
    last = match.index + match[0].length;
  }
  if (last < value.length) {
    fragment.append(document.createTextNode(value.slice(last)));
  }
  return fragment;
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

// A date as GOV.UK writes it ("2 December 2026", or "December 2026" for a
// month), like the record pages (render.govuk_date); null if it is not a date.
export function govukDate(value) {
  const match = /^(\d{4})-(\d{2})(?:-(\d{2}))?(?:[T ].*)?$/u.exec(String(value || "").trim());
  if (!match || Number(match[2]) < 1 || Number(match[2]) > 12) {
    return null;
  }
  const month = MONTHS[Number(match[2]) - 1];
  return match[3] ? `${Number(match[3])} ${month} ${match[1]}` : `${month} ${match[1]}`;
}

// "Updated 2 December 2026", with the machine date in <time datetime>.
export function updatedDate(value) {
  const text = govukDate(value);
  if (!text) {
    return null;
  }
  const item = element("li", "app-meta__date", "Updated ");
  const time = element("time", "", text);
  time.dateTime = String(value).trim().slice(0, 10);
  item.append(time);
  return item;
}

// A record page's address from the results: its fragment tells the page it was
// opened from them (back-link.js), which the site cannot learn otherwise (it sends
// no referrer and stores nothing); the page takes the fragment off at once.
export const FROM_RESULTS = "#from-results";

function recordLink(base, id) {
  return `${base}records/${encodeURIComponent(id)}/${FROM_RESULTS}`;
}

// One result: title; tags, publisher, collections and date; the summary
// (one line on a phone) and the address (left out on a phone).
export function resultItem(item, { base, label, query }) {
  const words = markWords(query, item.matched);
  const li = element("li", "app-result");
  li.dataset.recordId = item.id;
  const heading = element("h2", "app-result__title");
  const link = element("a", "govuk-link");
  link.append(highlighted(item.title, words));
  link.href = recordLink(base, item.id);
  heading.append(link);
  const summary = element("p", "app-result__summary");
  summary.append(highlighted(item.summary, words));
  li.append(heading, resultMeta(item, label), summary, element("p", "app-url", item.url));
  if (Array.isArray(item.others) && item.others.length) {
    addToSeries(li, item.others, base);
  }
  return li;
}

// Draws `items` below the results already in `list`, returning how many
// results it added. `resultOf` maps each record drawn to the result (<li>) it
// is shown in, the result itself or behind it in its series. Pages overlap where
// a series reaches into the next one (each page groups its own windows of the
// ranking): a record shown already is not shown again, and when a page's
// result is led by one, the rest of its series joins the result that showed it.
export function appendResults(list, items, resultOf, context) {
  let added = 0;
  for (const item of items) {
    const others = (item.others || []).filter((other) => !resultOf.has(other.id));
    let result = resultOf.get(item.id);
    if (result) {
      addToSeries(result, others, context.base);
    } else {
      result = resultItem({ ...item, others }, context);
      list.append(result);
      resultOf.set(item.id, result);
      added += 1;
    }
    others.forEach((other) => resultOf.set(other.id, result));
  }
  markTwins(list);
  return added;
}

// Two records of one title (a GOV.UK release's news story and its statistics page)
// are told apart by their addresses: an entry of a "more like this" list whose
// title is another's anywhere in the results (a result's own address is shown
// beside it, except on a phone).
function markTwins(list) {
  const counts = new Map();
  for (const node of list.querySelectorAll(".app-result__title, .app-series__list > li > a")) {
    counts.set(node.textContent, (counts.get(node.textContent) || 0) + 1);
  }
  for (const entry of list.querySelectorAll(".app-series__list > li")) {
    if (counts.get(entry.firstChild.textContent) > 1 && !entry.querySelector(".app-series__address")) {
      entry.append(element("span", "app-series__address", entry.dataset.address));
    }
  }
}

// The rest of a result's series in the answer (editions of one title, or
// other councils' records of it), behind one native disclosure: "12 more like this".
function addToSeries(result, others, base) {
  if (!others.length) {
    return;
  }
  let details = result.querySelector("details.app-series");
  if (!details) {
    details = element("details", "app-series");
    details.append(element("summary", "app-series__summary"), element("ul", "app-series__list"));
    result.append(details);
  }
  const list = details.querySelector(".app-series__list");
  const publisher = result.querySelector(".app-meta__publisher")?.textContent;
  for (const other of others) {
    const entry = element("li");
    const link = element("a", "govuk-link", other.title);
    link.href = recordLink(base, other.id);
    entry.append(link);
    if (other.publisher && other.publisher !== publisher) {
      // Another council's record of the same title, not an edition of this one's.
      entry.append(element("span", "app-series__publisher", `, ${other.publisher}`));
    }
    const date = govukDate(other.updated);
    if (date) {
      entry.append(element("span", "app-series__date", ` (updated ${date})`));
    }
    entry.dataset.address = String(other.url || "");
    list.append(entry);
  }
  details.querySelector("summary").textContent = `${thousands(list.childElementCount)} more like this`;
}

function tag(className, text) {
  const item = element("li");
  item.append(element("strong", `govuk-tag ${className}`, text));
  return item;
}

function resultMeta(item, label) {
  const meta = element("ul", "app-meta");
  meta.append(tag("govuk-tag--blue", label("resourceTypes", item.resourceType)));
  if (item.accessStatus !== "not-applicable") {
    // An organisation has no access to describe: a grey "Not applicable" only puzzled visitors.
    meta.append(tag(label("accessTags", item.accessStatus), label("accessStatuses", item.accessStatus)));
  }
  const collections = (item.collections || [item.collection]).map((id) => label("collections", id));
  meta.append(element("li", "app-meta__publisher", item.publisher), element("li", "app-meta__collections", collections.join(", ")));
  if (item.linkSecurity === "http-only") {
    meta.append(tag("govuk-tag--yellow", "Link not encrypted"));
  }
  const date = updatedDate(item.updated);
  if (date) {
    meta.append(date);
  }
  return meta;
}

// The one-line count read out after every search.
// `result.returned`: the results on the page; `result.behind`: the records
// folded behind them ("N more like this"), which are shown too.
export function statusText(query, result, added) {
  const quoted = `‘${query}’`;
  if (result.total === 0) {
    return added ? `${thousands(added)} result${added === 1 ? "" : "s"} for words starting with ${quoted}` : `No results for ${quoted}`;
  }
  const noun = result.total === 1 ? "result" : "results";
  const behind = result.behind || 0;
  if (result.total > result.returned + behind) {
    const folded = behind ? `, with ${thousands(behind)} similar ${behind === 1 ? "one" : "ones"} grouped under them` : "";
    return `${thousands(result.total)} ${noun} for ${quoted}, showing the best ${thousands(result.returned)}${folded}`;
  }
  return `${thousands(result.total)} ${noun} for ${quoted}`;
}

// What to say when the search answered with an error.
export function failureText(result) {
  const error = result.error || {};
  const problems = (error.problems || []).map((problem) => problem.message).filter(Boolean);
  return problems.length ? problems.join(" ") : error.message || "The search failed.";
}

// How the results of each looser match mode than every word are described.
const LOOSER = { fuzzy: "close spellings of them", any_term: "only some of them" };

// The notes above the results: looser matching, prefix matches added below
// the answer (`typed`: the word they start with), and the engine's notices.
export function noticeList(result, added, typed, searchLink) {
  const messages = [];
  const codes = new Set((result.notices || []).map((notice) => notice.code));
  if (result.match_mode === "any_term" && result.total && !codes.has("words_not_found")) {
    // words_not_found says which words, exactly.
    messages.push("No record matches all of your words, so these match some of them.");
  } else if (result.match_mode === "fuzzy" && result.total) {
    // A visitor read "No exact matches" as false where most words matched as typed.
    messages.push("No record holds all of your words as typed, so these match close spellings of some of them.");
  }
  // The count takes in looser matches too: adding a word ("council tax band") can raise it.
  // A kind asked for leads whatever it matched (reason kind_asked_for: an API for "api", the body for "which
  // department ..."): the rest are read after it.
  const all = result.results || [];
  const asked = Object.hasOwn(LOOSER, all[0]?.matchMode) && (all[0].reasons || []).includes("kind_asked_for");
  // One note, not two, on a phone's first screen.
  const lead = asked ? `The first result is the kind you asked for, though it matches ${LOOSER[all[0].matchMode].replace("them", "your words")}` : "";
  const results = asked ? all.slice(1) : all;
  // A place's own council, put after the page that sends you to it or the first three results (reason place_council),
  // matches the place alone.
  const council = (item) => (item.reasons || []).includes("place_council");
  const looser = results.findIndex((item) => Object.hasOwn(LOOSER, item.matchMode) && !council(item));
  if (looser > 0 && results[0].matchMode === "all_terms") {
    const [one, many] = asked ? ["the next result matches", "the next"] : ["The first result matches", "The first"];
    const first = looser === 1 ? one : `${many} ${thousands(looser)} results match`;
    const rest = [...new Set(results.slice(looser).map((item) => LOOSER[item.matchMode]).filter(Boolean))];
    // A place beside the topic only ranks: where no result is about it, none holds it.
    const unplaced = codes.has("place_not_matched") ? " but the place" : "";
    const except = results.slice(0, looser).some(council) ? ", except the council's own website" : "";
    messages.push(`${lead ? `${lead}; ` : ""}${first} all of your words${unplaced}${except}; the rest match ${rest.join(" or ")}.`);
  } else if (lead) {
    messages.push(`${lead}.`);
  }
  if (added && result.total) {
    messages.push(`The last ${added} also match words starting with ‘${typed}’.`);
  }
  const examples = [];
  for (const notice of result.notices || []) {
    // "No searchable terms" is about the whole words; above records found by a word's start it contradicted them ("the").
    if (notice.code !== "empty_filter" && !(added && notice.code === "no_searchable_terms")) {
      messages.push(notice.message);
      examples.push(notice.code === "place_not_named" && Array.isArray(notice.suggestions) ? String(notice.suggestions[0]) : "");
    }
  }
  const offset = messages.length - examples.length;
  return messages.map((message, at) => withExample(message, examples[at - offset] || "", searchLink));
}

// A notice, its example search (the "near me" notice's "libraries in Bath") a link to that search.
function withExample(message, example, searchLink) {
  const paragraph = element("p", "govuk-inset-text app-notice");
  const at = example && searchLink ? message.indexOf(example) : -1;
  if (at < 0) {
    paragraph.textContent = message;
    return paragraph;
  }
  const link = element("a", "govuk-link", example);
  link.href = searchLink(example);
  paragraph.append(message.slice(0, at), link, message.slice(at + example.length));
  return paragraph;
}

// The button that shows the next results.
export function moreButton(onClick) {
  const button = element("button", "govuk-button govuk-button--secondary", "Show more results");
  button.type = "button";
  button.id = "search-show-more";
  button.addEventListener("click", () => {
    button.disabled = true; // one page at a time
    onClick();
  });
  return button;
}

// "Did you mean": a link to the same search with the engine's suggestion.
export function suggestionLink(suggestion, href) {
  const paragraph = element("p", "govuk-body app-suggestion", "Did you mean ");
  const link = element("a", "govuk-link govuk-!-font-weight-bold", suggestion);
  link.href = href;
  link.id = "search-suggestion-link";
  paragraph.append(link, document.createTextNode("?"));
  return paragraph;
}

// What to try when nothing matched.
export function emptyState({ base, filtered, onClear }) {
  const box = element("div", "app-empty");
  box.id = "search-empty";
  box.append(element("p", "govuk-body", "Improve your search by:"));
  const tips = element("ul", "govuk-list govuk-list--bullet");
  tips.append(element("li", "", "checking your spelling"), element("li", "", "using fewer words, or more general ones"));
  if (filtered) {
    const item = element("li", "", "removing a filter, or ");
    const clear = element("button", "app-link-button", "clearing all filters");
    clear.type = "button";
    clear.addEventListener("click", onClear);
    item.append(clear);
    tips.append(item);
  }
  tips.append(element("li", "", "searching for an organisation, a service or a kind of data, such as ‘house prices’ or ‘VAT API’"));
  box.append(tips);
  const browse = element("p", "govuk-body", "You can also ");
  const link = element("a", "govuk-link", "browse every record by collection, type, publisher or access status");
  link.href = `${base}browse/`;
  browse.append(link, document.createTextNode("."));
  box.append(browse);
  return box;
}
