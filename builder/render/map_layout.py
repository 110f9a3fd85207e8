"""The printed map's layout: the map (its hexes' or sectors' box) with its title band, margins
and the legend-and-tracks panel below, and a layout for each sheet of a multi-sheet map. Above
map_panel (the panel's height), so layout.py stays free of the drawers."""

from __future__ import annotations

from builder.model.game_model import Game
from builder.model.maps import AreaMap
from builder.render import style
from builder.render.layout import Box, MapLayout, grid_bounds
from builder.render.map_panel import panel_height

_LAYOUTS: dict[int, tuple[Game, MapLayout]] = {}


def map_layout(game: Game) -> MapLayout:
    """The whole printed map of a game, with a layout for each sheet of a multi-sheet map
    (made once per loaded game: a campaign map's 34,000 hexes were measured again for each of
    its sheets)."""
    hit = _LAYOUTS.get(id(game))
    if hit is not None and hit[0] is game:
        return hit[1]
    layout = _map_layout(game)
    if len(_LAYOUTS) > 8:
        _LAYOUTS.clear()
    _LAYOUTS[id(game)] = (game, layout)
    return layout


def _map_layout(game: Game) -> MapLayout:

    m = style.MAP_MARGIN
    top = style.MAP_TITLE_BAND
    if isinstance(game.map, AreaMap):
        w, h = game.map.width, game.map.height
        ph = panel_height(game, w)
        frame = Box(m, top, w, h)
        panel = Box(m, top + h + m, w, ph) if ph else None
        height = top + h + m + (ph + m if ph else 0)
        return MapLayout(game, w + 2 * m, height, (m, top), frame, panel)
    hexes = tuple(game.grid.all_hexes())
    b = grid_bounds(game, hexes)
    ph = panel_height(game, b.w)
    frame = Box(m, top, b.w, b.h)
    panel = Box(m, top + b.h + m, b.w, ph) if ph else None
    height = top + b.h + m + (ph + m if ph else 0)
    layout = MapLayout(game, b.w + 2 * m, height, (m - b.x, top - b.y), frame, panel, None, hexes)
    for sheet in getattr(game.map, "sheets", ()):
        own = tuple(hx for hx in hexes if hx.sheet == sheet.id)
        sb = grid_bounds(game, own)
        layout._sheets[sheet.id] = MapLayout(
            game,
            sb.w + 2 * m,
            top + sb.h + m,
            (m - sb.x, top - sb.y),
            Box(m, top, sb.w, sb.h),
            None,
            sheet.id,
            own,
        )
    return layout
