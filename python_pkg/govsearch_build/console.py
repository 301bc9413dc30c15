"""The build's one console (rich, on stderr) and its timed steps.

Its own module so that every build command (build, fetch, import) can print
through it without importing the command that started it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from rich.console import Console

console = Console(stderr=True, highlight=False, soft_wrap=True)

T = TypeVar("T")


def step(label: str, action: Callable[[], T]) -> T:
    """Run action under a spinner labelled `label`, then print how long it took."""
    started = time.monotonic()
    with console.status(label):
        result = action()
    console.print(f"  {label}: {time.monotonic() - started:.1f} s")
    return result
