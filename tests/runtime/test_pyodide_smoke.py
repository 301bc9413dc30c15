"""The runtime tests really run where the runner says they do.

tests/pyodide/run_pytest.mjs sets GOVSEARCH_EXPECT_PLATFORM=emscripten, so a
"passed in Pyodide" result cannot come from a CPython run by mistake.
"""

import os
import platform
import sys

from govsearch import Catalogue, DirectoryLoader


def test_runs_on_the_expected_platform():
    expected = os.environ.get("GOVSEARCH_EXPECT_PLATFORM")
    if expected == "emscripten":
        assert sys.platform == "emscripten"
        assert platform.system() == "Emscripten"
        assert "pyodide" in sys.modules or "pyodide_js" in sys.modules or hasattr(sys, "_emscripten_info")
    else:
        assert sys.platform != "emscripten"


def test_catalogue_opens_and_searches_from_the_site_folder(site_dir):
    catalogue = Catalogue.open(DirectoryLoader(site_dir))
    assert catalogue.manifest["records"] > 0
    result = catalogue.call("search_government_knowledge", {"query": "house prices", "limit": 3})
    assert result["ok"] is True
    assert result["results"], result
    assert all(isinstance(item["score"], float) for item in result["results"])
    first = result["results"][0]["id"]
    assert catalogue.store.find(first)["id"] == first
