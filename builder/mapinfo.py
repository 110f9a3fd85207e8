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


def lines_between(game, a: HexId, b: HexId, corner_to_corner: bool = True) -> list[dict]:
    """Each line from a to b (corner to corner, or centre to centre): the hexes strictly between
    whose inside it crosses ('crossed', nearest a first), the pairs of hexes whose shared side
    it runs along ('along'), the pairs of adjacent hexes whose shared side it crosses ('sides')
    or touches at a corner it passes through ('touched'). A corner-to-corner line must stay on
    the map. The geometry is worked out once per
    step between two hexes (builder.geometry.sight) and placed on the map here."""
    from builder.geometry import sight

    grid = game.grid
    cells = grid._by_cube
    qa, ra, _ = grid.cube(a)
    qb, rb, _ = grid.cube(b)

    def at(o) -> HexId | None:
        hs = cells.get((qa + o[0], ra + o[1]))
        return hs[0] if hs else None

    out = []
    mapped: dict = {}
    for line in sight.lines(qb - qa, rb - ra, corner_to_corner):
        if corner_to_corner:
            if line.near not in mapped:
                mapped[line.near] = sum(1 << i for i, o in enumerate(line.near)
                                        if at(o) is not None)
            if not all(mask & mapped[line.near] for mask in line.cover):
                continue  # every point of a line must lie in some hex of the map
        crossed = sorted((h for h in map(at, line.crossed) if h is not None),
                         key=lambda h: (grid.distance(a, h), h))
        along = sorted(tuple(sorted(h for h in map(at, hs) if h is not None))
                       for hs in line.along)
        along = [pair for pair in along if pair]
        sides = [tuple(sorted((at(x), at(y)))) for x, y in line.sides
                 if at(x) is not None and at(y) is not None]
        touched = [tuple(sorted((at(x), at(y)))) for x, y in line.touched
                   if at(x) is not None and at(y) is not None]
        found = {"crossed": crossed, "along": along, "sides": sorted(sides),
                 "touched": sorted(touched)}
        if found not in out:
            out.append(found)
    return out


# --- line of sight with levels ----------------------------------------------------------------
def ground_level(game, h: HexId) -> int:
    """The hex's ground level: map.toml's [[levels]], else the highest of its terrains' levels."""
    given = game.hex_levels.get(h)
    if given is not None:
        return given
    kinds = [game.terrain_types[x] for x in terrain_of(game, h) if x in game.terrain_types]
    return max((t.level for t in kinds), default=0)


def obstacle_height(game, rule, terrain_id: str) -> int:
    """How many levels a terrain stands above its hex's ground for this rule: 0 for the default
    terrain and the rule's clear terrain, else its height (1 when map.toml gives none)."""
    if terrain_id == game.map.default_terrain or terrain_id in rule.clear_terrain:
        return 0
    t = game.terrain_types.get(terrain_id)
    if t is None:
        return 0
    return 1 if t.height is None else t.height


def hex_top(game, rule, h: HexId) -> tuple[int, list[str]]:
    """(the top of a hex: its ground plus its tallest obstacle, the obstacle terrain ids)."""
    heights = {x: obstacle_height(game, rule, x) for x in terrain_of(game, h)}
    tallest = max(heights.values(), default=0)
    return ground_level(game, h) + tallest, [x for x, v in heights.items() if v and v == tallest]


def side_top(game, a: HexId, b: HexId) -> tuple[int, str] | None:
    """(top, hexside type id) of the tallest sight-blocking hexside between two hexes, or None:
    a crest stands at the higher of the two hexes' ground (+ its height), a wall 1 level (or its
    height) above it."""
    found = []
    for type_id in hexside_types(game, a, b):
        ht = game.hexside_type_by_id.get(type_id)
        if ht is None or not ht.sight:
            continue
        extra = ht.height if ht.height is not None else (1 if ht.sight == "wall" else 0)
        found.append((max(ground_level(game, a), ground_level(game, b)) + extra, type_id))
    return max(found) if found else None


