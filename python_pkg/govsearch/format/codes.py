"""Base-64 codes: fixed-width (facet profiles' values and flags) and the
prefix code of each record's profile; the facets file's table built from them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import compress
from typing import Any

from . import keys

CODE_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"
_CODE_BYTES = bytes.maketrans(CODE_ALPHABET.encode(), bytes(range(64)))
_DIGIT_CHARS = bytes.maketrans(bytes(range(64)), CODE_ALPHABET.encode())


def code_width(count: int) -> int:
    """Base-64 characters needed to give each of `count` values its own code."""
    width = 1
    while count > 64**width:
        width += 1
    return width


def encode_codes(codes: Iterable[int], width: int) -> str:
    """Fixed-width base-64 codes, concatenated."""
    return "".join(_base64(code, width) for code in codes)


def _base64(number: int, width: int) -> str:
    digits = []
    for _ in range(width):
        number, digit = divmod(number, 64)
        digits.append(CODE_ALPHABET[digit])
    return "".join(reversed(digits))


def decode_codes(text: str, width: int) -> list[int]:
    """The codes encode_codes wrote, in order."""
    digits = text.encode("ascii").translate(_CODE_BYTES)
    codes = list(digits[0::width])
    for place in range(1, width):
        codes = [code * 64 + digit for code, digit in zip(codes, digits[place::width])]
    return codes


def profile_code_shape(profiles: int) -> tuple[int, int]:
    """(one, width) of the prefix code for `profiles` profiles, numbered
    commonest first: profiles below `one` take one digit, the rest `width`
    digits whose first is at least `one` (as many one-digit codes as fit)."""
    width = code_width(profiles)
    if width == 1:
        return 64, 1
    return min(63, (64**width - profiles) // (64 ** (width - 1) - 1)), width


def encode_profile_codes(codes: Sequence[int], one: int, width: int) -> str:
    """Every code's first digit, then the other digits of the codes from `one` up."""
    span = 64 ** (width - 1)  # codes behind each first digit from `one` up
    first = bytes(code if code < one else one + (code - one) // span for code in codes)
    rest = [_base64((code - one) % span, width - 1) for code in codes if code >= one]
    return first.translate(_DIGIT_CHARS).decode("ascii") + "".join(rest)


def decode_profile_codes(text: str, count: int, one: int, width: int) -> list[int]:
    """The `count` codes encode_profile_codes wrote."""
    digits = text.encode("ascii").translate(_CODE_BYTES)
    codes = list(digits[:count])
    longer = list(compress(range(count), map(one.__le__, codes)))
    rest = digits[count:]
    if len(codes) != count or len(rest) != len(longer) * (width - 1):
        raise ValueError(f"profile codes of {len(text)} characters do not hold {count} records")
    low = [0] * len(longer)
    for place in range(width - 1):
        low = [value * 64 + digit for value, digit in zip(low, rest[place :: width - 1])]
    span = 64 ** (width - 1)
    for at, value in zip(longer, low):
        codes[at] = one + (codes[at] - one) * span + value
    return codes


def profile_table(
    columns: Mapping[str, tuple[list[Any], list[int]]], flags: Sequence[int], per_chunk: int | None = None
) -> tuple[dict[str, Any], list[str], list[int]]:
    """The facets file's content from every record's value code per field
    (field -> (values, codes by record number)) and flag mask; when
    `per_chunk` is given, the records' profile codes chunk by chunk (written
    as separate files, whose hashes the caller adds as records.sha256); and
    each record's profile."""
    fields = list(columns)
    profile_keys = list(zip(*(columns[field][1] for field in fields), flags))
    counts = Counter(profile_keys)
    order = sorted(counts, key=lambda key: (-counts[key], key))
    profile = {key: number for number, key in enumerate(order)}
    widths = {field: code_width(len(columns[field][0])) for field in fields}
    table = {
        keys.COLUMNS: {field: {keys.VALUES: columns[field][0]} for field in fields},
        keys.PROFILES: {
            keys.WIDTHS: widths,
            keys.CODES: {
                field: encode_codes((key[at] for key in order), widths[field]) for at, field in enumerate(fields)
            },
            keys.FLAGS: encode_codes((key[-1] for key in order), 1),
            keys.RECORDS: [counts[key] for key in order],
        },
    }
    one, width = profile_code_shape(len(order))
    codes = [profile[key] for key in profile_keys]
    records: dict[str, Any] = {keys.COUNT: len(codes), keys.ONE: one, keys.WIDTH: width}
    table[keys.RECORDS] = records
    if per_chunk is None:
        records[keys.CODES] = encode_profile_codes(codes, one, width)
        return table, [], codes
    records[keys.PER_CHUNK] = per_chunk
    chunks = [
        encode_profile_codes(codes[start : start + per_chunk], one, width) for start in range(0, len(codes), per_chunk)
    ]
    return table, chunks, codes
