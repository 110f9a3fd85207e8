"""The module's fixed names and how it names places: what every part of the module (maps,
set-ups, turn events, victory, combat) refers to, below all of them."""

from __future__ import annotations

from collections import Counter

from builder.geometry.hexid import HexId
from builder.model.game_model import Game

VASSAL_VERSION = "3.7.26"
MAIN_MAP = "Main Map"
MAIN_MAP_ID = "Map0"  # VASSAL numbers maps in buildFile order: the main map comes first
MAIN_BOARD = "Map"
BOX_MAP = "Off-map Boxes"
BOX_MAP_ID = "Map1"  # the boxes window is the second map
BOX_BOARD = "Boxes"
MAP_IMAGE = "map.png"
BOX_IMAGE = "offmap-boxes.png"


def hex_or_none(game: Game, text: str) -> HexId | None:
    """The map hex a text names, None when it names none (or the map has sectors)."""
    if not game.is_hex:
        return None
    try:
        h = game.hex(text)
    except ValueError:
        return None
    return h if game.grid.contains(h) else None


def sector_label(game: Game, sector_id: str) -> str:
    """A sector's zone and location name: its name, or its id when two sectors share a name."""
    names = Counter(s.name for s in game.map.sectors)
    s = game.sector_by_id[sector_id]
    return s.name if names[s.name] == 1 else f"{s.name} ({s.id})"
