"""Skip a format whose sources, code and outputs are all as the last build left them.

Builds are deterministic, so the same sources give the same files: when a game folder's bytes,
the builder's code and the library versions match a recorded build, and every file that build
wrote is still there untouched (same size and modification time), the format is up to date
and neither loading nor drawing is needed. The record is a cache entry (builder.cache).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from importlib import metadata
from pathlib import Path

from builder.cache import Cache, key

# the libraries whose versions can change what a build writes
_LIBRARIES = ("cairosvg", "cairocffi", "pillow", "lxml", "jinja2", "pydantic", "pikepdf", "deflate",
              "numpy", "markdown-it-py")


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


@functools.cache
def _library_versions() -> tuple[str, ...]:
    """Once per process: each lookup reads and parses the package's metadata file (10-15 ms for
    the seven), and a one-counter build asked for them dozens of times per process."""
    versions = []
    for name in _LIBRARIES:
        try:
            versions.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{name}=none")
    return tuple(versions)


def _environment() -> tuple:
    return _library_versions() + (os.environ.get("SOURCE_DATE_EPOCH", ""),)


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


# --- per-file records: what each output file was made from --------------------------------------
# A format is skipped above only when nothing at all changed. Below that, every output file
# carries a record (in the cache, under the file's path) of what it was made from: the model
# slices it reads (the map's files: build_group), or for a page its key, naming what the page
# shows (a counter sheet's faces and layout: build_files). A file whose record, options and
# code are as when it was written, and which is still there untouched, is kept as it is, so a
# changed counter does not redraw the map nor its neighbours' sheets, and a changed map does
# not re-lay the counter sheets. A file made again with the same bytes is kept too.
MAP_SLICES = ("info", "map", "scenarios")  # the map: keys.map_parts says why

produced: list[str] = []  # "group:file name" of each output made in this process: tests read it
kept: list[Path] = []  # output files kept as they were in this process


def depends_on(game, slices: tuple[str, ...], *options) -> str:
    """The dependency key of an output made from these slices of the model and options."""
    from builder import keys

    return key(("output-deps", tuple((s, keys.slice_digest(game, s)) for s in slices), options,
                _environment()))


def _group_record_key(folder: Path, name: str) -> str:
    return key(("output-group", str(Path(folder).resolve()), name))


def current_group(folder: Path, name: str, dep: str) -> list[Path] | None:
    """The files of group `name` in folder, when they were made from dep and are untouched."""
    c = _active_cache()
    raw = c.get(_group_record_key(folder, name)) if c is not None else None
    if raw is None:
        return None
    try:
        recorded = json.loads(raw)
        if recorded["dep"] != dep:
            return None
        paths = []
        for file, stamp in recorded["files"]:
            path = Path(folder) / file
            if _stamp(path) != stamp:
                return None
            paths.append(path)
        return paths
    except (OSError, ValueError, KeyError, TypeError):
        return None


def remember_group(folder: Path, name: str, dep: str, paths: list[Path]) -> None:
    """Record that these files of folder were made from dep (after writing them)."""
    c = _active_cache()
    if c is None:
        return
    folder = Path(folder).resolve()
    try:
        files = [[Path(p).resolve().relative_to(folder).as_posix(), _stamp(Path(p))] for p in paths]
    except (ValueError, OSError):
        return  # outside the folder or gone: never kept
    c.put(_group_record_key(folder, name), json.dumps({"dep": dep, "files": files}).encode())


def build_group(folder: Path, name: str, dep: str, make) -> list[Path]:
    """The files of one group (a map's SVGs, the counter sheets' PDF...): kept when current for
    dep, else made by make() -> [paths written] and recorded."""
    current = current_group(folder, name, dep)
    if current is not None:
        kept.extend(current)
        return current
    paths = list(make())
    produced.extend(f"{name}:{Path(p).name}" for p in paths)
    remember_group(folder, name, dep, paths)
    return paths


def build_files(folder: Path, name: str, files: list[tuple[str, str]], make) -> list[Path]:
    """The files of a group whose files each have their own dependency key (a counter sheet's
    page: the faces on it and where they go): files is [(file name, dep)]; a file whose dep is
    as recorded and which is untouched is kept, the others are made by make([their indexes])
    -> [bytes] and written, or kept when the bytes made are the bytes already there."""
    folder = Path(folder)
    c = _active_cache()
    env = _environment()
    deps = [key(("output-file-dep", dep, env)) for _, dep in files]
    record_key = key(("output-files", str(folder.resolve()), name))
    recorded: dict = {}
    raw = c.get(record_key) if c is not None else None
    if raw is not None:
        try:
            recorded = dict(json.loads(raw))
        except (ValueError, TypeError):
            recorded = {}
    todo = []
    paths = [folder / file for file, _ in files]
    for i, (file, _) in enumerate(files):
        try:
            current = recorded.get(file) == [deps[i], _stamp(paths[i])]
        except OSError:
            current = False
        if current:
            kept.append(paths[i])
        else:
            todo.append(i)
    for i, data in zip(todo, make(todo) if todo else []):
        if write_changed(paths[i], data):
            produced.append(f"{name}:{files[i][0]}")
    if c is not None:
        try:
            entries = {file: [deps[i], _stamp(paths[i])] for i, (file, _) in enumerate(files)}
        except OSError:
            return paths
        c.put(record_key, json.dumps(entries).encode())
    return paths


def write_changed(path: Path, data: bytes) -> bool:
    """Write data to path unless path holds exactly that already; then the file, its time and
    all, stays as it was and counts as kept (the build says "unchanged"). True if written.
    A build without the cache (--no-cache: nothing reused) writes every file."""
    from builder.atomic import write_bytes

    if _active_cache() is not None and _same_bytes(path, data):
        kept.append(Path(path))
        return False
    write_bytes(path, data)
    return True


def _same_bytes(path: Path, data: bytes) -> bool:
    """Whether path holds exactly data (compared only when the sizes agree)."""
    try:
        if path.stat().st_size != len(data):
            return False
        return path.read_bytes() == data
    except OSError:
        return False


def _active_cache() -> Cache | None:
    from builder import cache

    return cache.active()
