"""The runtime tests pass inside Pyodide under Node, exactly as in CPython.

The fixture site is built here (the build code needs CPython), then
tests/pyodide/run_pytest.mjs starts Pyodide offline from node_modules,
unpacks the wheels below, mounts the project and the site, and runs pytest on
tests/runtime. The number of tests that pass there must equal the number
pytest collects here, so a test skipped or lost under Pyodide fails this one.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from needs import need
from sitefixture import REPO, build_fixture_site

RUNNER = REPO / "tests" / "pyodide" / "run_pytest.mjs"
RUNTIME_TESTS = "tests/runtime"
WHEEL_DIR = REPO / ".cache" / "wheels" / "pyodide-test"
# Pure-Python wheels the runtime tests need in Pyodide. Pinned to what the
# CPython test environment runs, so both sides run the same pytest.
PYODIDE_WHEELS = (
    "lunr==0.8.0",
    "fastjsonschema==2.22.3",
    "pytest==9.2.0",
    "pluggy==1.7.0",
    "iniconfig==2.3.1",
    "packaging==26.4",
    "pygments==2.21.0",
)
PYODIDE_PYTHON = "3.14"
NODE = shutil.which("node") or "/usr/bin/node"


def _wheel_file(directory: Path, requirement: str) -> Path | None:
    name, version = requirement.split("==")
    prefix = f"{name.replace('-', '_').lower()}-{version}-"
    return next((p for p in directory.glob("*.whl") if p.name.lower().startswith(prefix)), None)


def pyodide_wheels(directory: Path = WHEEL_DIR) -> Path:
    """The wheel folder for the Pyodide run, downloaded from PyPI once and then reused."""
    missing = [req for req in PYODIDE_WHEELS if _wheel_file(directory, req) is None]
    if missing:
        directory.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--disable-pip-version-check",
                "--no-deps",
                "--only-binary=:all:",
                "--python-version",
                PYODIDE_PYTHON,
                "--implementation",
                "py",
                "--abi",
                "none",
                "--platform",
                "any",
                "-d",
                str(directory),
                *missing,
            ],
            check=True,
            timeout=300,
        )
    missing = [req for req in PYODIDE_WHEELS if _wheel_file(directory, req) is None]
    assert not missing, f"wheels not downloaded: {missing}"
    # Only the pinned wheels go in: a stray wheel left in the folder must not change the run.
    chosen = directory / "selected"
    shutil.rmtree(chosen, ignore_errors=True)
    chosen.mkdir()
    for req in PYODIDE_WHEELS:
        wheel = _wheel_file(directory, req)
        shutil.copy2(wheel, chosen / wheel.name)
    return chosen


def _cpython_collected(site: Path) -> int:
    env = {**os.environ, "GOVSEARCH_TEST_SITE": str(site)}
    env.pop("GOVSEARCH_EXPECT_PLATFORM", None)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", RUNTIME_TESTS],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    ids = [line for line in done.stdout.splitlines() if "::" in line]
    found = re.search(r"(\d+) tests? collected", done.stdout)
    assert found and int(found.group(1)) == len(ids), done.stdout
    return len(ids)


def _summary_counts(output: str) -> dict[str, int]:
    """Counts from pytest's final line, e.g. '==== 50 passed, 2 skipped in 0.44s ===='."""
    lines = [line for line in output.splitlines() if re.match(r"^=*\s*\d+ \w+.* in [\d.]+s", line)]
    assert lines, f"no pytest summary line in the output:\n{output}"
    return {kind: int(n) for n, kind in re.findall(r"(\d+) (\w+)", lines[-1])}


def test_runtime_tests_pass_in_pyodide(tmp_path):
    need((REPO / "node_modules" / "pyodide" / "pyodide.mjs").exists(), "the Pyodide runtime (npm)")
    site = build_fixture_site(tmp_path / "site")
    wheels = pyodide_wheels()
    expected = _cpython_collected(site)
    assert expected > 0

    done = subprocess.run(
        [NODE, str(RUNNER), "--project", str(REPO), "--site", str(site), "--wheels", str(wheels), "--", RUNTIME_TESTS],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
    )
    output = done.stdout + done.stderr
    print(output)  # shown by pytest on failure
    assert done.returncode == 0, f"pytest in Pyodide exited {done.returncode}:\n{output}"
    counts = _summary_counts(done.stdout)
    bad = {kind: n for kind, n in counts.items() if kind not in ("passed", "warnings", "warning")}
    assert not bad, f"not everything passed in Pyodide: {counts}\n{output}"
    assert "platform emscripten" in done.stdout, output
    assert counts.get("passed") == expected, (
        f"{counts.get('passed')} passed in Pyodide; CPython collects {expected}\n{output}"
    )
