"""An area map drawn as SVG: sectors with names, fortifications, victory points, MG arcs, water."""

from __future__ import annotations

from builder.model.game_model import Game
from builder.render import map_frame, style, terrain_art
from builder.render import svg as S
from builder.render.layout import MapLayout
from builder.render.map_symbols import MG_RED, mg_arrow
from builder.render.svg import num


def _fill(game: Game, sector) -> str:
    types = game.terrain_types
    for t in sector.terrain:
        if types[t].group == "base" or types[t].pattern not in terrain_art.POINT:
            return types[t].color
    if sector.terrain:
        return style.lighter(types[sector.terrain[0]].color, 0.55)
    return types[next(iter(types))].color


def draw_area_map(game: Game, layout: MapLayout) -> str:
    """The SVG of an area map."""
    m = game.map
    ox, oy = layout.origin_mm
    defs, fills, art, borders, marks, names = [], [], [], [], [], []
    textures: set[str] = set()
    f = layout.frame
    fills.append(S.rect(f.x, f.y, f.w, f.h, fill="#e9e2c9"))
    for i, poly in enumerate(m.water):
        pts = [(ox + x, oy + y) for x, y in poly]
        fills.append(S.polygon(pts, fill="#8fb9dc", stroke="#4f7fa8", stroke_width=0.4))
        if i == 0:
            defs.append(terrain_art.texture_pattern("texture-water", "water", "#8fb9dc", 12.0, 17))
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
                defs.append(terrain_art.texture_pattern(
                    f"texture-{tt.id}", tt.pattern, tt.color, 10.0, terrain_art.salt(tt.id)))
            art.append(S.polygon(pts, fill=f"url(#texture-{tt.id})", opacity="0.8"))
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
            marks.append(terrain_art.point_symbol(tt.pattern, tt.color, sx, sym_y, 14.0, k))
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
                    "victory", "#d4a017", cx + room * 0.55, sym_y, 17.0, s.vp
                )
            )
        if s.mg:
            bx, by = cx - room * 0.55 - 3.5, sym_y - 2.0
            badges[s.id] = (bx + 3.5, by + 2.0)
            marks.append(
                S.rect(bx, by, 7.0, 4.0, rx=0.6, fill=MG_RED, stroke=style.INK, stroke_width=0.2)
            )
            marks.append(S.text(bx + 3.5, by + 2.9, f"MG {s.mg}", 2.3, bold=True, fill="#ffffff"))
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
        water_marks.append(_no_crossing(mx, my))
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


def _no_crossing(x: float, y: float) -> str:
    """A small wave-and-bar sign where two sectors touch across water (no movement)."""
    return (
        S.circle(x, y, 2.2, fill="#ffffff", stroke="#2f6da3", stroke_width=0.4)
        + S.path(
            f"M{num(x - 1.4)} {num(y)}q0.7 -0.8 1.4 0t1.4 0",
            fill="none",
            stroke="#2f6da3",
            stroke_width=0.35,
        )
        + S.line(x - 1.6, y + 1.6, x + 1.6, y - 1.6, stroke=MG_RED, stroke_width=0.4)
    )
