"""Hostile inputs: every bad file is rejected naming file and field, the rest builds,
markup in text fields is shown literally, and nothing escapes the output folder.

All hostile files (symlinks, FIFOs, non-UTF-8 bytes...) are generated in
tmp_path at test time; none is committed.

Decisions recorded here:
- A UTF-8 byte-order mark is accepted and dropped (the file builds normally);
  CRLF line endings likewise.
- A symlink that resolves outside the content folder is rejected, even when it
  points at a valid record. A symlink that resolves inside the folder is read
  like any other file: it is an input of its own (so a link to a non-.md file
  inside the folder builds), and a link aliasing another record is rejected as
  a duplicate id. A dangling symlink is rejected as unreadable.
- Anything that is not a regular file (a FIFO or a folder named *.md) is
  rejected without being opened.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml
from markupsafe import escape

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures" / "corpus"
MARKER = "hostile-marker-7f3a"  # in every hostile text, to find leaks


def run_build(*args, timeout=300):
    return subprocess.run(
        [sys.executable, str(REPO / "build.py"), *args], capture_output=True, text=True, cwd=REPO, timeout=timeout
    )


def config_for(folder: Path, content: Path) -> Path:
    """A copy of site.toml whose content folder is `content`."""
    text = (
        (REPO / "site" / "site.toml")
        .read_text("utf-8")
        .replace('content_dir = "content"', f'content_dir = "{content}"')
    )
    path = folder / "site.toml"
    path.write_text(text, "utf-8")
    return path


def record(record_id: str, **fields) -> dict:
    data = {
        "id": record_id,
        "title": f"Hostile test record {record_id}",
        "summary": "A record written by the hostile-input tests.",
        "url": f"https://www.gov.uk/hostile-tests/{record_id}",
        "resourceType": "guidance",
        "publisher": "Cabinet Office",
        "accessStatus": "public",
        "collection": "uk-living",
        "source": {"kind": "curated"},
    }
    for name, value in fields.items():
        if value is None:
            data.pop(name, None)
        else:
            data[name] = value
    return data


def markdown_file(data: dict, body: str = "") -> str:
    head = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=10_000)
    return f"---\n{head}---\n{body}"


# Markup in every text field of one accepted record.
MARKUP = {
    "title": f"<script>alert('title')</script> Markup {MARKER} title",
    "summary": f'<img src=x onerror="alert(\'summary\')"> summary <a href="javascript:alert(1)">x</a> {MARKER}',
    "publisher": f"<b onmouseover=alert(1)>Evil</b> Office {MARKER}",
    "accessNote": f"<iframe src=https://evil.example/></iframe> note {MARKER}",
    "licence": f"<style>body{{display:none}}</style> licence {MARKER}",
    "keywords": [f"<script>alert('kw')</script>{MARKER}", "<img src=x onerror=alert(3)>"],
}
MARKUP_BODY = f"""Plain paragraph {MARKER}.

<script>alert('body-script')</script>

<img src=x onerror="alert('body-img')">

<a href="javascript:alert('body-a')">raw javascript link</a>

[markdown javascript link](javascript:alert('md-link'))

<iframe src="https://evil.example/frame"></iframe>

<style>body {{ display: none }}</style>

<svg onload=alert('svg')><circle r=1></circle></svg>

