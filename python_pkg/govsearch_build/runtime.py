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
import zipfile
from pathlib import Path

from pyodide_lock import PyodideLockSpec
from pyodide_lock.utils import add_wheels_to_spec

from .snapshot_layout import SNAPSHOT_LAYOUT

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
    "govsearch.ranking",
    "difflib",
    "unicodedata",
)
# What the page imports beyond SNAPSHOT_MODULES (run by snapshot.mjs and precompile.mjs).
PAGE_IMPORTS = Path(__file__).with_name("page_imports.py")
# Pure-Python dependencies of govsearch, pinned as in pyproject.toml.
DEPENDENCY_WHEELS = ("lunr==0.8.0", "fastjsonschema==2.22.3")


class PublishError(Exception):
    """The runtime could not be published; the message says what to install."""


def publish_runtime(out_dir: Path, project_root: Path, wheel_cache: Path, manifest: Path | None = None) -> list[Path]:
    """Copy the runtime and wheels into out_dir and write its lock file (listed in `manifest`, when given)."""
    source = project_root / "node_modules" / "pyodide"
    if not (source / "pyodide-lock.json").exists():
        raise PublishError(f"{source} is missing: run `npm ci` in {project_root}")
    out_dir.mkdir(parents=True, exist_ok=True)
    for name in RUNTIME_FILES:
        shutil.copy2(source / name, out_dir / name)
    wheels = [*_dependency_wheels(wheel_cache), _build_own_wheel(project_root)]
    stdlib, wheels = _precompile(source, wheels, wheel_cache)
    published = []
    for wheel in wheels:
        target = out_dir / wheel.name
        shutil.copy2(wheel, target)
        published.append(target)
    spec = add_wheels_to_spec(PyodideLockSpec.from_json(source / LOCK_NAME), published, base_path=out_dir)
    spec.packages = {
        name: package for name, package in spec.packages.items() if package.file_name in {w.name for w in published}
    }
    spec.to_json(out_dir / LOCK_NAME)
    # Pyodide reads only `info` and `packages`; the worker reads these entries.
    lock = json.loads((out_dir / LOCK_NAME).read_text("utf-8"))
    # The standard library Python starts with (expanded), and its lock entry (as published).
    stdlib_file, stdlib_entry = out_dir / "python_stdlib.zip", lock_entry(out_dir / "python_stdlib.zip")
    if stdlib:
        stdlib_file, stdlib_entry = _publish_stdlib(stdlib, out_dir, wheel_cache)
        lock["govsearch_stdlib"] = stdlib_entry
        # The cut library's fallback (precompile.mjs): the npm archive, whole.
        lock["govsearch_stdlib_rest"] = lock_entry(out_dir / "python_stdlib.zip")
    lock["govsearch_runtime"] = _runtime_entries(out_dir, wheel_cache)
    snapshot = _publish_snapshot(out_dir, stdlib_file, published, wheel_cache)
    if snapshot:
        # The files the snapshot's memory was made from: a page uses it only
        # while the lock names the same ones (the wheels' code is inside it).
        made = [stdlib_entry, *map(lock_entry, published)]
        snapshot["made_with"] = {entry["file_name"]: entry["sha256"] for entry in made}
        lock["govsearch_snapshot"] = snapshot
    lock_bytes = json.dumps(lock, indent=2).encode("utf-8")
    (out_dir / LOCK_NAME).write_bytes(lock_bytes)
    if manifest is not None and manifest.is_file():
        vouch_for_lock(manifest, lock_bytes)
    return published


LOCK_NAME = "pyodide-lock.json"


def vouch_for_lock(manifest: Path, lock_bytes: bytes) -> None:
    """List the lock file, with its sha256, in the data manifest: the page's root of trust.

    The manifest is fetched fresh by the worker and vouches for every data
    file; with the lock in it, it also vouches (through the lock's sha256s)
    for every runtime file the worker uses (docs/startup.md, "Integrity").
    Written as the data writer writes it (`data_writer.dump`)."""
    from .data_writer import dump

    data = json.loads(manifest.read_text("utf-8"))
    data["runtime"] = {"path": LOCK_NAME, "sha256": _sha256(lock_bytes), "size": len(lock_bytes)}
    manifest.write_bytes(dump(data))


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def lock_entry(path: Path, name: str | None = None) -> dict:
    """A runtime file's entry in the lock file: {file_name, sha256, size} of its bytes."""
    data = path.read_bytes()
    return {"file_name": name or path.name, "sha256": _sha256(data), "size": len(data)}


