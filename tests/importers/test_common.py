import json

import pytest

from govsearch_build.importers import KINDS, run_import
from govsearch_build.importers.cleaning import LIMITS, MAX_ALIASES, MAX_ID, MAX_KEYWORDS, MAX_LINKS
from govsearch_build.importers.common import make_id, plain_text, trim
from govsearch_build.publishers import PublisherAuthority, loose_key
from govsearch_build.records import record_schema


def test_plain_text_escapes_markup_and_spaces():
    assert plain_text("A\\n\\n- **bold** <b>x</b> [link](https://e.g/x) `code`") == "A - bold x link code"
    assert plain_text("Ends with a source ellipsis…") == "Ends with a source ellipsis…"
    assert plain_text("Roads &amp;amp; bridges &amp; tunnels") == "Roads & bridges & tunnels"  # escaped twice at source


def test_trim_at_word_boundary_with_ellipsis():
    text, cut = trim("alpha beta gamma delta", 14)
    assert cut and text == "alpha beta…" and len(text) <= 14
    assert trim("short", 10) == ("short", False)


def test_make_id_is_slug_and_hash_suffixed_when_long():
    assert make_id("apic", "GOV.UK Notify") == "apic-gov-uk-notify"
    long_id = make_id("okf", "x" * 300)
    assert len(long_id) <= 120 and long_id == make_id("okf", "x" * 300)
    assert long_id != make_id("okf", "x" * 299)


def test_the_importers_limits_are_the_record_schemas():
    # an importer that trims to more than the schema allows makes records the build rejects
    fields = record_schema()["properties"]
    assert {name: fields[name]["maxLength"] for name in LIMITS} == LIMITS
    assert fields["id"]["maxLength"] == MAX_ID
    assert [fields[name]["maxItems"] for name in ("keywords", "links", "alsoKnownAs")] == [
        MAX_KEYWORDS,
        MAX_LINKS,
        MAX_ALIASES,
    ]


def test_authority_resolves_spellings(authority):
    assert authority.resolve("HM Revenue and Customs") == "HM Revenue & Customs"  # alias table
    assert authority.resolve("HM Revenue Customs") == "HM Revenue & Customs"  # loose key
    assert authority.resolve("hm-revenue-customs") == "HM Revenue & Customs"  # slug
    assert authority.resolve("https://www.gov.uk/government/organisations/land-registry") == "HM Land Registry"
    assert authority.resolve("ONS") == "Office for National Statistics"  # abbreviation
    assert authority.resolve("OEB") == "Odd Status Unit"  # shared abbreviation: the only open one
    assert authority.resolve("Nobody at all") is None
    assert loose_key("The Department & Co.") == "department co"


def test_ambiguous_abbreviation_prefers_the_only_open_one():
    results = [
        {"title": "Office of Rail and Road", "details": {"abbreviation": "ORR", "govuk_status": "live", "slug": "orr"}},
        {
            "title": "Office of Rail Regulation",
            "details": {"abbreviation": "ORR", "govuk_status": "closed", "slug": "orr-old"},
        },
        {"title": "Science Council", "details": {"abbreviation": "SC", "govuk_status": "live", "slug": "sc1"}},
        {"title": "Sentencing Council", "details": {"abbreviation": "SC", "govuk_status": "live", "slug": "sc2"}},
    ]
    authority = PublisherAuthority.from_results(results, aliases={})
    assert authority.resolve("ORR") == "Office of Rail and Road"
    assert authority.resolve("SC") is None
    assert "abbreviation:SC" in authority.ambiguous


def test_unknown_kind_raises():
    assert "okf-hmlr-csv" in KINDS and len(KINDS) == 6
    with pytest.raises(ValueError):
        run_import("nope", [])


@pytest.mark.parametrize(
    "kind,folder",
    [
        ("api-catalogue", "api-catalogue"),
        ("govuk-organisations", "govuk-organisations"),
        ("okf-search-shards", "okf-shards"),
        ("okf-hmlr-csv", "okf-hmlr"),
        ("okf-uk-living", "okf-living"),
        ("okf-markdown", "okf-living/services"),
    ],
)
def test_reports_are_json_and_account_for_inputs(kind, folder, fixtures, authority):
    from helpers import assert_accounted, assert_all_valid

    result = run_import(kind, [fixtures / folder], authority=authority, revision="abc1234", observed="2026-07-01")
    json.dumps(result.report)
    for key in (
        "kind",
        "inputs",
        "built",
        "rejected",
        "left_out",
        "unmapped",
        "unmatched_publishers",
        "duplicates_merged",
        "duplicates",
    ):
        assert key in result.report
    assert_accounted(result)
    assert_all_valid(result)
    assert all(r.data["source"]["revision"] == "abc1234" for r in result.records)
    assert result.records
