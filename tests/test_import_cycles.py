"""No import cycle among the modules of python_pkg/, function-level imports included.

A cycle works until someone moves an import to the top of a file, then fails
with a half-initialised module; one hidden inside a function (fetch.py once
reached back into cli.py for its console) also hides which module owns what.
Imports under `if TYPE_CHECKING:` never run and are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGES = Path(__file__).resolve().parents[1] / "python_pkg"


def module_files(root: Path = PACKAGES) -> dict[str, Path]:
    """Dotted module name -> file, for every Python file under root (a package is its __init__)."""
    modules = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST):
    """Every import statement at any depth, except those only a type checker runs."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _base(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The absolute name `from <base> import ...` refers to."""
    if not node.level:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    package = package[: max(0, len(package) - (node.level - 1))]
    return ".".join(package + ([node.module] if node.module else []))


def imports_of(module: str, path: Path, known: set[str]) -> set[str]:
    """The modules under root that `module` imports, named as precisely as the import allows."""
    found = set()
    for node in _import_nodes(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = _base(module, path, node)
            # `from pkg import name` imports the submodule pkg.name when there is one.
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        found.update(target for target in targets if target in known and target != module)
    return found


def import_graph(root: Path = PACKAGES) -> dict[str, set[str]]:
    files = module_files(root)
    known = set(files)
    return {module: imports_of(module, path, known) for module, path in files.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def test_python_pkg_has_no_import_cycle():
    graph = import_graph()
    assert "govsearch_build.pipeline" in graph and "govsearch.catalogue" in graph  # the walk found the packages
    found = cycles(graph)
    assert not found, "import cycles (each group imports itself through the others): " + "; ".join(
        " <-> ".join(group) for group in found
    )


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return root


@pytest.mark.parametrize(
    "files, expected",
    [
        # The cycle this test was written for: a function-level import back into the caller.
        (
            {
                "pkg/__init__.py": "",
                "pkg/cli.py": "def main():\n    from .fetch import run\n",
                "pkg/fetch.py": "def run():\n    from .cli import console\n",
            },
            [["pkg.cli", "pkg.fetch"]],
        ),
        # `from . import name` naming a submodule, and absolute `import a.b`, over three modules.
        (
            {
                "pkg/__init__.py": "",
                "pkg/a.py": "from . import b\n",
                "pkg/b.py": "import pkg.c\n",
                "pkg/c.py": "from pkg.a import thing\n",
            },
            [["pkg.a", "pkg.b", "pkg.c"]],
        ),
        # A type checker's import never runs, and a one-way chain is no cycle.
        (
            {
                "pkg/__init__.py": "",
                "pkg/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n",
                "pkg/b.py": "from .a import A\nfrom ..outside import x\n",
            },
            [],
        ),
    ],
)
def test_the_finder_sees_cycles_the_way_python_runs_imports(tmp_path, files, expected):
    assert cycles(import_graph(_write(tmp_path, files))) == expected
