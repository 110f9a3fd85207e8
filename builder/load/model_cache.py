"""The validated model of a game, kept between commands so a quick lookup does not re-check it.

`builder calc` on a campaign game (20 map sheets, 34,000 hexes) spent 0.24 s of its 0.5 s
re-validating a map the previous command had already checked. A game whose source files and
builder code are byte-identical validates to the same model, so the model is pickled under a
digest of both and read back next time (20 ms). Sources with problems are never stored: they
raise SourceError on every run, as before.

Where: $BUILDER_CACHE_DIR, else $XDG_CACHE_HOME/builder, else ~/.cache/builder. A cache that
cannot be read or written is simply not used.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from pathlib import Path

from builder.model.game_model import Game

KEEP = 32  # models kept; the least recently used beyond this are removed


def cache_dir() -> Path:
    if os.environ.get("BUILDER_CACHE_DIR"):
        return Path(os.environ["BUILDER_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "builder"


def _key(folder: Path) -> str:
    import pydantic

    from builder.cache import code_fingerprint
    from builder.incremental import sources_digest

    h = hashlib.sha256(code_fingerprint())
    # the model records the folder as given and its resolved name (the slug)
    for part in (str(folder), str(folder.resolve()), sources_digest(folder),
                 sys.version, pydantic.VERSION):
        h.update(part.encode() + b"\0")
    return h.hexdigest()


def load_game_cached(folder: Path | str, load) -> Game:
    """`load(folder)`, or the model it returned last time for the same sources and code."""
    folder = Path(folder)
    if not folder.is_dir():
        return load(folder)  # the loader words the error
    try:
        key = _key(folder)
    except OSError:
        return load(folder)
    path = cache_dir() / f"model-{key}.pickle"
    try:
        game = pickle.loads(path.read_bytes())
        if isinstance(game, Game):
            os.utime(path)  # recently used
            return game
    except Exception:  # absent, unreadable or from another version: validate afresh
        pass
    game = load(folder)
    try:  # a source saved while it was read: not remembered as the old sources' model
        unchanged = _key(folder) == key
    except OSError:
        unchanged = False
    if unchanged:
        from builder.load import later

        later.write(lambda: _store(path, game))
    return game


def _store(path: Path, game: Game) -> None:
    from builder.atomic import write_bytes

    try:
        write_bytes(path, pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL))
        keep_newest(path.parent, "model-*.pickle", KEEP)
    except (OSError, pickle.PicklingError):
        pass  # not stored: the next command validates again


def keep_newest(folder: Path, pattern: str, keep: int) -> None:
    """Remove the files matching pattern in folder beyond the `keep` most recently used."""
    found = sorted(folder.glob(pattern), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in found[keep:]:
        old.unlink(missing_ok=True)
