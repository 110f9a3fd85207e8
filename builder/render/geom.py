"""Small drawing geometry: shared hex edges, chaining segments, smooth curves, region outlines."""

from __future__ import annotations

import math
from operator import attrgetter

from builder.render.svg import num

Pt = tuple[float, float]


_SNAP = 20  # key()'s steps per mm
_SNAP_OFFSET = 0.37


def key(p: Pt) -> tuple[int, int]:
    """A point snapped to 1/20 mm, for matching corners computed from different hexes.

    The offset keeps round sizes such as 19.05 mm (whose multiples end in 5) off the rounding
    boundaries, where two computations of one corner could fall either side."""
    return round(p[0] * _SNAP + _SNAP_OFFSET), round(p[1] * _SNAP + _SNAP_OFFSET)


def shared_edge(corners_a: list[Pt], corners_b: list[Pt]) -> tuple[Pt, Pt] | None:
    """The two corners hexes a and b share, or None when they do not touch."""
    kb = {key(p) for p in corners_b}
    common = [p for p in corners_a if key(p) in kb]
    if len(common) != 2:
        return None
    return common[0], common[1]


def chain(segments: list[tuple[Pt, Pt]]) -> list[list[Pt]]:
    """Join segments that meet end to end into polylines (stable order, each segment once)."""
    ends: dict[tuple[int, int], list[int]] = {}
    for i, (a, b) in enumerate(segments):
        ends.setdefault(key(a), []).append(i)
        ends.setdefault(key(b), []).append(i)
    used = [False] * len(segments)
    out = []

    def extend(line: list[Pt]) -> None:
        while True:
            nxt = next((i for i in ends.get(key(line[-1]), []) if not used[i]), None)
            if nxt is None:
                return
            used[nxt] = True
            a, b = segments[nxt]
            line.append(b if key(a) == key(line[-1]) else a)

    # start at loose ends first so open chains are not split in the middle
    order = sorted(
        range(len(segments)),
        key=lambda i: (min(len(ends[key(segments[i][0])]), len(ends[key(segments[i][1])])) != 1, i),
    )
    for i in order:
        if used[i]:
            continue
        used[i] = True
        a, b = segments[i]
        if len(ends[key(b)]) == 1 and len(ends[key(a)]) != 1:
            a, b = b, a
        line = [a, b]
        extend(line)
        line.reverse()
        extend(line)
        out.append(line)
    return out


def relax(points: list[Pt]) -> list[Pt]:
    """Pull each inner point halfway to its neighbours' midpoint: a line zig-zagging through the
    staggered centres of a hex row becomes straight, and stays well inside its hexes."""
    if len(points) < 3:
        return list(points)
    out = [points[0]]
    for i in range(1, len(points) - 1):
        (ax, ay), (bx, by), (cx, cy) = points[i - 1], points[i], points[i + 1]
        out.append((0.5 * bx + 0.25 * (ax + cx), 0.5 * by + 0.25 * (ay + cy)))
    out.append(points[-1])
    return out


def smooth_d(points: list[Pt]) -> str:
    """Path data of a Catmull-Rom curve through the (relaxed) points: a road through hex centres."""
    if len(points) < 3:
        return "M" + "L".join(f"{num(x)} {num(y)}" for x, y in points)
    pts = relax(list(points))
    d = f"M{num(pts[0][0])} {num(pts[0][1])}"
    n = len(pts)
    for i in range(n - 1):
        p0 = pts[i - 1] if i > 0 else pts[i]
        p1, p2 = pts[i], pts[i + 1]
        p3 = pts[i + 2] if i + 2 < n else p2
        c1 = (p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6)
        c2 = (p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6)
        d += f"C{num(c1[0])} {num(c1[1])} {num(c2[0])} {num(c2[1])} {num(p2[0])} {num(p2[1])}"
    return d


def wiggle_d(points: list[Pt], amount: float, seed: int) -> str:
    """A line along the points that meanders a little either side (rivers on hexsides)."""
    from builder.render.terrain_art import rnd

    d = f"M{num(points[0][0])} {num(points[0][1])}"
    for i in range(len(points) - 1):
        (x1, y1), (x2, y2) = points[i], points[i + 1]
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length
        k = key(((x1 + x2) / 2, (y1 + y2) / 2))
        a = (rnd(k[0], k[1], seed) - 0.5) * 2 * amount
        b = (rnd(k[1], k[0], seed) - 0.5) * 2 * amount
        c1 = (x1 + dx / 3 + nx * a, y1 + dy / 3 + ny * a)
        c2 = (x1 + 2 * dx / 3 - nx * b, y1 + 2 * dy / 3 - ny * b)
        d += f"C{num(c1[0])} {num(c1[1])} {num(c2[0])} {num(c2[1])} {num(x2)} {num(y2)}"
    return d


def hexes_by_position(centres: dict) -> dict:
    """key(centre) -> hex: what boundary_segments looks neighbours up in (build it once for
    many sets of the same hexes)."""
    return {key(c): h for h, c in centres.items()}


# HexId's own order (its fields in turn), compared as tuples: sorting by the dataclass's
# generated comparisons took a third of a campaign map's sheet joins
_hex_order = attrgetter("sheet", "col", "row")


def boundary_segments(
    members: set, centres: dict, corners, hex_mm: float, inner_only: bool = False,
    by_pos: dict | None = None,
) -> list[tuple[Pt, Pt]]:
    """Edges of a set of hexes that face a hex outside the set (or the map edge, unless
    inner_only: then only edges facing another hex of the map)."""
    if by_pos is None:
        by_pos = hexes_by_position(centres)
    # the step to each neighbour's centre, and a hex's corners only for a hex on the boundary
    # (a campaign map's sheet joins test 34,000 hexes, a few hundred of them on a join)
    steps = [(hex_mm * math.cos(a), hex_mm * math.sin(a))
             for a in (math.radians(60 * i + 30) for i in range(6))]
    segs = []
    for h in sorted(members, key=_hex_order):
        cx, cy = centres[h]
        cs = None
        for i, (dx, dy) in enumerate(steps):
            # key() written out: a campaign map's sheet joins look up 200,000 neighbours
            other = by_pos.get((round((cx + dx) * _SNAP + _SNAP_OFFSET),
                                round((cy + dy) * _SNAP + _SNAP_OFFSET)))
            if (other is None and not inner_only) or (other is not None and other not in members):
                cs = cs or corners(h)
                segs.append((cs[i], cs[(i + 1) % 6]))
    return segs


def polygon_area_centroid(points: list[Pt]) -> Pt:
    a = cx = cy = 0.0
    n = len(points)
    for i in range(n):
        x1, y1 = points[i]
        x2, y2 = points[(i + 1) % n]
        cross = x1 * y2 - x2 * y1
        a += cross
        cx += (x1 + x2) * cross
        cy += (y1 + y2) * cross
    if abs(a) < 1e-9:
        return sum(p[0] for p in points) / n, sum(p[1] for p in points) / n
    return cx / (3 * a), cy / (3 * a)
