"""Publish the site's static assets with content-hashed names.

`Assets.publish` compiles our SCSS (GOV.UK Frontend from npm, our own font
stack, no GOV.UK crest or logotype) with the npm `sass` package run by node,
copies our ES modules and images, and names every file after a hash of its
content so browsers may cache them for ever. ES modules import each other by
relative specifiers (`./bridge.js`); those are rewritten to the hashed names
(`./bridge.ab12cd34.js`), so a module's hash also covers what it imports.

`assets.url("js/boot.js")` gives the published URL under the base path.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

HASH_LENGTH = 8
SCSS_ENTRY = "scss/main.scss"
CSS_NAME = "css/main.css"
# A quoted relative specifier naming one of our modules: "./x.js" or '../js/x.js'.
_SPECIFIER = re.compile(r"""(?P<quote>["'])(?P<spec>\.{1,2}/[A-Za-z0-9_./-]+\.(?:m?js))(?P=quote)""")
COPIED_SUFFIXES = {".js", ".mjs", ".css", ".svg", ".png", ".ico", ".txt", ".woff2"}


class AssetError(Exception):
    """An asset could not be compiled or published; the message says which and why."""


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:HASH_LENGTH]


def hashed_name(relative: str, data: bytes) -> str:
    path = Path(relative)
    return path.with_name(f"{path.stem}.{content_hash(data)}{path.suffix}").as_posix()


@dataclass
class Assets:
    """The published assets: logical name (as in site/static) -> hashed name."""

    base_path: str
    names: dict[str, str] = field(default_factory=dict)
    imports: dict[str, list[str]] = field(default_factory=dict)  # module -> the modules it imports

    def url(self, logical: str) -> str:
        try:
            return f"{self.base_path}static/{self.names[logical]}"
        except KeyError:
            raise AssetError(f"no published asset named {logical!r}") from None

    def __contains__(self, logical: str) -> bool:
        return logical in self.names

    def imported_urls(self, logical: str) -> list[str]:
        """URLs of every module `logical` imports, directly or not: the page
        preloads them all at once instead of finding them one level at a time."""
        found: list[str] = []
        waiting = list(self.imports.get(logical, []))
        while waiting:
            name = waiting.pop(0)
            if name not in found:
                found.append(name)
                waiting.extend(self.imports.get(name, []))
        return [self.url(name) for name in found]

    @classmethod
    def publish(cls, *, static_dir: Path, out_dir: Path, node_modules: Path, base_path: str = "/") -> Assets:
        static_dir, out_dir, node_modules = Path(static_dir), Path(out_dir), Path(node_modules)
        if out_dir.exists():
            shutil.rmtree(out_dir)
        out_dir.mkdir(parents=True)
        assets = cls(base_path=base_path)
        css = compile_scss(static_dir / SCSS_ENTRY, node_modules)
        assets._write(out_dir, CSS_NAME, css)
        sources = {
            path.relative_to(static_dir).as_posix(): path.read_bytes()
            for path in sorted(static_dir.rglob("*"))
            if path.is_file() and path.suffix in COPIED_SUFFIXES and not path.relative_to(static_dir).parts[0] == "scss"
        }
        modules = {name: data for name, data in sources.items() if name.endswith((".js", ".mjs"))}
        assets.imports = {name: _imports(name, data, set(modules)) for name, data in modules.items()}
        for name in _module_order(modules):
            assets._write(out_dir, name, _rewrite_imports(name, modules[name], assets.names))
        for name, data in sources.items():
            if name not in modules:
                assets._write(out_dir, name, data)
        return assets

    def _write(self, out_dir: Path, logical: str, data: bytes) -> None:
        name = hashed_name(logical, data)
        target = out_dir / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        self.names[logical] = name


def compile_scss(entry: Path, node_modules: Path) -> bytes:
    """Compile one SCSS entry with npm sass (pure JS, run by node)."""
    sass = node_modules / "sass" / "sass.js"
    if not sass.is_file():
        raise AssetError(f"{sass} not found: run `npm ci` first")
    if not entry.is_file():
        raise AssetError(f"{entry} not found")
    command = [
        "node",
        str(sass),
        "--no-source-map",
        "--style=compressed",
        "--quiet-deps",
        f"--load-path={node_modules / 'govuk-frontend' / 'dist'}",
        str(entry),
    ]
    try:
        done = subprocess.run(command, capture_output=True, check=False, timeout=300)
    except FileNotFoundError:
        raise AssetError("node is not installed; it is needed to compile the SCSS") from None
    if done.returncode != 0:
        raise AssetError(f"sass failed on {entry}:\n{done.stderr.decode('utf-8', 'replace')[-2000:]}")
    css = done.stdout
    for url in re.findall(rb"url\(([^)]*)\)", css):
        if not url.strip(b"\"'").startswith(b"data:"):
            raise AssetError(f"the compiled CSS refers to {url.decode()!r}; only data: URLs are published")
    return css


def _imports(name: str, data: bytes, known: set[str]) -> list[str]:
    """Our modules that `name` refers to by relative specifier."""
    found = []
    for match in _SPECIFIER.finditer(data.decode("utf-8")):
        target = _resolve(name, match.group("spec"))
        if target in known:
            found.append(target)
    return found


def _resolve(name: str, spec: str) -> str:
    parts = Path(name).parent.joinpath(spec).as_posix().split("/")
    out: list[str] = []
    for part in parts:
        if part == "..":
            if not out:
                return ""
            out.pop()
        elif part not in (".", ""):
            out.append(part)
    return "/".join(out)


def _module_order(modules: dict[str, bytes]) -> list[str]:
    """Modules ordered so each comes after everything it imports."""
    known = set(modules)
    order: list[str] = []
    state: dict[str, str] = {}

    def visit(name: str, chain: tuple[str, ...]) -> None:
        if state.get(name) == "done":
            return
        if state.get(name) == "visiting":
            raise AssetError(f"import cycle between modules: {' -> '.join(chain + (name,))}")
        state[name] = "visiting"
        for target in _imports(name, modules[name], known):
            visit(target, chain + (name,))
        state[name] = "done"
        order.append(name)

    for name in sorted(modules):
        visit(name, ())
    return order


def _rewrite_imports(name: str, data: bytes, names: dict[str, str]) -> bytes:
    def replace(match: re.Match[str]) -> str:
        spec = match.group("spec")
        target = _resolve(name, spec)
        if target not in names:
            return match.group(0)
        new_spec = spec[: spec.rfind("/") + 1] + Path(names[target]).name
        return f"{match.group('quote')}{new_spec}{match.group('quote')}"

    return _SPECIFIER.sub(replace, data.decode("utf-8")).encode("utf-8")
