"""A tampered or truncated site fails closed: nothing is searched."""

import hashlib
import json
import shutil

import pytest

from govsearch import Catalogue, DirectoryLoader, SiteUnavailable


@pytest.fixture
def site_copy(site_dir, tmp_path):
    copy = tmp_path / "site"
    shutil.copytree(site_dir / "data", copy / "data")
    return copy


def manifest(site):
    return json.loads((site / "data" / "manifest.json").read_text("utf-8"))


@pytest.mark.parametrize("role", ["index", "records"])
def test_tampered_file_is_refused(site_copy, role):
    path = site_copy / "data" / manifest(site_copy)["files"][role]["path"]
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(SiteUnavailable, match="integrity"):
        Catalogue.open(DirectoryLoader(site_copy))


def test_truncated_file_is_refused(site_copy):
    path = site_copy / "data" / manifest(site_copy)["files"]["records"]["path"]
    path.write_bytes(path.read_bytes()[:-10])
    with pytest.raises(SiteUnavailable, match="integrity"):
        Catalogue.open(DirectoryLoader(site_copy))


def test_missing_file_and_broken_manifest(site_copy):
    (site_copy / "data" / manifest(site_copy)["files"]["index"]["path"]).unlink()
    with pytest.raises(SiteUnavailable, match="cannot read"):
        Catalogue.open(DirectoryLoader(site_copy))
    (site_copy / "data" / "manifest.json").write_text("{", "utf-8")
    with pytest.raises(SiteUnavailable, match="not valid JSON"):
        Catalogue.open(DirectoryLoader(site_copy))


def test_loader_cannot_leave_the_data_folder(site_copy):
    (site_copy / "secret.json").write_text("{}", "utf-8")
    with pytest.raises(FileNotFoundError):
        DirectoryLoader(site_copy).read("../secret.json")


def test_the_manifest_vouches_for_the_tool_list_agents_are_shown(site_dir):
    from govsearch.tools import tool_definitions

    entry = manifest(site_dir)["tools"]
    data = (site_dir / "data" / entry["path"]).read_bytes()
    assert hashlib.sha256(data).hexdigest() == entry["sha256"] and len(data) == entry["size"]
    assert entry["sha256"][:12] in entry["path"]  # a new list gets a new name: no stale copy from a cache
    assert json.loads(data)["tools"] == tool_definitions()
    assert not (site_dir / "data" / "tools.json").exists()
