"""Terrain symbols: area textures laid on one map-wide jittered lattice (so woods and marsh run
on across hexes as on a drawn map) and point symbols (towns, forts, peaks) centred in a hex.

Every 'random' choice comes from an integer hash of the position, so output is deterministic.
"""

from __future__ import annotations

import math

from builder.render import style
from builder.render.svg import num

SQRT3 = math.sqrt(3.0)

AREA = {
    "trees",
    "hill",
    "water",
    "marsh",
    "flood",
    "craters",
    "rough",
    "mountain",
    "farm",
    "lake",
    "canals",
    "docks",
    "buildings",
    "city",
    "coast",
}
POINT = {"town", "fort", "bunker", "peak", "trench", "port", "airfield"}

# lattice spacing as a share of the hex height, per area pattern
_SPACING = {
    "trees": 0.19,
    "hill": 0.3,
    "water": 0.28,
    "marsh": 0.25,
    "flood": 0.26,
    "craters": 0.22,
    "rough": 0.2,
    "mountain": 0.27,
    "farm": 0.5,
    "lake": 0.3,
    "canals": 0.24,
    "docks": 0.3,
    "buildings": 0.26,
    "city": 0.15,
    "coast": 0.11,
}


def rnd(*key: int) -> float:
    """A repeatable pseudo-random number in [0, 1) from integers."""
    h = 2166136261
    for k in key:
        h = ((h ^ (k & 0xFFFFFFFF)) * 16777619) & 0xFFFFFFFF
        h ^= h >> 13
        h = (h * 1274126177) & 0xFFFFFFFF
    h ^= h >> 16
    return (h & 0xFFFFFF) / float(0x1000000)


def salt(text: str) -> int:
    """A stable integer from a string (Python's hash() changes between runs)."""
    h = 0
    for ch in text:
        h = (h * 131 + ord(ch)) & 0xFFFFFFFF
    return h


def in_hex(dx: float, dy: float, r: float) -> bool:
    """Is (dx, dy) from a flat-topped hex's centre inside it (r = centre to corner)?"""
    ax, ay = abs(dx), abs(dy)
    return ay <= SQRT3 / 2 * r and SQRT3 * ax + ay <= SQRT3 * r


def _rnd_grid(i0: int, i1: int, j0: int, j1: int, seed: int) -> list[list[float]]:
    """rnd(i, j, seed) for every i0 <= i <= i1, j0 <= j <= j1, as rows [j - j0][i - i0]:
    the same numbers as rnd(), computed for a whole block at once (numpy, 64-bit integers hold
    every intermediate product exactly)."""
    import numpy as np

    j, i = np.mgrid[j0 : j1 + 1, i0 : i1 + 1].astype(np.int64)
    h = np.full(i.shape, 2166136261, dtype=np.int64)
    for k in (i, j, np.full(i.shape, seed, dtype=np.int64)):
        h = ((h ^ (k & 0xFFFFFFFF)) * 16777619) & 0xFFFFFFFF
        h ^= h >> 13
        h = (h * 1274126177) & 0xFFFFFFFF
    h ^= h >> 16
    return ((h & 0xFFFFFF) / float(0x1000000)).tolist()


