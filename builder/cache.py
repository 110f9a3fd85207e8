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
with ``using(Cache(root))``. Entries are files named by their key, written to a temporary name
and renamed, with a digest of the payload in front, so concurrent builds can share one cache:
a reader sees a whole entry or none, and a damaged entry counts as a miss.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import struct
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

FORMAT = b"builder-cache-1"  # bump when the entry layout or the key encoding changes
_DIGEST = 32  # sha256 of the payload, stored in front of it
DEFAULT_MAX_BYTES = 2 * 2**30  # prune the least recently used entries beyond this

_CODE_SUFFIXES = (".py", ".json", ".j2", ".html", ".css", ".js", ".xml", ".svg", ".ttf", ".otf")
_active: Cache | None = None


@lru_cache(maxsize=1)
def code_fingerprint() -> bytes:
    """A digest of the builder package's source: part of every key."""
    package = Path(__file__).resolve().parent
    h = hashlib.sha256(FORMAT)
    # The jinja2 templates live beside the package (templates/): they shape outputs too.
    for root in (package, package.parent / "templates"):
        for path in sorted(root.rglob("*")) if root.is_dir() else []:
            if path.suffix in _CODE_SUFFIXES and path.is_file():
                h.update(f"{root.name}/{path.relative_to(root)}".encode() + b"\0")
                h.update(path.read_bytes())
    return h.digest()


def _feed(h, part) -> None:
    """Hash one key part with a type tag and a length, so ('ab', 'c') != ('a', 'bc')."""
    if type(part) is str:  # the commonest part first: a campaign build hashes 100,000 of them
        data = part.encode("utf-8")
        h.update(b"s" + struct.pack("<Q", len(data)) + data)
    elif type(part) is tuple:
        h.update(b"l" + struct.pack("<Q", len(part)))
        for p in part:
            _feed(h, p)
    elif part is None or isinstance(part, bool):
        h.update(b"N" if part is None else (b"T" if part else b"F"))
    elif isinstance(part, (str, bytes)):
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update((b"s" if isinstance(part, str) else b"b") + struct.pack("<Q", len(data)) + data)
    elif isinstance(part, (int, float)):
        h.update(b"n" + repr(part).encode() + b";")
    elif isinstance(part, (list, tuple)):
        h.update(b"l" + struct.pack("<Q", len(part)))
        for p in part:
            _feed(h, p)
    elif isinstance(part, dict):
        h.update(b"d" + struct.pack("<Q", len(part)))
        for k in sorted(part, key=repr):
            _feed(h, k)
            _feed(h, part[k])
    elif hasattr(part, "model_dump_json"):  # a pydantic model: its JSON says everything it holds
        h.update(b"m" + type(part).__name__.encode() + b":")
        # where a game was loaded from does not change what it draws
        skip = {"folder"} if "folder" in type(part).model_fields else None
        _feed(h, part.model_dump_json(exclude=skip))
    elif isinstance(part, Path):
        _feed(h, str(part))
    else:
        raise TypeError(f"cache key part of type {type(part).__name__} cannot be hashed: "
                        "pass str, bytes, numbers, lists, dicts or models")


def key(parts: Iterable) -> str:
    """The hex key of a component from every input that decides it (plus the builder's code)."""
    h = hashlib.sha256(code_fingerprint())
    _feed(h, tuple(parts))
    return h.hexdigest()


@dataclass
class Stats:
    hits: int = 0
    misses: int = 0
    written: int = 0


@dataclass
class Cache:
    """Entries under root/<2 hex>/<key>; safe to share between concurrent builds."""

    root: Path
    max_bytes: int = DEFAULT_MAX_BYTES
    stats: Stats = field(default_factory=Stats)

    def _path(self, k: str) -> Path:
        return self.root / k[:2] / k

    def get(self, k: str) -> bytes | None:
        """The bytes stored under key k, or None (absent or damaged)."""
        path = self._path(k)
        try:
            raw = path.read_bytes()
        except OSError:
            self.stats.misses += 1
            return None
        data = raw[_DIGEST:]
        if len(raw) < _DIGEST or hashlib.sha256(data).digest() != raw[:_DIGEST]:
            path.unlink(missing_ok=True)  # torn or edited: drop it and draw again
            self.stats.misses += 1
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used: pruning keeps it
        self.stats.hits += 1
        return data

    def holds(self, k: str) -> bool:
        """Whether an entry is stored under k (not read: get() still checks it)."""
        return self._path(k).is_file()

    def put(self, k: str, data: bytes) -> None:
        """Store data under k atomically; a failure to write only costs a later redraw."""
        path = self._path(k)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{k[:16]}.", suffix=".tmp", dir=path.parent)
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(hashlib.sha256(data).digest())
                    fh.write(data)
                os.replace(tmp, path)  # atomic: concurrent writers of one key write equal bytes
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError:
            return
        self.stats.written += 1

    def prune(self) -> int:
        """Delete the least recently used entries beyond max_bytes; returns the number deleted."""
        entries = []
        total = 0
        # os.scandir, not Path.iterdir + stat: half the time on a cache of 16,000 entries
        try:
            subs = [d.path for d in os.scandir(self.root) if len(d.name) == 2 and d.is_dir()]
        except OSError:
            return 0
        for sub in subs:
            with contextlib.suppress(OSError), os.scandir(sub) as found:
                for entry in found:
                    try:
                        st = entry.stat()
                    except OSError:
                        continue
                    entries.append((st.st_mtime_ns, st.st_size, Path(entry.path)))
                    total += st.st_size
        deleted = 0
        for _, size, path in sorted(entries):
            if total <= self.max_bytes:
                break
            path.unlink(missing_ok=True)
            total -= size
            deleted += 1
        return deleted


CHUNK = 256  # entries read and written together by get_many / put_many


def _chunk_keys(keys: list[str]) -> list[tuple[int, str]]:
    """(first index, key) of each whole run of CHUNK consecutive keys."""
    return [(i, key(("chunk",) + tuple(keys[i:i + CHUNK])))
            for i in range(0, len(keys) - CHUNK + 1, CHUNK)]


def get_many(c: Cache, keys: list[str]) -> list[bytes | None]:
    """The entries of many keys (None where absent), runs of CHUNK consecutive keys read as one
    file when put_many stored them together: 8,000 module pictures were 8,000 file reads."""
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
