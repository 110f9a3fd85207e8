"""The printed map's layout: the map (its hexes' or sectors' box) with its title band, margins
and the legend-and-tracks panel below, and a layout for each sheet of a multi-sheet map. Above
map_panel (the panel's height), so layout.py stays free of the drawers."""

from __future__ import annotations

from builder.geometry.hexgrid import SheetPlacement
from builder.geometry.hexid import HexId
from builder.model.game_model import Game
from builder.model.maps import AreaMap
from builder.render import style
from builder.render.layout import Box, MapLayout, bounds_of_centres
from builder.render.map_panel import panel_height

_LAYOUTS: dict[tuple[int, bool], tuple[Game, MapLayout]] = {}


def map_layout(game: Game, panel: bool = True) -> MapLayout:
    """The whole printed map of a game, with a layout for each sheet of a multi-sheet map
    (made once per loaded game: a campaign map's 34,000 hexes were measured again for each of
    its sheets). panel=False may leave out the key-and-tracks panel under the map (its height
    is a tenth of a second of text measuring): for a board that draws no panel (the module's).
    A panel beside the map, or placed by size, sets the map's width: it is measured anyway, and
    that layout is the whole one."""
    panel = panel or getattr(game.map, "legend", "bottom") in ("right", "auto")
    for want in (True, False) if not panel else (True,):  # the whole layout serves both
        hit = _LAYOUTS.get((id(game), want))
        if hit is not None and hit[0] is game:
            return hit[1]
    layout = _map_layout(game, panel)
    if len(_LAYOUTS) > 8:
        _LAYOUTS.clear()
    _LAYOUTS[(id(game), panel)] = (game, layout)
    return layout


RIGHT_GAP = 12.0  # between the map's right edge labels and a key placed beside it


def _place_panel(game: Game, frame: Box, panel: bool = True) -> tuple[float, float, Box | None]:
    """The sheet's width and height and the key-and-tracks panel's box, where map.toml's
    'legend' says: under the map, to its right, or (auto) whichever gives the smaller sheet.
    Without panel (map_layout gives that only for a panel under the map, whose height sets
    nothing else), none is measured or placed."""
    m = style.MAP_MARGIN
    top = frame.y
    where = getattr(game.map, "legend", "bottom")

    def below():
        ph = panel_height(game, frame.w) if panel else 0.0
        box = Box(m, top + frame.h + m, frame.w, ph) if ph else None
        return frame.w + 2 * m, top + frame.h + m + (ph + m if ph else 0), box

    def beside():
        pw = min(max(frame.w * 0.5, 70.0), 200.0)
        ph = panel_height(game, pw)
        if not ph:
            return below()
        x = frame.x + frame.w + m + RIGHT_GAP
        return x + pw + m, top + max(frame.h, ph) + m, Box(x, top, pw, ph)

    if where == "right":
        return beside()
    if where == "auto":
        return min(below(), beside(), key=lambda option: option[0] * option[1])
    return below()


def _map_layout(game: Game, panel: bool = True) -> MapLayout:
    m = style.MAP_MARGIN
    top = style.MAP_TITLE_BAND
    if isinstance(game.map, AreaMap):
        w, h = game.map.width, game.map.height
        frame = Box(m, top, w, h)
        width, height, box = _place_panel(game, frame, panel)
        return MapLayout(game, width, height, (m, top), frame, box)
    grid = game.grid
    # a sheet's hexes reach furthest on its outermost ring: x grows with the column, y with the
    # row in every column (34,000 centres of a campaign map were measured for its 2,800)
    ring = {sid: [grid.center_mm(h) for h in _outer_ring(p)] for sid, p in grid.sheets.items()}
    b = bounds_of_centres(game, [c for centres in ring.values() for c in centres])
    frame = Box(m, top, b.w, b.h)
    width, height, box = _place_panel(game, frame, panel)
    layout = MapLayout(game, width, height, (m - b.x, top - b.y), frame, box)
    for sheet in getattr(game.map, "sheets", ()):  # each sheet's hexes: MapLayout.hexes
        sb = bounds_of_centres(game, ring.get(sheet.id, []))
        layout._sheets[sheet.id] = MapLayout(
            game,
            sb.w + 2 * m,
            top + sb.h + m,
            (m - sb.x, top - sb.y),
            Box(m, top, sb.w, sb.h),
            None,
            sheet.id,
        )
    for group in _adjoining(game, ring):
        gb = bounds_of_centres(game, [c for s in group for c in ring[s]])
        gid = "+".join(group)
        origin = (m - gb.x, top - gb.y)
        boxes = []
        for s in group:
            b = bounds_of_centres(game, ring[s])
            boxes.append(Box(b.x + origin[0], b.y + origin[1], b.w, b.h))
        key = _key_in_corner(game, Box(m, top, gb.w, gb.h), boxes) if panel else None
        layout._groups[gid] = MapLayout(game, gb.w + 2 * m, top + gb.h + m, origin,
                                        Box(m, top, gb.w, gb.h), key, gid, group=group)
    return layout


