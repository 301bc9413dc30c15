"""No Python module in python_pkg/ over 500 lines and no page script over 400
(issue 37): a module that long holds more than one concern and should be
split into rooms, as the ranking's (govsearch/ranking/) and the worker's
(site/static/js/worker/) were."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SCRIPTS = REPO / "site" / "static" / "js"
PACKAGES = REPO / "python_pkg"
MAX_SCRIPT_LINES = 400
MAX_MODULE_LINES = 500


def _over(files: list[Path], root: Path, limit: int) -> dict[str, int]:
    lines = {path.relative_to(root).as_posix(): len(path.read_text("utf-8").splitlines()) for path in files}
    return {name: count for name, count in lines.items() if count > limit}


def test_every_page_script_is_at_most_400_lines():
    scripts = sorted(SCRIPTS.rglob("*.js"))
    assert SCRIPTS / "worker" / "calls.js" in scripts  # the worker's own modules are counted too
    over = _over(scripts, SCRIPTS, MAX_SCRIPT_LINES)
    assert not over, f"page scripts over {MAX_SCRIPT_LINES} lines (split them by concern): {over}"


def test_every_python_module_is_at_most_500_lines():
    modules = sorted(path for path in PACKAGES.rglob("*.py") if "__pycache__" not in path.parts)
    assert PACKAGES / "govsearch" / "ranking" / "stages.py" in modules  # packages' modules are counted too
    over = _over(modules, PACKAGES, MAX_MODULE_LINES)
    assert not over, f"modules over {MAX_MODULE_LINES} lines (split them by concern): {over}"
