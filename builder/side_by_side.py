"""Run a few independent build steps at once, each in a forked child, results in input order.

A game's print files, its module and its web files are built from the same loaded model but
share no drawing work beyond the build cache, and each has long stretches on one core (a map
page written to PDF, the module's XML and zip). Built one after another they leave the other
core idle for most of a small game's build; built side by side they overlap. A child may start
its own worker pool (builder.parallel): it is not a pool worker.

What a child did that the parent must know travels back with its result: the output files it
kept unchanged and made (builder.incremental), the cache entries it wrote (so the parent still
prunes), and how it ended: a value, an exception (re-raised in the parent, first step first) or
an exit (sys.exit in a builder after it printed its message).
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import pickle
import traceback
from collections.abc import Callable, Sequence
from typing import Any

from builder import cache, incremental, parallel


class StepFailed(RuntimeError):
    """A step raised something that does not pickle; its traceback is the message."""


def _run_child(step: Callable[[], Any], conn) -> None:
    kept, produced = len(incremental.kept), len(incremental.produced)
    store = cache.active()
    written = store.stats.written if store is not None else 0
    try:
        outcome = ("value", step())
    except SystemExit as exc:
        outcome = ("exit", exc.code)
    except BaseException as exc:  # noqa: BLE001 - handed to the parent, which re-raises it
        try:
            pickle.dumps(exc)
            outcome = ("raise", exc)
        except Exception:  # noqa: BLE001
            outcome = ("raise", StepFailed(traceback.format_exc()))
    news = (incremental.kept[kept:], incremental.produced[produced:],
            (store.stats.written - written) if store is not None else 0)
    conn.send((outcome, news))
    conn.close()


def run(steps: Sequence[Callable[[], Any]], at_once: int | None = None,
        while_waiting: Callable[[], None] | None = None) -> list[Any]:
    """[step() for step in steps], up to at_once (default parallel.jobs()) at a time in forked
    children. With at_once=1 the steps still run in children, one after another, so each
    step's drawings are freed before the next starts. Serial in this process with one core,
    one step, inside a pool worker, or where fork is not available. while_waiting() runs in
    this process once the first steps have started (or first, when they run here)."""
    steps = list(steps)
    n = min(at_once or parallel.jobs(), parallel.jobs(), len(steps))
    if (parallel.jobs() <= 1 or len(steps) <= 1 or parallel.in_worker()
            or "fork" not in multiprocessing.get_all_start_methods()):
        if while_waiting is not None:
            while_waiting()
        return [step() for step in steps]
    ctx = multiprocessing.get_context("fork")
    outcomes: list[tuple | None] = [None] * len(steps)
    running: list[tuple[int, Any, Any]] = []
    pending = list(enumerate(steps))
    while pending or running:
        while pending and len(running) < n:
            i, step = pending.pop(0)
            receive, send = ctx.Pipe(duplex=False)
            child = ctx.Process(target=_run_child, args=(step, send), daemon=False)
            child.start()
            send.close()
            running.append((i, child, receive))
        if while_waiting is not None:
            while_waiting()
            while_waiting = None
        ready = multiprocessing.connection.wait([r for _, _, r in running])
        for i, child, receive in [x for x in running if x[2] in ready]:
            try:
                outcomes[i] = receive.recv()
            except EOFError:  # the child died without a word (killed, out of memory)
                outcomes[i] = (("raise", StepFailed(
                    f"a build step's process ended with code {child.exitcode}")), ([], [], 0))
            child.join()
            receive.close()
            running.remove((i, child, receive))
    results = []
    store = cache.active()
    for outcome, (kept, produced, written) in outcomes:  # type: ignore[misc]
        incremental.kept.extend(kept)
        incremental.produced.extend(produced)
        if store is not None:
            store.stats.written += written
    for (how, value), _ in outcomes:  # type: ignore[misc]
        if how == "exit":
            raise SystemExit(value)
        if how == "raise":
            raise value
        results.append(value)
    return results
