"""Board pixels from the one map geometry: VASSAL grid settings, zones and piece positions.

Everything here derives from render.map_layout (which places builder.geometry's HexGrid on the
printed map), scaled by one px-per-mm factor, so VASSAL's grid sits exactly on the drawn hexes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from builder.geometry.hexid import HexId
from builder.model.game_model import Game
from builder.render import map_layout
from builder.render.convert import capped_px_per_mm

PX_PER_HEX = 84  # board resolution: pixels across a hex's flats (the issue asks 75-100)
AREA_PX_PER_COUNTER = 64  # area maps: a unit counter this many pixels wide


@dataclass(frozen=True)
class HexGridSpec:
    """One VASSAL HexGrid + HexGridNumbering (a whole board, or one sheet's zone)."""

    sheet: str
    dx: float
    dy: float
    x0: int
    y0: int
    h_off: int
    v_off: int
    h_leading: int
    v_leading: int


class BoardGeometry:
    """Pixel positions on the main board for a game's map."""

    def __init__(self, game: Game):
        self.game = game
        self.layout = map_layout(game)
        if game.is_hex:
            wanted = PX_PER_HEX / game.map.hex_size
        else:
            wanted = AREA_PX_PER_COUNTER / _counter_mm(game, "unit")
        # a campaign-sized map gets a coarser board rather than one too big to draw
        self.px_per_mm = capped_px_per_mm(self.layout.width_mm, self.layout.height_mm, wanted)

    @property
    def size_px(self) -> tuple[int, int]:
        return (round(self.layout.width_mm * self.px_per_mm),
                round(self.layout.height_mm * self.px_per_mm))

    def px(self, mm: tuple[float, float]) -> tuple[float, float]:
        return mm[0] * self.px_per_mm, mm[1] * self.px_per_mm

    def counter_px(self, size_id: str) -> int:
        """A counter's edge in board pixels (pieces are drawn to the map's scale)."""
        return round(_counter_mm(self.game, size_id) * self.px_per_mm)

    # --- hex maps ------------------------------------------------------------------------
    def hex_center_px(self, h: HexId | str) -> tuple[float, float]:
        return self.px(self.layout.hex_center_mm(h))

    def hex_point(self, h: HexId | str) -> tuple[int, int]:
        x, y = self.hex_center_px(h)
        return round(x), round(y)

    @cached_property
    def sheets(self) -> list[str]:
        return list(self.game.grid.sheets)

    def grid_spec(self, sheet: str) -> HexGridSpec:
        """The VASSAL grid whose location names equal the printed numbers of one sheet.

        VASSAL's HexGrid (sideways=false) shifts its odd raw columns down by half a hex and numbers
        the hex at (x0, y0) with hOff/vOff. Raw column 0 must be an upper column, so when the
        sheet's first printed column is a lowered one the grid starts one column further left.
        """
        grid = self.game.grid
        s = grid.sheets[sheet]
        first = HexId(sheet, s.first_col, s.first_row)
        dx = 1.5 * grid.radius_mm * self.px_per_mm
        dy = grid.hex_mm * self.px_per_mm
        x, y = self.hex_center_px(first)
        col = s.first_col
        if grid.is_shifted(first):
            x, y, col = x - dx, y - dy / 2, col - 1
        return HexGridSpec(sheet, dx, dy, round(x), round(y), col, s.first_row,
                           grid.col_digits - 1, grid.row_digits - 1)

    def sheet_outline_px(self, sheet: str) -> list[tuple[int, int]]:
        """The outline of a sheet's hexes (their union), as a zone path."""
        grid = self.game.grid
        hexes = grid.sheet_hexes(sheet)
        corners = {h: [self.px(c) for c in self.layout.hex_corners_mm(h)] for h in hexes}
        return outline(corners)

    # --- area maps -----------------------------------------------------------------------
    def sector_outline_px(self, sector_id: str) -> list[tuple[int, int]]:
        return [(round(x), round(y)) for x, y in
                (self.px(p) for p in self.layout.sector_outline_mm(sector_id))]

    def sector_point(self, sector_id: str) -> tuple[int, int]:
        x, y = self.px(self.layout.sector_center_mm(sector_id))
        return round(x), round(y)


def _counter_mm(game: Game, size_id: str) -> float:
    sizes = {c.id: c.size for c in game.info.counter_sizes}
    return sizes.get(size_id) or next(iter(sizes.values()))


def outline(corners: dict) -> list[tuple[int, int]]:
    """The boundary of a union of hexes (corner lists, clockwise), as one closed polygon.

    An edge shared by two hexes of the set appears in both, in opposite directions; the others
    form the boundary, chained end to start. A set in several pieces gives its largest loop.
    """
    def key(p):
        return round(p[0] * 4), round(p[1] * 4)

    edges: dict = {}
    for pts in corners.values():
        for i in range(6):
            a, b = pts[i], pts[(i + 1) % 6]
            edges[(key(a), key(b))] = (a, b)
    boundary = {k: v for k, v in edges.items() if (k[1], k[0]) not in edges}
    starts = {k[0]: k for k in boundary}
    loops = []
    seen: set = set()
    for k in sorted(boundary):
        if k in seen:
            continue
        loop = []
        cur = k
        while cur not in seen:
            seen.add(cur)
            loop.append(boundary[cur][0])
            nxt = starts.get(cur[1])
            if nxt is None:
                break
            cur = nxt
        loops.append(loop)
    best = max(loops, key=len)
    return [(round(x), round(y)) for x, y in best]
