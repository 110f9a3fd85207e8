"""Skip a format whose sources, code and outputs are all as the last build left them.

Builds are deterministic, so the same sources give the same files: when a game folder's bytes,
the builder's code and the library versions match a recorded build, and every file that build
wrote is still there untouched (same size and modification time), the format is up to date
and neither loading nor drawing is needed. The record is a cache entry (builder.cache).
"""

from __future__ import annotations

import hashlib
import json
import os
from importlib import metadata
from pathlib import Path

from builder.cache import Cache, key

_LIBRARIES = ("cairosvg", "cairocffi", "pillow", "lxml", "jinja2", "pydantic", "svgwrite")


_HASH_LIMIT = 64 * 1024 * 1024  # larger than any source file the loader accepts (map art <= 64 MiB)


def sources_digest(folder: Path) -> str:
    """A digest of every file in a game folder (names and bytes); hidden and backup files aside."""
    folder = Path(folder)
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        hidden = any(p.startswith(".") for p in rel.parts) or path.name.endswith("~")
        if hidden or not path.is_file():
            continue
        st = path.stat()
        h.update(f"{rel.as_posix()}\0{st.st_size}\0".encode())
        if st.st_size > _HASH_LIMIT:  # the loader refuses it anyway: never read it into memory
            h.update(f"{st.st_mtime_ns}".encode())
            continue
        with path.open("rb") as fh:
            for chunk in iter(lambda fh=fh: fh.read(1 << 20), b""):
                h.update(chunk)
    return h.hexdigest()


def _environment() -> tuple:
    versions = []
    for name in _LIBRARIES:
        try:
            versions.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{name}=none")
    return tuple(versions) + (os.environ.get("SOURCE_DATE_EPOCH", ""),)


def _record_key(digest: str, fmt: str, out_dir: Path) -> str:
    return key(("build-record", digest, fmt, str(Path(out_dir).resolve()), _environment()))


def _stamp(path: Path) -> list:
    st = path.stat()
    return [st.st_size, st.st_mtime_ns]


def up_to_date(c: Cache | None, digest: str, fmt: str, out_dir: Path) -> list[Path] | None:
    """The files a recorded build of fmt wrote, if all are unchanged; else None."""
    if c is None:
        return None
    raw = c.get(_record_key(digest, fmt, out_dir))
    if raw is None:
        return None
    paths = []
    for name, stamp in json.loads(raw):
        path = Path(out_dir) / name
        try:
            if _stamp(path) != stamp:
                return None
        except OSError:
            return None
        paths.append(path)
    return paths


def record(c: Cache | None, digest: str, fmt: str, out_dir: Path, paths: list[Path]) -> None:
    """Remember what a build of fmt wrote, so an identical rebuild can be skipped."""
    if c is None or not digest:
        return
    out_dir = Path(out_dir).resolve()
    entries = []
    for p in paths:
        p = Path(p).resolve()
        try:
            entries.append([p.relative_to(out_dir).as_posix(), _stamp(p)])
        except (ValueError, OSError):
            return  # written outside the game's folder or gone: never skip this format
    c.put(_record_key(digest, fmt, out_dir), json.dumps(entries).encode())