def _runtime_entries(out_dir: Path, cache: Path) -> dict:
    """The runtime's own files with their sha256, for the worker to check before use.

    GitHub Pages' CDN does not compress WebAssembly (bench/README.md, "The
    host"), so `pyodide.asm.wasm` is also published gzipped (`packed_gzip`);
    the worker expands it while it streams into compilation and checks the
    expanded bytes (`sha256`, `size`) before instantiating. The raw file stays
    published for Pyodide's defaults and the bench's bare-runtime page."""
    wasm = out_dir / "pyodide.asm.wasm"
    packed = packed_gzip(wasm.read_bytes(), cache)
    (out_dir / WASM_GZ).write_bytes(packed)
    entries = {name: lock_entry(out_dir / name) for name in ("pyodide.mjs", "pyodide.asm.mjs")}
    entries["pyodide.asm.wasm"] = {**lock_entry(wasm, WASM_GZ), "packed_size": len(packed)}
    return entries


def packed_gzip(data: bytes, cache: Path | None = None) -> bytes:
    """data as a gzip stream as small as the build can make it (cached by content in `cache`, when given).

    Zopfli (the `zopfli` package, in the build extra) writes ordinary gzip
    that any gunzip, and the browser's `DecompressionStream`, expands at the
    usual speed, a few per cent smaller than `gzip -9`, at the cost of a
    slow compression (tens of seconds for the WebAssembly: hence the cache).
    Without it the build falls back to `gzip -9` and says so."""
    packer = _zopfli()
    if packer is None:
        return gzip.compress(data, compresslevel=9, mtime=0)
    if cache is None:
        return packer.compress(data)
    cached = cache / f"zopfli-{_sha256(data)[:24]}.gz"
    if not cached.is_file():
        cache.mkdir(parents=True, exist_ok=True)
        partial = cached.with_suffix(f".{os.getpid()}.part")
        partial.write_bytes(packer.compress(data))
        partial.replace(cached)
    return cached.read_bytes()


def _zopfli():
    """zopfli's gzip module, or None (with a warning) when the build extra lacks it."""
    try:
        import zopfli.gzip
    except ImportError:
        print("warning: zopfli is not installed (the build extra): runtime files are gzip -9", file=sys.stderr)
        return None
    return zopfli.gzip


WASM_GZ = "pyodide.asm.wasm.gz"


def first_visit_bytes(folder: Path) -> int:
    """What a first visit downloads of the published runtime before search is
    ready, as the worker counts it (bodies as received: the lock file,
    Pyodide's scripts, the gzipped WebAssembly, the standard library and the
    wheels), so the start-up bar can say how much is left; 0 without a lock file."""
    lock_file = folder / LOCK_NAME
    if not lock_file.is_file():
        return 0
    lock = json.loads(lock_file.read_text("utf-8"))
    total = lock_file.stat().st_size
    total += sum(entry.get("packed_size", entry["size"]) for entry in lock.get("govsearch_runtime", {}).values())
    stdlib = lock.get("govsearch_stdlib")
    total += stdlib["size"] if stdlib else (folder / "python_stdlib.zip").stat().st_size
    packages = lock.get("packages", {})
    names = ["govsearch", *packages.get("govsearch", {}).get("depends", [])]
    return total + sum((folder / packages[name]["file_name"]).stat().st_size for name in names if name in packages)


def _publish_named(source: Path, out_dir: Path, pattern: str) -> dict:
    """Copy source into out_dir named by its content hash; its lock entry {file_name, sha256, size}."""
    entry = lock_entry(source)
    entry["file_name"] = pattern.format(entry["sha256"][:12])
    shutil.copy2(source, out_dir / entry["file_name"])
    return entry


def _publish_stdlib(compiled: Path, out_dir: Path, cache: Path) -> tuple[Path, dict]:
    """The precompiled standard library as published: its entries stored, not
    deflated, and the whole archive one gzip stream (`python_stdlib.HASH.zip.gz`).

    A zip deflates each module alone and so misses all they share; one stream
    over the stored archive is about a seventh smaller, and zipimport then
    reads each module without inflating it. The host sends a `.gz` as it is;
    the worker expands it as it arrives (runtime-files.js `expandedResponse`),
    after fetch integrity checked the packed bytes against the lock's sha256.
    Returns (the expanded archive, which the snapshot is made from, the lock entry)."""
    stored = compiled.with_name("python_stdlib.stored.zip")
    if not stored.is_file():
        partial = stored.with_suffix(f".{os.getpid()}.part")
        with zipfile.ZipFile(compiled) as source, zipfile.ZipFile(partial, "w", zipfile.ZIP_STORED) as out:
            for info in source.infolist():
                copy = zipfile.ZipInfo(info.filename, date_time=info.date_time)
                copy.external_attr = info.external_attr
                out.writestr(copy, source.read(info))
        partial.replace(stored)
    packed = packed_gzip(stored.read_bytes(), cache)
    name = f"python_stdlib.{_sha256(packed)[:12]}.zip.gz"
    (out_dir / name).write_bytes(packed)
    return stored, lock_entry(out_dir / name)


