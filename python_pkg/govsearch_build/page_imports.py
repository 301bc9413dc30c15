# What the page imports before and during its searches, beyond SNAPSHOT_MODULES:
# run by snapshot.mjs (so a snapshot start imports nothing more) and by
# precompile.mjs (so the standard library it cuts keeps all of it). Runs in
# Pyodide at build time, never in the page.
import importlib
import pkgutil

from govsearch.tools import TOOL_NAMES, validator

# The tools' argument validators (fastjsonschema compiles each schema to Python code).
for tool in TOOL_NAMES:
    validator(tool)
# Every other module of the wheels: a page starting from the snapshot answers
# before it installs the wheels' files (worker.js).
for package in ("govsearch", "lunr", "fastjsonschema"):
    for info in pkgutil.walk_packages(importlib.import_module(package).__path__, package + "."):
        if info.name in ("govsearch.__main__", "govsearch.cli"):
            continue  # the command line, never used in the page
        try:
            importlib.import_module(info.name)
        except ImportError:
            pass  # an optional part (lunr's languages need nltk): it cannot load in the page either
