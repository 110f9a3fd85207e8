"""A source file's bytes, read only if it is a regular file inside the game folder and not too
large. Below both the readers (builder.load.files) and the cache of their readings
(builder.load.source_cache), which key a reading by the same bytes."""

from __future__ import annotations

import stat
from pathlib import Path

from builder.errors import Collector

MAX_SOURCE_BYTES = 2 * 1024 * 1024  # a hand-edited TOML or CSV file is far smaller (samples: 31 KB)


def read_bytes(path: Path, errors: Collector, limit: int) -> bytes | None:
    """The file's bytes if it is a regular file inside the game folder and not too large."""
    try:
        info = path.stat()
    except OSError as exc:
        if path.is_symlink():
            errors.add(path, "", f"is a link to {path.readlink()}, which cannot be read "
                       f"({exc.strerror})", "put the file itself in the game folder")
        else:
            errors.add(path, "", f"cannot be read ({exc.strerror})",
                       "check the file exists and is readable")
        return None
    real, root = path.resolve(), errors.root.resolve()
    if not real.is_relative_to(root):
        errors.add(path, "", f"is a link to {real}, outside the game folder {root}",
                   "put the file itself in the game folder (a game may only read its own folder)")
        return None
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        errors.add(path, "", f"is {kind}", "replace it with a text file of that name")
        return None
    if info.st_size > limit:
        errors.add(path, "", f"is {info.st_size / 2**20:.1f} MiB, larger than the {limit // 2**20} "
                   "MiB a source file may be", "split it or remove generated content")
        return None
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)  # bounded: the file may grow while it is read
    except OSError as exc:
        errors.add(path, "", f"cannot be read ({exc.strerror})", "check the file is readable")
        return None
    if len(data) > limit:
        errors.add(path, "", f"is larger than the {limit // 2**20} MiB a source file may be",
                   "split it or remove generated content")
        return None
    return data
