"""The games the VASSAL tests build: every sample and the mini fixture."""

from __future__ import annotations

from pathlib import Path

from builder.load import list_games

ROOT = Path(__file__).resolve().parents[2]
GAMES = list_games() + [str(ROOT / "tests" / "fixtures" / "mini")]


def game_id(name: str) -> str:
    return Path(name).name
