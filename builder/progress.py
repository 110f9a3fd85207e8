"""Progress of long build stages: a bar on a terminal, a few plain lines when not on one.

On a terminal (stderr is a TTY) each stage shows a tqdm bar, cleared when the stage ends.
Elsewhere (CI logs, pipes, tests) nothing is drawn; a stage that took longer than
QUIET_SECONDS leaves one line, e.g. 'europa: counter images: 8000 (7990 cached) in 3.1 s'.
tqdm is used because it is small, maintained, imports in about 20 ms and has no dependencies.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterator

QUIET_SECONDS = 2.0
_label = ""  # the game being built, put in front of each line


def on_terminal() -> bool:
    """True when progress bars should be drawn (stderr is a TTY and BUILDER_PROGRESS allows)."""
    choice = os.environ.get("BUILDER_PROGRESS", "auto")
    if choice in ("0", "off", "no"):
        return False
    if choice in ("1", "on", "yes"):
        return True
    return sys.stderr.isatty()


@contextlib.contextmanager
def game(label: str) -> Iterator[None]:
    """Name the game whose stages follow."""
    global _label
    before, _label = _label, label
    try:
        yield
    finally:
        _label = before


@contextlib.contextmanager
def stage(desc: str, total: int, cached: int = 0) -> Iterator[Callable[[int], None]]:
    """A stage of total steps (cached of them already done); yields advance(n)."""
    start = time.perf_counter()
    title = f"{_label}: {desc}" if _label else desc
    bar = None
    if on_terminal() and total - cached > 0:
        import tqdm

        tqdm.tqdm.monitor_interval = 0  # no monitor thread: worker processes are forked
        bar = tqdm.tqdm(total=total, initial=cached, desc=title, unit="", leave=False,
                        file=sys.stderr, dynamic_ncols=True)
    try:
        yield (bar.update if bar else (lambda n=1: None))
    finally:
        if bar is not None:
            bar.close()
        seconds = time.perf_counter() - start
        if seconds >= QUIET_SECONDS:
            extra = f" ({cached} cached)" if cached else ""
            print(f"{title}: {total}{extra} in {seconds:.1f} s", file=sys.stderr, flush=True)
