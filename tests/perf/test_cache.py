"""The content-addressed cache: hits and misses, invalidation, damaged entries, concurrency."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

from builder import cache, parallel
from builder.cache import Cache
from builder.load import load_game


def _count_calls():
    calls = []

    def produce(value: bytes):
        def inner():
            calls.append(value)
            return value
        return inner
    return calls, produce


def test_hit_and_miss(tmp_path):
    calls, produce = _count_calls()
    with cache.using(Cache(tmp_path)) as c:
        assert cache.cached(("a", 1), produce(b"one")) == b"one"
        assert cache.cached(("a", 1), produce(b"other")) == b"one"  # served, not produced
        assert cache.cached(("a", 2), produce(b"two")) == b"two"
    assert calls == [b"one", b"two"]
    assert (c.stats.hits, c.stats.misses, c.stats.written) == (1, 2, 2)
    with cache.using(Cache(tmp_path)):  # a later build sees the same entries
        assert cache.cached(("a", 1), produce(b"three")) == b"one"


def test_no_cache_always_produces():
    calls, produce = _count_calls()
    assert cache.active() is None
    cache.cached(("a",), produce(b"x"))
    cache.cached(("a",), produce(b"x"))
    assert len(calls) == 2


def test_keys_separate_parts_and_types():
    assert cache.key(("ab", "c")) != cache.key(("a", "bc"))
    assert cache.key((1,)) != cache.key(("1",))
    assert cache.key(([1, 2],)) != cache.key(((1,), 2))
    assert cache.key(({"a": 1, "b": 2},)) == cache.key(({"b": 2, "a": 1},))
    with pytest.raises(TypeError, match="cannot be hashed"):
        cache.key((object(),))


def test_models_are_keyed_by_content_not_folder(mini, tmp_path):
    import shutil

    other = tmp_path / "elsewhere" / "mini"
    shutil.copytree(mini, other)
    a, b = load_game(mini), load_game(other)
    assert a.folder != b.folder
    assert cache.key((a,)) == cache.key((b,))
    assert cache.key((a.units[0],)) != cache.key((a.units[1],))


def test_damaged_large_entry_is_a_miss(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "LARGE_BYTES", 4)  # this payload goes to a file beside the database
    c = Cache(tmp_path)
    k = cache.key(("x",))
    c.put(k, b"payload")
    path = tmp_path / "large" / k
    path.write_bytes(path.read_bytes()[:-3])  # torn write / disk trouble
    assert c.get(k) is None
    assert not path.exists() and not c.holds(k)
    c.put(k, b"payload")
    assert c.get(k) == b"payload"


def test_a_damaged_database_means_no_cache_not_a_failure(tmp_path):
    (tmp_path / cache.DB_NAME).write_bytes(b"not a database" * 100)
    calls, produce = _count_calls()
    with cache.using(Cache(tmp_path)) as c:
        assert cache.cached(("a",), produce(b"one")) == b"one"
        assert cache.cached(("a",), produce(b"one")) == b"one"
        assert c.prune() == 0
    assert len(calls) == 2  # drawn each time, as with no cache


def test_large_and_small_entries_are_kept_apart(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "LARGE_BYTES", 100)
    c = Cache(tmp_path)
    small, large = cache.key(("small",)), cache.key(("large",))
    c.put(small, b"s" * 100)
    c.put(large, b"l" * 101)
    assert [p.name for p in (tmp_path / "large").iterdir()] == [large]
    again = Cache(tmp_path)
    assert (again.get(small), again.get(large)) == (b"s" * 100, b"l" * 101)


def _faces(game, unit):
    """A counter's two faces: what a print or module builder would cache per counter."""
    return f"{unit.id}:{unit.front}|{unit.back}".encode()


def test_one_changed_counter_is_the_only_miss(mini, tmp_path):
    store = Cache(tmp_path / "cache")

    def build(game):
        with cache.using(store):
            return parallel.cached_map(_faces, game.units, lambda u: ("faces", u, game.info), game)

    game = load_game(mini)
    first = build(game)
    assert store.stats.written == len(game.units)
    csv = mini / "counters.csv"
    csv.write_text(csv.read_text().replace("6-3-8,3-1-8", "7-3-8,3-1-8"))
    changed = load_game(mini)
    store.stats = cache.Stats()
    second = build(changed)
    assert (store.stats.hits, store.stats.written) == (len(game.units) - 1, 1)
    assert [a == b for a, b in zip(first, second)] == [u.id != "b-2" for u in game.units]
    assert second[1] == b"b-2:7-3-8|3-1-8"