Some **bold** survives.
"""

# Built, by id. (Files not listed in REJECTED are expected to build.)
BUILT_IDS = {"markup-record", "bom-record", "crlf-record", "same-url-other-collection", "symlink-inside-target"}
# The same resource in another collection is merged into the record read first (files in path
# order, neither reviewed), which then belongs to both collections.
MERGED = {"vat-api": "same-url-other-collection"}
# file -> (field, words the reason must contain)
REJECTED = {
    "malformed-yaml.md": ("(front matter)", "malformed YAML"),
    "python-tag.md": ("(front matter)", "malformed YAML"),
    "types/title-list.md": ("title", "type"),
    "types/keywords-string.md": ("keywords", "type"),
    "types/id-number.md": ("id", "type"),
    "types/id-trailing-newline.md": ("id", "pattern"),
    "tokens/resource-type-api.md": ("resourceType", "enum"),
    "tokens/collection-gov.md": ("collection", "enum"),
    "zz-duplicate-id.md": ("id", "duplicate id 'vat-api', first used by vat-api.md"),
    "zz-duplicate-url.md": ("url", "duplicate url in collection government-apis, first used by vat-api.md"),
    "urls/url-javascript.md": ("url", "https URL"),
    "urls/url-data.md": ("url", "https URL"),
    "urls/doc-javascript.md": ("documentationUrl", "https URL"),
    "urls/doc-data.md": ("documentationUrl", "https URL"),
    "urls/url-credentials.md": ("url", "credentials"),
    "urls/doc-credentials.md": ("documentationUrl", "credentials"),
    "urls/url-unclosed-ipv6.md": ("url", "not a valid URL"),
    "urls/url-trailing-newline.md": ("url", "line breaks"),
    # plain http on a listed public-body host, not marked: its page would not say the link is not encrypted
    "urls/url-http-unmarked.md": ("linkSecurity", "must be marked http-only"),
    "nul-in-title.md": ("title", "control character U+0000"),
    "summary-1mb.md": ("(file)", "the limit is 262144"),
    "summary-10kb.md": ("summary", "maxLength"),
    "file-over-256kb.md": ("(file)", "the limit is 262144"),
    "non-utf8.md": ("(file)", "not UTF-8"),
    "symlink-outside.md": ("(file)", "symlink points outside the content folder"),
    "symlink-dangling.md": ("(file)", "cannot read"),
    "zz-symlink-alias.md": ("id", "duplicate id 'vat-guide', first used by vat-guide.md"),
    "no-front-matter.md": ("(front matter)", "must start with a '---'"),
    "empty.md": ("(front matter)", "must start with a '---'"),
    "only-dashes.md": ("(front matter)", "never closed"),
    "front-matter-list.md": ("(front matter)", "must be a mapping"),
    "front-matter-empty.md": ("(front matter)", "must be a mapping"),
    "alias-bomb.md": ("(front matter)", "more than 10000 values"),
    "deep-nesting.md": ("(front matter)", "nested too deeply"),
    "folder.md": ("(file)", "not a regular file"),
    "fifo.md": ("(file)", "not a regular file"),
}


def write(path: Path, text: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, "utf-8", newline="")


def hostile_corpus(root: Path) -> Path:
    """The fixture records plus every hostile case; returns the content folder."""
    content = root / "content"
    shutil.copytree(FIXTURES, content)
    elsewhere = root / "elsewhere"
    write(elsewhere / "outside.md", markdown_file(record("outside-record")))

    write(content / "malformed-yaml.md", "---\nid: broken\ntitle: [unclosed\n---\n")
    write(content / "python-tag.md", "---\nid: !!python/object/apply:os.system ['touch pwned']\n---\n")
    write(content / "types/title-list.md", markdown_file(record("title-list", title=["a", "b"])))
    write(content / "types/keywords-string.md", markdown_file(record("keywords-string", keywords="VAT, tax")))
    write(content / "types/id-number.md", markdown_file(record(12345)))
    write(content / "types/id-trailing-newline.md", markdown_file(record("trailing\n")))
    write(content / "tokens/resource-type-api.md", markdown_file(record("rt-api", resourceType="API")))
    write(content / "tokens/collection-gov.md", markdown_file(record("coll-gov", collection="gov")))

    vat = yaml.safe_load((FIXTURES / "vat-api.md").read_text("utf-8").split("---")[1])
    write(content / "zz-duplicate-id.md", markdown_file(dict(vat, url="https://www.gov.uk/another-vat-page")))
    write(content / "zz-duplicate-url.md", markdown_file(dict(vat, id="vat-api-again")))
    write(
        content / "same-url-other-collection.md",
        markdown_file(dict(vat, id="same-url-other-collection", collection="uk-living")),
    )

    write(content / "urls/url-javascript.md", markdown_file(record("url-js", url="javascript:alert(document.cookie)")))
    write(
        content / "urls/url-data.md", markdown_file(record("url-data", url="data:text/html,<script>alert(1)</script>"))
    )
    write(content / "urls/doc-javascript.md", markdown_file(record("doc-js", documentationUrl="javascript:alert(1)")))
    write(
        content / "urls/doc-data.md",
        markdown_file(
            record("doc-data", documentationUrl="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==")
        ),
    )
    write(content / "urls/url-credentials.md", markdown_file(record("url-cred", url="https://user:pw@www.gov.uk/")))
    write(
        content / "urls/doc-credentials.md",
        markdown_file(record("doc-cred", documentationUrl="https://user:pw@www.gov.uk/docs")),
    )
    write(content / "urls/url-unclosed-ipv6.md", markdown_file(record("url-ipv6", url="https://[www.gov.uk/")))
    write(
        content / "urls/url-trailing-newline.md", markdown_file(record("url-newline", url="https://www.gov.uk/page\n"))
    )

    write(
        content / "urls/url-http-unmarked.md",
        markdown_file(record("url-http-unmarked", url="http://opendatacommunities.org/data/unmarked")),
    )

    write(content / "nul-in-title.md", markdown_file(record("nul-title", title="before\x00after")))
    write(content / "summary-1mb.md", markdown_file(record("summary-1mb", summary="x" * 1024 * 1024)))
    write(content / "summary-10kb.md", markdown_file(record("summary-10kb", summary="word " * 2000)))
    write(content / "file-over-256kb.md", markdown_file(record("big-file"), "Body text. " * 30_000))
    write(
        content / "non-utf8.md",
        markdown_file(record("non-utf8")).encode("utf-8").replace(b"A record", b"A \xff\xfe record"),
    )
    write(content / "bom.md", "\ufeff" + markdown_file(record("bom-record")))
    write(content / "crlf.md", markdown_file(record("crlf-record"), "Body line.\n").replace("\n", "\r\n"))

    (content / "symlink-outside.md").symlink_to(elsewhere / "outside.md")
    (content / "symlink-dangling.md").symlink_to(content / "missing-target.md")
    write(
        content / "notes" / "inside.txt", markdown_file(record("symlink-inside-target"))
    )  # not *.md: only read through the link
    (content / "symlink-inside.md").symlink_to(Path("notes") / "inside.txt")
    (content / "zz-symlink-alias.md").symlink_to("vat-guide.md")

    write(content / "no-front-matter.md", "# Just a heading\n\nNo front matter at all.\n")
    write(content / "empty.md", "")
    write(content / "only-dashes.md", "---")
    write(content / "front-matter-list.md", "---\n- id: list-record\n- title: x\n---\n")
    write(content / "front-matter-empty.md", "---\n---\nbody\n")
    levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for number, name in enumerate("bcdefghi"):
        previous = "abcdefghi"[number]
        levels.append(f"{name}: &{name} [{', '.join([f'*{previous}'] * 10)}]")
    write(
        content / "alias-bomb.md", "---\n" + "\n".join(levels[:4]) + "\nid: alias-bomb\n---\n"
    )  # 10**4 values when expanded
    write(content / "deep-nesting.md", "---\nid: " + "[" * 5000 + "]" * 5000 + "\n---\n")
    (content / "folder.md").mkdir()
    if hasattr(os, "mkfifo"):
        os.mkfifo(content / "fifo.md")

    markup = record("markup-record", **MARKUP)
    write(content / "markup.md", markdown_file(markup, MARKUP_BODY))
    return content


def snapshot(root: Path, skip: tuple[Path, ...] = ()) -> dict[str, tuple]:
    """Every entry below root (not following symlinks) with its type, size and mtime."""
    entries = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if Path(folder, d) not in skip]
        for name in dirs + files:
            path = Path(folder, name)
            info = path.lstat()
            target = os.readlink(path) if path.is_symlink() else None
            entries[str(path.relative_to(root))] = (info.st_mode, info.st_size, info.st_mtime_ns, target)
    return entries


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile")
    content = hostile_corpus(root)
    config = config_for(root, content)
    out = root / "site"
    inputs = sorted(p.relative_to(content).as_posix() for p in content.rglob("*.md"))
    before = snapshot(root)
    started = time.time()
    strict = run_build("--config", str(config), "--out", str(out))
    after_strict = snapshot(root)
    out_after_strict = out.exists()
    built = run_build("--config", str(config), "--out", str(out), "--keep-going")
    after = snapshot(root, skip=(out,))
    return {
        "root": root,
        "content": content,
        "out": out,
        "inputs": inputs,
        "strict": strict,
        "built": built,
        "before": before,
        "after_strict": after_strict,
        "out_after_strict": out_after_strict,
        "after": after,
        "started": started,
    }


@pytest.fixture(scope="module")
def report(hostile):
    assert hostile["built"].returncode == 0, hostile["built"].stderr
    return json.loads((hostile["out"] / "build-report.json").read_text("utf-8"))


@pytest.fixture(scope="module")
def stored_records(hostile, report):
    data = hostile["out"] / "data"
    manifest = json.loads((data / "manifest.json").read_text("utf-8"))
    records = []
    for path in sorted(data.rglob("records*.json")) + sorted(
        (data / "records").glob("*.json") if (data / "records").is_dir() else []
    ):
        records.extend(json.loads(path.read_text("utf-8"))["records"])
    assert records, manifest
    return {r["id"]: r for r in records}


# Accounting ------------------------------------------------------------------


def test_without_keep_going_the_build_fails_naming_files_and_writes_nothing(hostile):
    done = hostile["strict"]
    assert done.returncode == 1
    rejected_files = {f for f in REJECTED if f != "fifo.md" or hasattr(os, "mkfifo")}
    assert f"{len(rejected_files)} input(s) rejected" in done.stderr
    assert "malformed-yaml.md: (front matter): malformed YAML" in done.stderr
    assert not hostile["out_after_strict"]
    assert hostile["after_strict"] == hostile["before"]


def test_every_input_is_accounted_for_exactly_once(hostile, report, stored_records):
    inputs = set(hostile["inputs"])
    expected_rejected = {f for f in REJECTED if f != "fifo.md" or hasattr(os, "mkfifo")}
    rejected_files = {item["file"] for item in report["rejected_records"]}
    assert rejected_files == expected_rejected
    assert rejected_files <= inputs
    assert report["records"]["rejected"] == len(rejected_files)
    assert report["records"]["merged_same_resource"] == len(MERGED)
    assert report["records"]["built"] + report["records"]["rejected"] + report["records"][
        "merged_same_resource"
    ] == len(inputs)
    fixture_ids = {
        re.search(r"^id: *(\S+)", p.read_text("utf-8"), re.MULTILINE).group(1) for p in FIXTURES.glob("*.md")
    }
    assert set(stored_records) == (fixture_ids | BUILT_IDS) - set(MERGED)
    assert len(stored_records) == report["records"]["built"]
    for merged, into in MERGED.items():
        assert merged not in stored_records and stored_records[into]["collections"] == ["uk-living", "government-apis"]
        # the merged record's address still leads to the record it is now part of
        page = (hostile["out"] / "records" / merged / "index.html").read_text("utf-8")
        assert f'href="/records/{into}/"' in page


@pytest.mark.parametrize("file", sorted(REJECTED))
def test_each_hostile_file_is_rejected_naming_file_and_field(hostile, report, file):
    if file == "fifo.md" and not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    field, words = REJECTED[file]
    problems = [item for item in report["rejected_records"] if item["file"] == file]
    assert problems, f"{file} was not rejected"
    assert any(item["field"] == field and words in item["reason"] for item in problems), problems


def test_rejections_are_short_and_do_not_echo_huge_values(report):
    for item in report["rejected_records"]:
        assert len(item["reason"]) < 400, item


def test_bom_and_crlf_records_build_normally(hostile, stored_records):
    for record_id in ("bom-record", "crlf-record"):
        page = (hostile["out"] / "records" / record_id / "index.html").read_text("utf-8")
        assert f"Hostile test record {record_id}" in page
        assert stored_records[record_id]["title"] == f"Hostile test record {record_id}"
        assert "\ufeff" not in json.dumps(stored_records[record_id], ensure_ascii=False)
    assert stored_records["crlf-record"]["body"] == "Body line."


def test_symlink_inside_the_folder_is_read_as_its_own_input(hostile, stored_records):
    assert "symlink-inside-target" in stored_records
    assert "outside-record" not in stored_records
    assert not (hostile["out"] / "records" / "outside-record").exists()


def test_python_tag_ran_nothing(hostile):
    assert not (hostile["root"] / "pwned").exists() and not (REPO / "pwned").exists()


# Markup is text -------------------------------------------------------------


class Tags(HTMLParser):
    """Every start tag with its attributes, and the tags inside #record-body."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.body_tags: list[str] = []
        self._depth = 0  # open elements inside #record-body

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))
        if self._depth:
            self.body_tags.append(tag)
            if tag not in ("br", "hr", "img"):
                self._depth += 1
        elif dict(attrs).get("id") == "record-body":
            self._depth = 1

    def handle_endtag(self, tag):
        if self._depth:
            self._depth -= 1


