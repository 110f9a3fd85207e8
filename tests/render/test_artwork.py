"""Supplied map art: printed in place of drawn terrain, placed so its calibrated hexes sit on the
grid (the one geometry), and refused with a clear message when the file is missing."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from builder.errors import SourceError
from builder.load import load_game
from builder.render import map_layout, map_svg
from builder.render.artwork import placement
from builder.render.pages import map_pages

ART = Path(__file__).resolve().parents[1] / "fixtures" / "render-artwork"


def test_calibrated_hexes_land_on_the_grid():
    g = load_game(ART)
    bx, by, ax, ay = placement(g)
    for hex_text, px, py in g.map.artwork.calibration:
        gx, gy = g.grid.center_mm(g.hex(hex_text))
        assert bx + ax * px == pytest.approx(gx, abs=1e-6)
        assert by + ay * py == pytest.approx(gy, abs=1e-6)
    assert ax == pytest.approx(1 / 6, rel=1e-3)  # the scan was made at 6 px/mm


def test_the_pdf_prints_the_image_where_the_calibration_puts_it(tmp_path):
    from PIL import Image

    from builder.outputs.print import build_pdf

    g = load_game(ART)
    layout = map_layout(g)
    bx, by, ax, ay = placement(g)
    with Image.open(ART / g.map.artwork.image) as im:
        w_px, h_px = im.size
    page = map_pages(g, map_svg(g), g.info.paper)[0]
    ox, oy = page.layers[1].x + layout.origin_mm[0], page.layers[1].y + layout.origin_mm[1]
    path = build_pdf(g, tmp_path)[0]
    with pdfplumber.open(path) as pdf:
        images = pdf.pages[0].images
    assert len(images) == 1
    img = images[0]
    pt = 25.4 / 72
    # the image is clipped to the map frame, but its placement (and so its scale) is exact
    assert img["x0"] * pt == pytest.approx(ox + bx, abs=0.05)
    assert img["top"] * pt == pytest.approx(oy + by, abs=0.05)
    assert img["width"] * pt == pytest.approx(ax * w_px, abs=0.05)
    assert img["height"] * pt == pytest.approx(ay * h_px, abs=0.05)
    assert "0101" not in map_svg(g).split('id="artwork"')[0]  # no drawn hex numbers over the art


def test_missing_artwork_file_is_a_source_error(tmp_path):
    import shutil

    folder = tmp_path / "art-missing"
    shutil.copytree(ART, folder)
    (folder / "art" / "map.png").unlink()
    # the loader reports it (file, key and fix) before anything is drawn
    with pytest.raises(SourceError, match="artwork.image"):
        load_game(folder)
