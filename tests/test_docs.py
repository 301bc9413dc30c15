"""Docs that stay true: docs/architecture.md names only modules, files and
functions that exist, and docs/importers.md is what the importers' docstrings say.

A rename or a changed mapping that leaves a document behind fails here, not
in a reader's hands.
"""

import importlib
import re
from pathlib import Path

from govsearch_build.importers.docs import DOCUMENT, importers_markdown

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "architecture.md"
SOURCE_SUFFIXES = (".py", ".js", ".md", ".toml")
# Where a bare or package-relative name in the document may live.
ROOTS = [
    REPO,
    REPO / "python_pkg",
    REPO / "python_pkg" / "govsearch",
    REPO / "python_pkg" / "govsearch_build",
    REPO / "site" / "static" / "js",
    REPO / "docs",
]
PACKAGES = ("govsearch", "govsearch_build")


def named_in_doc() -> list[str]:
    return sorted({re.sub(r"\(.*\)$", "", token) for token in re.findall(r"`([^`\s<>*]+)`", DOC.read_text("utf-8"))})


def is_source_path(token: str) -> bool:
    built = token.startswith(("_site", "../", "/", "data/"))
    return not built and (token.endswith(SOURCE_SUFFIXES) or (token.endswith("/") and "/" in token[:-1] + "/"))


def path_exists(token: str) -> bool:
    return any((root / token).exists() for root in ROOTS)


def dotted_target(token: str) -> tuple[str, list[str]] | None:
    """(module, attributes) for `govsearch.x.y` or a module-relative `x.y` of our packages; None otherwise."""
    if token.endswith((*SOURCE_SUFFIXES, ".json", ".html", ".tsv")):
        return None  # a file name, not a module path
    parts = token.split(".")
    if parts[0] in PACKAGES:
        return parts[0], parts[1:]
    for package in PACKAGES:
        if len(parts) > 1 and (REPO / "python_pkg" / package / f"{parts[0]}.py").is_file():
            return f"{package}.{parts[0]}", parts[1:]
    return None


def resolves(module: str, attributes: list[str]) -> bool:
    while attributes:
        try:
            importlib.import_module(f"{module}.{attributes[0]}")
        except ModuleNotFoundError:
            break
        module, attributes = f"{module}.{attributes[0]}", attributes[1:]
    value = importlib.import_module(module)
    for name in attributes:
        if not hasattr(value, name):
            return False
        value = getattr(value, name)
    return True


def test_the_document_names_something_to_check():
    tokens = named_in_doc()
    assert sum(map(is_source_path, tokens)) >= 10 and sum(dotted_target(t) is not None for t in tokens) >= 3


def test_every_source_file_named_exists():
    missing = [token for token in named_in_doc() if is_source_path(token) and not path_exists(token)]
    assert not missing, f"docs/architecture.md names files that do not exist: {missing}"


def test_every_module_and_function_named_exists():
    broken = [token for token in named_in_doc() if (target := dotted_target(token)) and not resolves(*target)]
    assert not broken, f"docs/architecture.md names modules or attributes that do not exist: {broken}"


def test_importers_document_is_made_from_the_docstrings():
    assert DOCUMENT == REPO / "docs" / "importers.md"
    made = importers_markdown()
    assert "## `okf-search-shards`" in made and "Rules common to every importer" in made
    assert DOCUMENT.read_text("utf-8") == made, "docs/importers.md is stale: run `python build.py docs`"
