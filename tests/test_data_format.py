"""The data layout's codecs and path scheme (govsearch/data_format.py), and a
built sharded site that keeps to them: the build writes with the same
definitions the runtime reads with."""

import json
import random
from pathlib import Path

from govsearch.data_format import (
    MANIFEST,
    POSTING_FIELDS,
    POSTING_TERM_INDEX,
    SHARDED,
    code_width,
    decode_codes,
    decode_column,
    decode_gaps,
    encode_codes,
    encode_gaps,
    listed_shard_path,
    page_folder,
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


def test_record_gaps_round_trip():
    numbers = sorted(random.Random(7).sample(range(100_000), 500))
    gaps = encode_gaps(numbers)
    assert gaps[0] == numbers[0] and min(gaps[1:]) > 0
    assert decode_gaps(gaps) == numbers
    assert encode_gaps([]) == [] and decode_gaps([]) == []


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
