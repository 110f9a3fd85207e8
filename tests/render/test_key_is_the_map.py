"""The map's key is the map (issue 39, item 4): each key entry's sample, rendered, shows what the
map's own drawing of that thing shows (its colours, pattern and symbol, measured on the same
raster), for every terrain, hexside, line and point symbol of every sample; and every kind of
thing the map draws has a key entry."""

from __future__ import annotations

import io
import math
from collections import Counter
from statistics import median

import numpy as np
import pytest
from PIL import Image

from builder.load import find_game, load_game
from builder.model.maps import AreaMap
from builder.render import geom, map_layout, map_svg, terrain_art
from builder.render.convert import svg_to_png
from builder.render.map_area import _label_layout
from builder.render.map_panel import key_entries, key_places, typical_terrains
from builder.views import player_view
from tests.render.conftest import FIXTURES as FIXTURES_DIR
from tests.render.conftest import SAMPLES

PX = 8.0  # px per mm
GAMES = SAMPLES + ("render-sheets", "render-area")


@pytest.fixture(scope="module")
def rendered():
    """{game: (game, layout, raster as an H x W x 3 array)}: each map drawn whole, once."""
    out = {}
    for name in GAMES:
        folder = find_game(name) if name in SAMPLES else FIXTURES_DIR / name
        game = player_view(load_game(folder))
        png = svg_to_png(map_svg(game), PX)
        img = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(float)
        out[name] = (game, map_layout(game), img)
    return out


def _disc(img, x: float, y: float, r: float) -> np.ndarray:
    """The pixels within r mm of (x, y) mm."""
    cx, cy, rp = x * PX, y * PX, r * PX
    y0, y1 = max(0, int(cy - rp)), min(img.shape[0], int(cy + rp) + 1)
    x0, x1 = max(0, int(cx - rp)), min(img.shape[1], int(cx + rp) + 1)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    mask = (xx - cx) ** 2 + (yy - cy) ** 2 <= rp * rp
    return img[y0:y1, x0:x1][mask]


def _ink(pixels: np.ndarray) -> np.ndarray:
    """The colour of what is drawn over a ground: the mean of the fifth of the pixels that
    differ most from the most common colour among them."""
    q = (pixels // 8).astype(int)
    mode = Counter(map(tuple, q)).most_common(1)[0][0]
    ground = np.array(mode) * 8 + 4
    d = np.linalg.norm(pixels - ground, axis=1)
    keep = pixels[d >= np.quantile(d, 0.8)]
    return keep.mean(axis=0)


def _dist(a, b) -> float:
    return float(np.linalg.norm(np.asarray(a) - np.asarray(b)))


def _hex_terrain_pairs(game, layout, img):
    """(terrain, key colour, map colour, tolerance): each terrain's swatch against its hexes of
    the same make-up with nothing else drawn in them (no name, road or symbol), inside a disc
    clear of the hex number at the top: the mean colour of a fill or texture; the colour of a
    symbol drawn over a fill (the swatch shows the symbol on its hexes' usual fill alone)."""
    hex_mm = game.grid.hex_mm
    places = {e.item.id: (x, y, s) for e, x, y, s in key_places(game, layout)
              if e.kind == "terrain"}
    busy = {game.hex(lb.hex) for lb in game.map.labels}
    busy |= {h for ln in game.map.lines for h in game.hexes(ln.hexes)}
    busy |= {game.hex(o.hex) for o in game.map.objectives}
    on = set(layout.hexes)
    for t, (x, y, s) in places.items():
        combo = typical_terrains(game, t)
        hexes = [h for h, ts in game.hex_terrain.items()
                 if ts == combo and h not in busy and h in on][:40]
        if not hexes:
            continue
        point = game.terrain_types[t].pattern in terrain_art.POINT
        colour = _ink if point else (lambda px: px.mean(axis=0))
        r = 0.28
        cols = [colour(_disc(img, *np.add(layout.hex_center_mm(h), (0, 0.08 * hex_mm)),
                             r * hex_mm)) for h in hexes]
        on_map = [median(c[i] for c in cols) for i in range(3)]
        half = s / math.sqrt(3)  # the swatch: a hex `s` high, 2 x half wide
        key = colour(_disc(img, x + half, y + s / 2 + 0.08 * s, r * s))
        yield t, key, on_map, 60 if point else 30


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_each_terrain_swatch_looks_like_its_hexes_or_sectors(rendered, name):
    game, layout, img = rendered[name]
    bad = []
    if isinstance(game.map, AreaMap):
        for e, x, y, s in key_places(game, layout):
            if e.kind != "terrain":
                continue
            sectors = [sc for sc in game.map.sectors if e.item.id in sc.terrain]
            if not sectors:
                continue
            combo = Counter(sc.terrain for sc in sectors).most_common(1)[0][0]
            point = e.item.pattern in terrain_art.POINT
            means = []
            for sc in sectors:
                if sc.terrain != combo:
                    continue
                if point:  # its symbol, where the map prints it over the sector's name
                    cx, _, _, _, sym_y, _, _ = _label_layout(layout, sc)
                    means.append(_disc(img, cx, sym_y, 2.0).mean(axis=0))
                    continue
                pts = layout.sector_outline_mm(sc.id)
                cx = sum(p[0] for p in pts) / len(pts)
                cy = sum(p[1] for p in pts) / len(pts)
                sx, sy = layout.sector_center_mm(sc.id)
                # halfway between the outline's middle and a corner: clear of the name
                px, py = (cx + pts[0][0]) / 2, (cy + pts[0][1]) / 2
                if math.hypot(px - sx, py - sy) < 8:
                    continue
                means.append(_disc(img, px, py, 2.0).mean(axis=0))
            if not means:
                continue
            on_map = [median(m[i] for m in means) for i in range(3)]
            at = (x + s * 0.62, y + s / 2) if point else (x + s * 0.62, y + s * 0.75)
            key = _disc(img, *at, 2.0 if point else s * 0.18).mean(axis=0)
            if _dist(key, on_map) > 45:
                bad.append((e.name, key.round(), np.round(on_map)))
    else:
        for t, key, on_map, tolerance in _hex_terrain_pairs(game, layout, img):
            if _dist(key, on_map) > tolerance:
                bad.append((t, key.round(), np.round(on_map)))
    assert not bad, bad


def _rgb(colour: str) -> np.ndarray:
    return np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)], dtype=float)


