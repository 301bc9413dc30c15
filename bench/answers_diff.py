"""Whether a change left every answer byte-identical: dump a built site's
answers to a fixed set of calls, then compare two dumps.

    python bench/answers_diff.py dump --site /tmp/before --out before.jsonl
    python bench/answers_diff.py dump --site /tmp/after --out after.jsonl
    python bench/answers_diff.py compare before.jsonl after.jsonl

The calls: every query of eval/queries.toml and eval/visitors*.toml (all
parts; only their text is read, never their grades, and nothing here scores
anything), each at the largest limit; for every fifth query also the next
page, the search box's prefix-while-typing form, a filtered search and the
record of its first result; and the filter values of every dimension. Each
answer is the JSON text `python -m govsearch call` prints (the session's
answer_json_text), so equal dumps mean equal bytes from the CLI.

    python bench/answers_diff.py data /tmp/before/data /tmp/after/data

compares two data folders file by file. Two things follow from the code
itself, not from what it answers, and are set aside: the manifest's
`runtime` entry (the lock file names the govsearch wheel, whose bytes are
the code) and so the manifest's sha256, which a record's answer cites
(`snapshot.manifestSha256` and its citation): a dump writes it as
MANIFEST_DIGEST. Everything else must be byte-identical.
"""

from __future__ import annotations

import argparse
import filecmp
import hashlib
import json
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUERY_FILES = (ROOT / "eval" / "queries.toml", ROOT / "eval" / "visitors.toml", ROOT / "eval" / "visitors-2.toml")
LARGEST_LIMIT = 20
EVERY = 5  # one query in this many also gets the variant calls
FILTERS = (
    {"collections": ["ons"]},
    {"resourceTypes": ["dataset"]},
    {"accessStatuses": ["public"]},
    {"collections": ["government-apis"], "resourceTypes": ["api"]},
    {"publishers": ["Office for National Statistics"]},
)
DIMENSIONS = ("collections", "resourceTypes", "accessStatuses", "publishers")
MANIFEST = "manifest.json"
MANIFEST_DIGEST = "<manifest sha256>"


def queries() -> list[str]:
    """Every query text of the evaluation files, in file order (grades unread)."""
    found = []
    for path in QUERY_FILES:
        found += [entry["query"] for entry in tomllib.loads(path.read_text("utf-8")).get("query", [])]
    return found


def calls(texts: list[str]) -> Iterator[tuple[str, dict, bool, int]]:
    """(tool, arguments, prefix_last, offset) of each call, before record ids."""
    for position, text in enumerate(texts):
        yield "search_government_knowledge", {"query": text, "limit": LARGEST_LIMIT}, False, 0
        if position % EVERY:
            continue
        yield "search_government_knowledge", {"query": text, "limit": LARGEST_LIMIT}, False, LARGEST_LIMIT
        yield "search_government_knowledge", {"query": text[: max(1, len(text) - 2)]}, True, 0
        chosen = FILTERS[position // EVERY % len(FILTERS)]
        yield "search_government_knowledge", {"query": text, **chosen}, False, 0
    for dimension in DIMENSIONS:
        yield "list_filter_values", {"dimension": dimension}, False, 0


def dump(site: str, out: Path) -> int:
    """Write one JSON line per call: the call and its answer text."""
    from govsearch.catalogue import Catalogue
    from govsearch.loaders import DirectoryLoader
    from govsearch.session import answer_json_text

    catalogue = Catalogue.open(DirectoryLoader(site))
    digest = hashlib.sha256((Path(site) / "data" / MANIFEST).read_bytes()).hexdigest()
    lines = []
    first_ids = []
    for tool, arguments, prefix_last, offset in calls(queries()):
        text = json.dumps(arguments, sort_keys=True)
        answer = answer_json_text(catalogue, tool, text, prefix_last=prefix_last, offset=offset)
        lines.append(json.dumps({"tool": tool, "arguments": text, "prefix": prefix_last, "offset": offset}))
        lines.append(answer)
        results = json.loads(answer).get("results", [])
        if results and not offset and not prefix_last and set(arguments) == {"query", "limit"}:
            first_ids.append(results[0]["id"])
    for record_id in [*first_ids[::EVERY], "", "no-such-record"]:
        text = json.dumps({"recordId": record_id})
        lines.append(json.dumps({"tool": "get_resource_record", "arguments": text}))
        cited = answer_json_text(catalogue, "get_resource_record", text)
        lines.append(cited.replace(digest, MANIFEST_DIGEST).replace(digest[:12], MANIFEST_DIGEST))
    out.write_text("\n".join(lines) + "\n", "utf-8")
    print(f"{len(lines) // 2} answers from {site} -> {out}")
    return 0


def compare(before: Path, after: Path) -> int:
    """0 when the dumps are equal; else the first differing calls, and 1."""
    old, new = before.read_text("utf-8").splitlines(), after.read_text("utf-8").splitlines()
    differing = [at for at in range(0, max(len(old), len(new)), 2) if old[at : at + 2] != new[at : at + 2]]
    if not differing:
        print(f"{len(old) // 2} answers, byte-identical")
        return 0
    for at in differing[:5]:
        print("differs:", old[at] if at < len(old) else new[at])
    print(f"{len(differing)} of {max(len(old), len(new)) // 2} answers differ")
    return 1


def compare_data(before: Path, after: Path) -> int:
    """0 when two data folders hold the same files with the same bytes (the
    manifest but for its `runtime` entry); else the differing files, and 1."""
    differing = []
    names = {path.relative_to(before) for path in before.rglob("*") if path.is_file()}
    names |= {path.relative_to(after) for path in after.rglob("*") if path.is_file()}
    for name in sorted(names):
        old, new = before / name, after / name
        if not (old.is_file() and new.is_file()):
            differing.append(f"only in one: {name}")
        elif str(name) == MANIFEST:
            if _without_runtime(old) != _without_runtime(new):
                differing.append(str(name))
        elif not filecmp.cmp(old, new, shallow=False):
            differing.append(str(name))
    for name in differing[:10]:
        print("differs:", name)
    print(f"{len(names)} files, {len(differing)} differ" if differing else f"{len(names)} files, byte-identical")
    return 1 if differing else 0


def _without_runtime(manifest: Path) -> dict:
    value = json.loads(manifest.read_bytes())
    value.pop("runtime", None)
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(required=True, dest="command")
    dumping = commands.add_parser("dump")
    dumping.add_argument("--site", required=True)
    dumping.add_argument("--out", required=True, type=Path)
    comparing = commands.add_parser("compare")
    comparing.add_argument("before", type=Path)
    comparing.add_argument("after", type=Path)
    folders = commands.add_parser("data")
    folders.add_argument("before", type=Path)
    folders.add_argument("after", type=Path)
    options = parser.parse_args(argv)
    if options.command == "dump":
        return dump(options.site, options.out)
    if options.command == "data":
        return compare_data(options.before, options.after)
    return compare(options.before, options.after)


if __name__ == "__main__":
    sys.exit(main())
