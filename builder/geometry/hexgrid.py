"""Where hexes sit and which touch: flat-topped hexes in columns, offset to cube coordinates.

Follows Red Blob Games' offset/cube treatment: printed numbers become global (column, row)
offset coordinates, then cube coordinates for neighbours and distance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, cached_property

from builder.geometry.hexid import HexId

SQRT3 = math.sqrt(3.0)
_CUBE_STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))  # the six (dq, dr) to a neighbour


@cache
def corner_offsets(radius_mm: float) -> tuple[tuple[float, float], ...]:
    """From a hex's centre to its six corners, starting east and going clockwise on screen
    (worked out once per radius: a campaign map has 34,000 hexes, each drawn and outlined)."""
    return tuple((radius_mm * math.cos(math.radians(60 * i)),
                  radius_mm * math.sin(math.radians(60 * i))) for i in range(6))


@dataclass(frozen=True)
class SheetPlacement:
    """Where one map sheet's printed columns and rows sit in the whole map's grid."""

    sheet: str
    first_col: int
    last_col: int
    first_row: int
    last_row: int
    origin_col: int = 0  # global column of this sheet's first column
    origin_row: int = 0  # global row of this sheet's first row

    @property
    def hex_count(self) -> int:
        return (self.last_col - self.first_col + 1) * (self.last_row - self.first_row + 1)

    def contains(self, h: HexId) -> bool:
        return (
            h.sheet == self.sheet
            and self.first_col <= h.col <= self.last_col
            and self.first_row <= h.row <= self.last_row
        )


class HexGrid:
    """The geometry of one hex map: ids to positions, neighbours, distance, hexsides."""

    def __init__(
        self,
        sheets: list[SheetPlacement],
        hex_mm: float,
        shifted_columns: str = "even",
        col_digits: int = 2,
        row_digits: int = 2,
    ):
        self.sheets = {s.sheet: s for s in sheets}
        self.hex_mm = hex_mm  # across the flats: the hex's height
        self.radius_mm = hex_mm / SQRT3  # centre to corner
        self.shifted_columns = shifted_columns  # printed columns drawn half a hex lower
        self.col_digits = col_digits
        self.row_digits = row_digits
        self._all: tuple[HexId, ...] | None = None

    # --- ids and membership -------------------------------------------------------------
    def contains(self, h: HexId) -> bool:
        s = self.sheets.get(h.sheet)
        return s is not None and s.contains(h)

    @property
    def hex_count(self) -> int:
        """How many hexes the map has (all_hexes() without listing a campaign map's 34,000)."""
        return sum(s.hex_count for s in self.sheets.values())

    def all_hexes(self) -> list[HexId]:
        if self._all is None:  # made once: a campaign map has 34,000 and many callers
            self._all = tuple(h for s in self.sheets for h in self.sheet_hexes(s))
        return list(self._all)

    def sheet_hexes(self, sheet: str) -> list[HexId]:
        s = self.sheets[sheet]
        return [HexId(s.sheet, c, r) for c in range(s.first_col, s.last_col + 1)
                for r in range(s.first_row, s.last_row + 1)]

    def label(self, h: HexId) -> str:
        return h.label(self.col_digits, self.row_digits)

    # --- coordinates ----------------------------------------------------------------------
    def is_shifted(self, h: HexId) -> bool:
        """True when the hex's printed column is drawn half a hex lower than its neighbours."""
        return (h.col % 2 == 0) == (self.shifted_columns == "even")

    def offset(self, h: HexId) -> tuple[int, int]:
        """Global (column, row) of a hex across all sheets."""
        s = self.sheets[h.sheet]
        return s.origin_col + h.col - s.first_col, s.origin_row + h.row - s.first_row

    def cube(self, h: HexId) -> tuple[int, int, int]:
        """Cube coordinates (q, r, s) with q + r + s = 0."""
        q, row = self.offset(h)
        lowered = 1 if self.is_shifted(h) else 0
        # A lowered column's centre sits half a hex down: 2*y/hex - q has one parity everywhere.
        r = (2 * row + lowered - q) // 2
        return q, r, -q - r

    def center_mm(self, h: HexId) -> tuple[float, float]:
        """Centre of the hex in millimetres from the top-left of the whole map's grid."""
        q, row = self.offset(h)
        x = self.radius_mm + q * 1.5 * self.radius_mm
        y = self.hex_mm / 2 + row * self.hex_mm + (self.hex_mm / 2 if self.is_shifted(h) else 0)
        return x, y

    def corners_mm(self, h: HexId) -> list[tuple[float, float]]:
        """The six corners, starting east and going clockwise on screen."""
        cx, cy = self.center_mm(h)
        return [(cx + dx, cy + dy) for dx, dy in corner_offsets(self.radius_mm)]

    # --- adjacency ------------------------------------------------------------------------
    def neighbours(self, h: HexId) -> list[HexId]:
        """The hexes sharing a side with h that exist on the map (across sheet joins too)."""
        q, r, _ = self.cube(h)
        by_cube = self._by_cube
        found = [n for dq, dr in _CUBE_STEPS for n in by_cube.get((q + dq, r + dr), ()) if n != h]
        return sorted(found, key=self.map_order)

    def neighbours_of_one(self, h: HexId) -> list[HexId]:
        """neighbours(h) for a single look-up: the few hexes within a column and two rows of h
        are tried on each sheet, where neighbours() first indexes the whole map (34,000 hexes
        of a campaign map, 0.17 s)."""
        q, row = self.offset(h)
        found = []
        for s in self.sheets.values():
            for gc in (q - 1, q, q + 1):
                for gr in range(row - 2, row + 3):  # a step of one across a sheet's shift
                    n = HexId(s.sheet, gc - s.origin_col + s.first_col,
                              gr - s.origin_row + s.first_row)
                    if n != h and s.contains(n) and self.distance(h, n) == 1:
                        found.append(n)
        return sorted(found, key=self.map_order)

    def map_order(self, h: HexId) -> tuple[int, int, int]:
        """Sort key of neighbours' answers: sheets as the map lists them, then column, then row."""
        return (self._sheet_rank[h.sheet], *self.offset(h))

    def middle_hex(self) -> HexId:
        """The hex halfway through sorted(all_hexes()), found without sorting them."""
        left = self.hex_count // 2
        for name in sorted(self.sheets):
            s = self.sheets[name]
            if left < s.hex_count:
                rows = s.last_row - s.first_row + 1
                return HexId(name, s.first_col + left // rows, s.first_row + left % rows)
            left -= s.hex_count
        raise ValueError("a grid without hexes")

    @cached_property
    def _by_cube(self) -> dict[tuple[int, int], tuple[HexId, ...]]:
        """Cube (q, r) -> the hexes there: neighbours are six look-ups, not a scan of the sheets."""
        cells: dict[tuple[int, int], tuple[HexId, ...]] = {}
        for h in self.all_hexes():
            key = self.cube(h)[:2]
            cells[key] = cells.get(key, ()) + (h,)
        return cells

    @cached_property
    def _sheet_rank(self) -> dict[str, int]:
        return {sheet: i for i, sheet in enumerate(self.sheets)}

    def adjacent(self, a: HexId, b: HexId) -> bool:
        return self.distance(a, b) == 1

    def distance(self, a: HexId, b: HexId) -> int:
        """Hexes between a and b, counting b but not a."""
        aq, ar, as_ = self.cube(a)
        bq, br, bs = self.cube(b)
        return max(abs(aq - bq), abs(ar - br), abs(as_ - bs))