def lattice(pattern: str, centres, hex_mm: float, seed: int):
    """Jittered lattice points that fall inside the given hexes: [(x, y, u, v)], u/v in [0,1)."""
    centres = list(centres)
    if not centres:
        return []
    sp = _SPACING[pattern] * hex_mm
    row_h = sp * SQRT3 / 2
    r = hex_mm / SQRT3
    # the jitter of every lattice point the hexes reach, computed in one block
    ja = math.floor((min(y for _, y in centres) - hex_mm / 2) / row_h) - 1
    jb = math.ceil((max(y for _, y in centres) + hex_mm / 2) / row_h) + 1
    ia = math.floor((min(x for x, _ in centres) - r - sp / 2) / sp) - 1
    ib = math.ceil((max(x for x, _ in centres) + r) / sp) + 1
    us = _rnd_grid(ia, ib, ja, jb, seed)  # rnd(i, j, seed) at [j - ja][i - ia]
    vs = _rnd_grid(ja, jb, ia, ib, seed + 7)  # rnd(j, i, seed + 7) at [i - ia][j - ja]
    out = []
    limit_y = SQRT3 / 2 * r
    limit = SQRT3 * r
    for cx, cy in centres:
        j0 = math.floor((cy - hex_mm / 2) / row_h) - 1
        j1 = math.ceil((cy + hex_mm / 2) / row_h) + 1
        for j in range(j0, j1 + 1):
            shift = sp / 2 if j % 2 else 0.0
            i0 = math.floor((cx - r - shift) / sp) - 1
            i1 = math.ceil((cx + r - shift) / sp) + 1
            urow = us[j - ja]
            y_base = j * row_h
            for i in range(i0, i1 + 1):
                u, v = urow[i - ia], vs[i - ia][j - ja]
                x = i * sp + shift + (u - 0.5) * sp * 0.55
                y = y_base + (v - 0.5) * row_h * 0.55
                ax, ay = abs(x - cx), abs(y - cy)  # in_hex(), inlined: the hottest loop
                if ay <= limit_y and SQRT3 * ax + ay <= limit:
                    out.append((x, y, u, v))
    return out


def _circle_d(x: float, y: float, r: float) -> str:
    return (
        f"M{num(x - r)} {num(y)}a{num(r)} {num(r)} 0 1 0 {num(2 * r)} 0"
        f"a{num(r)} {num(r)} 0 1 0 {num(-2 * r)} 0Z"
    )


def _rect_d(x: float, y: float, w: float, h: float, angle: float) -> str:
    c, s = math.cos(angle), math.sin(angle)
    pts = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
    rot = [(x + px * c - py * s, y + px * s + py * c) for px, py in pts]
    return "M" + "L".join(f"{num(px)} {num(py)}" for px, py in rot) + "Z"


# a texture tile spans about this many hexes each way: large enough that its repeat is not
# seen at a glance, small enough that a map's every hex of that terrain paints the one tile
TILE_HEXES = 3.0


def tile_lattice(pattern: str, hex_mm: float, seed: int):
    """One period of a texture's jittered lattice: (width, height, [(x, y, u, v)]), each point
    repeated at +-width/+-height where its symbol may cross the tile's edge, so tiles laid side
    by side join without a seam. The jitter repeats every P columns and Q rows (Q even, so the
    half-shift of alternate rows repeats too)."""
    share = _SPACING[pattern]
    cols = max(2, round(TILE_HEXES / share))
    rows = max(2, 2 * round(TILE_HEXES / (share * SQRT3 / 2) / 2))
    # the tile a whole number of tenths of a millimetre each way (the lattice stretched by
    # under 0.1 mm over 3 hexes): a renderer repeats a tile of whole pixels
    # (builder.render.cairo_draw records it at 10 per mm), so any other size would drift
    width = round(cols * share * hex_mm, 1)
    height = round(rows * share * hex_mm * SQRT3 / 2, 1)
    sp, row_h = width / cols, height / rows
    margin = 0.35 * hex_mm  # farther than any symbol reaches from its lattice point
    out = []
    for j in range(rows):
        shift = sp / 2 if j % 2 else 0.0
        for i in range(cols):
            u, v = rnd(i, j, seed), rnd(j, i, seed + 7)
            x = i * sp + shift + (u - 0.5) * sp * 0.55
            y = j * row_h + (v - 0.5) * row_h * 0.55
            for ox in (-width, 0.0, width):
                for oy in (-height, 0.0, height):
                    px, py = x + ox, y + oy
                    if -margin <= px <= width + margin and -margin <= py <= height + margin:
                        out.append((px, py, u, v))
    return width, height, out


def texture_pattern(pid: str, pattern: str, colour: str, hex_mm: float, seed: int) -> str:
    """An area texture as one SVG <pattern> (map millimetres, tiled from the origin): drawn
    once, painted on every hex of its terrain (fill="url(#pid)"), where the texture used to be
    drawn symbol by symbol under a clip of those hexes."""
    width, height, pts = tile_lattice(pattern, hex_mm, seed)
    return (f'<pattern id="{pid}" patternUnits="userSpaceOnUse" x="0" y="0" '
            f'width="{num(width)}" height="{num(height)}">'
            f"{lattice_symbols(pattern, colour, pts, hex_mm)}</pattern>")


