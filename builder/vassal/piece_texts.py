"""The encoded texts of the units' pieces, kept between builds in one build-cache entry per kind.

Encoding a piece (VASSAL's nested, escaped trait lists) is most of the module's XML and saved
games: a 4,000-unit game encoded 8,000 pieces in 3 s after one counter changed. A unit's piece
is made from its row and game.toml alone (pieces.unit_piece), and its expanded form also from
the prototypes, so each text is kept under the unit's row digest in a table keyed by the rest;
a build encodes only the units whose rows changed. One entry per table, not one per unit: 8,000
cache reads took a second. Without an active cache everything is encoded, as before.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable

from builder import cache, keys
from builder.model.counters import Unit
from builder.model.game_model import Game


class TextTable:
    """Texts by unit, read from the cache once and written back when a build made new ones
    (holding only the units of this build, so the table never grows stale)."""

    def __init__(self, game: Game, kind: str, *parts):
        self.game = game
        self._key = cache.key(("unit-piece-texts", kind, keys.slice_digest(game, "info"), *parts))
        store = cache.active()
        raw = store.get(self._key) if store is not None else None
        try:  # pickled: a campaign's table is 7 MB of escaped text, which JSON took 0.1 s to read
            self._known: dict[str, str] = pickle.loads(raw) if raw is not None else {}
        except Exception:  # noqa: BLE001 - a damaged entry is an empty table
            self._known = {}
        self._used: dict[str, str] = {}
        self._made = False

    def text(self, u: Unit, make: Callable[[], str]) -> str:
        digest = keys.item_digest(self.game, u)
        hit = self._used.get(digest)
        if hit is None:
            hit = self._known.get(digest)
            if hit is None:
                hit = make()
                self._made = True
            self._used[digest] = hit
        return hit

    def save(self) -> None:
        store = cache.active()
        if store is not None and (self._made or len(self._used) != len(self._known)):
            store.put(self._key, pickle.dumps(dict(sorted(self._used.items())), protocol=5))
