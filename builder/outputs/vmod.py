"""The VASSAL module: output/<game>/<game>.vmod, loadable by VASSAL 3.7."""

from __future__ import annotations

from pathlib import Path

from builder.atomic import write_bytes
from builder.model.game_model import Game


def build(game: Game, out_dir: Path) -> list[Path]:
    from builder.vassal.module import build_module

    return [write_bytes(out_dir / f"{game.slug}.vmod", build_module(game).vmod())]