def html_pages(out: Path) -> list[Path]:
    return sorted(out.rglob("*.html"))


def test_no_script_handler_or_javascript_url_anywhere_in_the_output(hostile, report):
    pages = html_pages(hostile["out"])
    assert len(pages) > 20
    for page in pages:
        text = page.read_text("utf-8")
        for match in re.finditer(r"<script\b[^>]*>", text, re.IGNORECASE):
            assert re.fullmatch(
                r'<script type="module" src="/static/[^"<>]+"></script>', text[match.start() : match.end() + 9]
            ), (page, match.group())
        parser = Tags()
        parser.feed(text)
        for tag, attrs in parser.tags:
            # the only forms: the search page's and every page's header search box, both to the search page
            assert tag not in ("iframe", "object", "embed", "style", "img", "base", "form") or (
                tag == "form" and dict(attrs).get("action") == "/search/"
            ), (page, tag)
            for name, value in attrs:
                assert not name.startswith("on"), (page, tag, name, value)
                if value and name in ("href", "src", "action", "formaction", "xlink:href", "data", "srcset", "content"):
                    assert not re.match(r"\s*(javascript|data|vbscript):", value, re.IGNORECASE), (
                        page,
                        tag,
                        name,
                        value,
                    )


def test_text_fields_appear_only_escaped_on_the_record_page(hostile, report):
    page = (hostile["out"] / "records" / "markup-record" / "index.html").read_text("utf-8")
    for name in ("title", "summary", "publisher", "accessNote", "licence"):
        assert str(escape(MARKUP[name])) in page, name
        assert MARKUP[name] not in page, name
    assert str(escape(", ".join(MARKUP["keywords"]))) in page
    assert "&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt;" in page
    # <title> and <meta description> carry the markup as escaped text too.
    assert f"<title>{escape(MARKUP['title'])} – " in page
    assert f'<meta name="description" content="{escape(MARKUP["summary"])}">' in page


