#!/usr/bin/env python3
"""Build (and optionally serve) the govsearch site; see README.md.

The build code lives in python_pkg/govsearch_build; this file only puts the
project's packages on the path and hands over.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "python_pkg"))

from govsearch_build.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
