"""A burst of worst-case calls through native WebMCP, then a normal one.

Issue 19 asks that 40 of the heaviest calls an agent can make are all
answered (no `timeout`) and that a normal call sent right behind them is not
held until they finish. This fires the adversarial set (bench/adversarial.py,
made from the served site's own vocabulary and publishers), cycled to 40
calls, at once through `document.modelContext.executeTool` in Chromium, then,
in the same tick, one normal query, and reports when each answered. A second
normal call is sent after the burst has drained, as a baseline from the same
page. Figures are written to bench/results/NAME-burst.json and .md.

    .venv/bin/python bench/burst.py --site bench/work/full/ours --name 2026-11-30-v4
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent / "python_pkg"))

from adversarial import adversarial_calls  # noqa: E402
from server import BenchServer  # noqa: E402

from browser import launch  # noqa: E402

TOOL = "search_government_knowledge"
NORMAL = {"query": "land registry"}
BURST_JS = """async ([calls, normal]) => {
  let tool;
  for (let tries = 0; tries < 2000 && !tool; tries++) {
    tool = (await document.modelContext.getTools()).find((t) => t.name === TOOL_NAME);
    if (!tool) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const run = async (input, start) => {
    try {
      const text = await document.modelContext.executeTool(tool, input);
      const answer = JSON.parse(text);
      return { ms: performance.now() - start, ok: answer.ok !== false, error: answer.ok === false ? answer.error.code : null };
    } catch (error) {
      return { ms: performance.now() - start, ok: false, error: String(error).slice(0, 200) };
    }
  };
  await run(normal, performance.now());  // warm: the first answer opens the catalogue
  const start = performance.now();
  const burst = calls.map((input) => run(input, start));
  const behind = run(normal, start);
  const results = await Promise.all(burst);
  const after = await run(normal, performance.now());
  return { burst: results, behind: await behind, after };
}""".replace("TOOL_NAME", json.dumps(TOOL))


def burst_calls(site: Path, size: int) -> list[tuple[str, dict]]:
    """The adversarial set's WebMCP calls (not the page's prefix calls), cycled to `size`."""
    from govsearch import Catalogue, DirectoryLoader

    plain = [
        (label, args) for label, args, prefix in adversarial_calls(Catalogue.open(DirectoryLoader(site))) if not prefix
    ]
    return [plain[n % len(plain)] for n in range(size)]


def measure(site: Path, size: int) -> dict:
    from playwright.sync_api import sync_playwright

    calls = burst_calls(site, size)
    server = BenchServer(site).start()
    try:
        with sync_playwright() as playwright:
            browser = launch(playwright)
            page = browser.new_page()
            page.goto(server.url, wait_until="load")
            page.wait_for_function("() => document.documentElement.dataset.searchRuntime === 'ready'", timeout=300_000)
            timed = page.evaluate(BURST_JS, [[args for _, args in calls], NORMAL])
            browser.close()
    finally:
        server.stop()
    for (label, _), result in zip(calls, timed["burst"]):
        result["label"] = label
    return {"site": str(site), "calls": size, "load_average": os.getloadavg(), "cpus": os.cpu_count(), **timed}


def render(figures: dict) -> str:
    burst = figures["burst"]
    failed = [r for r in burst if not r["ok"]]
    slowest = max(burst, key=lambda r: r["ms"])
    return "\n".join(
        [
            f"# Burst of {figures['calls']} worst-case calls through native WebMCP",
            "",
            f"Site: `{figures['site']}`; {figures['cpus']} CPUs, 1/5/15-minute load average at the end "
            f"{', '.join(f'{x:.1f}' for x in figures['load_average'])}.",
            "",
            "| figure | value |",
            "|---|---:|",
            f"| calls answered | {len(burst) - len(failed)} of {len(burst)} |",
            f"| calls that failed (timeout or error) | {len(failed)} {sorted({r['error'] for r in failed}) if failed else ''} |",
            f"| whole burst answered after | {slowest['ms']:,.0f} ms ({slowest['label']}) |",
            f"| normal call sent with the burst answered after | {figures['behind']['ms']:,.0f} ms |",
            f"| normal call after the burst, for comparison | {figures['after']['ms']:,.0f} ms |",
            "",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--site", type=Path, default=BENCH / "work" / "full" / "ours")
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument("--name", required=True)
    parser.add_argument("--out", type=Path, default=BENCH / "results")
    options = parser.parse_args()
    figures = measure(options.site, options.calls)
    (options.out / f"{options.name}-burst.json").write_text(json.dumps(figures, indent=1) + "\n")
    (options.out / f"{options.name}-burst.md").write_text(render(figures))
    print(render(figures))


if __name__ == "__main__":
    main()
