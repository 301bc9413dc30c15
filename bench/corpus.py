"""Benchmark corpora: records sampled from the real exports, or synthetic.

The real pool is the full estate as site/full-estate.toml builds it (our
curated records and annotations, and every source imported with the
project's importers, duplicates merged).
When ../shared/data is absent the pool is generated from bench/vocab.txt.
Sampling is deterministic (seeded), so every engine and every run of one
size indexes the same records.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT / "python_pkg"))

from govsearch.tool_schemas import COLLECTIONS, RESOURCE_TYPES  # noqa: E402
from govsearch_build.records import Record, record_to_markdown  # noqa: E402

SHARED_DATA = ROOT.parent / "shared" / "data"
FULL_ESTATE = ROOT / "site" / "full-estate.toml"


@dataclass
class Pool:
    source: str  # "real-exports" or "synthetic"
    records: list[Record]
    detail: dict


POOL_CACHE = BENCH / "work" / "pool.jsonl"
RECORD_SCHEMA = ROOT / "python_pkg" / "govsearch_build" / "schemas" / "record.schema.json"


def real_pool() -> Pool:
    """Every record of the full estate, via the importers.

    A successful import is cached in bench/work/pool.jsonl; when the importers
    fail (they are edited while benchmarks run), the cache is used and the
    results say so."""
    try:
        pool = _estate_pool()
    except Exception as error:  # noqa: BLE001 - fall back to the last good import
        if not POOL_CACHE.exists():
            raise
        lines = POOL_CACHE.read_text("utf-8").splitlines()
        head = json.loads(lines[0])
        records = [
            Record(data=item["data"], body=item["body"], file=item["file"]) for item in map(json.loads, lines[1:])
        ]
        detail = dict(
            head["detail"],
            from_cache=f"importers failed ({type(error).__name__}: {str(error)[:200]}); "
            f"used the import cached at {head['written']}",
        )
        return Pool("real-exports", records, detail)
    POOL_CACHE.parent.mkdir(parents=True, exist_ok=True)
    with POOL_CACHE.open("w", encoding="utf-8") as out:
        out.write(json.dumps({"detail": pool.detail, "written": time.strftime("%Y-%m-%dT%H:%M:%S")}) + "\n")
        for record in pool.records:
            out.write(
                json.dumps({"data": record.data, "body": record.body, "file": record.file}, ensure_ascii=False) + "\n"
            )
    return pool


def _estate_pool() -> Pool:
    """The full estate's records as its build collects them (pipeline.collect_records):
    our curated records and annotations as well as every source's imports, merged.
    The records our authors wrote fill about half of the answers' places and the
    runtime treats them apart (their rows are read ahead): a pool of imports alone
    would measure another site. What the merge adds beyond the record format
    (`formerIds`) is left out, as the sample is written back as records."""
    from collections import Counter

    from govsearch_build.config import load_config
    from govsearch_build.pipeline import collect_records

    allowed = set(json.loads(RECORD_SCHEMA.read_text("utf-8"))["properties"])
    loaded = collect_records(load_config(FULL_ESTATE))
    records = [
        Record(
            data={key: value for key, value in record.data.items() if key in allowed},
            body=record.body,
            file=record.file,
        )
        for record in sorted(loaded.records, key=lambda r: r.id)
    ]
    kinds = Counter(record.kind for record in records)
    return Pool("real-exports", records, {"kinds": dict(sorted(kinds.items())), "rejected": len(loaded.rejected)})


def synthetic_pool(count: int = 40000, seed: int = 7) -> Pool:
    """Records made from the shipped word list with a Zipf-like word distribution."""
    words = [
        w
        for line in (BENCH / "vocab.txt").read_text("utf-8").splitlines()
        if not line.startswith("#")
        for w in line.split()
    ]
    rng = random.Random(seed)
    weights = [1.0 / (rank + 1) for rank in range(len(words))]
    publishers = [
        "Office for National Statistics",
        "HM Land Registry",
        "HM Revenue & Customs",
        "Department for Transport",
        "Environment Agency",
        "Ordnance Survey",
        "Department for Education",
        "Companies House",
    ]
    records = []
    for number in range(count):
        pick = lambda k: rng.choices(words, weights, k=k)  # noqa: E731
        title = " ".join(pick(rng.randint(3, 7))).capitalize()
        data = {
            "id": f"syn-{number:06d}",
            "title": title,
            "summary": " ".join(pick(rng.randint(15, 30))).capitalize() + ".",
            "url": f"https://www.gov.uk/bench/syn-{number:06d}",
            "resourceType": rng.choice(RESOURCE_TYPES),
            "publisher": rng.choice(publishers),
            "accessStatus": rng.choice(["public", "restricted", "authentication-required", "access-not-established"]),
            "collection": rng.choice(COLLECTIONS),
            "keywords": sorted(set(pick(rng.randint(0, 5)))),
            "source": {"kind": "synthetic"},
        }
        body = " ".join(pick(rng.randint(60, 150))).capitalize() + "."
        records.append(Record(data=data, body=body, file=f"synthetic/{data['id']}"))
    return Pool("synthetic", records, {"vocabulary": len(words), "seed": seed})


def load_pool(prefer_real: bool = True) -> Pool:
    if prefer_real and SHARED_DATA.is_dir() and any(SHARED_DATA.iterdir()):
        return real_pool()
    return synthetic_pool()


def sample(pool: Pool, size: int | None, seed: int) -> list[Record]:
    """`size` records (all when None or larger than the pool), in id order."""
    if size is None or size >= len(pool.records):
        return list(pool.records)
    chosen = random.Random(seed).sample(range(len(pool.records)), size)
    return [pool.records[i] for i in sorted(chosen)]


def write_content(records: list[Record], content_dir: Path) -> tuple[list[Record], list[dict]]:
    """Write the records as the Markdown files the build reads.

    Each file is read back and checked as the build will (`parse_record_text`,
    `validate_record`); a record the build would reject is left out of the
    sample for every engine and reported. Returns (kept records, dropped)."""
    from govsearch_build.config import load_config
    from govsearch_build.records import parse_record_text, validate_record

    allowed_http = load_config(ROOT / "site" / "site.toml").http_allowed_hosts  # the sample's site.toml keeps them
    if content_dir.exists():
        shutil.rmtree(content_dir)
    kept, dropped = [], []
    for record in records:
        text = record_to_markdown(record.data, record.body)
        shown = f"{record.data['collection']}/{record.id}.md"
        data, body, problems = parse_record_text(text, shown)
        if data is not None and not problems:
            problems = validate_record(data, shown, http_allowed_hosts=allowed_http)
        if problems:
            dropped.append({"id": record.id, "source": record.file, "problems": [p.as_dict() for p in problems[:3]]})
            continue
        folder = content_dir / record.data["collection"]
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{record.id}.md").write_text(text, "utf-8")
        kept.append(record)
    return kept, dropped


def write_site_toml(content_dir: Path, target: Path) -> Path:
    """site/site.toml with content_dir pointing at the sample (and no sources)."""
    text = (ROOT / "site" / "site.toml").read_text("utf-8")
    text, count = re.subn(r"(?m)^content_dir\s*=.*$", f"content_dir = {json.dumps(str(content_dir.resolve()))}", text)
    if count != 1:
        raise RuntimeError("site/site.toml has no single content_dir line to replace")
    text = re.split(r"(?m)^\[\[sources\]\]", text)[0]  # the sample already holds the imported records
    target.write_text(text, "utf-8")
    return target


def write_jsonl(records: list[Record], target: Path) -> None:
    with target.open("w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps({"data": record.data, "body": record.body}, ensure_ascii=False) + "\n")
