"""libyaml's loader (fast) and PyYAML's pure-Python one give the same records.

The build parses front matter with the C loader when libyaml is there and
with the pure-Python loader otherwise (or when the C one refuses a file), so
a site must not depend on which one a machine has.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from govsearch_build import records as records_module
from govsearch_build.records import load_content, load_front_matter, parse_record_text, split_front_matter

CONTENT = Path(__file__).resolve().parents[1] / "site" / "content"
pytestmark = pytest.mark.skipif(not hasattr(yaml, "CSafeLoader"), reason="PyYAML built without libyaml")

TRICKY = [
    "id: a\nobserved: 2026-07-14\nupdated: '2026-07-15'\nwhen: 2026-07-14T10:00:00Z\n",
    'title: Café — Ōtautahi “quoted” \U0001f600\nsummary: "tab\\there \\u00e9 \\x41"\n',
    "title: 'it''s single'\nsummary: \"double \\\"inner\\\"\"\nkeywords: ['a: b', \"c # d\", e]\n",
    "yes: yes\nno: no\non: off\nnum: 0x1F\noct: 0o17\nfloat: 1e3\nnull: ~\nempty:\nver: 1.10\n",
    "summary: >\n  folded\n  text\n\n  kept\nbody: |\n  literal\n    indented\n",
    "base: &b {kind: curated, file: x.md}\nsource: *b\nlinks:\n  - {title: A, url: 'https://x.gov.uk/a'}\n",
    "title: '\u00a0non-breaking x\u2028line'\nsummary: \"ÅÄÖ ç ñ 日本語\u2029\\x85\"\nid: \ufeffx \u00a0\n",
    "date_list: [2026-01-01, 2026-02-30, 26-1-1]\nkey with spaces: v\n'2026-01-01': k\n",
]


def _both(head: str):
    fast = yaml.load(head, Loader=records_module._FastStringDateLoader)
    pure = yaml.load(head, Loader=records_module._StringDateLoader)
    return fast, pure


@pytest.mark.parametrize("head", TRICKY)
def test_tricky_front_matter_loads_the_same(head):
    fast, pure = _both(head)
    assert fast == pure
    assert repr(fast) == repr(pure)  # same types too (1 is not 1.0, True is not 'yes')


def test_dates_stay_strings():
    fast, _ = _both(TRICKY[0])
    assert fast["observed"] == "2026-07-14" and fast["when"] == "2026-07-14T10:00:00Z"


def test_curated_corpus_reads_the_same_with_either_loader(monkeypatch):
    heads = [split_front_matter(path.read_text("utf-8-sig"))[0] for path in sorted(CONTENT.rglob("*.md"))]
    assert len(heads) >= 400
    for head in heads:
        fast, pure = _both(head)
        assert repr(fast) == repr(pure)
    with_c = load_content(CONTENT)
    monkeypatch.setattr(records_module, "_FastStringDateLoader", None)
    without_c = load_content(CONTENT)
    assert [(r.data, r.body, r.file) for r in with_c.records] == [(r.data, r.body, r.file) for r in without_c.records]
    assert with_c.rejected == without_c.rejected == []


@pytest.mark.parametrize(
    "head",
    ["title: [unclosed\n", "a: b\n  c: d\n", "title: x\ntitle: [" + "[" * 5000 + "\n", "\tkey: tab\n"],
)
def test_refused_front_matter_is_reported_as_by_the_pure_loader(monkeypatch, head):
    text = f"---\n{head}---\nbody\n"
    with_c = parse_record_text(text, "x.md")
    monkeypatch.setattr(records_module, "_FastStringDateLoader", None)
    assert with_c == parse_record_text(text, "x.md")
    assert with_c[0] is None and with_c[2][0].field == "(front matter)"


def test_the_fast_loader_is_used(monkeypatch):
    calls = []
    real = yaml.load
    monkeypatch.setattr(yaml, "load", lambda text, Loader: calls.append(Loader) or real(text, Loader=Loader))
    assert load_front_matter("a: 1\n") == {"a": 1}
    assert calls == [records_module._FastStringDateLoader]
