"""Where everything sits on a printed map: the one place that turns hex ids into map mm."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

from builder.geometry.hexgrid import corner_offsets
from builder.geometry.hexid import HexId
from builder.model.game_model import Game


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h


@dataclass
class MapLayout:
    """A printed map (whole, or one sheet): its size and where hexes and sectors are, in mm.

    hex_center_mm(h) = origin + game.grid.center_mm(h), the single geometry every output shares.
    """

    game: Game
    width_mm: float
    height_mm: float
    origin_mm: tuple[float, float]
    frame: Box  # the hex grid (or the area map) inside the margins
    panel: Box | None = None  # legend, tracks and boxes under the map
    sheet: str | None = None  # a sheet's id, or a group's ('16A+16B'): this layout shows it alone
    _sheets: dict = field(default_factory=dict, repr=False)
    group: tuple[str, ...] = ()  # the sheets a group's layout joins ('16A', '16B')
    _groups: dict = field(default_factory=dict, repr=False)

    @cached_property
    def hexes(self) -> tuple[HexId, ...]:
        """The hexes drawn on this layout, sheet after sheet in the grid's order: made when first
        asked (the module's board needs none of a campaign map's 34,000)."""
        if not self.game.is_hex:
            return ()
        grid = self.game.grid
        if self.sheet is None:
            return tuple(grid.all_hexes())
        if self.group:
            return tuple(h for s in self.group for h in grid.sheet_hexes(s))
        return tuple(grid.sheet_hexes(self.sheet)) if self.sheet in grid.sheets else ()

    # --- hex maps ------------------------------------------------------------------------
    def _hex(self, h) -> HexId:
        return h if isinstance(h, HexId) else self.game.hex(str(h))

    def hex_center_mm(self, h) -> tuple[float, float]:
        """Centre of hex h ('2717', '16A:0827' or a HexId) in mm from this drawing's top-left."""
        hid = self._hex(h)
        if self.sheet is not None and hid.sheet not in (self.group or (self.sheet,)):
            raise KeyError(f"hex {hid} is not on {self.sheet_label.lower()}")
        if not self.game.grid.contains(hid):
            raise KeyError(f"hex {hid} is not on the map")
        x, y = self.game.grid.center_mm(hid)
        return self.origin_mm[0] + x, self.origin_mm[1] + y

    def hex_corners_mm(self, h) -> list[tuple[float, float]]:
        """The six corners of hex h (east first, clockwise on the page)."""
        cx, cy = self.hex_center_mm(h)
        return [(cx + dx, cy + dy) for dx, dy in corner_offsets(self.game.grid.radius_mm)]

    def sheet_layout(self, sheet_id: str) -> MapLayout:
        """The layout of one sheet of a multi-sheet map drawn on its own, or of a group of
        adjoining sheets drawn as one map (its id: print_ids)."""
        if sheet_id in self._groups:
            return self._groups[sheet_id]
        if sheet_id not in self._sheets:
            known = ", ".join(s.id for s in getattr(self.game.map, "sheets", ()))
            raise KeyError(f"no sheet '{sheet_id}' (sheets: {known or 'none'})")
        return self._sheets[sheet_id]

    @property
    def sheet_ids(self) -> list[str]:
        return list(self._sheets)

    @property
    def print_ids(self) -> list[str]:
        """What the print shows map by map: each group of adjoining sheets joined (its id
        names them, '16A+16B+17A+17B'), each sheet that adjoins no other alone, in map.toml's
        order of their first sheets."""
        out, seen = [], set()
        for sid in self._sheets:
            if sid in seen:
                continue
            gid = next((g for g, lay in self._groups.items() if sid in lay.group), sid)
            seen.update(self._groups[gid].group if gid in self._groups else (sid,))
            out.append(gid)
        return out

    @property
    def sheet_label(self) -> str:
        """'Sheet 16A', 'Sheets 16A, 16B, 17A and 17B' ('' for a whole map)."""
        if self.group:
            return "Sheets " + ", ".join(self.group[:-1]) + " and " + self.group[-1]
        return f"Sheet {self.sheet}" if self.sheet else ""

    # --- area maps -----------------------------------------------------------------------
    def sector_center_mm(self, sector_id: str) -> tuple[float, float]:
        """Where a sector's name and pieces go: a point well inside its outline."""
        return self._sector_points[sector_id]

    def sector_outline_mm(self, sector_id: str) -> list[tuple[float, float]]:
        ox, oy = self.origin_mm
        return [(ox + x, oy + y) for x, y in self.game.sector_by_id[sector_id].outline]

    @cached_property
    def _sector_points(self) -> dict[str, tuple[float, float]]:
        ox, oy = self.origin_mm
        out = {}
        for s in self.game.map.sectors:
            x, y = inner_point(s.outline)
            out[s.id] = (ox + x, oy + y)
        return out


# --- geometry helpers ------------------------------------------------------------------------
def point_in_polygon(x: float, y: float, poly) -> bool:
    inside = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _edge_distance(x: float, y: float, poly) -> float:
    best = float("inf")
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        dx, dy = x2 - x1, y2 - y1
        seg = dx * dx + dy * dy
        t = 0.0 if seg == 0 else max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / seg))
        best = min(best, math.hypot(x - x1 - t * dx, y - y1 - t * dy))
    return best


def inner_point(poly) -> tuple[float, float]:
    """The point inside a polygon farthest from its edges (a coarse-to-fine search)."""
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    cx = sum(xs) / len(xs)
    cy = sum(ys) / len(ys)
    best = (cx, cy, _edge_distance(cx, cy, poly) if point_in_polygon(cx, cy, poly) else -1.0)
    step = max(x1 - x0, y1 - y0) / 16
    centre = ((x0 + x1) / 2, (y0 + y1) / 2)
    span = max(x1 - x0, y1 - y0) / 2
    for _ in range(4):
        n = int(span * 2 / step) + 1
        for i in range(n + 1):
            for j in range(n + 1):
                x = centre[0] - span + i * step
                y = centre[1] - span + j * step
                if point_in_polygon(x, y, poly):
                    d = _edge_distance(x, y, poly)
                    # prefer the centroid's neighbourhood when distances tie (stable, central)
                    if d > best[2] + 1e-6:
                        best = (x, y, d)
        centre = (best[0], best[1])
        span = step * 1.5
        step /= 4
    return round(best[0], 3), round(best[1], 3)


def bounds_of_centres(game: Game, centres: list[tuple[float, float]]) -> Box:
    """The box around the corners of hexes with these centres (grid mm)."""
    grid = game.grid
    r = grid.radius_mm
    h2 = grid.hex_mm / 2
    xs = [x for x, _ in centres]
    ys = [y for _, y in centres]
    x0, y0 = min(xs), min(ys)
    return Box(x0 - r, y0 - h2, max(xs) - x0 + 2 * r, max(ys) - y0 + 2 * h2)
