"""Publish the browser's Python: the pinned Pyodide runtime plus our wheels.

The runtime comes from the npm `pyodide` package (installed by `npm ci`
against package-lock.json); nothing is fetched from a CDN at run time. The
site's `pyodide-lock.json` is the npm one narrowed to the packages the site
ships (govsearch and its pure-Python dependencies), with their sha256, so
`pyodide.loadPackage("govsearch")` resolves everything locally and checks
integrity.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from pyodide_lock import PyodideLockSpec
from pyodide_lock.utils import add_wheels_to_spec

RUNTIME_FILES = ("pyodide.mjs", "pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
# Modules imported before the memory snapshot is taken (with those they
# import), so a page starting from it imports nothing more to answer.
SNAPSHOT_MODULES = (
    "govsearch",
    "govsearch.session",
    "govsearch.loaders",
    "govsearch.tools",
    "govsearch.sharded",
    "govsearch.single",
    "govsearch.validation",
    "govsearch.rerank",
    "difflib",
    "unicodedata",
)
# Pure-Python dependencies of govsearch, pinned as in pyproject.toml.
DEPENDENCY_WHEELS = ("lunr==0.8.0", "fastjsonschema==2.22.3")


class PublishError(Exception):
    """The runtime could not be published; the message says what to install."""


def publish_runtime(out_dir: Path, project_root: Path, wheel_cache: Path) -> list[Path]:
    """Copy the runtime and wheels into out_dir and write its lock file."""
    source = project_root / "node_modules" / "pyodide"
    if not (source / "pyodide-lock.json").exists():
        raise PublishError(f"{source} is missing: run `npm ci` in {project_root}")
    out_dir.mkdir(parents=True, exist_ok=True)
    for name in RUNTIME_FILES:
        shutil.copy2(source / name, out_dir / name)
    wheels = [*_dependency_wheels(wheel_cache), _build_own_wheel(project_root)]
    published = []
    for wheel in wheels:
        target = out_dir / wheel.name
        shutil.copy2(wheel, target)
        published.append(target)
    spec = add_wheels_to_spec(PyodideLockSpec.from_json(source / "pyodide-lock.json"), published, base_path=out_dir)
    spec.packages = {
        name: package for name, package in spec.packages.items() if package.file_name in {w.name for w in published}
    }
    spec.to_json(out_dir / "pyodide-lock.json")
    snapshot = _publish_snapshot(out_dir, published, wheel_cache)
    if snapshot:
        # Pyodide reads only `info` and `packages`; the worker reads this entry.
        lock = json.loads((out_dir / "pyodide-lock.json").read_text("utf-8"))
        lock["govsearch_snapshot"] = snapshot
        (out_dir / "pyodide-lock.json").write_text(json.dumps(lock, indent=2), "utf-8")
    return published


def _publish_snapshot(out_dir: Path, wheels: list[Path], cache: Path) -> dict | None:
    """Pyodide's memory snapshot with our wheels imported, gzipped and content-named.

    Made once per runtime, wheels and module list, then cached. Returns its
    lock entry ({file_name, sha256, size}), or None when node cannot make it:
    the page then always bootstraps, which is slower but works."""
    inputs = [out_dir / "pyodide.asm.wasm", out_dir / "python_stdlib.zip", *sorted(wheels)]
    key = hashlib.sha256(
        b"".join(path.read_bytes() for path in inputs) + " ".join(SNAPSHOT_MODULES).encode()
    ).hexdigest()[:16]
    cached = cache / f"snapshot-{key}.bin.gz"
    if not cached.exists():
        cache.mkdir(parents=True, exist_ok=True)
        raw = cache / f"snapshot-{key}.bin"
        command = [
            "node",
            str(Path(__file__).with_name("snapshot.mjs")),
            str(out_dir),
            str(raw),
            *map(str, sorted(wheels)),
            "--",
            *SNAPSHOT_MODULES,
        ]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0 or not raw.exists():
            why = (done.stderr.strip().splitlines() or ["no output"])[-1][:300]
            print(f"warning: no memory snapshot, repeat visits will bootstrap Pyodide: {why}", file=sys.stderr)
            return None
        cached.write_bytes(gzip.compress(raw.read_bytes(), compresslevel=9, mtime=0))
        raw.unlink()
    data = cached.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    name = f"snapshot.{digest[:12]}.bin.gz"
    shutil.copy2(cached, out_dir / name)
    return {"file_name": name, "sha256": digest, "size": len(data)}


def _dependency_wheels(cache: Path) -> list[Path]:
    """The pinned dependency wheels, downloaded from PyPI once into the cache."""
    cache.mkdir(parents=True, exist_ok=True)
    missing = [requirement for requirement in DEPENDENCY_WHEELS if _cached(cache, requirement) is None]
    if missing:
        _pip("download", "--no-deps", "--only-binary=:all:", "--dest", str(cache), *missing)
    wheels = [_cached(cache, requirement) for requirement in DEPENDENCY_WHEELS]
    if None in wheels:
        raise PublishError(f"pip did not provide pure-Python wheels for {', '.join(DEPENDENCY_WHEELS)}")
    return wheels


def _cached(cache: Path, requirement: str) -> Path | None:
    name, version = requirement.split("==")
    return next(iter(sorted(cache.glob(f"{name}-{version}-py3-none-any.whl"))), None)


def _build_own_wheel(project_root: Path) -> Path:
    """Build the govsearch wheel (py3-none-any) from a private copy of its sources.

    setuptools writes a `build/` folder beside the project file; building a
    copy keeps the checkout clean and lets several builds run at once.
    """
    work = Path(tempfile.mkdtemp(prefix="govsearch-wheel-"))
    source = work / "src"
    # The MCP server is for desktop agents (the optional extra govsearch[mcp]): never shipped to the browser.
    shutil.copytree(
        project_root / "python_pkg" / "govsearch",
        source / "python_pkg" / "govsearch",
        ignore=shutil.ignore_patterns("__pycache__", "mcp_server.py"),
    )
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(project_root / name, source / name)
    # A fixed timestamp keeps the wheel, and so its sha256, reproducible.
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600"}
    _pip(
        "wheel", "--no-deps", "--no-build-isolation", "--quiet", "--wheel-dir", str(work / "dist"), str(source), env=env
    )
    wheels = sorted((work / "dist").glob("govsearch-*-py3-none-any.whl"))
    if not wheels:
        raise PublishError("building the govsearch wheel produced no py3-none-any wheel")
    return wheels[0]


def _pip(*args: str, env: dict[str, str] | None = None) -> None:
    done = subprocess.run([sys.executable, "-m", "pip", *args], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise PublishError(f"pip {args[0]} failed: {done.stderr.strip()[-800:]}")
