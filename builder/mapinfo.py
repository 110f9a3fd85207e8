"""Map queries for map-aware answers: terrain, hexsides, distance, line of sight, ranges.

All hex arithmetic goes through game.grid (builder.geometry): this module only asks it.
"""

from __future__ import annotations

from builder.geometry.hexid import HexId


def parse_hex(game, text: str) -> HexId:
    """A printed hex number that must be on this map (ValueError saying the map's extent)."""
    if not game.is_hex:
        raise ValueError(f"{game.slug} has an area map: name a sector, not a hex")
    h = game.hex(str(text))
    if not game.grid.contains(h):
        sheets = game.grid.sheets
        if h.sheet not in sheets:
            named = ", ".join(k for k in sheets if k)
            raise ValueError(f"hex {text} is not on the map: "
                             + (f"no sheet '{h.sheet}' (sheets: {named}; write e.g. "
                                f"'{named.split(', ')[0]}:{text.split(':')[-1]}')" if named else
                                "this map has no sheet prefixes"))
        sp = sheets[h.sheet]
        cd, rd = game.map.column_digits, game.map.row_digits
        where = f"sheet {h.sheet} has" if h.sheet else "the map has"
        raise ValueError(f"hex {text} is not on the map: {where} columns {sp.first_col:0{cd}d}-"
                         f"{sp.last_col:0{cd}d} and rows {sp.first_row:0{rd}d}-{sp.last_row:0{rd}d}")
    return h


def terrain_of(game, h: HexId) -> tuple[str, ...]:
    """Terrain type ids in a hex (the default terrain when none is assigned)."""
    return game.hex_terrain.get(h, (game.map.default_terrain,))


def regions_of(game, h: HexId) -> tuple[str, ...]:
    """Ids of the map's regions that hold the hex."""
    return game.region_index.get(h, ())


def terrain_name(game, terrain_id: str) -> str:
    t = game.terrain_types.get(terrain_id)
    return t.name if t else terrain_id


def hexside_types(game, a: HexId, b: HexId) -> tuple[str, ...]:
    """Hexside type ids on the side between two adjacent hexes (empty for a plain side)."""
    return game.hexside_types_between(a, b)


def hexside_name(game, type_id: str) -> str:
    for t in game.map.hexside_types:
        if t.id == type_id:
            return t.name
    return type_id


def distance(game, a: HexId, b: HexId) -> int:
    """Hexes from a to b, counting b but not a."""
    return game.grid.distance(a, b)


def near(game, a: HexId, radius: int) -> list[HexId]:
    """Every hex within radius of a (a included), walking neighbours on the map."""
    seen = {a}
    frontier = [a]
    for _ in range(radius):
        nxt = []
        for h in frontier:
            for n in game.grid.neighbours(h):
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return sorted(seen)


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
            out.append((round((a[0] + b[0]) / 2, 3), round((a[1] + b[1]) / 2, 3)))
    return out


def lines_between(game, a: HexId, b: HexId, corner_to_corner: bool = True) -> list[dict]:
    """Each line from a to b (corner to corner, or centre to centre): the hexes strictly between
    whose inside it crosses ('crossed', nearest a first) and the pairs of hexes whose shared side
    it runs along ('along')."""
    grid = game.grid
    d = grid.distance(a, b)
    cands = [h for h in near(game, a, d)
             if h not in (a, b) and grid.distance(a, h) + grid.distance(h, b) <= d + 1]
    polys = {h: grid.corners_mm(h) for h in cands + [a, b]}
    eps = grid.radius_mm * 1e-4
    if corner_to_corner:
        pairs = [(p, q) for p in grid.corners_mm(a) for q in grid.corners_mm(b)]
    else:
        pairs = [(grid.center_mm(a), grid.center_mm(b))]
    centres = [grid.center_mm(h) for h in cands + [a, b]]
    reach = (grid.radius_mm + eps) ** 2
    steps = 8 * max(d, 1)

    def on_map(p, q) -> bool:
        # every point of a line must lie in some hex of the map: no short cuts off its edge
        for k in range(1, steps):
            x = p[0] + (q[0] - p[0]) * k / steps
            y = p[1] + (q[1] - p[1]) * k / steps
            if not any((x - cx) ** 2 + (y - cy) ** 2 <= reach for cx, cy in centres):
                return False
        return True

    out = []
    for p, q in pairs:
        if corner_to_corner and not on_map(p, q):
            continue
        crossed = sorted((h for h in cands if _crosses_interior(p, q, polys[h], eps)),
                         key=lambda h: grid.distance(a, h))
        edges: dict = {}
        for h in cands:
            for mid in _along_edges(p, q, polys[h], eps):
                edges.setdefault(mid, []).append(h)
        along = [tuple(sorted(hs)) for hs in edges.values()]
        line = {"crossed": crossed, "along": sorted(along)}
        if line not in out:
            out.append(line)
    return out


