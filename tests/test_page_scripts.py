"""No page script over 400 lines (issue 37): a module that long holds more than
one concern and should be split into rooms, as the worker's were (worker/)."""

from __future__ import annotations

from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[1] / "site" / "static" / "js"
MAX_LINES = 400


def test_every_page_script_is_at_most_400_lines():
    scripts = sorted(SCRIPTS.rglob("*.js"))
    assert SCRIPTS / "worker" / "calls.js" in scripts  # the worker's own modules are counted too
    lines = {path.relative_to(SCRIPTS).as_posix(): len(path.read_text("utf-8").splitlines()) for path in scripts}
    over = {name: count for name, count in lines.items() if count > MAX_LINES}
    assert not over, f"page scripts over {MAX_LINES} lines (split them by concern): {over}"
