// Entry point on every page: offer agent tools, and start search on the home page.
import { Bridge } from "./bridge.js";
import { registerTools } from "./webmcp.js";
import { startSearch } from "./ui.js";

const meta = document.querySelector('meta[name="govsearch-base"]');
const base = meta && meta.content ? meta.content : "/";
document.body.classList.add("govuk-frontend-supported");

const bridge = new Bridge(base);
try {
  registerTools(bridge, base, document.getElementById("agent-status"));
} catch (error) {
  // Never let agent tooling break the page.
}
if (document.body.dataset.page === "search") {
  startSearch(bridge, base);
}
