from pathlib import Path

import pytest

from govsearch_build.publishers import PublisherAuthority

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "importers"
SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data"


@pytest.fixture(scope="session")
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture(scope="session")
def authority() -> PublisherAuthority:
    return PublisherAuthority.from_govuk_json(FIXTURES / "govuk-organisations" / "orgs.json")


@pytest.fixture(scope="session")
def shared() -> Path:
    if not (SHARED / "SOURCES.md").exists():
        pytest.skip("../shared/data is not present on this machine")
    return SHARED


@pytest.fixture(scope="session")
def real_authority(shared) -> PublisherAuthority:
    return PublisherAuthority.from_govuk_json(shared / "govuk-organisations" / "gov.uk_api_organisations.json")