def _far(pixels: np.ndarray, grounds: list[np.ndarray]) -> list:
    """The pixels that are none of the grounds, nor half-way to one (anti-aliased edges)."""
    d = np.min([np.linalg.norm(pixels - g, axis=1) for g in grounds], axis=0)
    far = d > 40
    if not far.any():
        return []
    return list(pixels[far & (d >= np.median(d[far]))])


def _modes(pixels: np.ndarray, n: int) -> list[tuple]:
    """The n commonest colours, each channel in steps of 16."""
    q = Counter(tuple(int(c) // 16 * 16 + 8 for c in p) for p in pixels)
    return [c for c, _ in q.most_common(n)]


def _drawn(pixels: np.ndarray, grounds: list[np.ndarray]) -> np.ndarray | None:
    """The mean colour of the pixels that are none of the grounds (what is drawn over them);
    None when nearly nothing is."""
    d = np.min([np.linalg.norm(pixels - g, axis=1) for g in grounds], axis=0)
    far = d > 40
    if far.sum() < 4:
        return None
    core = d >= np.median(d[far])  # the stroke's own colour, not its anti-aliased edge
    return pixels[far & core].mean(axis=0)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_each_hexside_line_and_symbol_sample_has_the_maps_colours(rendered, name):
    """Hexsides, roads and rivers, victory and supply symbols: the colour drawn over the ground
    in the key's sample is the colour drawn over the hexes on the map."""
    from builder.render import style
    from builder.render.map_hex import HexDrawing, fill_terrain

    game, layout, img = rendered[name]
    if not game.is_hex:
        return
    hex_mm = game.grid.hex_mm
    on = set(layout.hexes)

    def ground(*hexes) -> list[np.ndarray]:
        return [_rgb(fill_terrain(game, game.hex_terrain[h]).color) for h in hexes] + [
            _rgb(style.GRID_LINE)]

    bad, checked = [], 0
    drawing = HexDrawing(game, layout)
    crossed = {h for ln in game.map.lines for h in game.hexes(ln.hexes)}
    busy = {game.hex(o.hex) for o in game.map.objectives} | {  # symbols and names at the centre
        h for h, terrain in game.hex_terrain.items()
        if any(game.terrain_types[t].pattern in terrain_art.POINT for t in terrain)}
    busy |= {game.hex(lb.hex) for lb in game.map.labels}
    ts = (0.15, 0.3, 0.45, 0.6, 0.75, 0.9)
    for e, x, y, s in key_places(game, layout):
        if e.kind == "objective":  # the middle of the symbol: its own colour on key and map
            kind, side = e.item
            targets = [(px, py) for ob, px, py in drawing.objective_places()
                       if ob.kind == kind and (ob.side if ob.side in game.sides else "") == side]
            if not targets:
                continue
            checked += 1
            drawn = [_disc(img, tx, ty, 0.25).mean(axis=0) for tx, ty in targets[:40]]
            key = _disc(img, x + s * 0.65, y + s * 0.45, 0.25).mean(axis=0)
            on_map = [median(d[i] for d in drawn) for i in range(3)]
            if _dist(key, on_map) > 60:
                bad.append((e.name, key.round(), np.round(on_map)))
            continue
        if e.kind == "hexside":  # along the sample's side, and along the map's sides
            near = 0.4
            p, q = (x, y + s * 0.8), (x + s * 1.3, y + s * 0.2)
            key_at = [(p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])) for t in ts]
            spots = []
            for k, a, b in game.hexside_list:  # not where a sheet join or a road runs over it
                if k == e.item.id and a in on and b in on and a.sheet == b.sheet \
                        and a not in crossed and b not in crossed:
                    edge = geom.shared_edge(layout.hex_corners_mm(a), layout.hex_corners_mm(b))
                    if edge:
                        (p, q) = edge
                        spots += [((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])),
                                   ground(a, b)) for t in ts]
        elif e.kind == "line":  # along the sample's curve, and around the map's hexes' centres
            near = 1.0
            key_at = []
            for t in ts:
                u = 1 - t
                key_at.append((x + s * (3 * u * t * t * 0.8 + 3 * u * u * t * 0.5 + t ** 3 * 1.3),
                               y + s * (u ** 3 * 0.7 + 3 * u * t * t * 1.0 + t ** 3 * 0.3)))
            spots = []  # the centres it runs through (its curve passes through them)
            for ln in game.map.lines:
                if ln.type == e.item.id:
                    # its hexes' fill is the ground (a disc inside the hex: no grid line)
                    spots += [(layout.hex_center_mm(h), ground(h)[:1])
                              for h in game.hexes(ln.hexes) if h in on and h not in busy]
        else:
            continue
        # its strokes (dashed, barred, on any ground): the key's main colours are among the
        # main colours drawn where the map draws the thing
        around = near if e.kind == "hexside" else 0.3 * hex_mm  # a curve bends off a centre
        pooled = [px for (tx, ty), g in spots[:240] for px in _far(_disc(img, tx, ty, around), g)]
        key_px = [px for kx, ky in key_at
                  for px in _far(_disc(img, kx, ky, near), [_rgb(style.MARGIN_FILL)])]
        if len(pooled) < 8 or len(key_px) < 8:
            continue
        checked += 1
        on_map = _modes(np.array(pooled), 6)
        for key in _modes(np.array(key_px), 1):
            if min(_dist(key, m) for m in on_map) > 48:
                bad.append((e.name, key, on_map))
    assert not bad, bad
    assert checked, "no hexside, line or symbol compared"


@pytest.mark.parametrize("name", GAMES)
def test_everything_the_map_draws_has_a_key_entry(name):
    folder = find_game(name) if name in SAMPLES else FIXTURES_DIR / name
    game = player_view(load_game(folder))
    entries = key_entries(game)
    kinds = {e.kind for e in entries}
    m = game.map
    named = {getattr(e.item, "id", None) for e in entries}
    if isinstance(m, AreaMap):
        for t in {t for sc in m.sectors for t in sc.terrain}:
            assert t in named, t
        if m.water_edges:
            assert any("crossing" in e.name.casefold() for e in entries)
        if any(sc.mg for sc in m.sectors):
            assert any("machine guns" in e.name.casefold() for e in entries)
        if m.water:
            assert "water" in kinds
        return
    for t in game.terrain_used:
        assert t in named, t
    for g in m.hexsides:
        assert g.type in named, g.type
    for ln in m.lines:
        assert ln.type in named, ln.type
    shown = {(o.kind, o.side if o.side in game.sides else "") for o in m.objectives}
    merged = {e.item for e in entries if e.kind == "objective"}
    peaks = {k for k in shown if k[0] == "peak"}
    assert shown - peaks <= merged | peaks, shown - merged
