import json

from govsearch_build.importers.cli import main
from govsearch_build.records import load_content


def test_cli_writes_records_the_loader_reads_back(tmp_path, fixtures, capsys):
    out = tmp_path / "out"
    code = main(
        [
            "api-catalogue",
            str(fixtures / "api-catalogue"),
            "--out",
            str(out),
            "--organisations",
            str(fixtures / "govuk-organisations" / "orgs.json"),
        ]
    )
    assert code == 0
    report = json.loads((out / "import-report.json").read_text())
    assert report["kind"] == "api-catalogue" and report["rejections"]
    loaded = load_content(out)
    assert loaded.rejected == []
    assert len(loaded.records) == report["built"]
    assert (out / "government-apis" / "apic-alpha-tax.md").exists()
    assert "api-catalogue" in capsys.readouterr().out


def test_cli_collection_override(tmp_path, fixtures):
    out = tmp_path / "o"
    assert main(["okf-hmlr-csv", str(fixtures / "okf-hmlr"), "--out", str(out), "--collection", "deep-evidence"]) == 0
    assert {p.parent.name for p in out.rglob("*.md")} == {"deep-evidence"}
    assert load_content(out).rejected == []


def test_cli_usage_errors(tmp_path, fixtures):
    assert main([]) == 2
    assert main(["nope", str(fixtures)]) == 2
    assert main(["okf-hmlr-csv", str(tmp_path / "missing")]) == 2
    assert main(["okf-hmlr-csv", str(fixtures / "okf-hmlr"), "--collection", "nowhere"]) == 2
