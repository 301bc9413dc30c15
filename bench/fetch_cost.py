"""What one round of parallel fetches costs in Chromium here, with and without DevTools.

A large estate's slowest warm queries fetch about 20 row shards in one round,
and the bench drives Chromium through Playwright, which attaches DevTools to
every page and worker and follows every request. This loads a small page on
the bench server that times rounds of parallel fetches of the site's row
shards (new ones, the same again from the HTTP cache, one alone, and from a
worker) twice per pass: in a Chromium started by Playwright, and in a plain
headless Chromium with nothing attached, which reports its figures as the
path of one last request. Passes alternate; medians are printed.

    .venv/bin/python bench/fetch_cost.py SITE [--files 18] [--rounds 8] [--passes 2]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import unquote

from playwright.sync_api import sync_playwright

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "python_pkg"))

from server import BenchServer  # noqa: E402

from browser import launch  # noqa: E402
from govsearch_build.chromium import CHROMIUM, FLAGS  # noqa: E402

REPORT = "/fetch-cost-report/"


def with_devtools(server: BenchServer, url: str) -> dict:
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = browser.new_page()
            page.goto(url)
            page.wait_for_function("() => window.fetchCost", timeout=120_000)
            return page.evaluate("() => window.fetchCost")
        finally:
            browser.close()


def without_devtools(server: BenchServer, url: str) -> dict:
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
        chromium = subprocess.Popen(
            [CHROMIUM, *FLAGS, "--headless", f"--user-data-dir={profile}", url],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its helper processes end with it
        )
        try:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                time.sleep(0.2)
                for entry in server.take_log():
                    if entry["path"].startswith(REPORT):
                        return json.loads(unquote(entry["path"][len(REPORT) :]))
            raise TimeoutError("the page never reported")
        finally:
            os.killpg(chromium.pid, signal.SIGTERM)
            chromium.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("site", type=Path, help="a built sharded site (the folder holding data/rows)")
    parser.add_argument("--files", type=int, default=18, help="fetches per round")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--passes", type=int, default=2)
    options = parser.parse_args(argv)
    shards = sorted(f"/data/rows/{path.name}" for path in (options.site / "data" / "rows").glob("*.json"))
    needed = 2 + options.rounds * (2 * options.files + 1)
    figures: dict[str, dict[str, list[float]]] = {"devtools": {}, "plain": {}}
    with tempfile.TemporaryDirectory() as work:
        names = Path(work) / "names.json"
        overlay = {
            "/fetch-cost.html": BENCH / "pages" / "fetch-cost.html",
            "/fetch-cost.js": BENCH / "pages" / "fetch-cost.js",
        }
        overlay["/fetch-cost-list.json"] = names
        server = BenchServer(options.site, overlay=overlay).start()
        try:
            server.precompress("data")
            for number in range(options.passes):
                for label, run in (("plain", without_devtools), ("devtools", with_devtools)):
                    # fresh shards each time: none is in a cache the pass did not fill itself
                    names.write_text(json.dumps(random.Random(f"{number}{label}").sample(shards, needed)), "utf-8")
                    url = f"{server.url}/fetch-cost.html?files={options.files}&rounds={options.rounds}"
                    for key, values in run(server, url).items():
                        figures[label].setdefault(key, []).extend(values)
                    server.take_log()
        finally:
            server.stop()
    print(
        f"{options.files} parallel fetches of row shards per round, {options.rounds} rounds x {options.passes} passes; median ms"
    )
    print(f"{'':10} {'page':>8} {'again':>8} {'one':>8} {'worker':>8}")
    for label in ("plain", "devtools"):
        row = figures[label]
        print(
            f"{label:10} "
            + " ".join(f"{statistics.median(row[k]):8.1f}" for k in ("page", "page_cached", "page_one", "worker"))
        )
    print(f"1-minute load average at the end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
