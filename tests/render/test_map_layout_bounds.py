"""The map layout measures only each sheet's outer ring of hexes: the same bounds, origins and
hexes as measuring every hex, for every sample hex map (one sheet and several)."""

from __future__ import annotations

import pytest

from builder.load import find_game, list_games, load_game
from builder.render import style
from builder.render.layout import bounds_of_centres
from builder.render.map_layout import _map_layout
from repo_paths import MINI

HEX_GAMES = [name for name in list_games() if load_game(find_game(name)).is_hex] + [str(MINI)]


@pytest.mark.parametrize("name", HEX_GAMES)
def test_bounds_from_the_outer_ring_equal_bounds_from_every_hex(name):
    game = load_game(find_game(name))
    grid = game.grid
    layout = _map_layout(game)
    m, top = style.MAP_MARGIN, style.MAP_TITLE_BAND

    b = bounds_of_centres(game, [grid.center_mm(h) for h in grid.all_hexes()])
    assert (layout.frame.x, layout.frame.y, layout.frame.w, layout.frame.h) == (m, top, b.w, b.h)
    assert layout.origin_mm == (m - b.x, top - b.y)
    assert layout.hexes == tuple(grid.all_hexes())
    assert grid.hex_count == len(grid.all_hexes())

    sheets = getattr(game.map, "sheets", ())
    for sheet in sheets:
        own = grid.sheet_hexes(sheet.id)
        sb = bounds_of_centres(game, [grid.center_mm(h) for h in own])
        part = layout.sheet_layout(sheet.id)
        assert part.hexes == tuple(own)
        assert part.origin_mm == (m - sb.x, top - sb.y)
        assert (part.width_mm, part.height_mm) == (sb.w + 2 * m, top + sb.h + m)
    if name == "europa-terrain":
        assert len(sheets) > 1


@pytest.mark.parametrize("where", ["bottom", "right", "auto"])
@pytest.mark.parametrize("name", [*list_games(), str(MINI)])
def test_the_board_left_without_its_panel_is_the_printed_map_cut_under_its_frame(name, where):
    # the module's board does not measure the panel under the map (map_layout(panel=False)),
    # but a panel beside it still sets the width: either way, the printed map's place and width
    from builder.vassal.geometry import board_layout

    loaded = load_game(find_game(name))

    def fresh():  # a new game object each time: map_layout keeps one layout per game
        return loaded.model_copy(update={"map": loaded.map.model_copy(update={"legend": where})})

    board, printed = board_layout(fresh()), _map_layout(fresh())
    assert board.panel is None
    assert (board.width_mm, board.origin_mm, board.frame) == \
        (printed.width_mm, printed.origin_mm, printed.frame)
    assert board.height_mm == printed.frame.bottom + style.MAP_MARGIN
    assert board.sheet_ids == printed.sheet_ids
