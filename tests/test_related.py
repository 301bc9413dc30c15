"""Related records are the same on every build: a record page's "more on this
topic" links do not change between two builds of the same records."""

import json
import os
import subprocess
import sys
from pathlib import Path

from govsearch_build.related import MAX_TOPIC, TOPIC_WORDS, related_records

PYTHON_PKG = Path(__file__).resolve().parents[1] / "python_pkg"
LETTERS = "abcdefghijkl"  # more shared words than a record follows (TOPIC_WORDS), all as rare as each other
# One record sharing each of its keywords with one other record of its publisher.
RECORDS = [
    {"id": "hub", "title": "Hub", "publisher": "Council", "keywords": [f"kw{c}" for c in LETTERS]},
    *({"id": f"b-{c}", "title": f"kw{c}", "publisher": "Council", "keywords": []} for c in LETTERS),
]
SCRIPT = (
    "import json, sys; from govsearch_build.related import related_records; "
    "print(json.dumps(related_records(json.load(sys.stdin))['hub'].topic))"
)


def _topic_in_a_new_process(seed: str) -> list[str]:
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(PYTHON_PKG)}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], input=json.dumps(RECORDS), env=env, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def test_topic_links_are_the_same_whatever_the_hash_seed():
    # a set's order follows the hash seed, which differs from one build to the next
    assert len(LETTERS) > TOPIC_WORDS
    found = {tuple(_topic_in_a_new_process(seed)) for seed in ("1", "2", "3", "4")}
    assert len(found) == 1


def test_equally_rare_words_are_followed_in_word_order():
    followed = [f"b-{c}" for c in LETTERS[:TOPIC_WORDS]]
    assert list(related_records(RECORDS)["hub"].topic) == followed[:MAX_TOPIC]
