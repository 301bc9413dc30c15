"""Simulated estates of any size, shaped like the real full estate.

Issue 18 asks how the site behaves at ten times the estate we have. No export
that large exists here, so the records are made: each simulated record copies
the *shape* of a real record picked at random (its collection, resource type,
publisher, access status, licence, source kind, dates, how many keywords and
links of which kinds, and how many words its title, summary and body hold),
then fills that shape with words drawn from the estate's own word frequencies,
field by field. Joint distributions (an ONS dataset's length, a council's
catalogue row) therefore follow the real estate, and term statistics follow
its Zipf curve.

A real estate ten times larger would also hold more distinct words (Heaps'
law: V = K n^b). The generator fits K and b on the real text and, once it
has written as many words as the real estate holds, makes new words at the
rate the fit predicts, so the index's vocabulary grows as a real one would.
Each new word is made from a prefix and a suffix of two known words.

Everything is learnt at run time from a built full estate (its record
shards); nothing derived from ../shared/data is kept in this repository.
Output is deterministic for a given seed and model.

    python bench/simulate_estate.py --estate /tmp/full-site --count 100000 --out DIR
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import re
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python_pkg"))

import yaml  # noqa: E402

from govsearch_build.records import Record  # noqa: E402

WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'&.-]*[A-Za-z0-9]|[A-Za-z0-9]")
TEXT_FIELDS = ("title", "summary", "body", "accessNote", "link")
# Structural fields copied from the real record a simulated one is shaped on.
COPIED = (
    "resourceType",
    "publisher",
    "accessStatus",
    "collection",
    "collections",
    "licence",
    "observed",
    "updated",
    "linkSecurity",
)


def words(text: str) -> list[str]:
    return WORD.findall(text or "")


@dataclass
class Shape:
    """What a simulated record copies from one real record: structure, not text."""

    fields: dict[str, Any]
    title: list[str]  # the real title's words (Simulator.series_title varies them)
    source_kind: str
    host: str
    lengths: dict[str, int]  # words in title, summary, body, accessNote
    keywords: int
    links: list[tuple[str, str, int]]  # (kind, host, title words)
    documentation_host: str | None


@dataclass
class Vocabulary:
    """One field's words and their cumulative frequencies, for fast weighted draws."""

    words: list[str]
    cumulative: list[int]

    @classmethod
    def of(cls, counts: Counter) -> Vocabulary:
        ordered = sorted(counts.items(), key=lambda pair: (-pair[1], pair[0]))
        return cls([w for w, _ in ordered], list(itertools.accumulate(n for _, n in ordered)))

    def draw(self, rng: random.Random, k: int) -> list[str]:
        return rng.choices(self.words, cum_weights=self.cumulative, k=k) if self.words else []


@dataclass
class Model:
    shapes: list[Shape]
    vocabularies: dict[str, Vocabulary]
    keywords: Vocabulary  # whole keyword phrases
    heaps_k: float
    heaps_b: float
    real_tokens: int
    real_records: int
    stems: list[str] = field(default_factory=list)  # words of 6+ letters, for new words

    def summary(self) -> dict[str, Any]:
        return {
            "learnt_from_records": self.real_records,
            "real_tokens": self.real_tokens,
            "heaps_k": round(self.heaps_k, 3),
            "heaps_b": round(self.heaps_b, 4),
            "vocabulary": {name: len(v.words) for name, v in self.vocabularies.items()},
            "keyword_phrases": len(self.keywords.words),
        }


def read_estate(site: Path) -> Iterator[dict[str, Any]]:
    """The records a built site stores (its record shards, or its one-file record store)."""
    data = site / "data"
    files = sorted((data / "records").glob("*.json")) or sorted(data.glob("records.*.json"))
    if not files:
        raise SystemExit(
            f"{site} holds no built records (data/records/ or data/records.*.json): build the full estate first"
        )
    for path in files:
        yield from json.loads(path.read_text("utf-8"))["records"]


