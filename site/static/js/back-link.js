// A record page opened from the search results offers the way back to them, as
// GOV.UK's back link does: the breadcrumb's "Search" opens an empty search page.
// The back link takes the breadcrumbs' place (GOV.UK: never both); what they led to
// is still on the page, the collection in the record's facts, Search and Browse in
// the header. Opened otherwise (a link, a new tab, no JavaScript) the page keeps
// its breadcrumbs. The results mark their links (FROM_RESULTS); the mark is taken
// off the address at once, so a copied address never carries it.
import { FROM_RESULTS } from "./results.js";

export function offerBackToResults(base) {
  if (location.hash !== FROM_RESULTS) {
    return;
  }
  history.replaceState(history.state, "", location.pathname + location.search);
  const crumbs = document.querySelector(".govuk-breadcrumbs");
  if (history.length < 2 || !crumbs) {
    return; // opened in a new tab: nothing to go back to
  }
  const link = document.createElement("a");
  link.className = "govuk-back-link";
  link.id = "back-to-results";
  link.href = base;
  link.textContent = "Back to search results";
  // Back itself, so the search page returns to the reader's place (place.js), not to a new search.
  link.addEventListener("click", (event) => {
    event.preventDefault();
    history.back();
  });
  crumbs.replaceWith(link);
}
