"""Skip a test whose tool is missing on a developer's machine, but never in CI.

CI (CI=true) installs everything, so a missing tool there is a broken
install step: the test fails instead of silently not running.
"""

import os

import pytest


def need(present: bool, what: str) -> None:
    if present:
        return
    if os.environ.get("CI"):
        pytest.fail(f"{what} is missing in CI: the install steps are broken")
    pytest.skip(f"{what} is missing (run `make test` to install it)")