def learn(records: Iterable[dict[str, Any]]) -> Model:
    """Field distributions, vocabularies and the vocabulary growth of `records`."""
    shapes: list[Shape] = []
    counts = {name: Counter() for name in TEXT_FIELDS}
    phrases: Counter = Counter()
    seen: set[str] = set()
    growth: list[tuple[int, int]] = []  # (tokens so far, distinct words so far)
    tokens = 0
    for record in records:
        texts = {
            "title": words(record["title"]),
            "summary": words(record["summary"]),
            "body": words(record.get("body", "")),
            "accessNote": words(record.get("accessNote", "")),
        }
        link_words = [words(link["title"]) for link in record.get("links", [])]
        for name, found in texts.items():
            counts[name].update(found)
        for found in link_words:
            counts["link"].update(found)
        phrases.update(record.get("keywords", []))
        for found in itertools.chain(texts.values(), link_words):
            tokens += len(found)
            seen.update(word.lower() for word in found)
        growth.append((tokens, len(seen)))
        shapes.append(_shape(record, texts, link_words))
    if not shapes:
        raise ValueError("no records to learn from")
    heaps_k, heaps_b = _fit_heaps(growth)
    stems = sorted(w for w in seen if len(w) >= 6 and w.isalpha())
    return Model(
        shapes,
        {name: Vocabulary.of(c) for name, c in counts.items()},
        Vocabulary.of(phrases),
        heaps_k,
        heaps_b,
        tokens,
        len(shapes),
        stems,
    )


def _shape(record: dict[str, Any], texts: dict[str, list[str]], link_words: list[list[str]]) -> Shape:
    fields = {name: record[name] for name in COPIED if name in record}
    documentation = record.get("documentationUrl")
    return Shape(
        fields=fields,
        title=texts["title"],
        source_kind=record.get("source", {}).get("kind", "curated"),
        host=urlsplit(record["url"]).hostname or "www.gov.uk",
        lengths={name: len(found) for name, found in texts.items()},
        keywords=len(record.get("keywords", [])),
        links=[
            (link["kind"], urlsplit(link["url"]).hostname or "www.gov.uk", len(found))
            for link, found in zip(record.get("links", []), link_words)
        ],
        documentation_host=urlsplit(documentation).hostname if documentation else None,
    )


