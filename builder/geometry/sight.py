"""Lines of sight between two hexes as geometry alone: which hexes a line crosses, which sides it
runs along or crosses, found once per displacement between the two hexes.

A hex's centre is an affine function of its cube coordinates (builder.geometry.hexgrid: x grows
by 1.5 radii per q, y by a hex's height per r plus half of it per q), so the lines from one hex
to another depend only on the step (dq, dr) from the first to the second, wherever the pair sits
on the map. Each line is described in offsets from the first hex; builder.mapinfo turns the
offsets into the map's hexes and drops the lines that leave the map. Computed on hexes of radius 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np

SQRT3 = math.sqrt(3.0)
EPS = 1e-4  # of a radius: how far a line must enter a hex to cross it (as builder.mapinfo did)
Off = tuple[int, int]


@dataclass(frozen=True)
class Line:
    """One line between two hexes, in (dq, dr) offsets from the first."""

    crossed: tuple[Off, ...]  # hexes whose inside it crosses, nearest the first end first
    along: tuple[tuple[Off, ...], ...]  # per side it runs along: the candidate hexes sharing it
    sides: tuple[tuple[Off, Off], ...]  # pairs of adjacent hexes whose shared side it crosses
    # pairs of adjacent hexes whose shared side has a corner the line passes through (between
    # its ends): a line through the end of a wall touches the wall
    touched: tuple[tuple[Off, Off], ...]
    # per sample point along the line, the hexes whose circumcircle holds it, as bit masks over
    # `near` (the candidates and both ends): the line stays on the map when every mask holds a hex
    # of the map (builder.mapinfo)
    cover: tuple[int, ...]
    near: tuple[Off, ...]


def distance(a: Off, b: Off = (0, 0)) -> int:
    """Hexes from b to a."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


@cache
def centre(o: Off) -> tuple[float, float]:
    """The centre of a hex of radius 1 (y down, flat-topped), relative to the first hex."""
    q, r = o
    return 1.5 * q, SQRT3 * (r + q / 2)


_UNIT = tuple((math.cos(math.radians(60 * i)), math.sin(math.radians(60 * i))) for i in range(6))


@cache
def corners(o: Off) -> tuple[tuple[float, float], ...]:
    """The six corners, starting east and going clockwise on screen (as HexGrid.corners_mm)."""
    cx, cy = centre(o)
    return tuple((cx + dx, cy + dy) for dx, dy in _UNIT)


def _hex_at(x: float, y: float) -> Off:
    """The hex whose inside holds a point (cube rounding, Red Blob Games)."""
    fq = x / 1.5
    fr = y / SQRT3 - fq / 2
    fs = -fq - fr
    q, r, s_ = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s_ - fs)
    if dq > dr and dq > ds:
        q = -r - s_
    elif dr > ds:
        r = -q - s_
    return q, r


def _crosses_interior(p, q, poly, eps: float) -> bool:
    """True when segment p-q passes through the inside of the convex polygon (not just its edge)."""
    n = len(poly)
    area = sum(poly[i][0] * poly[(i + 1) % n][1] - poly[(i + 1) % n][0] * poly[i][1] for i in range(n))
    sign = 1.0 if area > 0 else -1.0
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for i in range(n):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % n]
        ex, ey = bx - ax, by - ay
        # inside: sign * cross(e, point - a) > eps, linear in t
        f0 = sign * (ex * (p[1] - ay) - ey * (p[0] - ax)) - eps
        df = sign * (ex * dy - ey * dx)
        if abs(df) < 1e-12:
            if f0 <= 0:
                return False
            continue
        t = -f0 / df
        if df > 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t1 - t0 <= 1e-9:
            return False
    return t1 - t0 > 1e-9


