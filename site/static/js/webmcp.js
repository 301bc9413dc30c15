// WebMCP: offer the catalogue's tools to in-page AI agents.
//
// Tools are registered as soon as the page loads, from the tool list the
// data manifest vouches for (data/tools.<hash>.json, checked by sha256),
// before Python is ready; a call made early waits for the runtime. Each tool
// resolves with exactly the JSON string the worker returns. Registration
// problems never break the page.
import { LANE } from "./messages.js";

import { IntegrityError, download, manifestOf, verify } from "./download.js";

export const AGENT_TIMEOUT_MS = 90000;
export const ANNOTATIONS = { readOnlyHint: true, untrustedContentHint: true };

function modelContext() {
  const context = (typeof document !== "undefined" && document.modelContext) || (typeof navigator !== "undefined" && navigator.modelContext);
  return context && typeof context.registerTool === "function" ? context : null;
}

// The tool list the manifest vouches for, checked before any tool is
// registered: a list that fails its check registers nothing.
async function loadTools(base) {
  const dataUrl = new URL(base + "data/", location.origin).href;
  const { manifest } = await manifestOf(dataUrl);
  const entry = manifest && manifest.tools;
  if (!entry || typeof entry.path !== "string" || !new URL(entry.path, dataUrl).href.startsWith(dataUrl)) {
    throw new IntegrityError("the manifest does not vouch for a tool list");
  }
  const bytes = await verify(await download(new URL(entry.path, dataUrl).href), entry);
  return JSON.parse(new TextDecoder().decode(bytes)).tools;
}

function say(element, text) {
  if (element) {
    element.textContent = text;
  }
}

export function registerTools(bridge, base, statusElement) {
  const context = modelContext();
  if (!context) {
    say(statusElement, "Agent tools (WebMCP) are unavailable in this browser. Search and browsing work as normal.");
    return;
  }
  let controller = null;

  async function register() {
    controller = new AbortController();
    const signal = controller.signal;
    let tools;
    try {
      tools = await loadTools(base);
    } catch (error) {
      const why = error instanceof IntegrityError ? error.message : "it did not load";
      say(statusElement, `Agent tools could not be offered: the tool list was not used (${why}).`);
      if (statusElement) {
        statusElement.hidden = false; // say why on every page, not only where the status shows
      }
      return;
    }
    const offered = [];
    for (const tool of tools) {
      const name = tool.name;
      const definition = {
        name,
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        annotations: { ...ANNOTATIONS, ...(tool.annotations || {}) },
        execute: (args) => bridge.call(name, args, { timeoutMs: AGENT_TIMEOUT_MS, lane: LANE.AGENT }),
      };
      try {
        await context.registerTool(definition, { signal });
        offered.push(name);
      } catch (error) {
        // An older or different WebMCP: the page keeps working without this tool.
      }
    }
    if (offered.length) {
      say(statusElement, `Agent tools offered to in-page AI agents (WebMCP): ${offered.join(", ")}.`);
      if (statusElement) {
        statusElement.hidden = false; // every page says so when tools are present
      }
    } else {
      say(statusElement, "Agent tools could not be offered in this browser. Search and browsing work as normal.");
    }
  }

  window.addEventListener("pagehide", () => {
    if (controller) {
      controller.abort();
      controller = null;
    }
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted && !controller) {
      register();
    }
  });
  register();
}