def line_of_sight(game, rule, observer: HexId, target: HexId, night: bool = False) -> dict:
    """Whether observer and target see each other under a line-of-sight rule (a
    LineOfSightTable), and why. Reciprocal by construction: the answer is worked out for the
    pair in the order of their cube coordinates, and nothing in it depends on which end observes.

    An element between the ends (a hex crossed, a pair of hexes a line runs along, a crest or wall
    crossed, run along or touched at one of its corners) blocks when its top (ground level plus obstacle height) is above the lower end and
    at least as high as the higher end; with blind_hexes, also when it stands between the ends'
    levels and the lower end lies within that many hexes behind it. The ends' own hexes and
    hexsides never block. Returns {'seen', 'distance', 'why', 'through': [hex labels of the
    clearest line], 'blocked_by': label or None}.
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
    a, b = sorted((observer, target), key=lambda h: grid.cube(h)[:2])
    levels = {a: ground_level(game, a), b: ground_level(game, b)}
    lo, hi = min(levels.values()), max(levels.values())
    low = a if levels[a] <= levels[b] else b
    blind = getattr(rule, "blind_hexes", 0)

    def blocks(top: int, behind: int) -> str:
        """'' when an element of this top does not block; else why it does."""
        if top > lo and top >= hi:
            return "high" if top > hi or lo == hi else "level"
        if blind and lo < top < hi and behind <= blind:
            return "blind"
        return ""

    tops: dict = {}

    def top_of(h: HexId) -> tuple[int, list[str]]:
        if h not in tops:
            tops[h] = hex_top(game, rule, h)
        return tops[h]

    def blockers(line: dict) -> list[tuple]:
        out = []
        for h in line["crossed"]:
            why = blocks(top_of(h)[0], grid.distance(h, low))
            if why:
                out.append(("hex", h, why))
        for pair in line["along"]:
            if len(pair) == 2 and all(blocks(top_of(h)[0], grid.distance(h, low)) for h in pair):
                out.append(("along", pair, blocks(top_of(pair[0])[0], grid.distance(pair[0], low))))
        for pair in line["sides"] + line["touched"] + [p for p in line["along"] if len(p) == 2]:
            if a in pair or b in pair:
                continue
            st = side_top(game, *pair)
            if st is None:
                continue
            why = blocks(st[0], min(grid.distance(h, low) for h in pair))
            if why:
                out.append(("side", pair, why))
        return out

    lines = lines_between(game, a, b, rule.corner_to_corner) or lines_between(game, a, b, False)
    best = min(lines, key=lambda ln: (len(blockers(ln)), len(ln["crossed"])))
    blocked = blockers(best)
    base["through"] = [grid.label(h) for h in best["crossed"]]
    sides = [pair for pair in best["along"] if len(pair) == 2]
    heights = "" if lo == hi else (f" (levels: {grid.label(a)} {levels[a]}, "
                                   f"{grid.label(b)} {levels[b]})")
    if not blocked:
        why = (f"{d} hexes, a clear line" + (" through " + ", ".join(base["through"])
                                             if best["crossed"] else "")
               + (" along the side of " + ", ".join("/".join(grid.label(h) for h in pair)
                                                    for pair in sides) if sides else "")
               + heights)
        return {**base, "seen": True, "why": why}
    kind, where, why = blocked[0]
    base["blocked_by"] = grid.label(where if kind == "hex" else where[0])
    return {**base, "seen": False, "why": "every line is blocked; the clearest "
            + _blocker_words(game, rule, kind, where, why, lo, hi, low) + heights}


def _blocker_words(game, rule, kind: str, where, why: str, lo: int, hi: int, low: HexId) -> str:
    """What blocks the clearest line, as a player reads it."""
    grid = game.grid
    if kind == "side":
        top, type_id = side_top(game, *where)
        what = (f"crosses the {hexside_name(game, type_id).lower()} between "
                + "/".join(grid.label(h) for h in where) + f" (level {top})")
    else:
        h = where if kind == "hex" else where[0]
        top, kinds = hex_top(game, rule, h)
        names = ", ".join(terrain_name(game, x) for x in kinds or terrain_of(game, h))
        what = f"{grid.label(h)} ({names}, level {top})"
        what = ("passes " + what if kind == "hex" else "runs along the side of "
                + "/".join(grid.label(x) for x in where) + ", " + what)
    if why == "blind":
        return (what + f": {grid.label(low)} lies in the blind hexes behind it, seen from "
                f"level {hi}")
    if why == "level":
        return what + f", as high as the higher end (level {hi})"
    return what
