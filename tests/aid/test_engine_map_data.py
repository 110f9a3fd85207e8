"""The aid's hexside data, found from the sides the map lists, is what walking every hex and its
neighbours finds, in the same order (the page's JSON stays byte for byte the same)."""

from __future__ import annotations

import pytest

from builder.aid.engine_data import _hexsides
from builder.load import find_game, list_games, load_game
from repo_paths import MINI


@pytest.mark.parametrize("name", [*list_games(), str(MINI)])
def test_hexsides_from_the_listed_sides_equal_every_hex_walked(name):
    game = load_game(find_game(name))
    if not game.is_hex:
        pytest.skip("an area map has no hexsides")
    grid = game.grid
    walked = {}
    for h in sorted(grid.all_hexes()):
        for n in grid.neighbours(h):
            types = game.hexside_types_between(h, n)
            if h < n and types:
                walked[f"{grid.label(h)}|{grid.label(n)}"] = list(types)
    assert list(_hexsides(game).items()) == list(walked.items())
    if name in ("scheldt", "europa-terrain"):
        assert walked  # the samples with rivers give something to compare
