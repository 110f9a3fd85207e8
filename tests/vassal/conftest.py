"""Modules built once per session for the VASSAL tests: every sample game and the mini fixture."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # vmod_cases, vmod_validator, vmod_engine

from vmod_cases import GAMES, game_id

from builder.load import find_game, load_game


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> dict:
    """game id -> (Game, ModuleBuild, path of the written .vmod)."""
    from builder.vassal.module import build_module

    out = tmp_path_factory.mktemp("vmod")
    result = {}
    for name in GAMES:
        game = load_game(find_game(name))
        b = build_module(game)
        path = out / f"{game.slug}.vmod"
        path.write_bytes(b.vmod())
        result[game_id(name)] = (game, b, path)
    return result
