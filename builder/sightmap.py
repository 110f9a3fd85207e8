"""Every hex's view under a line-of-sight table: which hexes within range it sees by day.

The same rule as builder.mapinfo.line_of_sight (levels, obstacle heights, crests and walls, blind
hexes, corner-to-corner lines that stay on the map), worked out for every hex at once: the map is
laid on an array in cube coordinates (q, r), and for each step (dq, dr) within range and each of
its lines (builder.geometry.sight) the elements a line passes are read by shifting the arrays. The
module's check marker reads this table; tests compare it with line_of_sight pair by pair, and
check that it is symmetric (A sees B exactly when B sees A) for every pair of a map.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from builder.geometry import sight

OFF = -(10**6)  # the top of a place off the map: never blocks


@dataclass(frozen=True)
class View:
    """Which hexes each hex sees: seen[(dq, dr)] is a boolean array over the grid's cells."""

    q0: int
    r0: int
    on_map: np.ndarray  # (nq, nr) bool
    labels: dict  # (q, r) -> hex label
    seen: dict  # (dq, dr) -> (nq, nr) bool: the hex at (q, r) sees the one at (q + dq, r + dr)

    def sees(self, a: tuple[int, int], b: tuple[int, int]) -> bool:
        """Whether the hex at cube (q, r) a sees the one at b (both on the map, within range)."""
        d = (b[0] - a[0], b[1] - a[1])
        if d == (0, 0):
            return True
        return bool(self.seen[d][a[0] - self.q0, a[1] - self.r0])


def steps(max_range: int, nearest: int = 1) -> list[tuple[int, int]]:
    """Every (dq, dr) from nearest to max_range hexes away, in a fixed order."""
    return [(dq, dr) for dq in range(-max_range, max_range + 1)
            for dr in range(-max_range, max_range + 1)
            if nearest <= sight.distance((dq, dr)) <= max_range]


def view(game, rule) -> View:
    """Every hex's day view under a LineOfSightTable (hex maps only)."""
    from builder import mapinfo

    grid = game.grid
    cells: dict = {}
    for h in grid.all_hexes():
        q, r, _ = grid.cube(h)
        cells.setdefault((q, r), h)
    pad = rule.max_range + 1
    qs = [q for q, _ in cells]
    rs = [r for _, r in cells]
    q0, r0 = min(qs) - pad, min(rs) - pad
    shape = (max(qs) - q0 + pad + 1, max(rs) - r0 + pad + 1)
    m = _Map(shape, getattr(rule, "blind_hexes", 0))
    for (q, r), h in cells.items():
        i, j = q - q0, r - r0
        m.on_map[i, j] = True
        m.ground[i, j] = mapinfo.ground_level(game, h)
        m.top[i, j] = mapinfo.hex_top(game, rule, h)[0]
        for st in sight._STEPS:  # sight-blocking hexsides, by the step to the neighbour
            n = cells.get((q + st[0], r + st[1]))
            found = mapinfo.side_top(game, h, n) if n is not None else None
            if found is not None:
                m.side_top[st][i, j] = found[0]
    nearest = 1 if not rule.adjacent_always else 2
    seen = {d: m.seen(d, rule.corner_to_corner) for d in steps(rule.max_range, nearest)}
    labels = {(q, r): grid.label(h) for (q, r), h in cells.items()}
    return View(q0, r0, m.on_map, labels, seen)


class _Map:
    """The map's facts as arrays over cube cells, and what a line between two cells meets."""

    def __init__(self, shape: tuple[int, int], blind: int):
        self.shape = shape
        self.blind = blind
        self.on_map = np.zeros(shape, bool)
        self.ground = np.zeros(shape, np.int64)
        self.top = np.full(shape, OFF, np.int64)
        self.side_top = {st: np.full(shape, OFF, np.int64) for st in sight._STEPS}

    def shifted(self, arr: np.ndarray, o: tuple[int, int], fill) -> np.ndarray:
        """arr read at each cell + o (fill beyond the array)."""
        nq, nr = self.shape
        out = np.full_like(arr, fill)
        dq, dr = o
        out[max(0, -dq):nq + min(0, -dq), max(0, -dr):nr + min(0, -dr)] = \
            arr[max(0, dq):nq + min(0, dq), max(0, dr):nr + min(0, dr)]
        return out

    def seen(self, d: tuple[int, int], corner_to_corner: bool) -> np.ndarray:
        """Whether each hex sees the hex d away (False where either is off the map)."""
        step = _Step(self, d)
        result = step.through(sight.lines(d[0], d[1], False))[0]
        if corner_to_corner:
            corner, any_line = step.through(sight.lines(d[0], d[1], True), on_map=True)
            result = np.where(any_line, corner, result)
        return result & self.on_map & self.shifted(self.on_map, d, False)


