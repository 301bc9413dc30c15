"""The search page's counts (site/static/js/results.js). thousands() writes whole
numbers itself rather than with toLocaleString (whose first call loads ICU's
number data, about 40 ms of the page's main thread while the first answer is
drawn): it must write exactly what toLocaleString("en-GB") writes. The status
line counts the results drawn apart from the records folded behind them."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

RESULTS_JS = Path(__file__).resolve().parents[1] / "site" / "static" / "js" / "results.js"

SCRIPT = """
const { thousands } = await import(process.argv[1]);
const values = [0, -0, 1, -1, 7, 12, 999, 1000, -1000, 9999, 10000, 37816, 123456, 1234567, -9876543210,
  Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 53, 1e21, 1.5, -2.25, 1234.5678, NaN, Infinity,
  -Infinity, "42", "1234", " 12 ", "", "n/a", null, undefined, true, false];
let seed = 20261203; // a fixed sequence (a small linear congruential generator): a failure reproduces
const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
for (let digits = 1; digits <= 16; digits++) {
  for (let i = 0; i < 200; i++) {
    values.push(Math.floor((next() - 0.5) * 10 ** digits));
  }
}
const wrong = values.filter((value) => thousands(value) !== Number(value).toLocaleString("en-GB"));
console.log(JSON.stringify(wrong.map(String)));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_thousands_writes_what_toLocaleString_writes():
    assert _node(SCRIPT) == []


STATUS = """
const { statusText } = await import(process.argv[1]);
console.log(JSON.stringify([
  statusText("house prices", { total: 1112, returned: 10, behind: 7 }, 0),
  statusText("house prices", { total: 1112, returned: 10, behind: 0 }, 0),
  statusText("house prices", { total: 1112, returned: 10, behind: 1 }, 0),
  statusText("house prices", { total: 17, returned: 10, behind: 7 }, 0),
]));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_status_counts_results_drawn_apart_from_those_folded_behind_them():
    """A visitor read "showing the best 17" above 10 results, 7 of them folded behind "N more like this"."""
    assert _node(STATUS) == [
        "1,112 results for ‘house prices’, showing the best 10, with 7 similar ones grouped under them",
        "1,112 results for ‘house prices’, showing the best 10",
        "1,112 results for ‘house prices’, showing the best 10, with 1 similar one grouped under them",
        "17 results for ‘house prices’",
    ]


def _node(script: str) -> object:
    """What `script`, given results.js's address, prints as JSON."""
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script, RESULTS_JS.as_uri()],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout)


NOTICES = """
// The notes are paragraphs: a node to hold their text is all this test needs of a document.
globalThis.document = { createElement: () => ({ textContent: "", append() {} }) };
const { noticeList } = await import(process.argv[1]);
const results = [{ matchMode: "all_terms" }, { matchMode: "all_terms" }, { matchMode: "any_term" }];
const unplaced = [{ code: "place_not_matched", message: "None of these results is about Leeds." }];
const api = { matchMode: "any_term", reasons: ["type_matches_intent", "kind_asked_for"] };
const council = { matchMode: "any_term", reasons: ["place_council"] };
console.log(JSON.stringify([
  noticeList({ total: 3, match_mode: "all_terms", results, notices: [] }, 0, "", () => ""),
  noticeList({ total: 3, match_mode: "all_terms", results, notices: unplaced }, 0, "", () => ""),
  noticeList({ total: 4, match_mode: "all_terms", results: [api, ...results], notices: [] }, 0, "", () => ""),
  noticeList({ total: 3, match_mode: "fuzzy", results: [{ matchMode: "fuzzy" }], notices: [] }, 0, "", () => ""),
  noticeList({ total: 4, match_mode: "all_terms", results: [results[0], council, ...results.slice(1)], notices: unplaced }, 0, "", () => ""),
].map((messages) => messages.map((message) => message.textContent))));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_results_that_lack_the_place_are_not_said_to_match_all_of_the_words():
    """ "bin collection days Leeds": the first results hold every word but Leeds (a place only
    ranks), and the page said they matched all of the words above "None of these results is about Leeds"."""
    plain, unplaced, _, _, _ = _node(NOTICES)
    assert plain[0] == "The first 2 results match all of your words; the rest match only some of them."
    assert unplaced[0] == "The first 2 results match all of your words but the place; the rest match only some of them."
    assert unplaced[1].startswith("None of these results is about Leeds")


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_an_api_asked_for_that_leads_is_not_counted_among_results_matching_every_word():
    """ "how can i check a vehicle's mot history with an api": the MOT history API leads
    (it lacks "vehicle's"), then the pages holding every word; the note said nothing of either."""
    asked = _node(NOTICES)[2]
    assert asked[0] == (
        "The first result is the kind you asked for, though it matches only some of your words; "
        "the next 2 results match all of your words; the rest match only some of them."
    )


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_close_spellings_are_not_said_to_be_all_there_is():
    """ "council in Nottingam": "council" matched as typed, and "No exact matches" read as false."""
    fuzzy = _node(NOTICES)[3]
    assert fuzzy == ["No record holds all of your words as typed, so these match close spellings of some of them."]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_a_places_council_between_results_matching_every_word_is_not_the_rest():
    """ "edinburgh residents parking permit": the council's own website follows the page that
    sends you to it (reason place_council, matching the place alone); the results after it
    still match every word, so the note counts them with it and says which one does not."""
    council = _node(NOTICES)[4]
    assert council[0] == (
        "The first 3 results match all of your words but the place, except the council's own website; "
        "the rest match only some of them."
    )
