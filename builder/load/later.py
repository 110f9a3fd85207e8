"""Writes of what loading learnt (the validated model, the source files' readings) that can wait.

They are for the next command, not this one: a campaign game's rebuild after one counter
changed spent 0.18 s pickling them before any format could start. `builder build` loads inside
`deferred()` and writes them while its format steps run (builder.side_by_side calls flush() once
they have started, in the parent, which only waits for them); any left are written when the
context ends. Outside it (check, calc, ...) a write happens at once.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

_pending: list[Callable[[], None]] | None = None  # None: not deferring


def write(job: Callable[[], None]) -> None:
    """Run job now, or, inside deferred(), when flush() is called."""
    if _pending is None:
        job()
    else:
        _pending.append(job)


def flush() -> None:
    """Run the writes put off so far (a job fails quietly: each one catches its own errors)."""
    while _pending:
        _pending.pop(0)()


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    global _pending
    outer, _pending = _pending, []
    try:
        yield
    finally:
        flush()
        _pending = outer
