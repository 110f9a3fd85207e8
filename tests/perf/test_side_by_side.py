"""builder.side_by_side: steps in forked children, results and failures in input order."""

from __future__ import annotations

import os

import pytest

from builder import cache, incremental, parallel, side_by_side
from builder.outputs import _side_by_side


@pytest.fixture
def two_jobs():
    before, parallel.JOBS = parallel.JOBS, 2
    yield
    parallel.JOBS = before


def test_results_in_order_from_other_processes(two_jobs):
    me = os.getpid()
    results = side_by_side.run([lambda: ("a", os.getpid()), lambda: ("b", os.getpid()),
                                lambda: ("c", os.getpid())])
    assert [r[0] for r in results] == ["a", "b", "c"]
    assert all(pid != me for _, pid in results)


def test_a_child_may_start_its_own_pool(two_jobs):
    def step():
        return os.getpid(), parallel.pmap(lambda _, x: (x * 2, os.getpid()), range(40))

    child, doubled = side_by_side.run([step, lambda: None])[0]
    assert [d for d, _ in doubled] == [x * 2 for x in range(40)]
    # drawn by the child's own workers, not serially in the child as in a pool worker
    assert child not in {pid for _, pid in doubled}


def test_exceptions_and_exits_reach_the_parent_first_step_first(two_jobs):
    def fails():
        raise ValueError("bad map.toml")

    def exits():
        raise SystemExit(2)

    with pytest.raises(ValueError, match="bad map.toml"):
        side_by_side.run([lambda: 1, fails, exits])
    with pytest.raises(SystemExit) as info:
        side_by_side.run([exits, fails])
    assert info.value.code == 2


def test_what_a_child_kept_made_and_cached_is_told_to_the_parent(two_jobs, tmp_path):
    store = cache.Cache(tmp_path / "cache")
    kept, produced = len(incremental.kept), len(incremental.produced)

    def step():
        incremental.kept.append(tmp_path / "kept.pdf")
        incremental.produced.append("pdf-map:made.pdf")
        cache.active().put(cache.key(("x",)), b"drawn")
        return "done"

    with cache.using(store):
        assert side_by_side.run([step, lambda: "other"]) == ["done", "other"]
    assert incremental.kept[kept:] == [tmp_path / "kept.pdf"]
    assert incremental.produced[produced:] == ["pdf-map:made.pdf"]
    assert store.stats.written == 1


def test_one_at_a_time_still_in_children(two_jobs):
    me = os.getpid()
    pids = side_by_side.run([os.getpid, os.getpid], at_once=1)
    assert me not in pids and len(set(pids)) == 2


def test_serial_with_one_job():
    before, parallel.JOBS = parallel.JOBS, 1
    try:
        assert side_by_side.run([os.getpid, os.getpid]) == [os.getpid()] * 2
    finally:
        parallel.JOBS = before


def test_format_groups_keep_the_print_formats_together():
    assert _side_by_side(["json", "html", "svg", "pdf", "png", "vmod"]) == [
        ["svg", "pdf", "png"], ["vmod"], ["json", "html"]]
    assert _side_by_side(["vmod", "pdf"]) == [["pdf"], ["vmod"]]
    assert _side_by_side(["pdf", "proof"]) == [["pdf"], ["proof"]]


def test_while_waiting_runs_once_here_while_the_steps_run(two_jobs):
    import multiprocessing

    waited = multiprocessing.get_context("fork").Event()  # the children share it (forked)

    def step():  # waits for while_waiting: it must run while the steps run, not after
        return os.getpid(), waited.wait(timeout=30)

    seen, others = [], {c.pid for c in multiprocessing.active_children()}

    def while_waiting():
        started = {c.pid for c in multiprocessing.active_children()} - others
        seen.append((os.getpid(), len(started)))
        waited.set()

    ran = side_by_side.run([step, step, step], while_waiting=while_waiting)
    # once, here, after the first two steps' processes started, before any step ended
    assert seen == [(os.getpid(), 2)] and os.getpid() not in {pid for pid, _ in ran}
    assert all(ok for _, ok in ran)


def test_while_waiting_runs_first_when_the_steps_run_here():
    seen = []
    side_by_side.run([lambda: seen.append("step")], while_waiting=lambda: seen.append("wait"))
    assert seen == ["wait", "step"]
