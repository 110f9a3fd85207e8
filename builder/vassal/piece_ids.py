"""Piece slot ids (VASSAL's gpids) derived from what a slot holds, never from where it sits.

VASSAL's Game Refresher finds a saved piece's new definition by its slot id first, so a new
module version must give every unit, marker, card and tool piece the id it had before, whatever
was added, removed or reordered around it. Each slot names itself by a key ('unit:1-16',
'marker:disrupted', 'card:support:smoke#2', 'combat:crt'); its id is a stable hash of that key.

VASSAL 3.7.26 asks three things of the ids (GpIdChecker and GameModule, read from the engine):
they are decimal integers (the editor numbers a non-numeric one afresh, and the refresher
refuses to run on a module with a duplicate or non-numeric one), no two slots share one, and
the module's nextPieceSlotId is above them all (the editor numbers the slots a designer adds
from it upwards). The ids lie in [FIRST, NEXT); NEXT is the module's nextPieceSlotId, leaving
the 147 million ids up to 2**31 - 1 for slots added in the editor.
"""

from __future__ import annotations

import hashlib

FIRST = 1_000_000
NEXT = 2_000_000_000  # the module's nextPieceSlotId: above every derived id


class PieceIdClash(ValueError):
    """Two slots of the module would share one id (the message names both and a fix)."""


def derived(key: str) -> int:
    """The slot id of a key: the same key gives the same id in every build and version."""
    digest = hashlib.blake2b(key.encode("utf-8"), digest_size=8).digest()
    return FIRST + int.from_bytes(digest, "big") % (NEXT - FIRST)


class PieceIds:
    """The slot ids of one module: each key once, each id once (checked as slots are added)."""

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[str, str]] = {}
        self._by_key: dict[str, int] = {}

    def slot(self, key: str, what: str) -> str:
        """The id of a new slot holding `what` (player-readable, for the clash message)."""
        if key in self._by_key:
            raise PieceIdClash(f"two slots of the module are both '{key}' ({what}); each piece "
                               "slot needs a key of its own")
        n = derived(key)
        other = self._by_id.get(n)
        if other is not None:
            raise PieceIdClash(
                f"{other[1]} and {what} would share the VASSAL piece id {n} (derived from "
                f"'{other[0]}' and '{key}'): give one of the two another id in the sources (its "
                "pieces in games saved with an older version of the module then keep their old "
                "definition when VASSAL refreshes them)")
        self._by_id[n] = (key, what)
        self._by_key[key] = n
        return str(n)

    def of(self, key: str) -> str:
        """The id of a slot already added (a placed piece carries its slot's id)."""
        return str(self._by_key[key])

    def __contains__(self, key: str) -> bool:
        return key in self._by_key

    def keys(self) -> dict[str, int]:
        """Every slot's key and id, in the order the slots were added."""
        return dict(self._by_key)