def _along_edges(p, q, poly, eps: float) -> list[tuple[float, float]]:
    """Midpoints of the polygon's edges that the segment runs along (overlapping, not crossing)."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = (dx * dx + dy * dy) ** 0.5
    if length == 0:
        return []
    ux, uy = dx / length, dy / length
    out = []
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        if abs(ux * (a[1] - p[1]) - uy * (a[0] - p[0])) > eps or \
                abs(ux * (b[1] - p[1]) - uy * (b[0] - p[0])) > eps:
            continue
        ta = ux * (a[0] - p[0]) + uy * (a[1] - p[1])
        tb = ux * (b[0] - p[0]) + uy * (b[1] - p[1])
        lo, hi = max(min(ta, tb), 0.0), min(max(ta, tb), length)
        if hi - lo > eps:
            out.append(edge_key(a, b))
    return out


def _corner_key(c) -> tuple[int, int]:
    """A corner on the lattice of half radii across and half heights down (whole numbers)."""
    return round(2 * c[0]), round(2 * c[1] / SQRT3)


def _on_segment(p, q, c, eps: float) -> bool:
    """Whether the point c lies on segment p-q strictly between its ends."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy)
    if length == 0 or abs(dx * (c[1] - p[1]) - dy * (c[0] - p[0])) > eps * length:
        return False
    t = ((c[0] - p[0]) * dx + (c[1] - p[1]) * dy) / (length * length)
    return eps < t < 1 - eps


def edge_key(a, b) -> tuple[int, int]:
    """A side's key from its two corners: every corner lies on a lattice of half radii across
    and half heights down, so the key is whole numbers, the same from either hex (a rounded
    midpoint split one side into two where two hexes' float corners rounded apart)."""
    return (round(2 * a[0]) + round(2 * b[0]), round(2 * a[1] / SQRT3) + round(2 * b[1] / SQRT3))


_STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


@cache
def shared_side(a: Off, b: Off) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two corners two adjacent hexes share."""
    ca, cb = corners(a), corners(b)
    common = [p for p in ca if any(abs(p[0] - x) < 1e-9 and abs(p[1] - y) < 1e-9 for x, y in cb)]
    return common[0], common[1]


def crosses_side(p, q, e1, e2, eps: float) -> bool:
    """True when segment p-q crosses the side e1-e2 through its inside (not at a corner, not
    along it)."""
    def cross(o, a, b) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    d1, d2 = cross(p, q, e1), cross(p, q, e2)  # which sides of the line the corners lie on
    d3, d4 = cross(e1, e2, p), cross(e1, e2, q)  # which sides of the side the ends lie on
    scale = math.dist(p, q)
    if abs(d1) <= eps * scale or abs(d2) <= eps * scale:
        return False  # through a corner, or along the side
    if (d1 > 0) == (d2 > 0):
        return False
    return (d3 > 0) != (d4 > 0) and abs(d3) > 1e-12 and abs(d4) > 1e-12


_UX = np.array([c[0] for c in _UNIT])
_UY = np.array([c[1] for c in _UNIT])
_SIGN = 1.0 if sum(_UNIT[i][0] * _UNIT[(i + 1) % 6][1] - _UNIT[(i + 1) % 6][0] * _UNIT[i][1]
                   for i in range(6)) > 0 else -1.0


def _sides(cxy: np.ndarray) -> tuple[np.ndarray, ...]:
    """Each hex's six sides: start corners (ax, ay) and directions (ex, ey), shape (n, 6)."""
    ax = cxy[:, 0:1] + _UX[None, :]
    ay = cxy[:, 1:2] + _UY[None, :]
    bx = cxy[:, 0:1] + np.roll(_UX, -1)[None, :]
    by = cxy[:, 1:2] + np.roll(_UY, -1)[None, :]
    return ax, ay, bx, by, bx - ax, by - ay


def _crossing(p, q, sides: tuple[np.ndarray, ...]) -> np.ndarray:
    """_crosses_interior for many hexes at once (their _sides): the sides all point the same
    ways, so each side's direction test is the same for every hex."""
    ax, ay, _, _, ex, ey = sides
    sign = _SIGN
    dx, dy = q[0] - p[0], q[1] - p[1]
    f0 = sign * (ex * (p[1] - ay) - ey * (p[0] - ax)) - EPS
    df = sign * (ex * dy - ey * dx)
    flat = np.abs(df) < 1e-12
    fails = (flat & (f0 <= 0)).any(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(flat, np.nan, -f0 / np.where(flat, 1.0, df))
    t0 = np.maximum(0.0, np.where((df > 0) & ~flat, t, -np.inf).max(axis=1))
    t1 = np.minimum(1.0, np.where((df < 0) & ~flat, t, np.inf).min(axis=1))
    return ~fails & (t1 - t0 > 1e-9)


def _near_line(p, q, sides: tuple[np.ndarray, ...]) -> list[int]:
    """The hexes with a side whose both corners lie on the line (those _along_edges may find)."""
    ax, ay, bx, by, _, _ = sides
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy)
    if length == 0:
        return []
    ux, uy = dx / length, dy / length
    on_a = np.abs(ux * (ay - p[1]) - uy * (ax - p[0])) <= EPS * 2
    on_b = np.abs(ux * (by - p[1]) - uy * (bx - p[0])) <= EPS * 2
    return [int(n) for n in np.nonzero((on_a & on_b).any(axis=1))[0]]


