"""Map PDFs read back: hex numbers in the text layer where the geometry puts them, every hex and
sector present, vector only with embedded fonts, byte-identical rebuilds."""

from __future__ import annotations

import itertools
import re

import pdfplumber
import pytest

from builder.render import map_layout, map_svg
from builder.render.pages import map_pages
from tests.render.pdfread import overlapping_words, words


def _hex_numbers_at_their_places(page, layout, hexes, offset, hex_mm, col_digits, row_digits):
    ox, oy = offset
    found = {}
    for w in words(page):
        found.setdefault(w["text"], []).append(w)
    for h in hexes:
        label = f"{h.col:0{col_digits}d}{h.row:0{row_digits}d}"
        x, y = layout.hex_center_mm(h)
        x, y = x + ox, y + oy
        hits = [
            w
            for w in found.get(label, [])
            if abs(w["cx"] - x) < 0.3
            and y - hex_mm / 2 - 0.1 <= w["top"]
            and w["bottom"] < y - hex_mm / 4
        ]
        assert hits, f"hex {label} not printed at ({x:.2f}, {y:.2f})"


def _offset(game, svg, paper):
    """Where the map drawing sits on its (single) page."""
    pages = map_pages(game, svg, paper)
    assert len(pages) == 1, "the test map should fit one page"
    layer = pages[0].layers[1]
    return layer.x, layer.y


def test_every_hex_number_in_the_text_layer(built, games):
    g = games["mini"]
    layout = map_layout(g)
    offset = _offset(g, map_svg(g), g.info.paper)
    with pdfplumber.open(built["mini"]["map"]) as pdf:
        assert len(pdf.pages) == 1
        _hex_numbers_at_their_places(
            pdf.pages[0],
            layout,
            layout.hexes,
            offset,
            g.grid.hex_mm,
            g.map.column_digits,
            g.map.row_digits,
        )


def test_adjoining_sheets_print_joined_with_their_ids(built, games):
    """The fixture's two sheets touch: they print as one map (as the module's board joins
    them), each sheet's hexes at their place and each sheet named (issue 39, item 5)."""
    g = games["render-sheets"]
    whole = map_layout(g)
    assert whole.print_ids == ["16A+16B"]
    layout = whole.sheet_layout("16A+16B")
    offset = _offset(g, map_svg(g, "16A+16B"), g.info.paper)
    with pdfplumber.open(built["render-sheets"]["map"]) as pdf:
        page = pdf.pages[0]
        _hex_numbers_at_their_places(page, layout, layout.hexes, offset, g.grid.hex_mm, 2, 2)
        text = page.extract_text(x_tolerance=1)
        assert "Sheet 16A" in text and "Sheet 16B" in text
        # the legend and tracks of a multi-sheet map follow the sheets
        assert "TURN RECORD TRACK" in pdf.pages[-1].extract_text(x_tolerance=1)


def test_every_sector_is_named_near_its_centre(games, tmp_path):
    from builder.outputs.print import build_pdf

    g = games["render-area"]
    layout = map_layout(g)
    offset = _offset(g, map_svg(g), "a3")
    paths = build_pdf(g, tmp_path, map_sheet="a3")
    with pdfplumber.open(paths[0]) as pdf:
        assert len(pdf.pages) == 1 and round(float(pdf.pages[0].width)) == 842  # A3 portrait
        ws = words(pdf.pages[0])
    for s in g.map.sectors:
        x, y = layout.sector_center_mm(s.id)
        x, y = x + offset[0], y + offset[1]
        for part in s.name.split():
            assert any(
                w["text"] == part and abs(w["cx"] - x) < 25 and abs(w["top"] - y) < 12 for w in ws
            ), (s.id, part)
        # player material: the sector's raw id is never printed (issue 16)
        assert not any(w["text"] in (s.id, s.id.upper()) for w in ws), s.id
        if s.mg:
            assert any(w["text"] == str(s.mg) for w in ws)


@pytest.mark.parametrize("name", ["mini", "render-sheets", "render-area"])
def test_pdfs_are_vector_with_embedded_fonts(built, name):
    for kind, path in built[name].items():
        data = path.read_bytes()
        assert b"/FontFile2" in data or b"/FontFile3" in data, (kind, "fonts not embedded")
        with pdfplumber.open(path) as pdf:
            for page in pdf.pages:
                assert not page.images, f"{kind}: a raster image on page {page.page_number}"
                assert page.chars, f"{kind}: no text layer on page {page.page_number}"
                for ch in page.chars[:50]:
                    assert re.match(r"^[A-Z]{6}\+DejaVu", ch["fontname"]), ch["fontname"]


def test_rebuilds_are_byte_identical(games, tmp_path, monkeypatch):
    from builder.outputs import print as print_out

    g = games["render-area"]
    a = print_out.build_pdf(g, tmp_path / "a")
    print_out._CACHE.clear()
    b = print_out.build_pdf(g, tmp_path / "b")
    for pa, pb in zip(a, b):
        assert pa.read_bytes() == pb.read_bytes(), pa.name
    assert b"/CreationDate (20000101000000Z)" in a[0].read_bytes()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    print_out._CACHE.clear()
    c = print_out.build_pdf(g, tmp_path / "c")
    assert b"/CreationDate (20231114221320Z)" in c[0].read_bytes()


def test_a_big_map_is_tiled_with_overlaps_that_cover_it(games):
    g = games["render-area"]
    svg = map_svg(g)
    layout = map_layout(g)
    pages = map_pages(g, svg, "letter")
    assert pages[0].label == "map assembly"
    tiles = pages[1:]
    assert len(tiles) >= 2
    covered = []
    for p in tiles:
        layer = p.layers[1]
        cx, cy, cw, ch = layer.clip
        covered.append((cx - layer.x, cy - layer.y, cx - layer.x + cw, cy - layer.y + ch))
    # every point of the map is on some tile, and neighbouring tiles share a strip
    for x in range(0, int(layout.width_mm), 5):
        for y in range(0, int(layout.height_mm), 5):
            assert any(a <= x <= c and b <= y <= d for a, b, c, d in covered), (x, y)
    ys = sorted({b for _, b, _, _ in covered})
    for upper, lower in itertools.pairwise(ys):
        bottom_of_upper = max(d for _, b, _, d in covered if b == upper)
        assert bottom_of_upper - lower >= 10.0


def test_pdfs_parse_cleanly_with_qpdf(built):
    """Every page's resources parse (cairo 1.16 once repeated keys for a counter's copies)."""
    pikepdf = pytest.importorskip("pikepdf")
    for name, paths in built.items():
        for kind, path in paths.items():
            with pikepdf.open(path) as pdf:
                for n, page in enumerate(pdf.pages):
                    res = page.obj.get("/Resources")
                    assert res is not None and len(res.keys()) > 0, (name, kind, n)


@pytest.mark.parametrize("name", ["mini", "render-sheets", "render-area"])
def test_no_two_words_on_a_fixture_map_page_overlap(built, name):
    """Title, north arrow, sheet tag, names and hex numbers of the fixtures' maps, sheet by
    sheet, read from the text layer (issue 16, item 2)."""
    with pdfplumber.open(built[name]["map"]) as pdf:
        for page in pdf.pages:
            assert overlapping_words(page) == [], (name, page.page_number)
