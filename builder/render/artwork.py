"""Supplied map art: a scanned map image placed on the grid by its calibration."""

from __future__ import annotations

import base64
from pathlib import Path

from builder.errors import Problem, SourceError
from builder.model.game_model import Game
from builder.render import svg as S
from builder.render.layout import MapLayout

_MIME = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}


def _fit(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    """Least squares a, b with mm = a * px + b."""
    n = len(pairs)
    mx = sum(p for p, _ in pairs) / n
    my = sum(m for _, m in pairs) / n
    sxx = sum((p - mx) ** 2 for p, _ in pairs)
    a = sum((p - mx) * (m - my) for p, m in pairs) / sxx
    return a, my - a * mx


def placement(game: Game) -> tuple[float, float, float, float]:
    """(x, y, mm per pixel across, mm per pixel down) of the image's top-left in grid mm."""
    art = game.map.artwork
    xs, ys = [], []
    for hex_text, px, py in art.calibration:
        gx, gy = game.grid.center_mm(game.hex(hex_text))
        xs.append((px, gx))
        ys.append((py, gy))
    ax, bx = _fit(xs)
    ay, by = _fit(ys)
    return bx, by, ax, ay


def image_file(game: Game) -> Path:
    path = Path(game.folder) / game.map.artwork.image
    if not path.is_file() or path.suffix.lower() not in _MIME:
        raise SourceError(
            [
                Problem(
                    "map.toml",
                    "key artwork.image",
                    f"'{game.map.artwork.image}' is not a PNG or JPEG file in the game folder",
                    "give the path of the map image relative to the game folder",
                )
            ]
        )
    return path


def artwork_svg(game: Game, layout: MapLayout) -> str:
    """The image, scaled and placed so its calibrated hexes sit on the grid, clipped to the map."""
    from PIL import Image

    path = image_file(game)
    with Image.open(path) as im:
        w_px, h_px = im.size
    bx, by, ax, ay = placement(game)
    ox, oy = layout.origin_mm
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    f = layout.frame
    clip = f'<clipPath id="artwork-frame">{S.rect(f.x, f.y, f.w, f.h)}</clipPath>'
    image = S.el(
        "image",
        x=S.num(ox + bx),
        y=S.num(oy + by),
        width=S.num(ax * w_px),
        height=S.num(ay * h_px),
        preserveAspectRatio="none",
        xlink_href=f"data:{_MIME[path.suffix.lower()]};base64,{data}",
    )
    return clip + S.g(image, clip_path="url(#artwork-frame)", id="artwork")
