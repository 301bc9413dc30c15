"""`python -m govsearch`: what a person or script sees on the command line."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from govsearch import load_schema
from sitefixture import build_fixture_site

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return build_fixture_site(tmp_path_factory.mktemp("cli-site"))


def run(*args, stdin=""):
    return subprocess.run(
        [sys.executable, "-m", "govsearch", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        env={"PYTHONPATH": str(REPO / "python_pkg")},
    )


def test_call_prints_the_result_json(site):
    done = run("call", "search_government_knowledge", "--site", str(site), stdin='{"query": "house prices"}')
    assert done.returncode == 0
    result = json.loads(done.stdout)
    assert result["ok"] and result["results"][0]["id"] == "house-price-index"
    assert done.stdout.endswith("}\n") and done.stdout.count("\n") == 1


def test_error_results_still_exit_zero(site):
    done = run("call", "search_government_knowledge", "--site", str(site), stdin='{"query": 5}')
    assert done.returncode == 0 and json.loads(done.stdout)["error"]["code"] == "invalid_arguments"
    broken = run("call", "get_resource_record", "--site", str(site), stdin="{not json")
    assert broken.returncode == 0 and "not valid JSON" in json.loads(broken.stdout)["error"]["message"]


def test_usage_errors_and_missing_site_exit_two(tmp_path):
    assert run("call", "search_government_knowledge", "--site", str(tmp_path), stdin="{}").returncode == 2
    assert run("call", "no_such_tool", "--site", str(tmp_path)).returncode == 2
    assert run().returncode == 2


def test_schema_prints_the_input_schema():
    done = run("schema", "search_government_knowledge")
    assert done.returncode == 0 and json.loads(done.stdout) == load_schema("search_government_knowledge")
    values = run("schema", "list_filter_values")
    assert values.returncode == 0 and json.loads(values.stdout)["properties"]["dimension"]["enum"] == [
        "collections",
        "resourceTypes",
        "accessStatuses",
        "publishers",
    ]


def test_mcp_refuses_a_missing_site_before_serving(tmp_path):
    done = run("mcp", "--site", str(tmp_path / "nowhere"))
    assert (
        done.returncode == 2
        and done.stdout == ""
        and f"the site at {tmp_path / 'nowhere'} cannot be used" in done.stderr
    )
    assert run("mcp").returncode == 2  # --site is required


def test_search_prints_readable_results(site):
    done = run("search", "VAT", "--site", str(site), "--type", "api")
    assert done.returncode == 0
    assert (
        "1 matching records" in done.stdout and "VAT (MTD) API" in done.stdout and "HM Revenue & Customs" in done.stdout
    )
    refused = run("search", "VAT", "--site", str(site), "--collection", "Land Registry")
    assert refused.returncode == 2 and "land-registry" in refused.stderr