def area_symbols(pattern: str, colour: str, centres, hex_mm: float, seed: int) -> str:
    """The texture of an area pattern over the given hex centres (to be clipped to them)."""
    return lattice_symbols(pattern, colour, lattice(pattern, centres, hex_mm, seed), hex_mm)


def lattice_symbols(pattern: str, colour: str, pts, hex_mm: float) -> str:
    """An area pattern's symbols at the given lattice points."""
    s = hex_mm
    dark = style.darker(colour, 0.62)
    if pattern == "trees":
        crowns, shade = [], []
        for x, y, u, v in pts:
            r = s * (0.062 + 0.03 * u)
            shade.append(_circle_d(x + r * 0.25, y + r * 0.3, r))
            crowns.append(_circle_d(x, y, r))
        return (
            f'<path d="{"".join(shade)}" fill="{style.darker(colour, 0.55)}" opacity="0.55"/>'
            f'<path d="{"".join(crowns)}" fill="{style.darker(colour, 0.82)}" '
            f'stroke="{style.darker(colour, 0.5)}" stroke-width="{num(s * 0.008)}"/>'
        )
    if pattern == "coast":
        # a sand stipple: a beach, unlike the bare fill of clear ground
        dots = "".join(_circle_d(x, y, s * (0.011 + 0.008 * u)) for x, y, u, _ in pts)
        return f'<path d="{dots}" fill="{style.darker(colour, 0.5)}" opacity="0.75"/>'
    if pattern == "lake":
        # still water: short level strokes in pairs, where the sea has waves
        d = []
        for x, y, u, _ in pts:
            w = s * (0.06 + 0.03 * u)
            d.append(f"M{num(x - w)} {num(y)}h{num(2 * w)}M{num(x - w * 0.6)} "
                     f"{num(y + s * 0.03)}h{num(1.2 * w)}")
        return (
            f'<path d="{"".join(d)}" fill="none" stroke="{style.darker(colour, 0.6)}" '
            f'stroke-width="{num(s * 0.011)}" stroke-linecap="round"/>'
        )
    if pattern in ("water", "flood"):
        d = []
        for x, y, u, _ in pts:
            if pattern == "flood" and u > 0.55:
                continue
            w = s * 0.09
            d.append(f"M{num(x - w)} {num(y)}q{num(w / 2)} {num(-w * 0.45)} {num(w)} 0t{num(w)} 0")
        wave = style.darker(colour, 0.72) if pattern != "flood" else "#3c6e9a"
        out = (
            f'<path d="{"".join(d)}" fill="none" stroke="{wave}" stroke-width="{num(s * 0.012)}" '
            f'stroke-linecap="round"/>'
        )
        if pattern == "flood":
            out = _marsh(pts, s, "#3d6b5a", keep=lambda u: u > 0.55) + out
        return out
    if pattern == "marsh":
        return _marsh(pts, s, "#3d6b5a")
    if pattern == "craters":
        rims, holes = [], []
        for x, y, u, v in pts:
            r = s * (0.025 + 0.035 * u)
            holes.append(_circle_d(x, y, r))
            rims.append(_circle_d(x - r * 0.15, y - r * 0.15, r * 1.25))
        return (
            f'<path d="{"".join(rims)}" fill="{style.lighter(colour, 0.35)}" opacity="0.8"/>'
            f'<path d="{"".join(holes)}" fill="{dark}" stroke="{style.darker(colour, 0.45)}" '
            f'stroke-width="{num(s * 0.006)}"/>'
        )
    if pattern == "rough":
        d = []
        for x, y, u, v in pts:
            w = s * (0.03 + 0.025 * u)
            d.append(
                f"M{num(x - w)} {num(y + w * 0.5)}L{num(x)} {num(y - w * 0.6)}"
                f"L{num(x + w)} {num(y + w * 0.5)}Z"
            )
        return f'<path d="{"".join(d)}" fill="{dark}" opacity="0.8"/>'
    if pattern in ("hill", "mountain"):
        d = []
        for x, y, u, v in pts:
            w = s * (0.07 if pattern == "hill" else 0.09) * (0.8 + 0.4 * u)
            if pattern == "hill":
                d.append(f"M{num(x - w)} {num(y)}q{num(w)} {num(-w * 0.9)} {num(2 * w)} 0")
            else:
                d.append(
                    f"M{num(x - w)} {num(y + w * 0.4)}L{num(x)} {num(y - w * 0.7)}"
                    f"L{num(x + w)} {num(y + w * 0.4)}"
                )
        return (
            f'<path d="{"".join(d)}" fill="none" stroke="{dark}" '
            f'stroke-width="{num(s * (0.014 if pattern == "hill" else 0.02))}" '
            f'stroke-linecap="round" stroke-linejoin="round"/>'
        )
    if pattern == "farm":
        d = []
        for x, y, u, v in pts:
            angle = (u - 0.5) * 0.8
            c, sn = math.cos(angle), math.sin(angle)
            for k in range(-2, 3):
                ox, oy = -sn * k * s * 0.06, c * k * s * 0.06
                w = s * 0.16
                d.append(
                    f"M{num(x + ox - c * w)} {num(y + oy - sn * w)}"
                    f"L{num(x + ox + c * w)} {num(y + oy + sn * w)}"
                )
        return (
            f'<path d="{"".join(d)}" fill="none" stroke="{dark}" stroke-width="{num(s * 0.007)}" '
            f'opacity="0.6"/>'
        )
    if pattern == "canals":
        d = []
        for x, y, u, v in pts:
            w = s * 0.12
            d.append(f"M{num(x - w)} {num(y)}L{num(x + w)} {num(y)}")
        return (
            f'<path d="{"".join(d)}" fill="none" stroke="#3f7fb3" stroke-width="{num(s * 0.012)}" '
            f'opacity="0.8"/>'
        )
    if pattern in ("buildings", "city", "docks"):
        d = []
        for x, y, u, v in pts:
            if pattern == "docks":
                d.append(_rect_d(x, y, s * 0.2, s * 0.05, 0.0))
                continue
            size = s * (0.07 if pattern == "city" else 0.05) * (0.8 + 0.5 * u)
            d.append(_rect_d(x, y, size * (1 + v * 0.6), size, (v - 0.5) * 0.5))
        fill = "#6d5b52" if pattern != "city" else "#7d4a3e"
        return (
            f'<path d="{"".join(d)}" fill="{fill}" stroke="{style.darker(fill, 0.6)}" '
            f'stroke-width="{num(s * 0.005)}" opacity="0.9"/>'
        )
    return ""


