"""Check a built site against what GitHub Pages will publish, before it is deployed.

A site over a limit fails at deploy time, minutes later and with a vaguer
message, or is taken down afterwards; the build checks the tree it wrote so
the workflow stops before uploading anything.

The figures (README, "Deploying"):
- published site at most 1 GB: GitHub Docs, "GitHub Pages limits" (usage
  limits: "Published GitHub Pages sites may be no larger than 1 GB"). Counted
  here as 10^9 bytes (the stricter reading) of the tar archive that
  actions/upload-pages-artifact makes of the tree: every file rounded up to
  512-byte blocks plus a 512-byte header per file and folder (about 10% more
  than the files alone for our ~85,000 small files and folders).
- any file at most 100 MB: GitHub Docs, "About large files on GitHub" (GitHub
  blocks files larger than 100 MiB); counted as 100 x 10^6 bytes.
- at most 200,000 files: GitHub documents no file-count limit, but a Pages
  deployment times out after 10 minutes (same "GitHub Pages limits" page).
  Our bound is about four times the full estate (45,000 files in 2026-11), so
  a build that suddenly writes far more files (a page per row of a wrong
  export) fails here rather than in a deployment.
- no symbolic links: actions/deploy-pages refuses artifacts holding them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

SITE_BYTES = 1_000_000_000
FILE_BYTES = 100_000_000
FILE_COUNT = 200_000


class LimitExceeded(Exception):
    """The built tree would cross a GitHub Pages limit; the message says which and by how much."""


@dataclass(frozen=True)
class TreeSize:
    bytes: int  # of the files
    archive: int  # of the tar archive GitHub receives
    files: int
    largest: int
    largest_path: str

    def summary(self) -> str:
        return (
            f"{self.archive / 1e6:,.0f} MB as an archive ({self.bytes / 1e6:,.0f} MB of files) of {SITE_BYTES / 1e6:,.0f} MB, "
            f"{self.files:,} files of {FILE_COUNT:,}, "
            f"largest {self.largest / 1e6:.1f} MB ({self.largest_path}) of {FILE_BYTES / 1e6:.0f} MB"
        )


def measure(out: Path) -> tuple[TreeSize, list[str]]:
    """Size, file count and largest file of `out`, and any symbolic links in it."""
    total = files = largest = 0
    archive = 1024  # a tar archive ends with two empty blocks
    largest_path = ""
    links: list[str] = []
    for folder, dirs, names in os.walk(out):
        archive += 512
        for name in names + [d for d in dirs if os.path.islink(os.path.join(folder, d))]:
            path = os.path.join(folder, name)
            if os.path.islink(path):
                links.append(os.path.relpath(path, out))
                continue
            size = os.stat(path).st_size
            total += size
            archive += 512 + -(-size // 512) * 512
            files += 1
            if size > largest:
                largest, largest_path = size, os.path.relpath(path, out)
    return TreeSize(total, archive, files, largest, largest_path), links


def check_pages_limits(out: Path) -> TreeSize:
    """Measure `out`; raise LimitExceeded naming every limit it crosses."""
    size, links = measure(out)
    problems = []
    if size.archive > SITE_BYTES:
        problems.append(
            f"the site is {size.archive / 1e6:,.0f} MB as the archive GitHub receives; "
            f"GitHub Pages publishes at most {SITE_BYTES / 1e6:,.0f} MB"
        )
    if size.largest > FILE_BYTES:
        problems.append(
            f"{size.largest_path} is {size.largest / 1e6:,.1f} MB; files may be at most {FILE_BYTES / 1e6:.0f} MB"
        )
    if size.files > FILE_COUNT:
        problems.append(
            f"the site has {size.files:,} files; this project allows at most {FILE_COUNT:,} "
            "(see govsearch_build/pages_limits.py)"
        )
    if links:
        problems.append(f"symbolic links cannot be deployed: {', '.join(links[:5])}")
    if problems:
        raise LimitExceeded(f"{out} cannot be published on GitHub Pages: " + "; ".join(problems))
    return size