def test_body_raw_html_is_removed(hostile, report):
    page = (hostile["out"] / "records" / "markup-record" / "index.html").read_text("utf-8")
    parser = Tags()
    parser.feed(page)
    assert set(parser.body_tags) <= {"p", "strong", "a", "em", "code", "pre", "ul", "ol", "li", "br"}, parser.body_tags
    body = page.split('id="record-body">', 1)[1].split("</div>", 1)[0]
    assert f"Plain paragraph {MARKER}." in body and "<strong>bold</strong>" in body
    # nh3 drops script and style with their content, and disallowed tags,
    # attributes and URL schemes.
    for gone in ("body-script", "body-img", "body-a", "evil.example", "display"):
        assert gone not in html.unescape(body), gone
    # A raw-HTML line Markdown did not treat as HTML stays as escaped text.
    assert "&lt;svg onload=alert(&#x27;svg&#x27;)&gt;" in body or "&lt;svg onload" in body
    assert "onload=" not in body.replace("&lt;svg onload=", "")
    assert "<script" not in body and "<iframe" not in body and "<style" not in body and "<svg" not in body


def test_browse_and_home_pages_show_markup_only_escaped(hostile, report):
    out = hostile["out"]
    listing_pages = [
        out / "collections" / "uk-living" / "index.html",
        out / "types" / "guidance" / "index.html",
        out / "access" / "public" / "index.html",
    ]
    publisher_pages = [p for p in (out / "publishers").glob("*/index.html") if MARKER in p.read_text("utf-8")]
    assert len(publisher_pages) == 1
    for page in listing_pages + publisher_pages:
        text = page.read_text("utf-8")
        for name in ("title", "summary", "publisher"):
            assert str(escape(MARKUP[name])) in text, (page, name)
            assert MARKUP[name] not in text, (page, name)
    browse = (out / "browse" / "index.html").read_text("utf-8")
    assert str(escape(MARKUP["publisher"])) in browse and MARKUP["publisher"] not in browse
    home = (out / "index.html").read_text("utf-8")
    assert "<b onmouseover" not in home and "<script>alert" not in home
    for page in html_pages(out):
        text = page.read_text("utf-8")
        for value in (
            *(MARKUP[n] for n in ("title", "summary", "publisher", "accessNote", "licence")),
            *MARKUP["keywords"],
        ):
            assert value not in text, (page, value)


