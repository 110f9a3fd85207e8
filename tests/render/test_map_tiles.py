"""Maps printed on tiles as a publisher would (issue 39, item 5): marks only in the margins or on
the glue strips the next tile covers; no sheet printed twice; adjoining sheets joined as the
module joins them, with an assembly page; no tile page mostly blank; titles and counter backs
whole."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest
from PIL import Image

from builder.load import find_game, load_game
from builder.outputs.print import print_set
from builder.render import map_layout, style
from builder.render.convert import page_to_png, svg_size_mm
from builder.render.pages import map_pages, tiling
from builder.views import player_view
from tests.render.conftest import FIXTURES as FIXTURES_DIR
from tests.render.conftest import SAMPLES

GAMES = SAMPLES + ("render-sheets", "render-area")


def _game(name):
    folder = find_game(name) if name in SAMPLES else FIXTURES_DIR / name
    return player_view(load_game(folder))


def _tiles(game):
    """(page, its tiling, column, row) of every map tile page of the game's print."""
    ps = print_set(game)
    out = []
    for page in ps.map_pages:
        m = re.search(r" tile ([A-Z])(\d+)$", page.label)
        if not m:
            continue
        layer = page.layers[1]
        map_w, map_h = svg_size_mm(layer.svg)
        out.append((page, tiling(map_w, map_h, game.info.paper), ord(m.group(1)) - 65,
                    int(m.group(2)) - 1))
    return out


def _boxes(svg: str):
    """Rough boxes (x0, y0, x1, y1) in mm of the lines, rectangles and texts of a marks layer."""
    for m in re.finditer(r"<line ([^>]*)/>", svg):
        a = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1)))
        xs, ys = (float(a["x1"]), float(a["x2"])), (float(a["y1"]), float(a["y2"]))
        yield "line", (min(xs), min(ys), max(xs), max(ys))
    for m in re.finditer(r"<rect ([^>]*)/>", svg):
        a = dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(1)))
        x, y = float(a.get("x", 0)), float(a.get("y", 0))
        yield "rect", (x, y, x + float(a["width"]), y + float(a["height"]))
    for m in re.finditer(r"<text ([^>]*)>", svg):
        a = dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(1)))
        if "x" in a:
            x, y = float(a["x"]), float(a["y"])
        else:  # turned text: placed by its transform
            x, y = map(float, re.search(r"translate\(([-\d.]+)[ ,]([-\d.]+)", a["transform"]).groups())
        yield "text", (x - 1, y - 1, x + 1, y + 1)


@pytest.mark.parametrize("name", GAMES)
def test_marks_lie_only_in_margins_or_on_glue_strips(name):
    """Nothing the tile marks lies on the piece a player keeps (the strips right of and below
    it are covered by the neighbours; the rest of the page is margin)."""
    game = _game(name)
    m = style.PAGE_MARGIN
    from builder.render.pages import HEADER

    for page, t, i, j in _tiles(game):
        px, py = m, m + HEADER
        piece = (px + 0.01, py + 0.01, px + t.piece_w - 0.01, py + t.piece_h - 0.01)
        for kind, (x0, y0, x1, y1) in _boxes(page.layers[2].svg):
            inside = x0 < piece[2] and x1 > piece[0] and y0 < piece[3] and y1 > piece[1]
            assert not inside, (name, page.label, kind, (x0, y0, x1, y1), piece)


@pytest.mark.parametrize("name", GAMES)
def test_pieces_cover_the_map_once(name):
    """The pieces the tiles keep cover the map with no gap and no overlap: no part of a map
    (nor a sheet) is printed twice, and each tile's glue strip is at least the glue width."""
    game = _game(name)
    for page, t, i, j in _tiles(game):
        layer = page.layers[1]
        map_w, map_h = svg_size_mm(layer.svg)
        assert t.nx * t.piece_w == pytest.approx(map_w) and t.ny * t.piece_h == pytest.approx(map_h)
        x0, y0, tw, th = t.window(i, j, map_w, map_h)
        assert x0 == pytest.approx(i * t.piece_w) and y0 == pytest.approx(j * t.piece_h)
        if i < t.nx - 1:
            assert tw - t.piece_w >= style.TILE_OVERLAP - 1e-6
        if j < t.ny - 1:
            assert th - t.piece_h >= style.TILE_OVERLAP - 1e-6


@pytest.mark.parametrize("name", GAMES)
def test_each_sheet_is_printed_in_one_map(name):
    game = _game(name)
    layout = map_layout(game)
    if not layout.sheet_ids:
        return
    printed = [s for pid in layout.print_ids for s in layout.sheet_layout(pid).group or [pid]]
    assert sorted(printed) == sorted(layout.sheet_ids)


def test_europa_joins_its_adjoining_sheets_with_an_assembly_page():
    game = _game("europa-terrain")
    layout = map_layout(game)
    assert layout.print_ids[0] == "16A+16B+17A+17B"
    assert set(layout.print_ids[1:]) == {"4A", "2A", "15B", "19A", "22A", "35"}
    labels = [p.label for p in print_set(game).map_pages]
    joined = "map, sheets 16A, 16B, 17A and 17B"
    assert f"{joined} assembly" in labels and any(lb.startswith(f"{joined} tile") for lb in labels)
    assert sum("sheet 19A" in lb for lb in labels) == 1  # it fits one page: printed once
    assert not any("key and tracks" in lb for lb in labels)  # the key is in the joined map


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_no_tile_page_is_mostly_blank(name):
    """On each tile, at least half of the printed map, cut in 15 mm squares, shows something
    (a square of one flat colour shows nothing: an empty margin, ground or panel)."""
    game = _game(name)
    for page, t, i, j in _tiles(game):
        cx, cy, cw, ch = page.layers[1].clip
        img = np.asarray(Image.open(io.BytesIO(page_to_png(page, 2.0))).convert("RGB"))
        sub = img[int(cy * 2):int((cy + ch) * 2), int(cx * 2):int((cx + cw) * 2)].astype(float)
        n = 30
        cells = [sub[y:y + n, x:x + n].reshape(-1, 3) for y in range(0, sub.shape[0] - n + 1, n)
                 for x in range(0, sub.shape[1] - n + 1, n)]
        busy = sum(c.std(axis=0).max() > 6 for c in cells) / len(cells)
        assert busy >= 0.5, (name, page.label, round(busy, 2))


def test_a_sheet_a_little_wider_than_the_page_prints_on_one_page():
    """Europa's 19A is 198 mm wide: one Letter page in a slimmer margin, not two tiles."""
    game = _game("europa-terrain")
    from builder.render import map_svg

    pages = map_pages(game, map_svg(game, "19A"), "letter", "map sheet 19A")
    assert len(pages) == 1


def test_the_map_title_does_not_repeat_its_dates():
    from builder.render.map_frame import subtitle

    game = _game("vimy-ridge")
    assert subtitle(game, game.map.title) == "Arras Diversion"


@pytest.mark.parametrize("name", SAMPLES)
def test_a_counter_back_prints_its_games_title_whole(name):
    """A designed back prints the title whole (on one or two lines) or words of it that name
    the game ('Scheldt' for 'Battle of the Scheldt'), never a fragment ('Ridge')."""
    from builder.render.counters import _LEADING, _title_lines, short_title

    game = _game(name)
    words = short_title(game).split()
    for lines in _title_lines(game, 10.0):
        if not lines:
            continue
        shown = " ".join(lines).split()
        dropped = words[: len(words) - len(shown)]
        assert shown == words[len(dropped):], (shown, words)
        assert all(w.casefold() in _LEADING for w in dropped), shown
