"""Printable components drawn as SVG (mm user units), converted to vector PDF and PNG.

Contract (used by the print builder and the VASSAL module builder; kept stable):

- ``map_layout(game) -> MapLayout``: ``.width_mm``, ``.height_mm`` of the whole printed map;
  ``.hex_center_mm(hex)`` ('2717', '16A:0827' or a HexId)
  = ``.origin_mm`` + ``game.grid.center_mm(hex)`` (origin = the map's left margin and title
  band); ``.sheet_layout(sheet_id)`` the same for one sheet of a multi-sheet map drawn alone;
  ``.hex_corners_mm(hex)``; area maps:
  ``.sector_center_mm(sector_id)`` (a point well inside) and ``.sector_outline_mm(sector_id)``.
  A map with supplied art (map.toml ``[artwork]``) prints the image, scaled and placed by its
  calibration onto this same geometry.
- ``map_svg(game, sheet=None, part="whole") -> str``: the map (whole, or one sheet), an SVG whose
  viewBox makes one user unit one millimetre, ``layout.width_mm`` x ``layout.height_mm``;
  ``part`` = "hexes" (a sheet's hexes on a transparent ground), "surround" (the whole map
  without hexes) or "joins" (the sheet boundaries alone), laid over each other in that order
  they make the whole map of a campaign too large to rasterise at once.
- ``counter_svg(game, counter_id, face="front"|"back") -> str``: one unit or marker face, exactly
  its counter size (round markers: the disc on a transparent square).
- ``svg_to_png(svg, px_per_mm) -> bytes``; ``svg_to_pdf(svg) -> bytes`` (vector, fonts embedded,
  fixed dates: SOURCE_DATE_EPOCH or 2000-01-01).

Colours, fonts and sizes live in ``style``; page layout (sheets, duplex, tiling) in ``pages``.
"""

from __future__ import annotations

from builder.render.counters import counter_svg
from builder.render.layout import MapLayout
from builder.render.map_layout import map_layout

__all__ = ["MapLayout", "counter_svg", "map_layout", "map_svg", "svg_to_pdf", "svg_to_png"]


def svg_to_png(svg: str, px_per_mm: float) -> bytes:
    from builder.render import convert  # cairo loads here: `builder check` never needs it

    return convert.svg_to_png(svg, px_per_mm)


def svg_to_pdf(svg: str, title: str = "") -> bytes:
    from builder.render import convert

    return convert.svg_to_pdf(svg, title)


def map_svg(game, sheet: str | None = None, part: str = "whole") -> str:
    """The printed map as SVG in mm: the whole map, or one sheet of a multi-sheet map; `part`
    (hex maps) one layer of it for rasterising a campaign map piece by piece (map_hex.draw)."""
    from builder.model.maps import AreaMap

    layout = map_layout(game)
    if isinstance(game.map, AreaMap):
        from builder.render.map_area import draw_area_map

        return draw_area_map(game, layout)
    from builder.render.map_hex import draw_hex_map

    return draw_hex_map(game, layout if sheet is None else layout.sheet_layout(sheet), part)
