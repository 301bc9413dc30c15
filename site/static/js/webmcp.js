// WebMCP: offer the catalogue's tools to in-page AI agents.
//
// Tools are registered as soon as the page loads, from data/tools.json,
// before Python is ready; a call made early waits for the runtime. Each tool
// resolves with exactly the JSON string the worker returns. Registration
// problems never break the page.
import { LANE } from "./messages.js";

export const AGENT_TIMEOUT_MS = 90000;
export const ANNOTATIONS = { readOnlyHint: true, untrustedContentHint: true };

function modelContext() {
  const context = (typeof document !== "undefined" && document.modelContext) || (typeof navigator !== "undefined" && navigator.modelContext);
  return context && typeof context.registerTool === "function" ? context : null;
}

async function loadTools(base) {
  const response = await fetch(base + "data/tools.json", { credentials: "same-origin" });
  if (!response.ok) {
    throw new Error(`tools.json answered ${response.status}`);
  }
  const data = await response.json();
  return Array.isArray(data) ? data : data.tools;
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
      say(statusElement, "Agent tools could not be offered: the tool list did not load.");
      return;
    }
    const offered = [];
    for (const tool of tools) {
      const name = tool.name;
      const definition = {
        name,
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
