"""Modules built once per session for the VASSAL tests: every sample game and the mini fixture."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # vmod_cases, vmod_validator, vmod_engine

from vmod_cases import GAMES, game_id


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> dict:
    """game id -> (Game, ModuleBuild, path of the written .vmod)."""
    from tests.vassal_combat.engine import game_module, module_file

    out = tmp_path_factory.mktemp("vmod")
    result = {}
    for name in GAMES:  # the builds the engine tests of each game use too (one per process)
        game, b, _ = game_module(name)
        result[game_id(name)] = (game, b, module_file(name, out))
    return result
