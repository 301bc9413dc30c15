// Entry point on every page: offer agent tools, and start search on the home page.
//
// The search engine's state is always on <html data-search-runtime>
// (idle, loading, ready, unavailable, failed). On the search page, when
// search cannot work, a notice says so with a "Try again" button.
import { offerBackToResults } from "./back-link.js";
import { Bridge } from "./bridge.js";
import { registerTools } from "./webmcp.js";
import { startSearch, toFragment, parseFragment } from "./ui.js";

const meta = document.querySelector('meta[name="govsearch-base"]');
const base = meta && meta.content ? meta.content : "/";
document.body.classList.add("govuk-frontend-supported");

export const bridge = new Bridge(base);
try {
  registerTools(bridge, base, document.getElementById("agent-status"));
} catch (error) {
  // Never let agent tooling break the page.
}
if (document.body.dataset.page === "search") {
  showRuntimeProblems(bridge);
  startSearch(bridge, base);
}
if (document.body.dataset.page === "record") {
  offerBackToResults(base);
}
for (const form of document.querySelectorAll("form[data-header-search]")) {
  form.addEventListener("submit", (event) => headerSearch(event, form));
}

// The header's search box opens the search page with the words in the
// fragment, so they never leave the browser.
function headerSearch(event, form) {
  const input = form.querySelector("input[name=q]");
  const query = input ? input.value.trim().slice(0, 160) : "";
  event.preventDefault();
  location.assign(base + toFragment({ ...parseFragment(""), q: query }));
}

function showRuntimeProblems(bridge) {
  const anchor = document.getElementById("search-progress");
  if (!anchor) {
    return;
  }
  const notice = document.createElement("div");
  notice.className = "govuk-inset-text app-runtime-notice";
  notice.id = "search-runtime-notice";
  notice.hidden = true;
  const text = document.createElement("p");
  text.className = "govuk-body";
  text.id = "search-runtime-message";
  text.setAttribute("role", "alert");
  const retry = document.createElement("button");
  retry.type = "button";
  retry.className = "govuk-button govuk-button--secondary";
  retry.id = "search-retry";
  retry.textContent = "Try again";
  notice.append(text, retry);
  anchor.after(notice);

  let retrying = false;
  const show = (why) => {
    text.textContent = `Search is unavailable: ${why} You can still browse the catalogue.`;
    retry.hidden = false;
    notice.hidden = false;
  };
  bridge.addEventListener("failed", (event) => show(sentence(event.detail.message)));
  bridge.addEventListener("unavailable", (event) => show(`the catalogue's data could not be used (${event.detail.message}).`));
  bridge.addEventListener("crashed", () => bridge.start()); // warm a new worker for the next search
  bridge.addEventListener("ready", () => {
    notice.hidden = true;
    if (retrying) {
      retrying = false;
      rerunSearch();
    }
  });
  retry.addEventListener("click", () => {
    retrying = true;
    retry.hidden = true;
    text.textContent = "Trying again: getting search ready…";
    bridge.retry();
  });
}

function sentence(message) {
  const text = String(message || "the search engine could not start.").trim();
  return /[.!?]$/.test(text) ? text : text + ".";
}

// After a recovery, show the current search again instead of the old error.
function rerunSearch() {
  const input = document.getElementById("search-input");
  const status = document.getElementById("search-status");
  if (input && input.value.trim()) {
    input.dispatchEvent(new Event("input", { bubbles: true }));
  } else if (status) {
    status.textContent = "";
  }
}
