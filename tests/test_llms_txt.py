"""`/llms.txt`: built with the site, linked from the about page, listing exactly
the tools the manifest vouches for (tools.json), each example call answered."""

import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

import jsonschema
import pytest

from govsearch import Catalogue, DirectoryLoader, load_schema

REPO = Path(__file__).resolve().parents[1]
SECTION = re.compile(r"^### (\S+): (.+)\n\n(.+)\n\nExample arguments: `(.+)`$", re.MULTILINE)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The curated fixture corpus built by `build.py`, as a site is published."""
    tmp = tmp_path_factory.mktemp("llms")
    text = (REPO / "site" / "site.toml").read_text("utf-8")
    config = tmp / "site.toml"
    config.write_text(text.replace('content_dir = "content"', f'content_dir = "{REPO / "tests/fixtures/corpus"}"'))
    done = subprocess.run(
        [sys.executable, str(REPO / "build.py"), "--config", str(config), "--out", str(tmp / "site")],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    return tmp / "site"


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.hrefs += [value for name, value in attrs if tag == "a" and name == "href" and value]


def test_the_about_page_links_to_llms_txt(built):
    links = Links()
    links.feed((built / "about" / "index.html").read_text("utf-8"))
    targets = {urljoin("https://example.test/about/", href) for href in links.hrefs}
    assert "https://example.test/llms.txt" in targets
    assert (built / "llms.txt").is_file()


def test_llms_txt_lists_exactly_the_tools_json_tools(built):
    manifest = json.loads((built / "data" / "manifest.json").read_text("utf-8"))
    tools = json.loads((built / "data" / manifest["tools"]["path"]).read_text("utf-8"))["tools"]
    text = (built / "llms.txt").read_text("utf-8")
    listed = SECTION.findall(text)
    assert [(name, title, description) for name, title, description, _ in listed] == [
        (tool["name"], tool["title"], tool["description"]) for tool in tools
    ]
    assert f"{manifest['records']} records" in text and "python -m govsearch mcp --site" in text
    assert "Open Government Licence v3.0" in text


def test_every_example_call_in_llms_txt_is_answered(built):
    catalogue = Catalogue.open(DirectoryLoader(built))
    for name, _, _, example in SECTION.findall((built / "llms.txt").read_text("utf-8")):
        arguments = json.loads(example)
        jsonschema.validate(arguments, load_schema(name))
        answer = catalogue.call(name, arguments)
        assert answer["ok"], (name, answer)
        found = answer.get("total", answer.get("returned", 1 if "record" in answer else 0))
        assert found >= 1, (name, answer)