def _svg_path(d: str, fill: str, stroke: str, width: float) -> str:
    return f'<path d="{d}" fill="{fill}" stroke="{stroke}" stroke-width="{num(width)}"/>'


def _marsh(pts, s: float, colour: str, keep=lambda u: True) -> str:
    d = []
    for x, y, u, v in pts:
        if not keep(u):
            continue
        w = s * 0.06
        d.append(f"M{num(x - w)} {num(y)}L{num(x + w)} {num(y)}")
        for k, h in ((-0.55, 0.6), (0.0, 1.0), (0.55, 0.6)):
            d.append(f"M{num(x + k * w)} {num(y)}l{num(k * w * 0.3)} {num(-h * w * 0.9)}")
    return (
        f'<path d="{"".join(d)}" fill="none" stroke="{colour}" stroke-width="{num(s * 0.01)}" '
        f'stroke-linecap="round"/>'
    )


def point_symbol(pattern: str, colour: str, cx: float, cy: float, hex_mm: float, seed: int) -> str:
    """A symbol drawn once, centred on (cx, cy), sized to a hex hex_mm high."""
    s = hex_mm
    if pattern == "town":
        d = []
        n = 4 + int(rnd(seed, 1) * 3)
        for k in range(n):
            a = 2 * math.pi * (k / n + rnd(seed, k) * 0.15)
            dist = s * (0.06 + 0.09 * rnd(k, seed))
            w = s * (0.07 + 0.04 * rnd(seed, k, 3))
            d.append(
                _rect_d(
                    cx + dist * math.cos(a),
                    cy + dist * math.sin(a),
                    w,
                    w * 0.75,
                    (rnd(k, 9, seed) - 0.5) * 0.6,
                )
            )
        return (
            f'<path d="{"".join(d)}" fill="#8a3b2c" stroke="#4a1d14" '
            f'stroke-width="{num(s * 0.008)}"/>'
        )
    if pattern == "fort":
        # a square fort with a bastion at each corner: not the five-point victory star
        w, b = s * 0.13, s * 0.065
        d = _rect_d(cx, cy, w * 2, w * 2, 0.0)
        for sx in (-1, 1):
            for sy in (-1, 1):
                d += _rect_d(cx + sx * w, cy + sy * w, b * 1.6, b * 1.6, math.pi / 4)
        return (
            f'<path d="{d}" fill="#7b776c" stroke="{style.INK}" stroke-width="{num(s * 0.012)}" '
            f'stroke-linejoin="miter"/>'
            + _svg_path(_rect_d(cx, cy, w * 0.9, w * 0.9, 0.0), "#d8d4c8", style.INK, s * 0.008)
        )
    if pattern == "bunker":
        w = s * 0.16
        return (
            f'<rect x="{num(cx - w / 2)}" y="{num(cy - w / 2)}" width="{num(w)}" height="{num(w)}" '
            f'fill="#8d8b84" stroke="{style.INK}" stroke-width="{num(s * 0.014)}"/>'
            f'<rect x="{num(cx - w * 0.3)}" y="{num(cy - w * 0.12)}" width="{num(w * 0.6)}" '
            f'height="{num(w * 0.16)}" fill="{style.INK}"/>'
        )
    if pattern == "peak":
        # a summit: a dark mountain with a light cap and a spot height, plain in greyscale
        w = s * 0.17
        top, base = cy - w * 0.95, cy + w * 0.55
        cap = 0.38  # share of the height the light cap covers
        return (
            f'<path d="M{num(cx - w)} {num(base)}L{num(cx)} {num(top)}L{num(cx + w)} {num(base)}Z" '
            f'fill="#4e3219" stroke="{style.INK}" stroke-width="{num(s * 0.012)}" '
            f'stroke-linejoin="round"/>'
            f'<path d="M{num(cx - w * cap)} {num(top + (base - top) * cap)}L{num(cx)} {num(top)}'
            f'L{num(cx + w * cap)} {num(top + (base - top) * cap)}Z" fill="#fbf6e8"/>'
        )
    if pattern == "port":
        # an anchor
        r = s * 0.09
        return (
            f'<path d="M{num(cx)} {num(cy - r * 1.1)}V{num(cy + r)}M{num(cx - r * 0.55)} '
            f'{num(cy - r * 0.55)}H{num(cx + r * 0.55)}M{num(cx - r)} {num(cy + r * 0.2)}'
            f'Q{num(cx - r)} {num(cy + r)} {num(cx)} {num(cy + r)}Q{num(cx + r)} {num(cy + r)} '
            f'{num(cx + r)} {num(cy + r * 0.2)}" fill="none" stroke="#173f66" '
            f'stroke-width="{num(s * 0.022)}" stroke-linecap="round"/>'
            f'<circle cx="{num(cx)}" cy="{num(cy - r * 1.25)}" r="{num(r * 0.22)}" fill="none" '
            f'stroke="#173f66" stroke-width="{num(s * 0.016)}"/>'
        )
    if pattern == "airfield":
        # two crossed runways
        w, t = s * 0.2, s * 0.045
        return (
            _svg_path(_rect_d(cx, cy, w * 2, t, 0.5) + _rect_d(cx, cy, w * 2, t, -0.5),
                      "#5c5c5c", style.INK, s * 0.006)
        )
    if pattern == "trench":
        w = s * 0.3
        step = w / 5
        d = f"M{num(cx - w)} {num(cy)}"
        for k in range(10):
            d += f"l{num(step)} {num(step if k % 2 == 0 else -step)}"
        return (
            f'<path d="{d}" fill="none" stroke="#4a3a28" stroke-width="{num(s * 0.018)}" '
            f'stroke-linejoin="miter"/>'
        )
    return ""
