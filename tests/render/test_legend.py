"""The map's legend lists each entry once, drawn from what the map uses (issue 16, item 1)."""

from __future__ import annotations

import pytest

from builder.load import find_game, list_games, load_game
from builder.render.map_panel import legend_entries


@pytest.mark.parametrize("name", list_games())
def test_each_legend_entry_once_and_only_what_the_map_uses(name):
    game = load_game(find_game(name))
    names = [n for n, _ in legend_entries(game)]
    keys = [n.casefold().removeprefix("the ").strip() for n in names]
    assert len(keys) == len(set(keys)), names
    m = game.map
    used = ({t for s in m.sectors for t in s.terrain} if not game.is_hex
            else {t for ts in game.hex_terrain.values() for t in ts})
    for t in m.terrain_types:
        assert (t.name in names) == (t.id in used) or t.name.casefold() in keys, t.name
    if game.is_hex:
        for ht in m.hexside_types:
            if not any(h.type == ht.id for h in m.hexsides):
                assert ht.name not in names, ht.name


def test_a_name_shown_two_ways_is_one_entry_with_both_samples():
    game = load_game(find_game("vimy-ridge"))
    entries = dict(legend_entries(game))
    from builder.render.map_panel import feature_sample

    swatch = feature_sample(game, game.terrain_types["peak"], 0, 0, 6)
    peak = entries["Peak"](0, 0, 6)
    assert peak.startswith(swatch) and len(peak) > len(swatch)  # the peak symbol drawn on it


@pytest.mark.parametrize("name", ["eben-emael"])
def test_an_area_map_legend_shows_areas_not_hexes(name):
    """On an area map each terrain swatch is a patch of ground (five corners), not a hexagon."""
    import re

    game = load_game(find_game(name))
    for label, draw in legend_entries(game):
        tt = next((t for t in game.map.terrain_types if t.name == label), None)
        if tt is None:
            continue
        patch = re.search(r'<polygon points="([^"]+)"', draw(0, 0, 6))
        assert patch, label
        assert len(patch.group(1).split()) == 5, f"{label}: not an area swatch"