def test_search_data_holds_markup_as_plain_text(stored_records):
    stored = stored_records["markup-record"]
    for name in ("title", "summary", "publisher", "accessNote", "licence", "keywords"):
        assert stored[name] == MARKUP[name], name
    assert "<script>alert('body-script')</script>" in stored["body"]


# Writes stay inside --out ---------------------------------------------------


def test_nothing_is_written_outside_the_output_folder(hostile, report):
    assert hostile["after"] == hostile["before"], set(hostile["after"].items()) ^ set(hostile["before"].items())
    # The repository: nothing from these builds landed in it (the runtime's
    # wheel cache under .cache is the build's own). Other sessions may be
    # building into the repository (_site) at the same time, so a file counts
    # only if it carries this corpus's marker or names its hostile files.
    skip = {".cache", ".git", ".venv", "node_modules", "__pycache__", ".pytest_cache", "test-artifacts"}
    for folder, dirs, files in os.walk(REPO):
        dirs[:] = [d for d in dirs if d not in skip]
        for name in files:
            path = Path(folder, name)
            info = path.lstat()
            if info.st_mtime < hostile["started"] - 1 or path.is_symlink() or info.st_size > 50_000_000:
                continue  # untouched while the builds ran
            if path.suffix in (".html", ".json", ".md", ".txt", ""):
                text = path.read_text("utf-8", errors="replace")
                assert MARKER not in text and "alias-bomb.md" not in text, path


