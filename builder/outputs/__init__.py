"""Output builders: each format is one module with a build(game, out_dir) -> [paths] function."""

from __future__ import annotations

from pathlib import Path

from builder.model.game_model import Game
from builder.outputs import json_model

BUILDERS = {"json": json_model.build}


def build_game(game: Game, formats, out_root: Path) -> list[Path]:
    """Build the chosen formats of one game into out_root/<slug>/."""
    out_dir = out_root / game.slug
    written: list[Path] = []
    for fmt in formats:
        written.extend(BUILDERS[fmt](game, out_dir))
    return written
