"""Loading the sample games and fixtures once per test module."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"


@cache
def _load(path: str):
    from builder.load import load_game

    return load_game(Path(path))


def game(name: str):
    """A sample game under sources/ (skipped while its sources are not written yet)."""
    folder = ROOT / "sources" / name
    if not (folder / "game.toml").is_file() or not (folder / "tables.toml").is_file():
        pytest.skip(f"sources/{name} has no game.toml or tables.toml yet")
    return _load(str(folder))


def fixture(name: str):
    return _load(str(FIXTURES / name))