KEY_CLEARANCE = 8.0  # between a key set in a joined map's empty corner and the sheets' hexes


def _key_in_corner(game: Game, frame: Box, sheets: list[Box]) -> Box | None:
    """Where the key and tracks fit in a joined map's empty corner (sheets of unequal size
    leave one: 16B reaches ten rows higher than 16A beside it), so that corner is not printed
    blank and the key needs no page of its own; None when no corner holds them."""
    c = KEY_CLEARANCE
    best = None
    for right in (False, True):
        for bottom in (False, True):
            # the largest free rectangle in that corner: as wide as the sheets in its rows let
            x0 = frame.right if right else frame.x
            y0 = frame.bottom if bottom else frame.y
            for h in sorted({abs((b.y if not bottom else b.bottom) - y0) for b in sheets}):
                h -= c
                if h < 30:
                    continue
                rows = (y0 - h - c, y0) if bottom else (y0, y0 + h + c)
                near = [b for b in sheets if b.y < rows[1] and b.bottom > rows[0]]
                if right:
                    w = x0 - max((b.right for b in near), default=frame.x) - c
                else:
                    w = min((b.x for b in near), default=frame.right) - x0 - c
                w = min(w, 200.0)
                if w < 60:
                    continue
                ph = panel_height(game, w)
                if 0 < ph <= h and (best is None or w * h > best[0]):
                    x = x0 - w if right else x0
                    y = y0 - ph if bottom else y0
                    best = (w * h, Box(x, y, w, ph))
    return best[1] if best else None


JOINED_HEXES = 10_000  # a group of sheets with more hexes prints sheet by sheet


def _adjoining(game: Game, ring: dict) -> list[tuple[str, ...]]:
    """The groups of two or more sheets whose hexes touch across a join (printed as one map,
    as the module's board joins them), in map.toml's order. A group of a campaign's size (more
    than JOINED_HEXES hexes) is left out: its sheets print one by one, as a publisher prints
    the sheets of a map that size."""
    grid = game.grid
    ids = list(grid.sheets)
    if len(ids) < 2 or grid.hex_count > 4 * JOINED_HEXES:
        return []  # a campaign map (indexing its 34,000 hexes to find joins is not worth it)
    touching: dict[str, set[str]] = {s: set() for s in ids}
    for sid, placement in grid.sheets.items():
        for h in _outer_ring(placement):
            for n in grid.neighbours(h):
                if n.sheet != sid:
                    touching[sid].add(n.sheet)
                    touching[n.sheet].add(sid)
    groups, seen = [], set()
    for sid in ids:
        if sid in seen:
            continue
        todo, group = [sid], set()
        while todo:
            s = todo.pop()
            if s not in group:
                group.add(s)
                todo.extend(touching[s] - group)
        seen |= group
        members = tuple(s for s in ids if s in group)
        if len(members) > 1 and sum(grid.sheets[s].hex_count for s in members) <= JOINED_HEXES:
            groups.append(members)
    return groups


def _outer_ring(p: SheetPlacement) -> list[HexId]:
    """A sheet's first and last rows and columns."""
    rows, cols = (p.first_row, p.last_row), (p.first_col, p.last_col)
    return ([HexId(p.sheet, c, r) for c in range(p.first_col, p.last_col + 1) for r in rows]
            + [HexId(p.sheet, c, r) for c in cols for r in range(p.first_row, p.last_row + 1)])
