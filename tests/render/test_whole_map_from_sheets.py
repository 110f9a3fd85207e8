"""A campaign map's whole drawing is laid from its sheets' hex layers (map_hex.sheets_hex_layers),
not drawn a second time: it must look like the whole map drawn at once (tested on a small
multi-sheet map with the threshold lowered), with every id it defines unique."""

from __future__ import annotations

import io
import re
from collections import Counter

import pytest
from lxml import etree
from PIL import Image, ImageChops, ImageStat
from repo_paths import ROOT

from builder.load import load_game
from builder.render import map_hex, map_svg, svg_to_png

SHEETS = ROOT / "tests" / "fixtures" / "render-sheets"
PX_PER_MM = 4.0


def _share_changed(diff: Image.Image) -> float:
    """The share of pixels that differ by more than a quarter of the range."""
    return diff.point(lambda v: 255 if v > 64 else 0).histogram()[255] / (diff.width * diff.height)


def _raster(svg: str) -> Image.Image:
    return Image.open(io.BytesIO(svg_to_png(svg, PX_PER_MM))).convert("RGB")


@pytest.fixture(scope="module")
def game():
    return load_game(SHEETS)


def test_small_maps_are_drawn_whole(game):
    whole = map_svg(game)
    assert 'id="sheet0-frame"' not in whole


def test_the_whole_map_laid_from_its_sheets_looks_like_the_map_drawn_whole(game, monkeypatch):
    drawn = map_svg(game)
    monkeypatch.setattr(map_hex, "WHOLE_FROM_SHEETS_HEXES", 0)
    laid = map_svg(game)
    assert 'id="sheet0-frame"' in laid and laid != drawn
    ids = Counter(re.findall(r' id="([^"]+)"', laid))
    assert not [i for i, n in ids.items() if n > 1], "an id defined twice"
    root = etree.fromstring(laid.encode("utf-8"))  # well-formed
    defined = {el.get("id") for el in root.iter() if el.get("id")}
    used = set(re.findall(r"url\(#([^)]+)\)", laid))
    assert used <= defined, f"references to nothing: {sorted(used - defined)[:5]}"
    a, b = _raster(drawn), _raster(laid)
    assert a.size == b.size
    diff = ImageChops.difference(a, b).convert("L")
    # the same picture but for anti-aliased seams and names cut at a sheet's edge, as the sheet
    # prints them
    changed = _share_changed(diff)
    assert changed < 0.01, f"{changed:.2%} of the map differs from the map drawn whole"
    assert ImageStat.Stat(diff).mean[0] < 2.0


def test_a_sheet_left_out_is_seen(game, monkeypatch):
    """The comparison above can fail: lay the second sheet in place of the first and it does."""
    drawn = map_svg(game)
    monkeypatch.setattr(map_hex, "WHOLE_FROM_SHEETS_HEXES", 0)
    from builder.render import layout as layout_mod

    original = layout_mod.MapLayout.sheet_layout
    first, second = (s.id for s in game.map.sheets[:2])
    monkeypatch.setattr(layout_mod.MapLayout, "sheet_layout",
                        lambda self, sid: original(self, second if sid == first else sid))
    diff = ImageChops.difference(_raster(drawn), _raster(map_svg(game))).convert("L")
    assert _share_changed(diff) >= 0.01
