"""A content-addressed cache, so an unchanged component is not drawn or converted again.

API for format builders (one call per component; works the same with no cache active):

    from builder import cache

    png = cache.cached(("counter-png", unit, game.info, face, px_per_mm),
                       lambda: svg_to_png(counter_svg(game, unit.id, face), px_per_mm))

- ``cached(parts, produce) -> bytes``: the bytes stored under ``key(parts)``, or ``produce()``'s
  bytes, stored. ``parts`` must name EVERY input that decides the bytes: the model objects
  drawn (pydantic models are hashed as their JSON), sizes, resolutions, a label for the kind of
  component. The builder's own source code is always part of the key, so a code change never
  serves a stale drawing.
- ``key(parts) -> str``: the hex digest alone; ``active() -> Cache | None``: the cache in use.
- Many components at once, spread over the cores: ``builder.parallel.cached_map``.
- Text: ``cached_text(parts, produce) -> str`` (UTF-8 round trip).

The build command activates a cache under OUT/.cache (or --cache-dir; --no-cache turns it off)
with ``using(Cache(root))``. Entries are rows of one SQLite database (Cache says why), the
largest files beside it with a checksum in front, so concurrent builds can share one cache: a
reader sees a whole entry or none, and a damaged entry counts as a miss.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import struct
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import deflate

FORMAT = b"builder-cache-3"  # bump when the entry layout or the key encoding changes
# In front of a large entry's payload in its file: its CRC-32 and length. A check against
# damage (a torn write, a disk fault, an edit), not against forgery: sha256 took 0.14 s of
# the 35 MB campaign board every rebuild read, zlib's CRC-32 0.02 s, libdeflate's (the same
# value, so entries stay valid) 0.005 s; a one-counter rebuild reads 65 MB of large entries.
_HEAD = struct.Struct("<IQ")
DB_NAME = "cache.sqlite3"
LARGE_BYTES = 4 * 2**20  # entries above this are files (large/<key>), listed in the database
TOUCH_NS = 3600 * 10**9  # an entry's last use is written again when an hour older than this
DEFAULT_MAX_BYTES = 2 * 2**30  # prune the least recently used entries beyond this
# ... down to this share of it: a cache at its limit was pruned by every build that wrote to it
# (0.2 s of a campaign game's one-counter rebuild, to sort 84,000 entries by their last use)
PRUNE_TO = 0.9

_CODE_SUFFIXES = (".py", ".json", ".j2", ".html", ".css", ".js", ".xml", ".svg", ".ttf", ".otf")
_active: Cache | None = None


@lru_cache(maxsize=1)
def code_fingerprint() -> bytes:
    """A digest of the builder package's source: part of every key."""
    from builder import resources

    package = Path(__file__).resolve().parent
    h = hashlib.sha256(FORMAT)
    # The jinja2 templates shape outputs too: inside an installed package, beside a checkout's.
    templates = resources.templates()
    for root in (package,) if templates.is_relative_to(package) else (package, templates):
        for path in sorted(root.rglob("*")) if root.is_dir() else []:
            if path.suffix in _CODE_SUFFIXES and path.is_file():
                h.update(f"{root.name}/{path.relative_to(root)}".encode() + b"\0")
                h.update(path.read_bytes())
    return h.digest()


_LENGTH = struct.Struct("<Q").pack


def _feed(out: list, part) -> None:
    """Append the bytes of one key part with a type tag and a length, so ('ab', 'c') !=
    ('a', 'bc'); key() hashes them joined (one update, not one per part: a campaign module
    keys 8,000 pictures)."""
    if type(part) is str:  # the commonest part first: a campaign build hashes 100,000 of them
        data = part.encode("utf-8")
        out += (b"s", _LENGTH(len(data)), data)
    elif type(part) is tuple:
        out += (b"l", _LENGTH(len(part)))
        for p in part:
            if type(p) is str:  # as above, without a call for each
                data = p.encode("utf-8")
                out += (b"s", _LENGTH(len(data)), data)
            else:
                _feed(out, p)
    elif part is None or isinstance(part, bool):
        out.append(b"N" if part is None else (b"T" if part else b"F"))
    elif isinstance(part, (str, bytes)):
        data = part.encode("utf-8") if isinstance(part, str) else part
        out += (b"s" if isinstance(part, str) else b"b", _LENGTH(len(data)), data)
    elif isinstance(part, (int, float)):
        out += (b"n", repr(part).encode(), b";")
    elif isinstance(part, (list, tuple)):
        out += (b"l", _LENGTH(len(part)))
        for p in part:
            _feed(out, p)
    elif isinstance(part, dict):
        out += (b"d", _LENGTH(len(part)))
        for k in sorted(part, key=repr):
            _feed(out, k)
            _feed(out, part[k])
    elif hasattr(part, "model_dump_json"):  # a pydantic model: its JSON says everything it holds
        out.append(b"m" + type(part).__name__.encode() + b":")
        # where a game was loaded from does not change what it draws
        skip = {"folder"} if "folder" in type(part).model_fields else None
        _feed(out, part.model_dump_json(exclude=skip))
    elif isinstance(part, Path):
        _feed(out, str(part))
    else:
        raise TypeError(f"cache key part of type {type(part).__name__} cannot be hashed: "
                        "pass str, bytes, numbers, lists, dicts or models")


