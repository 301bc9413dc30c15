"""Automated accessibility checks with axe-core (from node_modules, injected by the test)."""

from __future__ import annotations

import pytest

from browserkit import REPO

AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"


@pytest.mark.parametrize("path", ["#q=vat", "records/companies-house-api/", "collections/land-registry/", "browse/", "accessibility/"])
def test_no_serious_axe_violations(open_page, path):
    if not AXE.exists():
        pytest.skip("axe-core is not installed")
    # The test injects axe as an inline script, which the page's CSP rightly forbids.
    page, guard = open_page(path, bypass_csp=True)
    if path.startswith("#"):
        page.wait_for_selector("#search-results li", timeout=90_000)
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("() => axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa']}})")
    serious = [
        f"{violation['id']} ({violation['impact']}): {[node['target'] for node in violation['nodes']][:5]}"
        for violation in result["violations"]
        if violation["impact"] in ("serious", "critical")
    ]
    assert not serious, serious
