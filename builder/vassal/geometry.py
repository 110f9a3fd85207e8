"""Board pixels from the one map geometry: VASSAL grid settings, zones and piece positions.

Everything here derives from render.map_layout (which places builder.geometry's HexGrid on the
printed map), scaled by one px-per-mm factor, so VASSAL's grid sits exactly on the drawn hexes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from builder.geometry.hexid import HexId
from builder.model.game_model import Game
from builder.render import MapLayout, map_layout, style
from builder.render.convert import capped_px_per_mm

MARGIN_ZONE = "Map margin"  # the main board outside every hex or sector

PX_PER_HEX = 84  # board resolution: pixels across a hex's flats (the issue asks 75-100)
AREA_PX_PER_COUNTER = 64  # area maps: a unit counter this many pixels wide
STACK_SPREAD_MM = 1.0  # a stack's pieces are drawn a little offset: room kept around a counter
PIECE_SCALES = (1.0, 0.9, 0.8, 0.7, 0.6)  # area maps: piece sizes tried, printed size first


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


def board_layout(game: Game) -> MapLayout:
    """The printed map without the panel under it (terrain key, turn and loss tracks, holding
    boxes): in the module those boxes are the zones of the boxes window, the one place for each,
    and the terrain key is a chart. Hexes and sectors stay exactly where the printed map has
    them."""
    layout = map_layout(game, panel=False)
    return replace(layout, panel=None, height_mm=layout.frame.bottom + style.MAP_MARGIN)


class BoardGeometry:
    """Pixel positions on the main board for a game's map."""

    def __init__(self, game: Game):
        self.game = game
        self.layout = board_layout(game)
        self.piece_scale = piece_scale(game, self.layout)
        if game.is_hex:
            wanted = PX_PER_HEX / game.map.hex_size
        else:  # pieces keep their size on screen; the board is drawn finer around them
            wanted = AREA_PX_PER_COUNTER / (_counter_mm(game, "unit") * self.piece_scale)
        # a campaign-sized map gets a coarser board rather than one too big to draw
        self.px_per_mm = capped_px_per_mm(self.layout.width_mm, self.layout.height_mm, wanted)
        self.piece_px_per_mm = self.px_per_mm * self.piece_scale

    @property
    def size_px(self) -> tuple[int, int]:
        return (round(self.layout.width_mm * self.px_per_mm),
                round(self.layout.height_mm * self.px_per_mm))

    def px(self, mm: tuple[float, float]) -> tuple[float, float]:
        return mm[0] * self.px_per_mm, mm[1] * self.px_per_mm

    def counter_px(self, size_id: str) -> int:
        """A counter's edge in board pixels (pieces are drawn to the map's scale, area maps'
        smaller by piece_scale)."""
        return round(_counter_mm(self.game, size_id) * self.piece_px_per_mm)

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
        """The outline of a sheet's hexes (their union), as a zone path; kept in the build cache
        (a campaign sheet's 1,700 hexes take a tenth of a second to trace)."""
        import json

        from builder import cache, keys

        def trace() -> str:
            return json.dumps(self.hexes_outline_px(self.game.grid.sheet_hexes(sheet)))

        text = cache.cached_text(("sheet-outline-px", keys.map_parts(self.game, sheet),
                                  self.px_per_mm), trace)
        return [tuple(p) for p in json.loads(text)]

    def hexes_outline_px(self, hexes) -> list[tuple[int, int]]:
        """The outline of a set of hexes (their union) in board pixels."""
        corners = {h: [self.px(c) for c in self.layout.hex_corners_mm(h)] for h in hexes}
        return outline(corners)

    # --- area maps -----------------------------------------------------------------------
    def sector_outline_px(self, sector_id: str) -> list[tuple[int, int]]:
        return [(round(x), round(y)) for x, y in
                (self.px(p) for p in self.layout.sector_outline_mm(sector_id))]

    def sector_point(self, sector_id: str) -> tuple[int, int]:
        """Where a sector's pieces stand (its zone's snap point)."""
        x, y = self.px(self.stack_points_mm[sector_id])
        return round(x), round(y)

    @cached_property
    def stack_points_mm(self) -> dict[str, tuple[float, float]]:
        """Each sector's stack spot, in mm (see stack_spots)."""
        return stack_spots(self.game, self.layout, _counter_mm(self.game, "unit") * self.piece_scale)[0]


def piece_scale(game: Game, layout: MapLayout) -> float:
    """How much smaller than printed the pieces of an area map are drawn: the largest of a few
    steps at which a stack fits in every sector without covering a printed sector name (a stack
    on the sector's centre hid its name). Hex maps: 1."""
    if game.is_hex:
        return 1.0
    counter = _counter_mm(game, "unit")
    for scale in PIECE_SCALES:
        if stack_spots(game, layout, counter * scale)[1]:
            return scale
    return PIECE_SCALES[-1]


