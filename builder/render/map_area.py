"""An area map drawn as SVG: sectors with names, fortifications, victory points, MG arcs, water."""

from __future__ import annotations

from builder.model.game_model import Game
from builder.render import map_frame, style, terrain_art
from builder.render import svg as S
from builder.render.layout import MapLayout
from builder.render.map_symbols import MG_RED, mg_arrow
from builder.render.svg import num

TEXTURE_MM = 10.0  # the scale an area texture is drawn at (a hex map's is its hex)
TEXTURE_OPACITY = 0.8
SYMBOL_MM = 14.0  # the scale of a sector's fortification symbols
VP_SYMBOL_MM = 17.0
VP_COLOUR = "#d4a017"
WATER = "#8fb9dc"
WATER_EDGE = "#4f7fa8"
WATER_TEXTURE_MM = 12.0
GROUND = "#e9e2c9"  # the map between the sectors


def _fill(game: Game, sector) -> str:
    return terrain_fill(game, sector.terrain)


def terrain_fill(game: Game, terrain: tuple[str, ...]) -> str:
    """The colour a sector of these terrain ids is filled with."""
    types = game.terrain_types
    for t in terrain:
        if types[t].group == "base" or types[t].pattern not in terrain_art.POINT:
            return types[t].color
    if terrain:
        return style.lighter(types[terrain[0]].color, 0.55)
    return types[next(iter(types))].color


def _texture(tt, pid: str) -> str:
    return terrain_art.texture_pattern(pid, tt.pattern, tt.color, TEXTURE_MM,
                                       terrain_art.salt(tt.id))


def _patch(x: float, y: float, size: float) -> list[tuple[float, float]]:
    """A patch of ground shaped like a sector, `size` mm high: what an area map's key shows."""
    w, h = size * 1.24, size
    return [(x, y + h * 0.15), (x + w * 0.55, y), (x + w, y + h * 0.25), (x + w * 0.9, y + h),
            (x + w * 0.2, y + h * 0.9)]


def terrain_sample(game: Game, tt, x: float, y: float, size: float) -> str:
    """A patch of the terrain as the map prints its sectors: the fill its sectors usually
    have, its texture at the map's scale and opacity, its symbol at the map's size, the
    sector border."""
    from collections import Counter

    combos = Counter(s.terrain for s in game.map.sectors if tt.id in s.terrain)
    terrain = max(sorted(combos), key=lambda ts: combos[ts]) if combos else (tt.id,)
    pts = _patch(x, y, size)
    out = [S.polygon(pts, fill=terrain_fill(game, terrain))]
    if tt.pattern in terrain_art.AREA:
        pid = f"key-texture-{tt.id}"
        out.append(_texture(tt, pid))
        out.append(S.polygon(pts, fill=f"url(#{pid})", opacity=str(TEXTURE_OPACITY)))
    elif tt.pattern in terrain_art.POINT:
        out.append(terrain_art.point_symbol(tt.pattern, tt.color, x + size * 0.62, y + size / 2,
                                            SYMBOL_MM, 0))
    out.append(S.polygon(pts, fill="none", stroke=style.INK, stroke_width=0.45,
                         stroke_linejoin="round"))
    return "".join(out)


def water_sample(x: float, y: float, size: float) -> str:
    """The map's water (the canal between the sectors), as a patch."""
    pts = _patch(x, y, size)
    return (S.polygon(pts, fill=WATER, stroke=WATER_EDGE, stroke_width=0.4)
            + terrain_art.texture_pattern("key-texture-water", "water", WATER, WATER_TEXTURE_MM,
                                          17)
            + S.polygon(pts, fill="url(#key-texture-water)"))


def mg_badge(cx: float, cy: float, mg: int) -> str:
    """The red badge naming a sector's machine guns, centred on (cx, cy)."""
    bx, by = cx - 3.5, cy - 2.0
    return (S.rect(bx, by, 7.0, 4.0, rx=0.6, fill=MG_RED, stroke=style.INK, stroke_width=0.2)
            + S.text(cx, by + 2.9, f"MG {mg}", 2.3, bold=True, fill="#ffffff"))


