"""The data layout's codecs and path scheme (govsearch/format/), and a
built sharded site that keeps to them: the build writes with the same
definitions the runtime reads with."""

import json
import random
from pathlib import Path

import pytest

from govsearch.format import (
    MANIFEST,
    POSTING_FIELDS,
    POSTING_TERM_INDEX,
    SHARDED,
    code_width,
    column_length,
    decode_codes,
    decode_column,
    decode_gaps,
    decode_profile_codes,
    decode_vocabulary,
    encode_codes,
    encode_column,
    encode_gaps,
    encode_profile_codes,
    encode_vocabulary,
    listed_shard_path,
    page_folder,
    profile_code_shape,
)
from govsearch_build.config import load_config
from govsearch_build.data_writer import write_data
from govsearch_build.records import load_content

REPO = Path(__file__).resolve().parents[1]


def test_codes_round_trip_at_every_width_boundary():
    for count in (1, 64, 65, 4096, 4097):
        width = code_width(count)
        assert 64**width >= count and (width == 1 or 64 ** (width - 1) < count)
        codes = [0, count - 1, *random.Random(count).choices(range(count), k=200)]
        text = encode_codes(codes, width)
        assert len(text) == width * len(codes)
        assert decode_codes(text, width) == codes


def test_profile_codes_round_trip_and_spend_one_digit_on_the_commonest():
    for profiles in (1, 64, 65, 1836, 4095, 4096, 4097, 64**3):
        one, width = profile_code_shape(profiles)
        assert one + (64 - one) * 64 ** (width - 1) >= profiles  # every profile has a code
        assert one in (63, 64) or one + 1 + (63 - one) * 64 ** (width - 1) < profiles  # and no more one-digit codes fit
        codes = [0, profiles - 1, *random.Random(profiles).choices(range(profiles), k=300)]
        text = encode_profile_codes(codes, one, width)
        assert len(text) == len(codes) + sum(width - 1 for code in codes if code >= one)
        assert decode_profile_codes(text, len(codes), one, width) == codes
    assert profile_code_shape(1836) == (35, 2)  # the 35 commonest of 1,836 profiles in one character


def test_profile_codes_of_the_wrong_length_are_refused():
    one, width = profile_code_shape(1836)
    text = encode_profile_codes([0, 40, 1835], one, width)
    for wrong in (text[:-1], text + "0"):
        with pytest.raises(ValueError):
            decode_profile_codes(wrong, 3, one, width)


def test_the_vocabulary_round_trips_front_coded():
    terms = sorted({"a", "ab", "abc", "abd", "b", "é_group", "x" * 70, "x" * 70 + "y", "x" * 64 + "z", "2024", "20241"})
    text = encode_vocabulary(terms)
    assert decode_vocabulary(text) == terms
    assert len(text) < sum(map(len, terms)) + len(terms)  # shared beginnings are written once
    assert decode_vocabulary(encode_vocabulary([])) == []
    with pytest.raises(ValueError):
        encode_vocabulary(["two words"])


def test_record_gaps_round_trip():
    numbers = sorted(random.Random(7).sample(range(100_000), 500))
    gaps = encode_gaps(numbers)
    assert gaps[0] == numbers[0] and min(gaps[1:]) > 0
    assert decode_gaps(gaps) == numbers
    assert encode_gaps([]) == [] and decode_gaps([]) == []


def test_a_column_round_trips_to_the_floats_json_would_read():
    """Postings columns are strings decoded only when read: each weight must be
    the very float a JSON list of the same weights gives (lunr's scores depend on it)."""
    rng = random.Random(8)
    numbers = sorted(rng.sample(range(300_000), 2_000))
    weights = [round(rng.uniform(0, 60), 3) for _ in numbers] + [1e-05, 0.1 + 0.2]
    numbers += [300_001, 300_002]
    column = json.loads(json.dumps(encode_column(numbers, weights)))
    assert all(isinstance(part, str) for part in column) and column_length(column) == len(numbers)
    decoded_numbers, decoded_weights = decode_column(column)
    assert decoded_numbers == numbers
    assert decoded_weights == json.loads(json.dumps(weights))
    assert all(a.hex() == b.hex() for a, b in zip(decoded_weights, weights))  # bit for bit
    assert decode_column(encode_column([], [])) == ([], []) and column_length(encode_column([], [])) == 0
    assert decode_column(encode_column([5], [2.5])) == ([5], [2.5]) and column_length(encode_column([5], [2.5])) == 1


def test_a_built_sharded_site_keeps_to_the_layout(tmp_path):
    records = load_content(REPO / "tests" / "fixtures" / "corpus").records
    data = tmp_path / "data"
    manifest = write_data(load_config(REPO / "site" / "site.toml"), records, data, layout=SHARDED)
    assert json.loads((data / MANIFEST).read_bytes()) == manifest and (data / manifest["tools"]["path"]).is_file()
    directory = json.loads((data / manifest["files"]["directory"]["path"]).read_bytes())
    for kind in ("records", "rows"):
        listing = directory[kind]
        hashes = [
            sha
            for page, digest in enumerate(listing["pages"])
            for sha in json.loads((data / listed_shard_path(page_folder(kind), page, digest)).read_bytes())["sha256"]
        ]
        assert len(hashes) == listing["shards"] and all(
            (data / listed_shard_path(kind, number, sha)).is_file() for number, sha in enumerate(hashes)
        )
    page = json.loads(
        (data / listed_shard_path(page_folder("postings"), 0, directory["postings"]["pages"][0])).read_bytes()
    )
    assert page["first"][0] == directory["postings"]["first"][0]
    shard = json.loads((data / listed_shard_path("postings", 0, page["sha256"][0])).read_bytes())
    for posting in shard["terms"].values():
        assert isinstance(posting[POSTING_TERM_INDEX], int)
        for column in posting[POSTING_FIELDS].values():
            numbers, weights = decode_column(column)
            assert numbers == sorted(set(numbers)) and len(numbers) == len(weights)
