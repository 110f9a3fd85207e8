"""A campaign map's board is rasterised sheet by sheet and laid together: the result must look
like the whole map drawn at once (tested on a small multi-sheet map with the threshold lowered)."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageStat
from repo_paths import ROOT

from builder.load import load_game
from builder.render import svg_to_png
from builder.vassal import images
from builder.vassal.geometry import BoardGeometry

SHEETS = ROOT / "tests" / "fixtures" / "render-sheets"


def _share_changed(diff: Image.Image) -> float:
    """The share of pixels that differ by more than a quarter of the range."""
    return diff.point(lambda v: 255 if v > 64 else 0).histogram()[255] / (diff.width * diff.height)


@pytest.fixture(scope="module")
def game():
    return load_game(SHEETS)


def test_small_maps_are_drawn_whole(game):
    assert images.board_parts(game) == [(None, "whole")]


def test_the_pieces_laid_together_match_the_whole_map(game, monkeypatch):
    monkeypatch.setattr(images, "BOARD_IN_PIECES_HEXES", 0)
    parts = images.board_parts(game)
    sheets = [s.id for s in game.map.sheets]
    assert parts == [(None, "surround"), *((s, "hexes") for s in sheets), (None, "joins")]
    px = BoardGeometry(game).px_per_mm
    whole = Image.open(io.BytesIO(svg_to_png(images.board_svg(game), px))).convert("RGB")
    laid = Image.open(io.BytesIO(images.board_png(game, px))).convert("RGB")
    assert laid.size == whole.size == BoardGeometry(game).size_px
    diff = ImageChops.difference(whole, laid).convert("L")
    # the same picture but for anti-aliased seams and the sheet lines drawn over, not under,
    # the hex numbers: a handful of pixels differ, none of them by a whole sheet or a hex
    changed = _share_changed(diff)
    assert changed < 0.01, f"{changed:.2%} of the board differs from the whole-map raster"
    assert ImageStat.Stat(diff).mean[0] < 2.0


def test_a_sheet_out_of_place_is_seen(game, monkeypatch):
    """The comparison above can fail: shift one sheet by a hex and it does."""
    monkeypatch.setattr(images, "BOARD_IN_PIECES_HEXES", 0)
    px = BoardGeometry(game).px_per_mm
    parts = images.board_parts(game)
    pieces = [images.board_part(game, p, px) for p in parts]
    sheet = game.map.sheets[0].id
    from builder.render import layout as layout_mod

    original = layout_mod.MapLayout.sheet_layout

    def shifted(self, sid):
        lay = original(self, sid)
        if sid != sheet:
            return lay
        import copy

        moved = copy.copy(lay)
        moved.origin_mm = (lay.origin_mm[0] - game.grid.hex_mm, lay.origin_mm[1])
        return moved

    monkeypatch.setattr(layout_mod.MapLayout, "sheet_layout", shifted)
    laid = Image.open(io.BytesIO(images.compose_board(game, parts, pieces, px))).convert("RGB")
    whole = Image.open(io.BytesIO(svg_to_png(images.board_svg(game), px))).convert("RGB")
    diff = ImageChops.difference(whole, laid).convert("L")
    assert _share_changed(diff) >= 0.01
