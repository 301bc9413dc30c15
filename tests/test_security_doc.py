"""SECURITY.md links every claim to the tests that check it, and each link
still leads to a file and a test that exist (a renamed test fails here, not
in a reader's hands)."""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\[`([^`\]]+)`\]\(([^)\s]+)\)")


def claims() -> list[tuple[str, str]]:
    """(claim, checked by) for each row of the claims table."""
    rows = []
    for line in (REPO / "SECURITY.md").read_text("utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")] if line.startswith("| ") else []
        if len(cells) == 2 and cells[0] != "claim":
            rows.append((cells[0], cells[1]))
    return rows


def test_every_claim_links_a_test_that_exists():
    rows = claims()
    assert len(rows) >= 10, "the claims table was not found"
    for claim, checked_by in rows:
        links = LINK.findall(checked_by)
        assert links, f"no linked test for: {claim[:80]}"
        for label, target in links:
            path = REPO / target
            assert path.is_file(), (claim[:60], target)
            assert label.split("::")[0] == target, (label, target)
            if "::" in label:
                name = label.split("::")[1]
                assert re.search(rf"^def {re.escape(name)}\(", path.read_text("utf-8"), re.M), (target, name)