def line_of_sight(game, rule, observer: HexId, target: HexId, night: bool = False) -> dict:
    """Whether observer sees target under a line-of-sight rule (a LineOfSightTable), and why.

    Returns {'seen': bool, 'distance': n, 'why': text, 'through': [hex labels of the best line],
    'blocked_by': label or None}.
    """
    grid = game.grid
    d = grid.distance(observer, target)
    base = {"distance": d, "through": [], "blocked_by": None}
    if d == 0:
        return {**base, "seen": True, "why": "the same hex"}
    if d == 1 and rule.adjacent_always:
        return {**base, "seen": True, "why": "adjacent: always observed"}
    if night and rule.night_range is not None and d > rule.night_range:
        return {**base, "seen": False,
                "why": f"night turn: no line of sight beyond {rule.night_range} hex"
                       f"{'es' if rule.night_range != 1 else ''}"}
    if d > rule.max_range:
        return {**base, "seen": False, "why": f"{d} hexes is beyond the {rule.max_range}-hex maximum"}
    clear = {game.map.default_terrain, *rule.clear_terrain}
    high = set(rule.high_ground)
    obs_high = set(terrain_of(game, observer)) & high

    def blocks(h: HexId) -> bool:
        kinds = set(terrain_of(game, h)) - clear
        if not kinds:
            return False
        return not (obs_high and not (kinds & obs_high))  # high ground sees over all but its own

    def blockers(line: dict) -> list[HexId]:
        out = [h for h in line["crossed"] if blocks(h)]
        # along a hexside: blocked only when the hexes on both sides block (a reading: 17.3 is silent)
        for pair in line["along"]:
            if len(pair) == 2 and all(blocks(h) for h in pair):
                out.append(pair[0])
        return out

    lines = lines_between(game, observer, target, rule.corner_to_corner) or \
        lines_between(game, observer, target, False)
    best = min(lines, key=lambda ln: (len(blockers(ln)), len(ln["crossed"])))
    blocked = blockers(best)
    base["through"] = [grid.label(h) for h in best["crossed"]]
    sides = [pair for pair in best["along"] if len(pair) == 2]
    if not blocked:
        high_txt = (" (the observer's " + ", ".join(terrain_name(game, x) for x in obs_high)
                    + " sees over intervening terrain)") if obs_high else ""
        why = (f"{d} hexes, a clear line" + (" through " + ", ".join(base["through"])
                                             if best["crossed"] else "")
               + (" along the side of " + ", ".join("/".join(grid.label(h) for h in pair)
                                                    for pair in sides) if sides else "")
               + high_txt)
        return {**base, "seen": True, "why": why}
    h = blocked[0]
    names = ", ".join(terrain_name(game, x) for x in terrain_of(game, h) if x not in clear)
    base["blocked_by"] = grid.label(h)
    return {**base, "seen": False,
            "why": f"every line is blocked; the clearest passes {grid.label(h)} ({names})"}