class _Step:
    """One step d: the two ends' levels, and which lines are clear from each hex."""

    def __init__(self, m: _Map, d: tuple[int, int]):
        self.m = m
        self.d = d
        gb = m.shifted(m.ground, d, 0)
        self.lo = np.minimum(m.ground, gb)
        self.hi = np.maximum(m.ground, gb)
        self.low_is_a = m.ground <= gb
        self.hexes: dict = {}
        self.sides: dict = {}
        self.behinds: dict = {}
        self.present: dict = {}
        self.held: dict = {}
        self.nears: dict = {}

    def blocks(self, t: np.ndarray, behind: np.ndarray) -> np.ndarray:
        """As line_of_sight's blocks: above the lower end and as high as the higher, or blind."""
        out = (t > self.lo) & (t >= self.hi)
        if self.m.blind:
            out |= (self.lo < t) & (t < self.hi) & (behind <= self.m.blind)
        return out

    def behind(self, o: tuple[int, int]) -> np.ndarray:
        """Hexes from o to the lower end (each o worked out once per step: the lines of a step
        share most of their elements)."""
        if o not in self.behinds:
            self.behinds[o] = np.where(self.low_is_a, sight.distance(o), sight.distance(o, self.d))
        return self.behinds[o]

    def hex_blocks(self, o: tuple[int, int]) -> np.ndarray:
        if o not in self.hexes:
            self.hexes[o] = self.blocks(self.m.shifted(self.m.top, o, OFF), self.behind(o))
        return self.hexes[o]

    def side_blocks(self, x: tuple[int, int], y: tuple[int, int]) -> np.ndarray:
        if (x, y) not in self.sides:
            t = self.m.shifted(self.m.side_top[(y[0] - x[0], y[1] - x[1])], x, OFF)
            self.sides[(x, y)] = self.blocks(t, np.minimum(self.behind(x), self.behind(y)))
        return self.sides[(x, y)]

    def clear(self, line) -> np.ndarray:
        """Where no element of the line blocks."""
        blocked = np.zeros(self.m.shape, bool)
        for o in line.crossed:
            blocked |= self.hex_blocks(o)
        pairs = [hs for hs in line.along if len(hs) == 2]
        for x, y in pairs:
            blocked |= self.hex_blocks(x) & self.hex_blocks(y)
        for pair in list(line.sides) + list(line.touched) + pairs:
            if (0, 0) not in pair and self.d not in pair:
                blocked |= self.side_blocks(*sorted(pair))
        return ~blocked

    def stays(self, line) -> np.ndarray:
        """Where every point of the line lies in a hex of the map."""
        out = np.ones(self.m.shape, bool)
        near = self.nears.setdefault(id(line.near), line.near)  # kept: its id stays its own
        for mask in line.cover:
            key = (id(near), mask)  # (hashing the long tuple for every mask took most the time)
            if key not in self.held:
                held = np.zeros(self.m.shape, bool)
                bits = mask
                while bits:
                    o = near[(bits & -bits).bit_length() - 1]
                    bits &= bits - 1
                    if o not in self.present:
                        self.present[o] = self.m.shifted(self.m.on_map, o, False)
                    held |= self.present[o]
                self.held[key] = held
            out &= self.held[key]
        return out

    def through(self, lines, on_map: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """(where some line is clear, where some line exists): lines that must stay on the map
        when on_map."""
        clear = np.zeros(self.m.shape, bool)
        exists = np.zeros(self.m.shape, bool)
        for line in lines:
            here = self.stays(line) if on_map else np.ones(self.m.shape, bool)
            exists |= here
            clear |= here & self.clear(line)
        return clear, exists
