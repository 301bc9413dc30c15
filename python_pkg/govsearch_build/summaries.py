"""What a summary says: text that only stands where a description should be
(`placeholder-text-absent`, `title-repeat-absent`), and the licence and open
access a description states (`licence-from-description`)."""

from __future__ import annotations

import re

from .titles import WORD

# --- text that stands in for a summary ----------------------------------------
# What exports write where a description should be: a template never filled in
# ("{{description}}"), a null serialised as text, or words saying there is none.
_PLACEHOLDER = re.compile(
    r"^(?:\{\{[^{}]*\}\}|null|none|nil|n/?a|tbc|tbd|-+|\.+|no description(?: provided| available)?|description)$",
    re.IGNORECASE,
)
# The summaries the importers write when a row has none (see each importer's table).
_GENERATED = re.compile(
    r"^(?:Official page from [^.]+\.|.+ from .+, listed in [^.]+\.|.+ listed in the UK government API catalogue\.)$"
)


def is_placeholder(text: str) -> bool:
    """True for text that only stands where a description should be: "{{description}}",
    "null", "no description", punctuation alone, or nothing."""
    return bool(_PLACEHOLDER.match(text.strip().strip("\"'"))) or not text.strip()


def repeats_title(summary: str, title: str) -> bool:
    """True when a summary says nothing but the title again (case, spacing and a full stop aside)."""
    return comparable(summary) == comparable(title)


def comparable(text: str) -> str:
    return " ".join(WORD.findall(text.lower()))


def is_stand_in_summary(summary: str, title: str) -> bool:
    """A summary no person wrote about the resource: a placeholder, the title again,
    or one the importers write when the row has none."""
    return is_placeholder(summary) or repeats_title(summary, title) or bool(_GENERATED.match(summary))


# --- access and licence stated in a description -----------------------------------
_OGL_STATED = re.compile(
    r"\bOpen Government Licen[cs]e\b(?:\s*\(OGL\))?(?:\s*(?:v|version\s*)(\d(?:\.\d)?))?", re.IGNORECASE
)
_NO_REGISTRATION = re.compile(
    r"\b(?:no (?:requirement|need) (?:for|to) regist\w*|without (?:the need to )?regist\w*|no registration|no (?:api )?key (?:is )?(?:required|needed))\b",
    re.IGNORECASE,
)


def stated_terms(text: str) -> tuple[str | None, bool]:
    """(the licence a description states, whether it states open access with no
    registration): "provided as open data under the Open Government Licence with no
    requirement for registration" -> ("Open Government Licence", True)."""
    licence = None
    match = _OGL_STATED.search(text)
    if match:
        version = match.group(1)
        licence = f"Open Government Licence v{version}" if version else "Open Government Licence"
    return licence, bool(licence and _NO_REGISTRATION.search(text))
