"""`python build.py`: build the whole site, serve it, or import real exports.

python build.py [--config site/site.toml] [--out _site] [--keep-going] [--serve [--port 8000]]
python build.py import KIND PATH... [--collection ID] [--out DIR]
python build.py fetch [--mirror BASE] [--cache .cache/sources]   (see fetch.py)

The arguments only: the build itself is pipeline.py.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .config import ConfigError, load_config
from .console import console
from .pipeline import PROJECT_ROOT, BuildFailed, build


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["import"]:
        from .importers.cli import main as import_main

        return import_main(argv[1:])
    if argv[:1] == ["docs"]:
        from .importers.docs import main as docs_main

        return docs_main(argv[1:])
    if argv[:1] == ["fetch"]:
        from .fetch import main as fetch_main

        return fetch_main(argv[1:])
    options = _parser().parse_args(argv)
    try:
        config = load_config(Path(options.config), Path(options.sources) if options.sources else None)
        out = Path(options.out)
        build(config, out, keep_going=options.keep_going)
    except (ConfigError, BuildFailed) as error:
        console.print(f"[red]build failed:[/red] {error}")
        return 1
    if options.serve:
        from .serve import serve

        serve(out, port=options.port)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python build.py", description="Build the govsearch site.")
    parser.add_argument("--config", default=str(PROJECT_ROOT / "site" / "site.toml"))
    parser.add_argument("--out", default=str(PROJECT_ROOT / "_site"))
    parser.add_argument(
        "--sources",
        metavar="DIR",
        help="read the config's [[sources]] from DIR (e.g. .cache/sources after `build.py fetch`) instead of its sources_dir",
    )
    parser.add_argument("--keep-going", action="store_true", help="build the valid records even when some are rejected")
    parser.add_argument("--serve", action="store_true", help="serve the built site on 127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    return parser
