"""Helpers shared by the browser tests (imported by conftest.py and the tests)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

from govsearch.catalogue import Catalogue
from govsearch.loaders import DirectoryLoader
from govsearch.ranking.query import query_terms
from govsearch.session import MAX_ARGUMENT_BYTES, answer_json_text
from govsearch_build.chromium import CHROMIUM as CHROMIUM  # re-exported for the browser tests
from govsearch_build.chromium import FLAGS
from govsearch_build.serve import make_server
from govsearch_build.template_filters import MONTHS

REPO = Path(__file__).resolve().parents[2]
PYTHON = REPO / ".venv" / "bin" / "python"
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM_ARGS = list(FLAGS)
SEARCH_TOOL = "search_government_knowledge"
RECORD_TOOL = "get_resource_record"
# Python's cold start in headless Chromium is about 4-7 s here; leave room for slow machines.
READY_TIMEOUT_MS = 90_000

HOSTILE_ID = "hostile-markup-test"
HOSTILE_TITLE = "Hostile <script>window.__pwned = 1</script> title"
HOSTILE_SUMMARY = 'Summary with <img src=x onerror="window.__pwned = 2"> inside it.'
HOSTILE_RECORD = f"""---
id: {HOSTILE_ID}
title: {json.dumps(HOSTILE_TITLE)}
summary: {json.dumps(HOSTILE_SUMMARY)}
url: https://www.gov.uk/hostile-markup-test
resourceType: guidance
publisher: Cabinet Office
accessStatus: restricted
accessNote: {json.dumps('Note <b onmouseover="window.__pwned = 3">bold</b>')}
collection: uk-living
licence: Open Government Licence v3.0
observed: '2026-07-14'
source:
  kind: curated
---
Body text with <script>window.__pwned = 4</script> raw HTML,
a [bad link](javascript:window.__pwned=5) and <img src="x" onerror="window.__pwned=6">.

A **real** [good link](https://www.gov.uk/).
"""


# Records the worker's start-up steps (its `timing` messages) on the page.
TIMING_MARKS = """
(() => {
  const Native = window.Worker;
  window.__marks = {};
  window.Worker = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        if (event.data && event.data.type === "timing") window.__marks[event.data.mark] = true;
      });
    }
  };
})();
"""

# A long monthly series (one title, 70 editions): the search page's later pages
# group their own windows of the ranking, so a series this long reaches across
# three pages of "Show more". The newest edition has a news story of the same
# title, as GOV.UK's House Price Index releases do.
SERIES_QUERY = "widget survey"
TWIN_TITLE = "Widget survey: October 2025"


def series_records(editions: int = 70) -> dict[str, str]:
    """File name -> Markdown of each edition of the widget survey, and the twin of one."""
    records = {}
    for n in range(editions + 1):
        year, month = 2020 + n // 12, n % 12 + 1
        record_id, section = f"widget-survey-{year}-{month:02d}", "statistics"
        if n == editions:  # the twin of the newest
            year, month, section = 2025, 10, "news"
            record_id = f"widget-survey-{year}-{month:02d}-news"
        records[f"{record_id}.md"] = f"""---
id: {record_id}
title: "Widget survey: {MONTHS[month - 1]} {year}"
summary: "Monthly counts of widgets: a long series for the search page's tests."
url: https://www.gov.uk/government/{section}/{record_id}
resourceType: dataset
publisher: Office for National Statistics
accessStatus: public
collection: uk-living
observed: '2026-12-04'
updated: '{year}-{month:02d}-15'
source:
  kind: curated
---
Widget counts for {MONTHS[month - 1]} {year}.
"""
    return records


def council_records() -> dict[str, str]:
    """File name -> Markdown of two councils' records of one title: one result, the other behind it."""
    records = {}
    for place in ("Leeds", "Wigan"):
        record_id = f"widget-allotments-{place.lower()}"
        records[f"{record_id}.md"] = f"""---
id: {record_id}
title: "Widget Allotments"
summary: "Where the council's widget allotments are."
url: https://www.data.gov.uk/dataset/{record_id}
resourceType: dataset
publisher: {place} City Council
accessStatus: public
collection: uk-living
observed: '2026-12-05'
source:
  kind: curated
---
The council's widget allotments.
"""
    return records


def build_site(out: Path, config: Path | None = None) -> Path:
    """Run the project's build into `out` (a fresh folder)."""
    if out.exists():
        shutil.rmtree(out)
    command = [str(PYTHON), "build.py", "--out", str(out)]
    if config is not None:
        command += ["--config", str(config)]
    if not (REPO / "build.py").exists():  # before the lead's entry point existed
        command[1:2] = [
            "-c",
            "import sys; sys.path.insert(0, 'python_pkg'); from govsearch_build.cli import main; sys.exit(main(sys.argv[1:]))",
        ]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"build failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return out