def draw_area_map(game: Game, layout: MapLayout) -> str:
    """The SVG of an area map."""
    m = game.map
    ox, oy = layout.origin_mm
    defs, fills, art, borders, marks, names = [], [], [], [], [], []
    textures: set[str] = set()
    f = layout.frame
    fills.append(S.rect(f.x, f.y, f.w, f.h, fill=GROUND))
    for i, poly in enumerate(m.water):
        pts = [(ox + x, oy + y) for x, y in poly]
        fills.append(S.polygon(pts, fill=WATER, stroke=WATER_EDGE, stroke_width=0.4))
        if i == 0:
            defs.append(terrain_art.texture_pattern("texture-water", "water", WATER,
                                                    WATER_TEXTURE_MM, 17))
        art.append(S.polygon(pts, fill="url(#texture-water)"))
    for s in m.sectors:
        pts = layout.sector_outline_mm(s.id)
        fills.append(S.polygon(pts, fill=_fill(game, s)))
        for t in s.terrain:
            tt = game.terrain_types[t]
            if tt.pattern not in terrain_art.AREA:
                continue
            if tt.id not in textures:  # each terrain's texture defined once, for every sector
                textures.add(tt.id)
                defs.append(_texture(tt, f"texture-{tt.id}"))
            art.append(S.polygon(pts, fill=f"url(#texture-{tt.id})",
                                 opacity=str(TEXTURE_OPACITY)))
        borders.append(
            S.polygon(
                pts, fill="none", stroke=style.INK, stroke_width=0.45, stroke_linejoin="round"
            )
        )
    # names, fortification symbols and victory points at each sector's inner point
    badges: dict[str, tuple[float, float]] = {}  # where each sector's MG strength is printed
    for s in m.sectors:
        cx, cy, room, name_size, sym_y, lines, _tag_y = _label_layout(layout, s)
        points = [
            game.terrain_types[t]
            for t in s.terrain
            if game.terrain_types[t].pattern in terrain_art.POINT
        ]
        for k, tt in enumerate(points[:3]):
            sx = cx + (k - (len(points[:3]) - 1) / 2) * 6.5
            marks.append(terrain_art.point_symbol(tt.pattern, tt.color, sx, sym_y, SYMBOL_MM, k))
        for j, ln in enumerate(lines):
            names.append(
                S.fitted(
                    cx,
                    cy + 1.0 + j * name_size * 1.05,
                    ln,
                    max(12.0, room * 1.9),
                    name_size,
                    bold=True,
                    halo=style.HALO,
                    halo_width=0.9,  # wide enough to break the fire arcs that pass under it
                )
            )
        if s.vp:
            marks.append(
                map_frame.objective_symbol(
                    "victory", VP_COLOUR, cx + room * 0.55, sym_y, VP_SYMBOL_MM, s.vp
                )
            )
        if s.mg:
            badges[s.id] = (cx - room * 0.55, sym_y)
            marks.append(mg_badge(cx - room * 0.55, sym_y, s.mg))
    arcs = []
    for s in m.sectors:
        a = badges.get(s.id) or layout.sector_center_mm(s.id)  # fire leaves from the MG badge
        for j, target in enumerate(s.fire_arc):
            if target not in game.sector_by_id:
                continue
            b = layout.sector_center_mm(target)
            arcs.append(
                mg_arrow(a, (b[0], b[1] - 3), 3.0 + 1.5 * (j % 3), width=0.4, opacity=0.6)
            )
    water_marks = []
    for a_id, b_id in m.water_edges:
        a = layout.sector_center_mm(a_id)
        b = layout.sector_center_mm(b_id)
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        water_marks.append(no_crossing(mx, my))
    body = [
        map_frame.background(game, layout),
        S.g(fills, id="sectors"),
        S.g(art, id="textures"),
        S.g(borders, id="borders"),
        S.g(arcs, id="fire-arcs"),
        S.g(water_marks, id="water-edges"),
        S.g(marks, id="symbols"),
        S.g(names, id="names"),
        S.rect(f.x, f.y, f.w, f.h, fill="none", stroke=style.INK, stroke_width=0.6),
        map_frame.frame(game, layout),
    ]
    if layout.panel:
        from builder.render.map_panel import draw_panel

        body.append(draw_panel(game, layout.panel))
    return S.document(
        layout.width_mm,
        layout.height_mm,
        "\n".join(b for b in body if b),
        defs="".join(defs),
        title=game.info.title,
    )


def _label_layout(layout: MapLayout, s):
    """Where a sector's symbols (sym_y), name lines and id tag (tag_y) are printed, around its
    inner point (cx, cy): (cx, cy, room, name_size, sym_y, lines, tag_y)."""
    f = layout.frame
    cx, cy = layout.sector_center_mm(s.id)
    room = _room(cx, cy, layout.sector_outline_mm(s.id))
    name_size = max(2.2, min(3.6, min(f.w, f.h) * 0.012))
    sym_y = cy - name_size * 1.6
    lines = S.wrap(s.name, max(14.0, room * 1.8), name_size, bold=True)[:3]
    tag_y = cy + 1.0 + len(lines) * name_size * 1.05 + 0.6
    return cx, cy, room, name_size, sym_y, lines, tag_y


def sector_name_box(layout: MapLayout, sector) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) in mm around a sector's printed name: what a piece standing anywhere on
    the map must leave visible."""
    cx, cy, room, name_size, _sym_y, lines, _tag_y = _label_layout(layout, sector)
    fit = max(12.0, room * 1.9)
    half = max(min(fit, style.text_width(ln, name_size, True)) for ln in lines) / 2
    top = cy + 1.0 - name_size * 0.8
    return cx - half, top, cx + half, cy + 1.0 + (len(lines) - 1) * name_size * 1.05 + 0.4


def _room(cx: float, cy: float, pts) -> float:
    """Distance from the point to the nearest edge: how much room a label has."""
    from builder.render.layout import _edge_distance

    return _edge_distance(cx, cy, pts)


def no_crossing(x: float, y: float, r: float = 2.2) -> str:
    """A small wave-and-bar sign where two sectors touch across water (no movement)."""
    k = r / 2.2
    return (
        S.circle(x, y, r, fill="#ffffff", stroke="#2f6da3", stroke_width=0.4 * k)
        + S.path(
            f"M{num(x - 1.4 * k)} {num(y)}q{num(0.7 * k)} {num(-0.8 * k)} {num(1.4 * k)} 0"
            f"t{num(1.4 * k)} 0",
            fill="none",
            stroke="#2f6da3",
            stroke_width=0.35 * k,
        )
        + S.line(x - 1.6 * k, y + 1.6 * k, x + 1.6 * k, y - 1.6 * k, stroke=MG_RED,
                 stroke_width=0.4 * k)
    )
