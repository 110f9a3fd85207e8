"""The drawing contract other outputs rely on: layout positions, SVG sizes, conversions."""

from __future__ import annotations

import re
import struct

import pytest

from builder.render import counter_svg, map_layout, map_svg, style, svg_to_pdf, svg_to_png
from builder.render.layout import point_in_polygon


def _viewbox(svg: str) -> tuple[float, ...]:
    m = re.search(r'viewBox="([^"]+)"', svg)
    return tuple(float(v) for v in m.group(1).split())


def test_hex_centre_is_margin_plus_grid(games):
    g = games["mini"]
    layout = map_layout(g)
    for text in ("0101", "0202", "0605"):
        gx, gy = g.grid.center_mm(g.hex(text))
        x, y = layout.hex_center_mm(text)
        assert x == pytest.approx(layout.origin_mm[0] + gx)
        assert y == pytest.approx(layout.origin_mm[1] + gy)
    assert layout.origin_mm == pytest.approx((style.MAP_MARGIN, style.MAP_TITLE_BAND))


def test_sheet_layouts_place_each_sheet_on_its_own(games):
    g = games["render-sheets"]
    layout = map_layout(g)
    assert layout.sheet_ids == ["16A", "16B"]
    b = layout.sheet_layout("16B")
    x, _ = b.hex_center_mm("16B:0101")
    assert x == pytest.approx(style.MAP_MARGIN + g.grid.radius_mm)
    # on the whole map the same hex sits one sheet further right
    whole_x, _ = layout.hex_center_mm("16B:0101")
    assert whole_x - x == pytest.approx(6 * 1.5 * g.grid.radius_mm)
    with pytest.raises(KeyError):
        b.hex_center_mm("16A:0101")
    with pytest.raises(KeyError):
        layout.sheet_layout("16C")


def test_map_svg_is_layout_sized_in_mm(games):
    for name in ("mini", "render-area"):
        g = games[name]
        layout = map_layout(g)
        svg = map_svg(g)
        assert _viewbox(svg) == pytest.approx((0, 0, layout.width_mm, layout.height_mm), abs=1e-3)
        assert f'width="{layout.width_mm:.3f}'.rstrip("0").rstrip(".") in svg
    g = games["render-sheets"]
    sheet = map_layout(g).sheet_layout("16A")
    assert _viewbox(map_svg(g, "16A"))[2:] == pytest.approx(
        (sheet.width_mm, sheet.height_mm), abs=1e-3
    )


def test_sector_centres_lie_inside_their_sectors(games):
    g = games["render-area"]
    layout = map_layout(g)
    for s in g.map.sectors:
        x, y = layout.sector_center_mm(s.id)
        assert point_in_polygon(x, y, layout.sector_outline_mm(s.id)), s.id


@pytest.mark.parametrize("cid", ["b-1", "sf-2", "turn"])
def test_counter_svg_is_exactly_counter_sized(games, cid):
    svg = counter_svg(games["mini"], cid, "front")
    assert _viewbox(svg) == pytest.approx((0, 0, 15.875, 15.875))
    assert 'width="15.875mm" height="15.875mm"' in svg
    png = svg_to_png(svg, 10)
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (159, 159)


def test_counter_svg_unknown_id_and_face(games):
    with pytest.raises(KeyError, match="no unit or marker 'nope'"):
        counter_svg(games["mini"], "nope")
    with pytest.raises(ValueError, match="face"):
        counter_svg(games["mini"], "b-1", "side")


def test_svg_to_pdf_keeps_true_size(games):
    import io

    import pdfplumber

    svg = counter_svg(games["mini"], "b-1", "back")
    pdf = pdfplumber.open(io.BytesIO(svg_to_pdf(svg)))
    page = pdf.pages[0]
    assert page.width * 25.4 / 72 == pytest.approx(15.875, abs=0.01)
    assert page.height * 25.4 / 72 == pytest.approx(15.875, abs=0.01)
    assert "".join(c["text"] for c in page.chars).startswith("1/1")
