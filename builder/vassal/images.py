"""Where the module's pictures come from: the same drawings as the printed components.

The one switch between the module and the renderer (builder.render's contract): the board is the
printed map, each piece the printed counter face, both rasterised at the board's scale.
"""

from __future__ import annotations

from builder.model.game_model import Game
from builder.render import counter_svg, map_svg, svg_to_png


def board_png(game: Game, px_per_mm: float) -> bytes:
    """The whole printed map (all sheets in place) as the main board image."""
    return svg_to_png(map_svg(game), px_per_mm)


def counter_png(game: Game, counter_id: str, face: str, px_per_mm: float) -> bytes:
    """One printed counter face, at the map's scale so pieces fit their hexes as on paper."""
    return svg_to_png(counter_svg(game, counter_id, face), px_per_mm)


def drawing_png(svg: str, px_per_mm: float = 1.0) -> bytes:
    """Any other drawing made with the renderer's SVG helpers (the off-map board)."""
    return svg_to_png(svg, px_per_mm)