def key(parts: Iterable) -> str:
    """The hex key of a component from every input that decides it (plus the builder's code)."""
    out = [code_fingerprint()]
    _feed(out, tuple(parts))
    return hashlib.sha256(b"".join(out)).hexdigest()


@dataclass
class Stats:
    hits: int = 0
    misses: int = 0
    written: int = 0


@dataclass
class Cache:
    """Entries in one SQLite database under root (cache.sqlite3), the largest (a campaign
    board, a map PDF) as files beside it; safe to share between concurrent builds.

    Why a database: a cold campaign build stores 16,000 entries, and creating a file cost about
    1 ms each on the machines measured (0.76 s of a folio game's module build went on 430 of
    them); a row costs 0.2 ms. SQLite's write-ahead log lets the forked format builders and
    their workers read while one writes, and a transaction is all or nothing, so a reader never
    sees half an entry."""

    root: Path
    max_bytes: int = DEFAULT_MAX_BYTES
    stats: Stats = field(default_factory=Stats)
    _db: object = field(default=None, init=False, repr=False, compare=False)
    _pid: int = field(default=0, init=False, repr=False, compare=False)

    def __getstate__(self):  # a connection does not cross processes: each opens its own
        state = dict(self.__dict__)
        state.update(_db=None, _pid=0)
        return state

    def _conn(self, create: bool):
        """This process's connection (a forked child opens its own), or None when the
        database cannot be opened: the build then runs uncached. Only a write creates it (a
        build that stops at broken sources leaves no trace in its output folder)."""
        if self._pid == os.getpid():
            return self._db
        if not create and not (self.root / DB_NAME).is_file():
            return None
        import sqlite3

        self._pid, self._db = os.getpid(), None
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.root / DB_NAME, timeout=120, isolation_level=None,
                                 check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # a cache may lose its last writes to a crash
            db.execute("PRAGMA journal_size_limit=67108864")  # the log shrinks back after use
            # what is stored apart from the payloads: SQLite rewrites a whole row to update
            # one column, and finds a column stored after a blob only by reading the blob
            db.execute("CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, "
                       "size INTEGER NOT NULL, used INTEGER NOT NULL, large INTEGER NOT NULL) "
                       "WITHOUT ROWID")
            db.execute("CREATE TABLE IF NOT EXISTS payloads (key TEXT PRIMARY KEY, "
                       "data BLOB NOT NULL)")
            self._db = db
        except (OSError, sqlite3.Error):
            pass
        return self._db

    def _run(self, sql: str, args=(), create: bool = False):
        """The cursor of one statement, or None when the database is not usable."""
        import sqlite3

        db = self._conn(create)
        if db is None:
            return None
        try:
            return db.execute(sql, args)
        except sqlite3.Error:
            return None

    def _file(self, k: str) -> Path:
        return self.root / "large" / k

    def get(self, k: str) -> bytes | None:
        """The bytes stored under key k, or None (absent or damaged)."""
        found = self._run("SELECT e.used, e.large, p.data FROM entries e LEFT JOIN payloads p "
                          "USING (key) WHERE e.key = ?", (k,))
        row = found.fetchone() if found is not None else None
        used, large, data = row if row is not None else (0, 0, None)
        if large:  # a file, its digest in front
            data = self._read_file(k)
        if data is None:
            self.stats.misses += 1
            return None
        now = time.time_ns()
        if now - used > TOUCH_NS:  # pruning goes by the hour: a hit is not a write every time
            self._run("UPDATE entries SET used = ? WHERE key = ?", (now, k))
        self.stats.hits += 1
        return data

    def _read_file(self, k: str) -> bytes | None:
        path = self._file(k)
        try:
            with path.open("rb") as fh:  # head and payload read apart: the payload not copied
                head, data = fh.read(_HEAD.size), fh.read()
        except OSError:
            head, data = b"", b""
        if len(head) < _HEAD.size or _HEAD.unpack(head) != (deflate.crc32(data), len(data)):
            path.unlink(missing_ok=True)  # torn or edited: drop it and draw again
            self._run("DELETE FROM entries WHERE key = ?", (k,))
            return None
        return data

    def holds(self, k: str) -> bool:
        """Whether an entry is stored under k (not read: get() still checks it)."""
        found = self._run("SELECT 1 FROM entries WHERE key = ?", (k,))
        return found is not None and found.fetchone() is not None

    def put(self, k: str, data: bytes) -> None:
        """Store data under k atomically; a failure to write only costs a later redraw."""
        large = len(data) > LARGE_BYTES  # SQLite writes a blob this size twice (log, table)
        if large and not self._write_file(k, data):
            return
        with self.batch():
            done = self._run("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?)",
                             (k, len(data), time.time_ns(), int(large)), create=True)
            if large:
                self._run("DELETE FROM payloads WHERE key = ?", (k,))
            elif done is not None:
                done = self._run("INSERT OR REPLACE INTO payloads VALUES (?, ?)", (k, data))
        if done is not None:
            self.stats.written += 1

    def _write_file(self, k: str, data: bytes) -> bool:
        path = self._file(k)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{k[:16]}.", suffix=".tmp", dir=path.parent)
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(_HEAD.pack(deflate.crc32(data), len(data)))
                    fh.write(data)
                os.replace(tmp, path)  # atomic: concurrent writers of one key write equal bytes
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError:
            return False
        return True

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Puts inside are one transaction: 8,000 module pictures are one commit, not 8,000."""
        began = self._run("BEGIN IMMEDIATE", create=True) is not None  # None inside a batch
        try:
            yield
        finally:
            if began and self._run("COMMIT") is None:
                self._run("ROLLBACK")  # never left holding the write lock: others wait on it

    def prune(self) -> int:
        """Past max_bytes, delete the least recently used entries down to PRUNE_TO of it (so the
        next builds need not prune again); returns the number deleted."""
        found = self._run("SELECT coalesce(sum(size), 0) FROM entries")
        if found is None:
            return 0
        total = found.fetchone()[0]
        if total <= self.max_bytes:
            return 0
        rows = self._run("SELECT key, size, large FROM entries ORDER BY used")
        doomed = []
        for k, size, large in rows.fetchall() if rows is not None else ():
            if total <= self.max_bytes * PRUNE_TO:
                break
            doomed.append((k, large))
            total -= size
        with self.batch():
            for i in range(0, len(doomed), 500):
                part = [k for k, _ in doomed[i:i + 500]]
                marks = ",".join("?" * len(part))
                self._run(f"DELETE FROM entries WHERE key IN ({marks})", part)
                self._run(f"DELETE FROM payloads WHERE key IN ({marks})", part)
        for k, large in doomed:
            if large:
                self._file(k).unlink(missing_ok=True)
        return len(doomed)


CHUNK = 256  # entries read and written together by get_many / put_many


def _chunk_keys(keys: list[str]) -> list[tuple[int, str]]:
    """(first index, key) of each whole run of CHUNK consecutive keys."""
    return [(i, key(("chunk",) + tuple(keys[i:i + CHUNK])))
            for i in range(0, len(keys) - CHUNK + 1, CHUNK)]


def get_many(c: Cache, keys: list[str]) -> list[bytes | None]:
    """The entries of many keys (None where absent), runs of CHUNK consecutive keys read as one
    entry when put_many stored them together: a campaign module's 8,003 pictures take 0.03 s
    as 31 runs, 0.23 s one by one."""
    out: list[bytes | None] = [None] * len(keys)
    whole = set()
    for start, k in _chunk_keys(keys):
        data = c.get(k)
        if data is None:
            continue
        n = struct.unpack_from("<I", data)[0]
        sizes = struct.unpack_from(f"<{n}Q", data, 4)
        at = 4 + 8 * n
        for j, size in enumerate(sizes):
            out[start + j] = data[at:at + size]
            at += size
        whole.update(range(start, start + n))
    for i, k in enumerate(keys):
        if i not in whole:
            out[i] = c.get(k)
    return out


def put_many(c: Cache, keys: list[str], values: list[bytes], fresh: set[int]) -> None:
    """Store runs of CHUNK values together for get_many: the runs holding a fresh value (one
    just made) or not stored yet as a run."""
    for start, k in _chunk_keys(keys):
        run = range(start, start + CHUNK)
        if not fresh.intersection(run) and c.holds(k):
            continue
        parts = [values[i] for i in run]
        head = struct.pack(f"<I{len(parts)}Q", len(parts), *(len(p) for p in parts))
        c.put(k, head + b"".join(parts))


def active() -> Cache | None:
    """The cache the current build uses, or None."""
    return _active


@contextlib.contextmanager
def using(c: Cache | None) -> Iterator[Cache | None]:
    """Make c the active cache for the duration of a build (None turns caching off)."""
    global _active
    before, _active = _active, c
    try:
        yield c
    finally:
        _active = before


def cached(parts: Iterable, produce: Callable[[], bytes]) -> bytes:
    """produce()'s bytes, taken from the active cache when the same inputs were seen before."""
    c = _active
    if c is None:
        return produce()
    k = key(parts)
    data = c.get(k)
    if data is None:
        data = produce()
        c.put(k, data)
    return data


def cached_text(parts: Iterable, produce: Callable[[], str]) -> str:
    """cached() for text."""
    return cached(("text",) + tuple(parts), lambda: produce().encode("utf-8")).decode("utf-8")