def _hammer(root: str, seed: int) -> list[str]:
    """Write and read the same few keys as fast as possible; report anything wrong."""
    c = Cache(Path(root))
    wrong = []
    for i in range(300):
        n = (i * 7 + seed) % 5
        k = cache.key(("shared", n))
        want = bytes([n]) * (50_000 + n)  # large enough that a torn write would show
        got = c.get(k)
        if got is not None and got != want:
            wrong.append(f"key {n}: {len(got)} bytes")
        c.put(k, want)
    return wrong


def test_concurrent_builds_share_a_cache_safely(tmp_path):
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(4) as pool:
        results = pool.starmap(_hammer, [(str(tmp_path), s) for s in range(8)])
    assert results == [[]] * 8
    leftovers = [p for p in tmp_path.rglob("*") if p.name.endswith(".tmp")]
    assert leftovers == []
    c = Cache(tmp_path)
    for n in range(5):
        assert c.get(cache.key(("shared", n))) == bytes([n]) * (50_000 + n)


def test_prune_keeps_the_most_recently_used(tmp_path):
    c = Cache(tmp_path, max_bytes=2500)
    keys = [cache.key(("p", i)) for i in range(5)]
    for i, k in enumerate(keys):
        c.put(k, b"x" * 1000)
        c._run("UPDATE entries SET used = ? WHERE key = ?", (i, k))  # older first
    assert c.prune() == 3
    assert [c.get(k) is not None for k in keys] == [False, False, False, True, True]


def test_prune_frees_room_so_the_next_builds_need_not_prune(tmp_path):
    c = Cache(tmp_path, max_bytes=10_000)
    keys = [cache.key(("p", i)) for i in range(12)]
    for i, k in enumerate(keys[:11]):
        c.put(k, b"x" * 1000)
        c._run("UPDATE entries SET used = ? WHERE key = ?", (i, k))
    assert c.prune() == 2  # 11,000 bytes: down to 9,000 (PRUNE_TO), not just to 10,000
    c.put(keys[11], b"y" * 1000)  # 10,000: within the limit again
    assert c.prune() == 0 and c.get(keys[11]) is not None


def test_many_entries_are_read_back_in_chunks_and_one_fresh_value_rewrites_its_chunk(tmp_path):
    c = Cache(tmp_path)
    n = cache.CHUNK * 2 + 5  # two whole chunks and a tail read one by one
    keys = [cache.key(("item", i)) for i in range(n)]
    values = [b"v%d" % i * (i % 7) for i in range(n)]  # empty values too
    assert cache.get_many(c, keys) == [None] * n
    for k, v in zip(keys, values):
        c.put(k, v)
    cache.put_many(c, keys, values, set(range(n)))
    for k in keys:  # the chunks alone hold the first two runs
        c._run("DELETE FROM payloads WHERE key = ?", (k,))
    got = cache.get_many(Cache(tmp_path), keys)
    assert got[: 2 * cache.CHUNK] == values[: 2 * cache.CHUNK]
    assert got[2 * cache.CHUNK:] == [None] * 5
    changed = list(keys)
    changed[3] = cache.key(("item", "new"))  # one value of the first run changed
    assert cache.get_many(c, changed)[3] is None  # that run's chunk is another key: not served


def test_a_hit_marks_its_entry_used_at_most_once_an_hour(tmp_path):
    import time

    c = Cache(tmp_path)
    k = cache.key(("used",))
    c.put(k, b"x")

    def used():
        return c._run("SELECT used FROM entries WHERE key = ?", (k,)).fetchone()[0]

    recent = time.time_ns() - 10 * 60 * 10**9  # ten minutes ago: left as it is
    c._run("UPDATE entries SET used = ? WHERE key = ?", (recent, k))
    assert c.get(k) == b"x" and used() == recent
    c._run("UPDATE entries SET used = 0 WHERE key = ?", (k,))  # long ago: marked now
    assert c.get(k) == b"x" and used() > recent


def test_reading_an_empty_cache_creates_nothing(tmp_path):
    c = Cache(tmp_path / "cache")
    k = cache.key(("nothing",))
    assert c.get(k) is None and not c.holds(k) and c.prune() == 0
    assert not (tmp_path / "cache").exists()  # a build stopped by broken sources leaves no trace
    c.put(k, b"x")
    assert c.get(k) == b"x"
