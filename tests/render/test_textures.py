"""Terrain textures as one tiled <pattern> per terrain: seamless, placed where SVG places it,
defined once per map."""

from __future__ import annotations

import re

import numpy as np
import pytest

from builder.render import cairo_draw, png, terrain_art

SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" '
       'viewBox="0 0 {w} {h}">{body}</svg>')


def _pixels(w: float, h: float, body: str, px_per_mm: float = 10) -> np.ndarray:
    surface = cairo_draw.raster(SVG.format(w=w, h=h, body=body), px_per_mm)
    assert surface is not None, "the cairo writer refused the drawing"
    return png.pixels(surface).astype(int)


@pytest.mark.parametrize("pattern", sorted(terrain_art.AREA))
def test_texture_tiles_join_without_a_seam(pattern):
    """Tiles side by side draw what the endless periodic lattice draws: a symbol crossing a
    tile's edge is whole (its copy on the far side of the tile draws the rest)."""
    hex_mm, seed = 16.0, terrain_art.salt(pattern)
    width, height, pts = terrain_art.tile_lattice(pattern, hex_mm, seed)
    # the central tile's points only (drop the edge copies), laid out for a 3 x 3 block
    own = [(x, y, u, v) for x, y, u, v in pts if 0 <= x < width and 0 <= y < height]
    endless = [(x + i * width, y + j * height, u, v)
               for i in (-1, 0, 1, 2) for j in (-1, 0, 1, 2) for x, y, u, v in own]
    w, h = 2 * width, 2 * height  # two tiles each way: two seams cross the picture
    tiled = _pixels(w, h, terrain_art.texture_pattern("t", pattern, "#88aa66", hex_mm, seed)
                    .join(("<defs>", "</defs>")) + f'<rect width="{w}" height="{h}" '
                    f'fill="url(#t)"/>')
    direct = _pixels(w, h, terrain_art.lattice_symbols(pattern, "#88aa66", endless, hex_mm))
    # a stray edge pixel may differ (cairo samples the repeated tile), a cut symbol leaves a
    # straight edge along the seam: few bad pixels overall, and none gathered on the seams
    bad = np.abs(tiled - direct).max(axis=2) > 40
    assert bad.mean() < 0.001
    seam_x, seam_y = round(width * 10), round(height * 10)  # 10 px/mm
    assert bad[:, seam_x - 2:seam_x + 2].mean() < 0.005, "a seam down the tiles"
    assert bad[seam_y - 2:seam_y + 2, :].mean() < 0.005, "a seam across the tiles"


def test_pattern_is_placed_in_user_space_from_its_origin():
    """A pattern at x=3, y=2 with a 10 x 10 tile whose left half is black: pixel columns 3-8 mm
    are black, 8-13 white, and so on, as an SVG renderer draws it."""
    body = ('<defs><pattern id="p" patternUnits="userSpaceOnUse" x="3" y="2" width="10" '
            'height="10"><rect width="5" height="10" fill="#000000"/></pattern></defs>'
            '<rect x="0" y="0" width="40" height="20" fill="url(#p)"/>')
    px = _pixels(40, 20, body, px_per_mm=4)
    row = px[40, :, 3]  # alpha along a row (unfilled pixels are transparent)
    for mm, alpha in ((4, 255), (7.5, 255), (9, 0), (12.5, 0), (14, 255), (1, 0)):
        assert row[int(mm * 4)] == alpha, f"at {mm} mm"


def test_unknown_pattern_forms_fall_back_to_cairosvg():
    """A pattern builder.render does not write (units of the bounding box) is not guessed at:
    record() returns None, so the caller draws it with CairoSVG."""
    body = ('<defs><pattern id="p" width="0.5" height="0.5"><rect width="1" height="1"/>'
            '</pattern></defs><rect width="10" height="10" fill="url(#p)"/>')
    assert cairo_draw.record(SVG.format(w=20, h=20, body=body)) is None
    # a tile of 10.05 mm: cairo would repeat it every 10.1 mm, so it is not drawn here either
    drift = ('<defs><pattern id="p" patternUnits="userSpaceOnUse" width="10.05" height="10">'
             '<rect width="1" height="1"/></pattern></defs><rect width="20" height="20" '
             'fill="url(#p)"/>')
    assert cairo_draw.record(SVG.format(w=20, h=20, body=drift)) is None
    # text painted with a pattern: only shapes are filled with one here
    lettered = ('<defs><pattern id="p" patternUnits="userSpaceOnUse" width="10" height="10">'
                '<rect width="5" height="10"/></pattern></defs>'
                '<text x="2" y="12" font-size="8" fill="url(#p)">Aa</text>')
    assert cairo_draw.record(SVG.format(w=20, h=20, body=lettered)) is None


def test_a_map_defines_each_texture_once(tmp_path):
    """The Scheldt map: one <pattern> per area terrain on the map, each painted on its hexes in
    one path, and no texture drawn symbol by symbol under a clip of hexes."""
    from pathlib import Path

    from builder.load.game import load_game
    from builder.render import map_svg
    from builder.views import player_view

    game = player_view(load_game(Path(__file__).resolve().parents[2] / "sources" / "scheldt"))
    svg = map_svg(game)
    ids = re.findall(r'<pattern id="(texture-[^"]+)"', svg)
    on_map = {t for ts in game.hex_terrain.values() for t in ts
              if game.terrain_types[t].pattern in terrain_art.AREA}
    assert sorted(ids) == sorted(f"texture-{t}" for t in on_map)
    for pid in ids:
        assert svg.count(f'fill="url(#{pid})"') == 1
    assert 'id="clip-' not in svg
