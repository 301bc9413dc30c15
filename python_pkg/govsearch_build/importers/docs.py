"""docs/importers.md, made from the importers' own docstrings.

The rules common to every importer are the package's docstring and each
kind's mapping table is its module's, so the document cannot drift from the
code it describes: `python build.py docs` writes it, and a test fails when the
committed file differs.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

from . import _MODULES, KINDS

DOCUMENT = Path(__file__).resolve().parents[3] / "docs" / "importers.md"


def importers_markdown() -> str:
    # The package docstring's summary line is the document's title.
    rules = import_module(__package__).__doc__.strip().split("\n\n", 1)[1]
    sections = [f"# Importers\n\n{rules}"]
    for kind in KINDS:
        sections.append("## " + import_module(f".{_MODULES[kind]}", __package__).__doc__.strip())
    return "\n\n\n".join(sections) + "\n"


def main(argv: list[str]) -> int:
    """`python build.py docs`: rewrite docs/importers.md from the docstrings."""
    if argv:
        print("usage: python build.py docs", flush=True)
        return 2
    DOCUMENT.write_text(importers_markdown(), "utf-8")
    print(f"wrote {DOCUMENT}")
    return 0