def _fit_heaps(growth: list[tuple[int, int]]) -> tuple[float, float]:
    """K and b of V = K n^b, by least squares on log-log points from a tenth of the text on."""
    points = [(math.log(n), math.log(v)) for n, v in growth[len(growth) // 10 :] if n > 0 and v > 0]
    if len(points) < 2:
        return 1.0, 0.5
    mean_x = sum(x for x, _ in points) / len(points)
    mean_y = sum(y for _, y in points) / len(points)
    spread = sum((x - mean_x) ** 2 for x, _ in points) or 1.0
    b = sum((x - mean_x) * (y - mean_y) for x, y in points) / spread
    return math.exp(mean_y - b * mean_x), b


class Simulator:
    """Writes `count` records shaped like the model's estate; deterministic per seed."""

    def __init__(self, model: Model, seed: int = 18, title_kept: float | None = None):
        self.model = model
        self.title_kept = title_kept  # None: titles drawn word by word, like every other text
        self.rng = random.Random(seed)
        self.tokens = 0  # words written so far, for the vocabulary growth
        self.new_words = 0

    def records(self, count: int) -> Iterator[Record]:
        for number in range(count):
            yield self.record(number)

    def record(self, number: int) -> Record:
        rng, shape = self.rng, self.rng.choice(self.model.shapes)
        record_id = f"sim-{number:07d}"
        if self.title_kept is None:
            title = self.text("title", max(1, shape.lengths["title"]), sentence=False)[:300]
        else:
            title = self.series_title(shape)[:300]
        data: dict[str, Any] = {
            "id": record_id,
            "title": title,
            "summary": self.text("summary", max(3, shape.lengths["summary"]))[:2000],
            "url": f"{'http' if 'linkSecurity' in shape.fields else 'https'}://{shape.host}/{_slug(title)}-{number}",
            **{
                name: value
                for name, value in shape.fields.items()
                if name in ("resourceType", "publisher", "accessStatus", "collection")
            },
        }
        for name in ("licence", "observed", "updated", "linkSecurity", "collections"):
            if name in shape.fields:
                data[name] = shape.fields[name]
        if shape.lengths["accessNote"]:
            data["accessNote"] = self.text("accessNote", shape.lengths["accessNote"])[:1000]
        if shape.keywords:
            data["keywords"] = sorted(set(self.model.keywords.draw(rng, shape.keywords)))[:30]
        if shape.documentation_host:
            data["documentationUrl"] = f"https://{shape.documentation_host}/docs/{record_id}"
        if shape.links:
            data["links"] = [
                {
                    "title": self.text("link", max(1, size), sentence=False)[:300],
                    "url": f"https://{host}/{record_id}/{position}",
                    "kind": kind,
                }
                for position, (kind, host, size) in enumerate(shape.links[:40])
            ]
        data["source"] = {"kind": shape.source_kind if shape.source_kind != "curated" else "simulated"}
        body = self.body(shape.lengths["body"])
        return Record(data=data, body=body, file=f"{data['collection']}/{record_id}.md")

    def text(self, name: str, count: int, sentence: bool = True) -> str:
        return self._written(
            [self._maybe_new(word) for word in self.model.vocabularies[name].draw(self.rng, count)], sentence
        )

    def _written(self, drawn: list[str], sentence: bool) -> str:
        """Words as text: counted for the vocabulary growth, the first capitalised, a sentence ended by a full stop."""
        self.tokens += len(drawn)
        if not drawn:
            return "Simulated record"
        text = " ".join(drawn)
        return text[0].upper() + text[1:] + ("." if sentence else "")

    def series_title(self, shape: Shape) -> str:
        """The real title's words, each kept with probability `title_kept`, else
        one drawn from the title vocabulary: titles in series (editions, places,
        months of one publication), as a real estate has them. An experiment
        (docs/startup.md, session 13): at the real estate's size, 0.8 gives its
        results' locality (row shards per result, bench/locality.py); at
        300,000 records it makes the real estate's common title words ~28
        times as common, which no estate ten times larger would be."""
        if not shape.title:
            return self.text("title", 1, sentence=False)
        vocabulary = self.model.vocabularies["title"]
        kept = [
            word if self.rng.random() < self.title_kept else vocabulary.draw(self.rng, 1)[0] for word in shape.title
        ]
        return self._written([self._maybe_new(word) for word in kept], sentence=False)

    def body(self, count: int) -> str:
        """Paragraphs of sentences of 8 to 25 words."""
        paragraphs, left = [], count
        while left > 0:
            sentences = []
            for _ in range(self.rng.randint(2, 5)):
                size = min(left, self.rng.randint(8, 25))
                if size <= 0:
                    break
                sentences.append(self.text("body", size))
                left -= size
            paragraphs.append(" ".join(sentences))
        return "\n\n".join(paragraphs)

    def _maybe_new(self, word: str) -> str:
        """Past the real estate's size, replace a word by a new one at Heaps' law's rate (dV/dn = K b n^(b-1))."""
        model = self.model
        if self.tokens <= model.real_tokens or not model.stems:
            return word
        rate = model.heaps_k * model.heaps_b * self.tokens ** (model.heaps_b - 1)
        if self.rng.random() >= rate:
            return word
        self.new_words += 1
        first, second = self.rng.choice(model.stems), self.rng.choice(model.stems)
        return first[: self.rng.randint(3, len(first) - 2)] + second[self.rng.randint(2, len(second) - 3) :]


def _slug(title: str) -> str:
    return "-".join(word.lower() for word in words(title)[:8]) or "record"


def to_markdown(record: Record) -> str:
    """records.record_to_markdown's text, written with libyaml when present (four times faster at 300,000 records)."""
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    head = yaml.dump(record.data, Dumper=dumper, sort_keys=False, allow_unicode=True, width=1000)
    return f"---\n{head}---\n" + (record.body.strip("\n") + "\n" if record.body.strip() else "")


def write_markdown(records: Iterable[Record], content_dir: Path) -> int:
    """Write each record as the Markdown file the build reads (one folder per collection); returns the count."""
    written = 0
    for record in records:
        path = content_dir / record.file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(to_markdown(record), "utf-8")
        written += 1
    return written


def site_config(content_dir: Path, target: Path, template: Path = ROOT / "site" / "full-estate.toml") -> Path:
    """The full estate's configuration (hosts, collections, search vocabulary) over the simulated content, without sources."""
    text = template.read_text("utf-8")
    text = re.split(r"(?m)^\[\[sources\]\]", text)[0]
    text = re.sub(r"(?m)^(sources_dir|sources_lock|annotations_dir)\s*=.*\n", "", text)
    text, replaced = re.subn(
        r"(?m)^content_dir\s*=.*$", f"content_dir = {json.dumps(str(content_dir.resolve()))}", text
    )
    if replaced != 1:
        raise RuntimeError(f"{template} has no single content_dir line")
    target.write_text(text, "utf-8")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--estate", required=True, help="a built full-estate site to learn from")
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--out", required=True, help="folder for content/ and site.toml")
    parser.add_argument("--seed", type=int, default=18)
    options = parser.parse_args(argv)
    model = learn(read_estate(Path(options.estate)))
    out = Path(options.out)
    simulator = Simulator(model, options.seed)
    written = write_markdown(simulator.records(options.count), out / "content")
    site_config(out / "content", out / "site.toml")
    print(json.dumps({"records": written, "new_words": simulator.new_words, "model": model.summary()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
