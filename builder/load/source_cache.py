"""Source files read before, kept under their bytes: a rebuild after one edited file reads only it.

After one counter changed, a campaign rebuild parsed map.toml again (137 KB of terrain: 0.07 s of
TOML) and checked every set-up row again, before any drawing could start. What reading one file
gives (a parsed TOML with its line index, a CSV file's validated rows) depends only on the
builder's code, the file's path and its bytes, so it is pickled under a digest of the three and
read back (a few milliseconds) while they stay the same. The checks across files
(builder.load.checks) still run every time.

A file that gave a problem or a warning is never kept: it is read again and says so again. The
entries live beside the validated models (model_cache.cache_dir()/sources); an entry that cannot
be read is simply read from its file again.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from pathlib import Path
from typing import Callable, TypeVar

from builder.errors import Collector
from builder.load.source_bytes import MAX_SOURCE_BYTES, read_bytes

T = TypeVar("T")
KEEP = 64  # readings kept: a few games of a handful of files, several versions each (a campaign
# counters.csv reads to 0.6 MB)
FOLDER = "sources"


def cached(kind: str, path: Path, errors: Collector, read: Callable[[], T]) -> T:
    """read(), or what it gave last time for this kind of reading of the same path and bytes
    with the same builder code; kept only when it added no problem or warning to errors."""
    key = _key(kind, path, errors)
    if key is None:
        return read()
    from builder.load.model_cache import cache_dir

    entry = cache_dir() / FOLDER / f"{key}.pickle"
    try:
        value = pickle.loads(entry.read_bytes())
        os.utime(entry)  # recently used
        return value
    except Exception:  # absent, torn or from another version: read the file
        pass
    before = (len(errors.problems), len(errors.warnings), errors.dropped)
    value = read()
    clean = (len(errors.problems), len(errors.warnings), errors.dropped) == before
    # kept only if the file still holds the bytes keyed: one saved while it was being read
    # would otherwise be remembered as the old bytes' reading
    if clean and _key(kind, path, errors) == key:
        from builder.load import later

        later.write(lambda: _store(entry, value))
    return value


def _key(kind: str, path: Path, errors: Collector) -> str | None:
    """The digest of the code, the reading, the path and the file's bytes; None when the file
    cannot be read as a source (the reading itself then reports why)."""
    import pydantic

    from builder.cache import code_fingerprint

    data = read_bytes(path, Collector(errors.root), MAX_SOURCE_BYTES)  # the same checks
    if data is None:
        return None
    h = hashlib.sha256(code_fingerprint())
    for part in (sys.version, pydantic.VERSION, kind, str(path), os.path.abspath(path)):
        h.update(part.encode() + b"\0")
    h.update(data)
    return h.hexdigest()


def _store(entry: Path, value) -> None:
    """Write the entry whole or not at all (not synced: a lost entry is only read again), then
    keep the KEEP most recently used."""
    from builder.atomic import write_bytes
    from builder.load.model_cache import keep_newest

    try:
        write_bytes(entry, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), sync=False)
        keep_newest(entry.parent, "*.pickle", KEEP)
    except (OSError, pickle.PicklingError):
        pass  # not kept: the next build reads the file again
