"""Small pictures of a game for the index page: its map and a row of its counters.

Drawn at build time from the same drawings the print files use (builder.render), through the
PNG path of builder.render.convert, then reduced to a palette so the index stays small; the
index embeds them as data: URIs, so it needs no other file and no network.
"""

from __future__ import annotations

import base64
import io

from PIL import Image

from builder import cache, keys
from builder.model.game_model import Game

MAP_WIDTH_PX = 360  # the preview's width: a phone's screen
COUNTER_PX = 56  # one counter in the row
COUNTERS_SHOWN = 6
COLOURS = 96  # a palette this size keeps terrain, counters and text apart


def _small_png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.convert("RGB").quantize(COLOURS, method=Image.Quantize.FASTOCTREE).save(
        out, "PNG", optimize=True)
    return out.getvalue()


def map_png(game: Game) -> bytes:
    """The whole map, MAP_WIDTH_PX wide (from the active cache when the map is unchanged)."""
    from builder.render import map_layout, map_svg, svg_to_png

    def draw() -> bytes:
        png = svg_to_png(map_svg(game), MAP_WIDTH_PX / map_layout(game).width_mm)
        return _small_png(Image.open(io.BytesIO(png)))

    return cache.cached(("index-map-preview", MAP_WIDTH_PX, *keys.map_parts(game)), draw)


def _sample_counters(game: Game) -> list:
    """One unit of each side and type in the counter sheet's order, then markers, at most
    COUNTERS_SHOWN: the variety of the counters, not six alike."""
    seen: set = set()
    picked = []
    for u in game.units:
        if (u.side, u.type) not in seen:
            seen.add((u.side, u.type))
            picked.append(u)
    # sides alternate so each side shows
    by_side: dict = {}
    for u in picked:
        by_side.setdefault(u.side, []).append(u)
    mixed = [u for group in zip(*by_side.values()) for u in group] if len(by_side) > 1 else picked
    mixed += [u for u in picked if u not in mixed]
    out = mixed[:COUNTERS_SHOWN]
    out += list(game.markers)[: COUNTERS_SHOWN - len(out)]
    return out


def counters_png(game: Game) -> bytes | None:
    """A row of the game's counters (fronts), or None when it has none (from the active cache
    when the counters are unchanged)."""
    pieces = _sample_counters(game)
    if not pieces:
        return None
    parts = ("index-counters-preview", COUNTER_PX,
             *(keys.counter_parts(game, p, "front") for p in pieces))
    return cache.cached(parts, lambda: _counter_row(game, pieces))


def _counter_row(game: Game, pieces: list) -> bytes:
    from builder.render import counter_svg, svg_to_png

    gap = 6
    row = Image.new("RGBA", (len(pieces) * (COUNTER_PX + gap) - gap, COUNTER_PX), (0, 0, 0, 0))
    for i, p in enumerate(pieces):
        svg = counter_svg(game, p.id)
        img = Image.open(io.BytesIO(svg_to_png(svg, 8))).convert("RGBA")
        img.thumbnail((COUNTER_PX, COUNTER_PX))
        row.alpha_composite(img, (i * (COUNTER_PX + gap), (COUNTER_PX - img.height) // 2))
    # a neutral ground (the page may be dark or light)
    ground = Image.new("RGBA", row.size, (200, 200, 196, 255))
    ground.alpha_composite(row)
    return _small_png(ground)


def data_uri(png: bytes | None) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii") if png else ""
