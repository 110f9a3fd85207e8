"""The process pool: the same results, in the same order, as a serial run."""

from __future__ import annotations

import os

import pytest

from builder import cache, parallel
from builder.cache import Cache
from builder.load import load_game


def _face_png(game, job):
    from builder.render import counter_svg, svg_to_png

    counter_id, face = job
    return svg_to_png(counter_svg(game, counter_id, face), 4.0)


def _jobs(game):
    return [(u.id, f) for u in game.units for f in ("front", "back") if f == "front" or u.back]


def _pid(context, item):
    return (item, os.getpid())


def test_pool_gives_the_same_bytes_as_serial(mini, monkeypatch):
    game = load_game(mini)
    jobs = _jobs(game) * 4  # enough items for both workers
    monkeypatch.setattr(parallel, "JOBS", 1)
    serial = parallel.pmap(_face_png, jobs, game)
    monkeypatch.setattr(parallel, "JOBS", 2)
    pooled = parallel.pmap(_face_png, jobs, game)
    assert pooled == serial
    assert len(set(serial)) == len(_jobs(game))  # real, distinct images


def test_pool_really_uses_workers_and_keeps_order(monkeypatch):
    monkeypatch.setattr(parallel, "JOBS", 2)
    out = parallel.pmap(_pid, list(range(200)), None)
    assert [i for i, _ in out] == list(range(200))
    assert os.getpid() not in {p for _, p in out}
    monkeypatch.setattr(parallel, "JOBS", 1)
    assert {p for _, p in parallel.pmap(_pid, [1, 2], None)} == {os.getpid()}


def test_work_too_small_to_share_runs_in_the_caller(monkeypatch):
    monkeypatch.setattr(parallel, "JOBS", 2)
    me = os.getpid()
    assert {p for _, p in parallel.pmap(_pid, list(range(31)), None, min_batch=16)} == {me}
    shared = parallel.pmap(_pid, list(range(32)), None, min_batch=16)
    assert [i for i, _ in shared] == list(range(32))
    assert me not in {p for _, p in shared}


def _boom(context, item):
    if item == 7:
        raise ValueError("item 7 is bad")
    return item


def test_a_worker_error_reaches_the_caller(monkeypatch):
    monkeypatch.setattr(parallel, "JOBS", 2)
    with pytest.raises(ValueError, match="item 7"):
        parallel.pmap(_boom, list(range(20)), None)


def test_cached_map_computes_only_misses(mini, tmp_path, monkeypatch):
    monkeypatch.setattr(parallel, "JOBS", 2)
    game = load_game(mini)
    jobs = _jobs(game)
    store = Cache(tmp_path)

    def key(job):
        return ("face-png", game.unit_by_id[job[0]], game.info, job[1], 4.0)

    with cache.using(store):
        first = parallel.cached_map(_face_png, jobs, key, game)
        assert store.stats.written == len(jobs)
        again = parallel.cached_map(_face_png, jobs, key, game)
    assert again == first
    assert store.stats.hits == len(jobs)
    monkeypatch.setattr(parallel, "JOBS", 1)
    assert parallel.pmap(_face_png, jobs, game) == first