# --out safety -----------------------------------------------------------------

# Runs build.py with shutil.rmtree disabled, so a regression of the guard
# cannot delete anything while this test runs.
NO_RMTREE = """
import runpy, shutil, sys
def refuse(path, *args, **kwargs):
    raise SystemExit(f"TEST GUARD: rmtree({path!r}) was called")
shutil.rmtree = refuse
sys.argv = [sys.argv[1], *sys.argv[2:]]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def guarded_build(*args):
    return subprocess.run(
        [sys.executable, "-c", NO_RMTREE, str(REPO / "build.py"), *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )


def small_site(tmp_path: Path) -> tuple[Path, Path]:
    content = tmp_path / "content"
    shutil.copytree(FIXTURES, content)
    return content, config_for(tmp_path, content)


@pytest.mark.parametrize("where", ["content", "content-with-old-report", "inside-content", "parent-of-content"])
def test_out_at_or_around_the_content_folder_is_refused_without_deleting(tmp_path, where):
    content, config = small_site(tmp_path)
    if where == "content-with-old-report":
        # A stray build report would satisfy the "previous build" check alone.
        (content / "build-report.json").write_text("{}", "utf-8")
    out = {
        "content": content,
        "content-with-old-report": content,
        "inside-content": content / "_site",
        "parent-of-content": tmp_path,
    }[where]
    before = snapshot(tmp_path)
    done = guarded_build("--config", str(config), "--out", str(out))
    assert done.returncode == 1, done.stderr
    assert "choose another --out" in done.stderr and "TEST GUARD" not in done.stderr
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("where", [".", "site", "site/content", ".."])
def test_out_at_the_repository_or_its_inputs_is_refused_without_deleting(where):
    out = (REPO / where).resolve()
    before = sorted(p.name for p in out.iterdir())
    done = guarded_build("--out", str(out))
    assert done.returncode == 1, done.stderr
    assert "choose another --out" in done.stderr and "TEST GUARD" not in done.stderr
    assert sorted(p.name for p in out.iterdir()) == before
    assert (REPO / "build.py").exists() and (REPO / "site" / "content").is_dir()


# Rendering: hostile Markdown bodies (sanitise.py; reported, not fixed here) ----


def test_deeply_nested_list_body_does_not_abort_the_build(tmp_path):
    """Python-Markdown recurses per nesting level: '- ' * 1000 (2 KB) used to crash the build."""
    content, config = small_site(tmp_path)
    write(content / "nested-list.md", markdown_file(record("nested-list"), "- " * 1000 + "x\n"))
    done = run_build("--config", str(config), "--out", str(tmp_path / "site"), "--keep-going")
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads((tmp_path / "site" / "build-report.json").read_text("utf-8"))
    assert report["records"]["built"] + report["records"]["rejected"] == len(list(FIXTURES.glob("*.md"))) + 1
    assert {
        "file": "nested-list.md",
        "field": "body",
        "reason": "lists or quotes nested more than 20 levels deep",
    } in report["rejected_records"]


RENDER_BRACKETS = """
import sys, time
sys.path.insert(0, sys.argv[1])
from govsearch_build.sanitise import render_markdown
render_markdown("[" * 30000)
"""


def test_bracket_heavy_body_renders_quickly():
    """Python-Markdown is quadratic in nested '[' (8 KB took ~20 s): render_markdown must not stall."""
    try:
        subprocess.run(
            [sys.executable, "-c", RENDER_BRACKETS, str(REPO / "python_pkg")],
            cwd=REPO,
            timeout=10,
            check=True,
            capture_output=True,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("rendering 30 000 '[' took more than 10 s")