def cli_call(site: Path, tool: str, arguments: Any) -> str:
    """What `python -m govsearch call TOOL --site DIR` prints, without its trailing newline."""
    stdin = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    env = dict(os.environ, PYTHONPATH=str(REPO / "python_pkg"))
    done = subprocess.run(
        [str(PYTHON), "-m", "govsearch", "call", tool, "--site", str(site)],
        input=stdin.encode("utf-8"),
        capture_output=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()
    out = done.stdout.decode("utf-8")
    assert out.endswith("\n")
    return out[:-1]


def wait_for_ready(page: Any) -> None:
    """Wait until the in-browser search engine has loaded (the progress bar hides)."""
    page.wait_for_selector("#search-progress", state="hidden", timeout=READY_TIMEOUT_MS)


def screenshot(page: Any, name: str, *, full_page: bool = True) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


# --- Runtime state, the page's bridge, and many tool calls at once (fault and load tests) ---

# An expression giving the page's Bridge (boot.js exports it; importing the
# module again returns the same instance).
PAGE_BRIDGE = "(await import(document.querySelector('script[type=module][src*=\"/boot.\"]').src)).bridge"
RUNTIME_STATES = ("idle", "loading", "ready", "unavailable", "failed")


def runtime_state(page: Any) -> str:
    """<html data-search-runtime>: idle, loading, ready, unavailable or failed."""
    return page.evaluate("() => document.documentElement.dataset.searchRuntime || ''")


def wait_for_runtime(page: Any, *states: str, timeout_ms: int = READY_TIMEOUT_MS) -> str:
    """Wait until the search runtime is in one of `states`; returns the state."""
    page.wait_for_function(
        "(states) => states.includes(document.documentElement.dataset.searchRuntime)",
        arg=list(states),
        timeout=timeout_ms,
    )
    return runtime_state(page)


def execute_tools(page: Any, calls: list[tuple[str, Any]]) -> dict:
    """Fire every (tool, input) through document.modelContext.executeTool at once.

    Returns {"ms": total, "results": [{"text" | "thrown", "ms"}...]} in call order.
    """
    return page.evaluate(
        """async (calls) => {
            let tools = {};
            for (let tries = 0; tries < 400; tries++) {
                tools = Object.fromEntries((await document.modelContext.getTools()).map((tool) => [tool.name, tool]));
                if (calls.every(([name]) => tools[name])) break;
                await new Promise((resolve) => setTimeout(resolve, 50));
            }
            const start = performance.now();
            const results = await Promise.all(calls.map(async ([name, input]) => {
                try {
                    const text = await document.modelContext.executeTool(tools[name], input);
                    return { text, ms: performance.now() - start };
                } catch (error) {
                    return { thrown: String(error), ms: performance.now() - start };
                }
            }));
            return { ms: performance.now() - start, results };
        }""",
        [[tool, arguments] for tool, arguments in calls],
    )


def reference_answers(site: Path, calls: list[tuple[str, Any]]) -> list[str]:
    """What `python -m govsearch call` prints for each call, computed in this process (the CLI's own code path)."""
    catalogue = Catalogue.open(DirectoryLoader(site))
    texts = []
    for tool, arguments in calls:
        stdin = (arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)).encode("utf-8")
        texts.append(answer_json_text(catalogue, tool, stdin[: MAX_ARGUMENT_BYTES + 1]))
    return texts


@dataclass
class Served:
    root: Path
    origin: str
    server: ThreadingHTTPServer

    def url(self, path: str = "") -> str:
        return f"{self.origin}/{path.lstrip('/')}"


def searched_shards(site: Path, query: str) -> list[dict[str, Any]]:
    """The postings shards of the index terms a query searches (a synonym
    group's own token, not the bare word's, when the word is in a group):
    the files a search for it must download."""
    catalogue = Catalogue.open(DirectoryLoader(site))
    terms = query_terms(query, search_terms=catalogue.ranking.search_terms)
    return [catalogue.store.shards.posting_entry(term.indexed) for term in terms]


def serve_site(root: Path) -> Served:
    """Serve a built site on 127.0.0.1 with the server `build.py --serve` runs."""
    server = make_server(root)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return Served(root, f"http://127.0.0.1:{server.server_address[1]}", server)


def serving(root: Path) -> Iterator[Served]:
    """serve_site for a fixture: yields the handle, then stops the server."""
    handle = serve_site(root)
    yield handle
    handle.server.shutdown()
