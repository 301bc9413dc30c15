// The reader's place on the search page, kept in its history entry, so Back
// from a record page (a new page load) or from a later search returns there.
// The results are drawn after the page loads: the browser's own restoring
// scrolls a page not drawn yet, so the search page puts the reader back itself.
const REST_MS = 300; // scrolling that rests this long leaves a place worth keeping
const MOST_PAGES = 50;
const MOST_OPEN = 50; // "more like this" lists kept open: more than a reader opens
export const TOP = Object.freeze({ scroll: 0, record: null, offset: 0, pages: 0, open: [], followed: null }); // an entry that kept none

// Keep the place when scrolling rests and when the page is left. `drawn()`: what
// the page shows ({fragment, limit, pages}), kept only in the entry of that search.
export function keepPlace(list, drawn) {
  history.scrollRestoration = "manual";
  let followed = null; // the link the reader left by, in which search: focus returns to it
  list.addEventListener("click", (event) => {
    const link = event.target.closest("a[href]");
    const leaves = !event.defaultPrevented && event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
    if (link && leaves) {
      followed = { fragment: location.hash, href: link.getAttribute("href") };
    }
  });
  const keep = () => {
    const shown = drawn();
    if (!shown || shown.fragment !== location.hash) {
      return; // a newer search owns this entry and is not drawn yet
    }
    try {
      const href = followed && followed.fragment === shown.fragment ? followed.href : null;
      history.replaceState({ ...shown, ...anchor(list), followed: href }, "", location.href);
    } catch (error) {
      // over a browser's quota of history calls: kept at the next rest
    }
  };
  let resting = null;
  window.addEventListener("scroll", () => {
    clearTimeout(resting);
    resting = setTimeout(keep, REST_MS);
  });
  window.addEventListener("pagehide", keep);
}

// The first result not above the screen, and how far down the screen it starts:
// the same result at the same height after Back, whatever opened or closed above it.
// And the results whose "more like this" list is open: a reader who followed an
// edition from one comes back to it open, not to a result whose list has gone.
function anchor(list) {
  const item = [...list.children].find((li) => li.getBoundingClientRect().bottom > 0);
  const offset = item ? Math.round(item.getBoundingClientRect().top) : 0;
  const open = [...list.querySelectorAll(":scope > li > details[open]")].map((details) => details.parentElement.dataset.recordId);
  return { scroll: Math.round(window.scrollY), record: item ? item.dataset.recordId : null, offset, open: open.slice(0, MOST_OPEN) };
}

// The place this history entry kept for the search `fragment` ({scroll, record, offset, limit, pages, open, followed}), or null.
export function keptPlace(fragment) {
  const kept = history.state;
  if (!kept || kept.fragment !== fragment || !Number.isFinite(kept.scroll) || !Number.isFinite(kept.offset)) {
    return null;
  }
  const pages = Number.isInteger(kept.pages) ? Math.max(0, Math.min(kept.pages, MOST_PAGES)) : 0;
  const open = Array.isArray(kept.open) ? kept.open.filter((id) => typeof id === "string").slice(0, MOST_OPEN) : [];
  const followed = typeof kept.followed === "string" ? kept.followed : null;
  return { scroll: kept.scroll, record: typeof kept.record === "string" ? kept.record : null, offset: kept.offset, limit: kept.limit, pages, open, followed };
}

// Back to a kept place: the later pages first, while the search is the same
// (`current()`) and has more (`more()`), then the scroll, unless the reader moved meanwhile.
export async function returnTo(place, list, { nextPage, current, more }) {
  const before = window.scrollY;
  const focused = document.activeElement;
  for (let page = 0; page < place.pages && current() && more(); page++) {
    await nextPage();
  }
  if (!current() || Math.abs(window.scrollY - before) > 2) {
    return;
  }
  for (const id of place.open) {
    const details = list.querySelector(`li[data-record-id="${CSS.escape(id)}"] > details`);
    if (details) {
      details.open = true;
    }
  }
  const item = place.record && list.querySelector(`li[data-record-id="${CSS.escape(place.record)}"]`);
  window.scrollTo(0, item ? item.getBoundingClientRect().top + window.scrollY - place.offset : place.scroll);
  // A keyboard reader goes on from the link they followed, not from the top of the page.
  const link = place.followed && [...list.querySelectorAll("a[href]")].find((a) => a.getAttribute("href") === place.followed);
  if (link && document.activeElement === focused) {
    link.focus({ preventScroll: true }); // unless the reader has moved on meanwhile (the search box, a filter)
  }
}
