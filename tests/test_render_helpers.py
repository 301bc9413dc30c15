"""Pages written for people: dates, counts, provenance and publishers A to Z."""

from __future__ import annotations

from pathlib import Path

import pytest

from govsearch_build.config import ConfigError, load_config
from govsearch_build.facets import Facet, by_letter
from govsearch_build.record_page import authorship, provenance_rows
from govsearch_build.template_filters import govuk_date, thousands

REPO = Path(__file__).resolve().parents[1]


def test_dates_are_written_as_gov_uk_writes_them():
    assert govuk_date("2026-07-14") == "14 July 2026"
    assert govuk_date("2026-01-05T10:00:00Z") == "5 January 2026"
    assert govuk_date("2026-03") == "March 2026"
    # Anything that is not a date is shown as it is, never dropped.
    assert govuk_date("2026-13-01") == "2026-13-01"
    assert govuk_date("last spring") == "last spring"


def test_counts_have_thousands_separators():
    assert thousands(37816) == "37,816"
    assert thousands(999) == "999"
    assert thousands("n/a") == "n/a"


def test_a_record_page_says_who_wrote_the_record():
    assert authorship({}) == "curated"
    assert authorship({"kind": "annotated"}) == "annotated"
    assert authorship({"kind": "okf-uk-living"}) == "imported"


def test_provenance_rows_are_plain():
    rows = provenance_rows(
        {
            "kind": "okf-search-shards",
            "file": "okf/results-0.json.gz#234",
            "revision": "0123456789abcdef0123456789abcdef01234567",
            "observed": "2026-07-14",
            "url": "https://example.gov.uk/source",
            "nativeId": "abc-1",
        }
    )
    assert [label for label, _, _ in rows] == [
        "Date of the copy we used",
        "Identifier at the source",
        "Source page",
        "Place in the export",
        "Export version",
    ]
    values = {label: (text, link) for label, text, link in rows}
    assert values["Date of the copy we used"] == ("14 July 2026", None)
    assert values["Export version"] == ("0123456789ab", None)
    assert values["Source page"] == ("https://example.gov.uk/source", "https://example.gov.uk/source")
    # A URL that is not http(s) is text, never a link.
    assert provenance_rows({"url": "javascript:alert(1)"}) == [("Source page", "javascript:alert(1)", None)]


def _facet(label: str) -> Facet:
    return Facet("publishers", label, label.lower(), label, ())


def test_publishers_a_to_z_group_by_first_letter_with_others_last():
    groups = by_letter(
        [
            _facet(name)
            for name in [
                "Zeta Council",
                "alpha Agency",
                "Ördnance Office",
                "3D Council",
                "Aardvark Trust",
                "(Bracketed) Board",
            ]
        ]
    )
    assert [(letter, slug) for letter, slug, _ in groups] == [("A", "a"), ("O", "o"), ("Z", "z"), ("0-9", "other")]
    assert [facet.label for facet in groups[0][2]] == ["alpha Agency", "Aardvark Trust"]
    assert [facet.label for facet in groups[-1][2]] == ["3D Council", "(Bracketed) Board"]


def test_the_contact_link_must_be_a_real_address(tmp_path):
    raw = (REPO / "site" / "site.toml").read_text("utf-8")
    assert load_config(REPO / "site" / "site.toml").contact_url.startswith("https://")
    bad = tmp_path / "site.toml"
    bad.write_text(raw.replace('contact_url = "https://', 'contact_url = "ftp://'), "utf-8")
    with pytest.raises(ConfigError, match="contact_url"):
        load_config(bad)
