"""`python build.py import KIND PATH... [--collection ID] [--out DIR] [--organisations PATH]`.

Writes one Markdown file per record to DIR/<collection>/<id>.md (via
`records.record_to_markdown`), writes DIR/import-report.json (the report plus
the rejections), prints a summary. Exit 0 when done, 2 on usage errors.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..publishers import PublisherAuthority
from ..records import record_schema, record_to_markdown
from . import KINDS, run_import


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse would sys.exit(2) itself
        raise _UsageError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="build.py import", description="Import a public export into catalogue records.")
    parser.add_argument("kind", help=f"one of: {', '.join(KINDS)}")
    parser.add_argument("paths", nargs="+", type=Path, help="export files or folders")
    parser.add_argument("--collection", help="send every record to this collection")
    parser.add_argument("--out", type=Path, default=Path("build/import"), help="output folder (default build/import)")
    parser.add_argument("--organisations", type=Path, help="GOV.UK organisations JSON: the publisher authority")
    parser.add_argument("--revision", help="upstream commit of the export, recorded as source.revision")
    parser.add_argument("--observed", help="YYYY-MM-DD snapshot date, recorded as source.observed")
    return parser


def main(argv: list[str]) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except _UsageError as error:
        print(f"usage error: {error}", file=sys.stderr)
        parser.print_usage(sys.stderr)
        return 2
    if args.kind not in KINDS:
        print(f"usage error: unknown kind {args.kind!r}; expected one of: {', '.join(KINDS)}", file=sys.stderr)
        return 2
    collections = record_schema()["properties"]["collection"]["enum"]
    if args.collection and args.collection not in collections:
        print(
            f"usage error: unknown collection {args.collection!r}; expected one of: {', '.join(collections)}",
            file=sys.stderr,
        )
        return 2
    missing = [str(p) for p in args.paths if not p.exists()]
    if args.organisations and not args.organisations.exists():
        missing.append(str(args.organisations))
    if missing:
        print(f"usage error: no such file or folder: {', '.join(missing)}", file=sys.stderr)
        return 2
    authority = PublisherAuthority.from_govuk_json(args.organisations) if args.organisations else None
    result = run_import(
        args.kind,
        args.paths,
        collection=args.collection,
        authority=authority,
        revision=args.revision,
        observed=args.observed,
    )
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    for record in result.records:
        folder = out / record.data["collection"]
        folder.mkdir(exist_ok=True)
        (folder / f"{record.id}.md").write_text(record_to_markdown(record.data, record.body), encoding="utf-8")
    report = dict(result.report, rejections=[r.as_dict() for r in result.rejected])
    (out / "import-report.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    rep = result.report
    print(
        f"{rep['kind']}: {rep['inputs']} inputs -> {rep['built']} records "
        f"({rep['accounting']['built_primary']} from inputs, {rep['derived']['built']} derived); "
        f"{rep['duplicates_merged']} merged as duplicates; {sum(rep['left_out'].values())} left out; {rep['rejected']} rejected"
    )
    for reason, count in rep["left_out"].items():
        print(f"  left out ({reason}): {count}")
    for reason, count in list(rep["rejection_reasons"].items())[:10]:
        print(f"  rejected: {reason}: {count}")
    if rep["unmatched_publishers"]:
        print(
            f"  unmatched publishers: {len(rep['unmatched_publishers'])} names ({sum(rep['unmatched_publishers'].values())} records)"
        )
    for name, values in rep["unmapped"].items():
        print(f"  unmapped {name}: " + ", ".join(f"{v!r} x{info['count']}" for v, info in list(values.items())[:5]))
    print(f"  wrote {len(result.records)} files under {out} and {out / 'import-report.json'}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main(sys.argv[1:]))
