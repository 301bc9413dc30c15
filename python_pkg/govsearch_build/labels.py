"""Display words for the records' machine values, shown on every page and
passed to the search page's script."""

from __future__ import annotations

from typing import NamedTuple

from govsearch.tool_schemas import ACCESS_STATUSES as ACCESS_TOKENS
from govsearch.tool_schemas import RESOURCE_TYPES as TYPE_TOKENS

# Display words for the schema's tokens (govsearch.tool_schemas), in the
# schema's order; a token the schema gains without a label here fails the build.
_TYPE_LABELS = {
    "govuk-content": "GOV.UK content",
    "dataset": "Dataset",
    "api": "API",
    "api-documentation": "API documentation",
    "catalogue-record": "Catalogue record",
    "organisation": "Organisation",
    "guidance": "Guidance",
}
RESOURCE_TYPES = {token: _TYPE_LABELS[token] for token in TYPE_TOKENS}


class _Access(NamedTuple):
    label: str
    description: str  # what it means, on its browse page
    tag: str  # its tag's colour


_ACCESS = {
    "public": _Access("Public", "Anyone can use these resources without signing up.", "govuk-tag--green"),
    "restricted": _Access("Restricted", "Use is limited to eligible people or organisations.", "govuk-tag--red"),
    "authentication-required": _Access(
        "Authentication required",
        "You need an account, key or sign-in to use these resources.",
        "govuk-tag--yellow",
    ),
    "access-not-established": _Access(
        "Access not established",
        "We have not yet established how these resources can be accessed.",
        "govuk-tag--grey",
    ),
    "not-applicable": _Access(
        "Not applicable",
        "Access conditions do not apply, for example to an organisation's page.",
        "govuk-tag--grey",
    ),
}
ACCESS_STATUSES = {token: _ACCESS[token].label for token in ACCESS_TOKENS}
ACCESS_DESCRIPTIONS = {token: access.description for token, access in _ACCESS.items()}
ACCESS_TAG_COLOURS = {token: access.tag for token, access in _ACCESS.items()}
