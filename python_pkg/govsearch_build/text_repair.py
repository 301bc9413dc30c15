"""Repairs to imported text that make it say what its source meant: garbled
characters decoded once (`mojibake-repaired`), a word repeated at once written
once (`repeated-words`)."""

from __future__ import annotations

import re

# --- mojibake -------------------------------------------------------------
# cp1252 gives these characters to bytes 0x80-0x9f; Latin-1 gives C1 controls.
_CP1252 = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ"
_CP1252_BYTES = {
    char: bytes([byte])
    for char, byte in zip(
        _CP1252,
        b"\x80\x82\x83\x84\x85\x86\x87\x88\x89\x8a\x8b\x8c\x8e\x91\x92\x93\x94\x95\x96\x97\x98\x99\x9a\x9b\x9c\x9e\x9f",
    )
}
_CONTINUATION = "[\u0080-\u00bf" + re.escape(_CP1252) + "]"
_MOJIBAKE = re.compile(f"[\u00c2-\u00f4]{_CONTINUATION}{{1,3}}")


def _as_bytes(text: str) -> bytes:
    return b"".join(_CP1252_BYTES.get(char) or bytes([ord(char)]) for char in text)


def repair_mojibake(text: str) -> str:
    """UTF-8 that was decoded as Latin-1 or cp1252, decoded once; anything else unchanged.

    Only a whole UTF-8 sequence is replaced, so genuine accented text
    ("café", "Ynys Môn") is left alone.
    """
    if not _MOJIBAKE.search(text):
        return text

    def fix(match: re.Match[str]) -> str:
        try:
            return _as_bytes(match.group()).decode("utf-8")
        except UnicodeDecodeError:
            return match.group()

    return _MOJIBAKE.sub(fix, text)


# --- repeated words -------------------------------------------------------
_REPEATED = re.compile(r"\b([A-Za-z]{2,})(?:\s+\1\b)+", re.IGNORECASE)


def collapse_repeats(text: str) -> str:
    """ "KADOE API API" -> "KADOE API": a word repeated at once is written once."""
    return _REPEATED.sub(r"\1", text)