_SPOTS: dict = {}  # (id(game), counter mm) -> (game, result): kept for the game's lifetime


def stack_spots(game: Game, layout: MapLayout, counter_mm: float):
    """Cached _stack_spots (the search takes about a second a try; the geometry is built by
    several parts of a module build)."""
    k = (id(game), round(counter_mm, 4), layout.width_mm, layout.height_mm)
    if k not in _SPOTS or _SPOTS[k][0] is not game:
        _SPOTS[k] = (game, _stack_spots(game, layout, counter_mm))
    return _SPOTS[k][1]


def _stack_spots(game: Game, layout: MapLayout, counter_mm: float):
    """({sector id: (x, y) mm}, every stack fits?): the spot in each sector where a counter of
    that size covers no sector's printed name, as far inside the sector as that allows. It fits
    when the spot lies at least half a counter inside (the stack may overhang the border a
    little, never a name)."""
    import numpy as np

    from builder.render.map_area import sector_name_box

    half = counter_mm / 2 + STACK_SPREAD_MM
    boxes = np.array([sector_name_box(layout, s) for s in game.map.sectors])
    out, fits = {}, True
    for s in game.map.sectors:
        poly = layout.sector_outline_mm(s.id)
        xs, ys = [p[0] for p in poly], [p[1] for p in poly]
        gx, gy = np.meshgrid(np.arange(min(xs), max(xs), 0.5), np.arange(min(ys), max(ys), 0.5))
        px, py = gx.ravel(), gy.ravel()
        inside = np.zeros(len(px), dtype=bool)
        for (ax, ay), (bx, by) in zip(poly, poly[1:] + poly[:1]):  # ray casting, all at once
            if ay != by:
                crosses = ((ay > py) != (by > py)) & (px < ax + (py - ay) * (bx - ax) / (by - ay))
                inside ^= crosses
        px, py = px[inside], py[inside]
        if len(px) == 0:
            out[s.id], fits = layout.sector_center_mm(s.id), False
            continue
        edge = np.full(len(px), np.inf)
        for (ax, ay), (bx, by) in zip(poly, poly[1:] + poly[:1]):
            dx, dy = bx - ax, by - ay
            seg = dx * dx + dy * dy or 1e-9
            t = np.clip(((px - ax) * dx + (py - ay) * dy) / seg, 0.0, 1.0)
            edge = np.minimum(edge, np.hypot(px - ax - t * dx, py - ay - t * dy))
        room = edge - half  # >= 0: the counter stays inside the sector
        x0, y0, x1, y1 = (boxes[:, i][:, None] for i in range(4))
        gap = np.maximum.reduce([x0 - (px + half), (px - half) - x1, y0 - (py + half),
                                 (py - half) - y1]).min(axis=0)  # >= 0: every name stays clear
        clear = gap >= 0
        k = int(np.argmax(np.where(clear, room, -np.inf))) if clear.any() else int(np.argmax(gap))
        out[s.id] = (float(px[k]), float(py[k]))
        fits = fits and bool(clear[k]) and room[k] >= -half / 2
    return out, fits


def _counter_mm(game: Game, size_id: str) -> float:
    sizes = {c.id: c.size for c in game.info.counter_sizes}
    return sizes.get(size_id) or next(iter(sizes.values()))


def outline(corners: dict) -> list[tuple[int, int]]:
    """The boundary of a union of hexes (corner lists, clockwise), as one closed polygon.

    An edge shared by two hexes of the set appears in both, in opposite directions; the others
    form the boundary, chained end to start. A set in several pieces gives its largest loop.
    """
    edges: dict = {}
    for pts in corners.values():
        keys = [(round(x * 4), round(y * 4)) for x, y in pts]
        for i in range(6):
            j = (i + 1) % 6
            edges[(keys[i], keys[j])] = (pts[i], pts[j])
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


def margin_points(outlines: list[list[tuple[int, int]]], size: tuple[int, int],
                  clearance: float = 6.0, samples: int = 600) -> list[tuple[int, int]]:
    """Points of a board evenly spread, each outside every outline (hexes, sheets or sectors)
    by more than `clearance` pixels: places a player can drop a piece that are no hex."""
    from builder.render.layout import point_in_polygon

    w, h = size
    step = max(12, int((w * h / samples) ** 0.5))
    out = []
    for y in range(step // 2, h, step):
        for x in range(step // 2, w, step):
            if any(point_in_polygon(x, y, poly) or _near(x, y, poly, clearance)
                   for poly in outlines):
                continue
            out.append((x, y))
    return out


def _near(x: float, y: float, poly, d: float) -> bool:
    """True when (x, y) lies within d of an edge of the polygon (bounding box checked first)."""
    from builder.render.layout import _edge_distance

    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    if x < min(xs) - d or x > max(xs) + d or y < min(ys) - d or y > max(ys) + d:
        return False
    return _edge_distance(x, y, poly) < d
