"""Helpers shared by the browser tests (imported by conftest.py and the tests)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
PYTHON = REPO / ".venv" / "bin" / "python"
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--enable-features=WebMCP",
]
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


def build_site(out: Path, config: Path | None = None) -> Path:
    """Run the project's build into `out` (a fresh folder)."""
    if out.exists():
        shutil.rmtree(out)
    command = [str(PYTHON), "build.py", "--out", str(out)]
    if config is not None:
        command += ["--config", str(config)]
    if not (REPO / "build.py").exists():  # before the lead's entry point existed
        command[1:2] = ["-c", "import sys; sys.path.insert(0, 'python_pkg'); from govsearch_build.cli import main; sys.exit(main(sys.argv[1:]))"]
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
