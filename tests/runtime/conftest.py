"""Fixtures for tests that run unchanged in CPython and inside Pyodide.

Under Pyodide the build code cannot run, so the runner prebuilds the fixture
site and passes its path in GOVSEARCH_TEST_SITE; in CPython it is built here.
"""

import os
import sys
from pathlib import Path

import fastjsonschema
import pytest

from govsearch import TOOL_NAMES, Catalogue, DirectoryLoader, load_schema


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory) -> Path:
    prebuilt = os.environ.get("GOVSEARCH_TEST_SITE")
    if prebuilt:
        return Path(prebuilt)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from sitefixture import build_fixture_site

    return build_fixture_site(tmp_path_factory.mktemp("fixture-site"))


@pytest.fixture(scope="session")
def catalogue(site_dir) -> Catalogue:
    return Catalogue.open(DirectoryLoader(site_dir))


@pytest.fixture(scope="session")
def output_checks():
    """fastjsonschema validators for each tool's output schema (they load in Pyodide too)."""
    return {tool: fastjsonschema.compile(load_schema(tool, "output"), use_default=False) for tool in TOOL_NAMES}


@pytest.fixture
def search(catalogue, output_checks):
    """Call the search tool and check the result against the output schema every time."""

    def run(arguments, **options):
        result = catalogue.call("search_government_knowledge", arguments, **options)
        output_checks["search_government_knowledge"](result)
        return result

    return run