def _cache_key(paths: list[Path], words: tuple[str, ...]) -> str:
    return hashlib.sha256(b"".join(path.read_bytes() for path in paths) + " ".join(words).encode()).hexdigest()[:16]


def _node(script: str, *args: str) -> str | None:
    """Run one of our node scripts; None when it worked, else the last line it printed."""
    # Absolute paths: Pyodide's loadPackage in node reads a relative wheel path as a URL.
    command = [
        "node",
        str(Path(__file__).with_name(script)),
        *(a if a == "--" or "/" not in a else str(Path(a).resolve()) for a in args),
    ]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode == 0:
        return None
    return (done.stderr.strip().splitlines() or ["no output"])[-1][:300]


def _precompile(runtime: Path, wheels: list[Path], cache: Path) -> tuple[Path | None, list[Path]]:
    """The standard library and wheels with what the page imports compiled to bytecode.

    Compiling those modules from source is most of Pyodide's start-up in the
    page (docs/startup.md). Made once per runtime, wheels and module list by
    precompile.mjs, then cached. Returns (the compiled python_stdlib.zip,
    the wheels to publish), or (None, wheels as they were) when node cannot
    make them: the page then compiles the sources itself, slower but the same.
    `runtime` is the npm package's folder (the published one has no lock file yet)."""
    script = Path(__file__).with_name("precompile.mjs")
    inputs = [runtime / "pyodide.asm.wasm", runtime / "python_stdlib.zip", script, PAGE_IMPORTS, *sorted(wheels)]
    folder = cache / f"precompiled-{_cache_key(inputs, SNAPSHOT_MODULES)}"
    if not (folder / "python_stdlib.zip").exists():
        work = Path(tempfile.mkdtemp(prefix="precompile-", dir=cache))
        why = _node("precompile.mjs", str(runtime), str(work), *map(str, sorted(wheels)), "--", *SNAPSHOT_MODULES)
        if why or not (work / "python_stdlib.zip").exists():
            shutil.rmtree(work, ignore_errors=True)
            print(f"warning: no precompiled bytecode, the page compiles Python sources: {why}", file=sys.stderr)
            return None, wheels
        try:
            work.rename(folder)
        except OSError:  # another build made the same folder meanwhile: the same bytes, keep theirs
            shutil.rmtree(work, ignore_errors=True)
    return folder / "python_stdlib.zip", [folder / wheel.name for wheel in wheels]


def _publish_snapshot(out_dir: Path, stdlib: Path, wheels: list[Path], cache: Path) -> dict | None:
    """Pyodide's memory snapshot with our wheels imported, gzipped and content-named.

    Made once per runtime, wheels and module list, then cached. Returns its
    lock entry ({file_name, sha256, size, layout}), or None when node cannot make it:
    the page then always bootstraps, which is slower but works."""
    inputs = [
        out_dir / "pyodide.asm.wasm",
        stdlib,
        Path(__file__).with_name("snapshot.mjs"),
        PAGE_IMPORTS,
        *sorted(wheels),
    ]
    packer = "zopfli" if _zopfli() else "gzip-9"
    key = _cache_key(inputs, (*SNAPSHOT_MODULES, repr(SNAPSHOT_LAYOUT), packer))
    cached = cache / f"snapshot-{key}.bin.gz"
    if not cached.exists():
        cache.mkdir(parents=True, exist_ok=True)
        # Made under a name of its own and moved into place whole: builds running at once
        # (make build-full beside make check) may each make it, and none may read another's half.
        work = Path(tempfile.mkdtemp(prefix="snapshot-", dir=cache))
        raw = work / "snapshot.bin"
        why = _node(
            "snapshot.mjs", str(out_dir), str(stdlib), str(raw), *map(str, sorted(wheels)), "--", *SNAPSHOT_MODULES
        )
        if why or not raw.exists():
            shutil.rmtree(work, ignore_errors=True)
            print(f"warning: no memory snapshot, repeat visits will bootstrap Pyodide: {why}", file=sys.stderr)
            return None
        (work / "packed").write_bytes(packed_gzip(SNAPSHOT_LAYOUT.pack(raw.read_bytes())))
        os.replace(work / "packed", cached)
        shutil.rmtree(work, ignore_errors=True)
    # The worker unpacks it by the layout written beside it (snapshot_layout.py).
    return {**_publish_named(cached, out_dir, "snapshot.{}.bin.gz"), "layout": SNAPSHOT_LAYOUT.describe()}


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
