"""The start-up label (site/static/js/progress.js), run in Node: it says what search is
doing in plain words, and never that bytes are left once they are all in."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

JS = Path(__file__).resolve().parents[1] / "site" / "static" / "js"

SCRIPT = """
const { labelFor } = await import(process.argv[1]);
const now = performance.now();
console.log(JSON.stringify({
  arriving: labelFor("runtime", 1.2e6, 5.7e6, now),
  allIn: labelFor("runtime", 5.7e6, 5.7e6, now - 2000),
  catalogueIn: labelFor("data", 7.3e6, 7.3e6, now),
  sizeUnknown: labelFor("data", 0, 0, now),
}));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_label_says_what_start_up_is_doing_and_no_bytes_left_once_all_are_in():
    done = subprocess.run(
        ["node", "--input-type=module", "-e", SCRIPT, str(JS / "progress.js")],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    found = json.loads(done.stdout)
    assert found["arriving"] == "Getting search ready: downloading the search engine, 4.5 MB of 5.7 MB left"
    # From the browser's cache every byte is in at once and the runtime then starts for
    # seconds: it said "1 kB of 5.7 MB left" all that while (visitor trial, session 55).
    assert found["allIn"] == "Getting search ready: starting the search engine…"
    assert found["catalogueIn"] == "Getting search ready: opening the catalogue…"
    assert found["sizeUnknown"] == "Getting search ready: downloading the catalogue…"
