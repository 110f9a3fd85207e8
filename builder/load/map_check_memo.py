"""Remembers that a hex map passed its checks, so a rebuild after a counter edit does not
re-check 34,000 hexes (0.65 s of a campaign game's one-counter rebuild).

A pass is kept under a digest of everything check_hex_map reads: map.toml and game.toml as
written (sides, boxes), the box ids the other files declare and the builder's code. A map that
drew any problem or warning, or that has artwork (an image file the check opens), is never kept:
it is checked afresh every time, and its messages are worded every time.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

KEEP = 32  # passes kept; older ones are removed


def memo_key(game_src, map_src, raw_boxes, has_artwork: bool) -> str | None:
    """The digest of check_hex_map's inputs, or None when this map is not to be remembered."""
    if game_src is None or map_src is None or has_artwork:
        return None
    from builder.cache import code_fingerprint

    h = hashlib.sha256(code_fingerprint())
    try:
        for path in (game_src.path, map_src.path):
            h.update(Path(path).read_bytes() + b"\0")
    except OSError:
        return None
    h.update("\0".join(sorted(raw_boxes)).encode())
    return h.hexdigest()


def _path(key: str) -> Path:
    from builder.load.model_cache import cache_dir

    return cache_dir() / f"map-checked-{key}"


def recalled(key: str) -> tuple[int, int] | None:
    """(hexes on the map, hex references counted) of an earlier pass with the same inputs."""
    try:
        hexes, refs = _path(key).read_text().split()
        return int(hexes), int(refs)
    except (OSError, ValueError):
        return None


def remember(key: str, hexes: int, refs: int) -> None:
    from builder.atomic import write_text
    from builder.load.model_cache import keep_newest

    path = _path(key)
    try:
        write_text(path, f"{hexes} {refs}")
        keep_newest(path.parent, "map-checked-*", KEEP)
    except OSError:
        pass  # not kept: the next run checks again
