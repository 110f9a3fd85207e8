"""Spread independent rendering work over the cores, results in input order.

    from builder import parallel

    pdfs = parallel.pmap(draw_sheet, sheet_ids, game, desc="map sheets")
    pngs = parallel.cached_map(face_png, faces, lambda f: ("face-png", ...), game,
                               desc="counter images")

- ``pmap(fn, items, context)`` calls ``fn(context, item)`` for every item and returns the
  results in the order of items, whatever order the workers finish in, so output is the same
  bytes as a serial run. Workers are forked from the build process: they inherit ``fn`` and
  ``context`` (the loaded game) without pickling, so ``fn`` may be any callable; items and
  results travel through pipes and must pickle (bytes, str, tuples...).
- ``cached_map(fn, items, key_parts, context)``: the same for functions returning bytes, with
  each result kept in the active cache (builder.cache) under ``key_parts(item)``; only the
  misses are computed.
- The number of workers is --jobs, else BUILDER_JOBS, else the cores this process may use.
  One worker, a single item, or a call from inside a worker runs serially in the caller, and
  so does work too small to share: ``min_batch`` items per worker at least (a counter face
  takes milliseconds, starting a worker from a campaign game's process tens of them).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from typing import Any

from builder import cache, progress

JOBS: int | None = None  # set by `builder build --jobs`
_task: tuple[Callable, Any] | None = None  # (fn, context), inherited by forked workers
_in_worker = False


def jobs() -> int:
    """How many worker processes to use."""
    if JOBS:
        return JOBS
    env = os.environ.get("BUILDER_JOBS", "").strip()
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def in_worker() -> bool:
    """True inside a pool worker (its own pmap calls run serially)."""
    return _in_worker


def _mark_worker() -> None:
    global _in_worker
    _in_worker = True


def _call(item):
    fn, context = _task
    return fn(context, item)


def pmap(fn: Callable[[Any, Any], Any], items: Sequence, context: Any = None, *,
         desc: str = "", cached: int = 0, total: int | None = None, min_batch: int = 1) -> list:
    """[fn(context, item) for item in items], computed on several cores, in input order; no
    more workers than there are min_batch items for."""
    global _task
    items = list(items)
    n = min(jobs(), len(items) // max(1, min_batch))
    shown = len(items) + cached if total is None else total
    with progress.stage(desc or "working", shown, cached) as advance:
        if n <= 1 or _in_worker or "fork" not in multiprocessing.get_all_start_methods():
            out = []
            for item in items:
                out.append(fn(context, item))
                advance(1)
            return out
        before, _task = _task, (fn, context)
        try:
            # fork: workers share the loaded game; the pool is made before any other thread
            pool = multiprocessing.get_context("fork").Pool(n, initializer=_mark_worker)
        finally:
            _task = before
        try:
            chunk = max(1, len(items) // (n * 16))
            out = []
            for result in pool.imap(_call, items, chunksize=chunk):
                out.append(result)
                advance(1)
            pool.close()
            return out
        finally:
            pool.terminate()
            pool.join()


def cached_map(fn: Callable[[Any, Any], bytes], items: Sequence,
               key_parts: Callable[[Any], tuple], context: Any = None, *,
               desc: str = "", min_batch: int = 1) -> list[bytes]:
    """pmap for bytes-valued fn, each result kept in the active cache under key_parts(item)."""
    items = list(items)
    c = cache.active()
    if c is None:
        return pmap(fn, items, context, desc=desc, min_batch=min_batch)
    keys = [cache.key(key_parts(item)) for item in items]
    out: list[bytes | None] = cache.get_many(c, keys)
    todo = [i for i, data in enumerate(out) if data is None]
    fresh = pmap(fn, [items[i] for i in todo], context, desc=desc,
                 cached=len(items) - len(todo), total=len(items), min_batch=min_batch)
    for data in fresh:
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError(f"cached_map: {getattr(fn, '__name__', fn)} returned "
                            f"{type(data).__name__}, not bytes")
    with c.batch():
        for i, data in zip(todo, fresh):
            c.put(keys[i], bytes(data))
            out[i] = bytes(data)
        cache.put_many(c, keys, out, set(todo))  # type: ignore[arg-type]
    return out  # type: ignore[return-value]