def _masks(inside: np.ndarray) -> set[int]:
    """Each row of a boolean matrix as an int bit mask (bit i: column i)."""
    packed = np.packbits(inside, axis=1, bitorder="little")
    return {int.from_bytes(row, "little") for row in {r.tobytes() for r in packed}}


@cache
def lines(dq: int, dr: int, corner_to_corner: bool = True) -> tuple[Line, ...]:
    """Every line from the hex at (0, 0) to the hex at (dq, dr): corner to corner (36 segments,
    equal ones once), or centre to centre."""
    b = (dq, dr)
    d = distance(b)
    cands = [(q, r) for q in range(-d, d + 1) for r in range(-d, d + 1)
             if (q, r) not in ((0, 0), b) and distance((q, r)) <= d
             and distance((q, r)) + distance(b, (q, r)) <= d + 1]
    ends = [(0, 0), b]
    polys = {o: corners(o) for o in cands + ends}
    if corner_to_corner:
        pairs = [(p, q) for p in corners((0, 0)) for q in corners(b)]
    else:
        pairs = [(centre((0, 0)), centre(b))]
    steps = 8 * max(d, 1)
    reach = (1 + EPS) ** 2
    near = tuple(sorted(set(cands) | set(ends)))
    xy = np.array([centre(o) for o in near])
    sides_xy = _sides(np.array([centre(o) for o in cands]).reshape(-1, 2))
    k = np.arange(1, steps) / steps
    neighbours = [(x, y) for x in near for sq, sr in _STEPS for y in [(x[0] + sq, x[1] + sr)]
                  if x < y and y in polys]
    sides_of = {pair: shared_side(*pair) for pair in neighbours}
    corner_sides: dict = {}  # a corner's lattice key -> the sides that end there
    for pair, (e1, e2) in sides_of.items():
        for e in (e1, e2):
            corner_sides.setdefault(_corner_key(e), []).append(pair)
    corner_at = {_corner_key(c): c for o in near for c in polys[o]}
    out: list[Line] = []
    seen: set[Line] = set()
    for p, q in pairs:
        cover: tuple[int, ...] = ()
        if corner_to_corner:
            px = p[0] + (q[0] - p[0]) * k
            py = p[1] + (q[1] - p[1]) * k
            inside = ((px[:, None] - xy[None, :, 0]) ** 2
                      + (py[:, None] - xy[None, :, 1]) ** 2) <= reach
            cover = tuple(sorted(_masks(inside)))
        hit = _crossing(p, q, sides_xy) if cands else []
        crossed = tuple(sorted((o for o, yes in zip(cands, hit) if yes), key=distance))
        edges: dict = {}
        for n in _near_line(p, q, sides_xy) if cands else ():
            o = cands[n]
            for mid in _along_edges(p, q, polys[o], EPS):
                edges.setdefault(mid, []).append(o)
        along = tuple(tuple(hs) for hs in edges.values())
        live = set(crossed) | set(ends)
        sides = tuple((x, y) for x, y in neighbours if x in live and y in live
                      and crosses_side(p, q, *sides_of[(x, y)], EPS))
        through = [k for k, c in corner_at.items() if _on_segment(p, q, c, EPS)]
        touched = tuple(sorted({pair for k in through for pair in corner_sides.get(k, ())}))
        line = Line(crossed, along, sides, touched, cover, near)
        if line not in seen:
            seen.add(line)
            out.append(line)
    return tuple(out)
