"""The panel under a map: terrain key, turn record track, per-turn tracks and holding boxes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from builder.geometry.hexgrid import corner_offsets
from builder.model.game_model import Game
from builder.model.maps import AreaMap, Track
from builder.render import map_symbols, style, terrain_art
from builder.render import svg as S
from builder.render.layout import Box
from builder.render.svg import num

GAP = 6.0
HEAD = 5.0  # block heading height


@dataclass
class Block:
    w: float
    h: float
    draw: Callable[[float, float], str]


def counter_mm(game: Game, size_id: str = "unit") -> float:
    sizes = {c.id: c.size for c in game.info.counter_sizes}
    return sizes.get(size_id) or max(sizes.values())


def track_rows(game: Game):
    """Per-turn numbers from the scenarios (first scenario wins for a repeated id)."""
    rows = {}
    for sc in game.scenarios:
        for tr in sc.tracks:
            rows.setdefault(tr.id, tr)
    return list(rows.values())


def _heading(x: float, y: float, text: str, width: float) -> str:
    return S.fitted(x, y + 3.4, text.upper(), width, 3.0, bold=True, anchor="start", fill=style.INK)


# --- legend ----------------------------------------------------------------------------------
@dataclass
class KeyEntry:
    """One entry of the map's key: its name, how it is drawn at (x, y) in a box `size` mm
    high, and what on the map it stands for (a terrain, hexside or line type, an objective
    kind, a region; None for a mark the map draws by itself, like a no-crossing sign)."""

    name: str
    draw: Callable[[float, float, float], str]
    item: object = None
    kind: str = ""  # terrain | hexside | line | objective | region | water | mark
    same_as: str = ""  # the name of another entry it merges into, drawn over it (a peak symbol)


def legend_entries(game: Game) -> list[tuple[str, Callable[[float, float, float], str]]]:
    """(name, draw(x, y, size)) for each thing the map shows: terrain, hexsides, lines, symbols."""
    return [(e.name, e.draw) for e in key_entries(game)]


def key_entries(game: Game) -> list[KeyEntry]:
    """Every thing the map draws that a player must be told, each drawn by the code that draws
    it on the map, in its colours: terrain, hexsides, lines, objectives (one entry per side
    colour the map gives them), regions, and an area map's water, arcs and marks."""
    from builder.render import map_frame

    m = game.map
    entries: list[KeyEntry] = []
    area = isinstance(m, AreaMap)
    if area:
        used = {t for s in m.sectors for t in s.terrain}
    else:
        used = game.terrain_used
    for tt in m.terrain_types:
        if tt.id not in used:
            continue
        entries.append(KeyEntry(tt.name, lambda x, y, s, tt=tt: feature_sample(game, tt, x, y, s),
                                tt, "terrain"))
    if area:
        from builder.render import map_area

        if m.water:
            entries.append(KeyEntry("Water", lambda x, y, s: map_area.water_sample(x, y, s),
                                    None, "water"))
        if m.water_edges:
            entries.append(KeyEntry(
                "No crossing (water between sectors)",
                lambda x, y, s: map_area.no_crossing(x + s * 0.65, y + s / 2),
                None, "mark"))
        if any(s.fire_arc for s in m.sectors):
            entries.append(KeyEntry("Machine-gun fire arc", lambda x, y, s: _arc_sample(x, y, s),
                                    None, "mark"))
        if any(s.mg for s in m.sectors):
            entries.append(KeyEntry("Machine guns in the sector",
                                    lambda x, y, s: map_area.mg_badge(x + s * 0.65, y + s / 2, 2),
                                    None, "mark"))
        if any(s.vp for s in m.sectors):
            entries.append(KeyEntry(
                "Victory points",
                lambda x, y, s: map_frame.objective_symbol(
                    "victory", map_area.VP_COLOUR, x + s * 0.65, y + s * 0.35,
                    map_area.SYMBOL_MM, 1),
                None, "objective"))
        return _once(entries)
    for ht in m.hexside_types:
        if not any(g.type == ht.id for g in m.hexsides):
            continue
        entries.append(KeyEntry(ht.name, lambda x, y, s, ht=ht: feature_sample(game, ht, x, y, s),
                                ht, "hexside"))
    for lt in m.line_types:
        if not any(ln.type == lt.id for ln in m.lines):
            continue
        entries.append(KeyEntry(lt.name, lambda x, y, s, lt=lt: feature_sample(game, lt, x, y, s),
                                lt, "line"))
    names = {
        "victory": "Victory hex",
        "supply": "Supply source",
        "objective": "Objective",
        "peak": "Peak",
        "town": "Town objective",
    }
    kinds: dict[tuple[str, str], None] = {}
    for ob in m.objectives:
        kinds[(ob.kind, ob.side if ob.side in game.sides else "")] = None
    sides_of = {}
    for kind, side in kinds:
        sides_of.setdefault(kind, []).append(side)
    for kind, side in kinds:
        colour = map_frame.objective_colour(game, side)
        name = names[kind] + (f", {game.sides[side].name}" if side else "")  # whose colour
        entries.append(KeyEntry(
            name,
            lambda x, y, s, k=kind, c=colour: map_frame.objective_symbol(
                k, c, x + s * 0.65, y + s * 0.45, game.grid.hex_mm),
            (kind, side), "objective", names[kind]))
    for reg in m.regions:
        if reg.style == "none":
            continue

        def reg_sample(x, y, s, reg=reg):
            out = S.rect(
                x,
                y,
                s * 1.3,
                s,
                fill=reg.color if reg.style == "tint" else "none",
                fill_opacity=0.22,
                stroke=reg.color,
                stroke_width=0.9,
                stroke_opacity=0.75,
            )
            return out

        entries.append(KeyEntry(reg.name, reg_sample, reg, "region"))
    return _once(entries)


def _once(entries: list[KeyEntry]) -> list[KeyEntry]:
    """Each name once. A thing the map shows in two ways under one name (the Peak terrain and
    its peak symbol, a region tinted over its own terrain) is one entry, its samples drawn one
    over the other as the map draws them."""
    merged: dict[str, KeyEntry] = {}
    for e in entries:
        key = e.name.casefold().removeprefix("the ").strip()
        base = e.same_as.casefold().removeprefix("the ").strip()
        if base in merged and sum(x.same_as == e.same_as for x in entries) == 1:
            key = base  # one symbol of a kind the map also shows as terrain: one entry
        if key in merged:
            first = merged[key]
            merged[key] = KeyEntry(first.name,
                                   lambda x, y, s, a=first.draw, b=e.draw: a(x, y, s) + b(x, y, s),
                                   first.item, first.kind)
        else:
            merged[key] = e
    return list(merged.values())


def feature_sample(game: Game, item, x: float, y: float, size: float) -> str:
    """A terrain, hexside or line type drawn in a box `size` mm high at (x, y) by the code that
    draws it on the map: the key's swatches and the terrain chart's pictures."""
    from builder.model.maps import HexsideType, LineType

    if isinstance(item, HexsideType):
        return _hexside_sample(game, item, x, y, size)
    if isinstance(item, LineType):
        return _line_sample(game, item, x, y, size)
    if isinstance(game.map, AreaMap):
        from builder.render.map_area import terrain_sample

        return terrain_sample(game, item, x, y, size)
    return _hex_sample(game, item, x, y, size)


def typical_terrains(game: Game, terrain: str) -> tuple[str, ...]:
    """The terrain ids the map's hexes of `terrain` most often hold together (which fill it
    is printed over); (terrain,) when no hex holds it."""
    from collections import Counter

    combos = Counter(ts for ts in game.hex_terrain.values() if terrain in ts)
    if not combos:
        return (terrain,)
    return max(sorted(combos), key=lambda ts: combos[ts])


def _hex_sample(game: Game, tt, x: float, y: float, size: float) -> str:
    """One hex of the terrain as the map prints it (its hexes' usual fill, the terrain's
    texture or symbol, the grid line), the map's own hex drawn smaller: `size` mm high."""
    import math

    from builder.render.map_hex import fill_terrain

    grid = game.grid
    r = grid.radius_mm
    k = size / (r * math.sqrt(3))  # flat-topped: a hex is r * sqrt(3) high, 2r wide
    half_w = r * k
    corners = corner_offsets(r)
    d = S.poly_d(corners)
    fill = fill_terrain(game, typical_terrains(game, tt.id)).color
    out = [S.path(d, fill=fill, stroke=fill, stroke_width=0.05)]
    if tt.pattern in terrain_art.AREA:
        pid = f"key-texture-{tt.id}"
        out.append(terrain_art.texture_pattern(pid, tt.pattern, tt.color, grid.hex_mm,
                                               terrain_art.salt(tt.id)))
        out.append(S.path(d, fill=f"url(#{pid})"))
    elif tt.pattern in terrain_art.POINT:
        out.append(terrain_art.point_symbol(tt.pattern, tt.color, 0, 0, grid.hex_mm, 7))
    out.append(S.path(d, fill="none", stroke=style.GRID_LINE, stroke_width=style.HEX_LINE_WIDTH,
                      stroke_opacity=0.85))
    return S.g(out, transform=f"translate({num(x + half_w)} {num(y + size / 2)}) scale({num(k)})")


def _hexside_sample(game: Game, ht, x: float, y: float, size: float) -> str:
    p, q = (x, y + size * 0.8), (x + size * 1.3, y + size * 0.2)
    far = (x + size, y + size * 1.2)
    variant = map_symbols.style_variants(game.map.hexside_types)[ht.id]
    return map_symbols.hexside_art(ht, [((p, q), far)], game.grid.hex_mm, variant)


def _line_sample(game: Game, lt, x: float, y: float, size: float) -> str:
    from builder.render.map_hex import ferry_end, line_art

    d = (
        f"M{num(x)} {num(y + size * 0.7)}C{num(x + size * 0.5)} {num(y)} {num(x + size * 0.8)} "
        f"{num(y + size)} {num(x + size * 1.3)} {num(y + size * 0.3)}"
    )
    out = line_art(lt, d, game.grid.hex_mm)
    if lt.style == "ferry":
        w = style.LINE_WIDTH[lt.style] * game.grid.hex_mm / 19.05
        out += ferry_end(lt, x, y + size * 0.7, w) + ferry_end(lt, x + size * 1.3, y + size * 0.3, w)
    return out


def _arc_sample(x: float, y: float, size: float) -> str:
    return map_symbols.mg_arrow((x, y + size * 0.8), (x + size * 1.3, y + size * 0.2), 0.0)


KEY_CELL_W, KEY_CELL_H, KEY_SAMPLE = 44.0, 8.5, 6.0  # a key entry's cell and its sample's height


def _key_grid(n: int, width: float) -> tuple[int, int]:
    """(columns, rows) of n key entries in a panel `width` mm wide."""
    cols = max(1, min(n, int((width + 2) // KEY_CELL_W)))
    return cols, -(-n // cols)


def key_places(game: Game, layout) -> list[tuple[KeyEntry, float, float, float]]:
    """Each key entry with where the printed map draws its sample: (entry, x, y, size), the
    sample's box at (x, y), `size` mm high, on the map's drawing (what a test compares with
    the map's own drawing of the thing)."""
    if layout.panel is None:
        return []
    entries = key_entries(game)
    placed, _ = _flow(game, layout.panel.w)
    if not entries or not placed:
        return []
    _, bx, by = placed[0]  # the key is the panel's first block
    cols, _ = _key_grid(len(entries), layout.panel.w)
    out = []
    for i, e in enumerate(entries):
        cx = layout.panel.x + bx + (i % cols) * KEY_CELL_W
        cy = layout.panel.y + by + HEAD + (i // cols) * KEY_CELL_H
        out.append((e, cx, cy + 0.8, KEY_SAMPLE))
    return out


def legend_block(game: Game, width: float) -> Block | None:
    entries = legend_entries(game)
    if not entries:
        return None
    cell_w, cell_h, sw = KEY_CELL_W, KEY_CELL_H, KEY_SAMPLE
    cols, rows = _key_grid(len(entries), width)
    h = HEAD + rows * cell_h

    def draw(x: float, y: float) -> str:
        out = [_heading(x, y, "Terrain key", cols * cell_w)]
        for i, (name, sample) in enumerate(entries):
            cx = x + (i % cols) * cell_w
            cy = y + HEAD + (i // cols) * cell_h
            out.append(sample(cx, cy + 0.8, sw))
            room = cell_w - sw * 1.4 - 2.5
            lines = S.wrap(name, room, 2.6)
            if len(lines) > 2:
                lines = [lines[0], " ".join(lines[1:])]
            for k, ln in enumerate(lines):
                base = cy + cell_h / 2 + 1.2 + (k - (len(lines) - 1) / 2) * 2.9
                out.append(S.fitted(cx + sw * 1.4 + 1.5, base, ln, room, 2.6, anchor="start"))
        return S.g(out, id="legend")

    return Block(cols * cell_w, h, draw)


# --- tracks ----------------------------------------------------------------------------------
def _turns(game: Game):
    t = game.info.turns
    detail = {d.number: d for d in t.detail}
    return [(n, detail.get(n)) for n in range(t.first, t.first + t.count)]


def turn_track_block(game: Game, track, width: float, rows_on_track) -> Block:
    """Turn boxes (night ones dark, with a moon), each showing the turn's name and the per-turn
    values printed on the track (support fire draws ...) as side-coloured chips, keyed below."""
    cell = max(counter_mm(game) + 3.5, 17.0)
    turns = _turns(game)
    per_row = max(1, int(width // cell))
    n_rows = -(-len(turns) // per_row)
    key_h = 4.5 if rows_on_track else 0.0
    h = HEAD + n_rows * cell + key_h
    sides = game.sides
    chip_w = (cell - 2.0 - 0.8 * (len(rows_on_track) - 1)) / max(1, len(rows_on_track))

    def colour_of(tr) -> str:
        return sides[tr.side].color if tr.side in sides else style.MUTED

    def draw(x: float, y: float) -> str:
        out = [_heading(x, y, track.name, width)]
        for i, (n, det) in enumerate(turns):
            cx = x + (i % per_row) * cell
            cy = y + HEAD + (i // per_row) * cell
            night = bool(det and det.night)
            fill = style.NIGHT if night else "#fbf7ea"
            ink = style.NIGHT_TEXT if night else style.INK
            out.append(S.rect(cx, cy, cell, cell, fill=fill, stroke=style.INK, stroke_width=0.3))
            out.append(S.text(cx + 1.2, cy + 4.2, str(n), 4.0, bold=True, anchor="start", fill=ink))
            if night:
                out.append(_moon(cx + cell - 3.6, cy + 3.0, 1.7))
            name = (det.name or det.date or det.period) if det else ""
            if name:
                for j, part in enumerate(S.wrap(name, cell - 1.6, 1.9)[:2]):
                    out.append(
                        S.fitted(
                            cx + cell / 2,
                            cy + cell - 3.0 + j * 2.1,
                            part,
                            cell - 1.4,
                            1.9,
                            fill=ink,
                        )
                    )
            for j, tr in enumerate(rows_on_track):
                idx = n - game.info.turns.first
                value = tr.per_turn[idx] if idx < len(tr.per_turn) else None
                if value is None:
                    continue
                colour = colour_of(tr)
                bx, by = cx + 1.0 + j * (chip_w + 0.8), cy + 6.2
                out.append(
                    S.rect(
                        bx,
                        by,
                        chip_w,
                        4.6,
                        rx=0.8,
                        fill=colour,
                        stroke=style.INK,
                        stroke_width=0.12,
                    )
                )
                out.append(
                    S.fitted(
                        bx + chip_w / 2,
                        by + 3.5,
                        str(value),
                        chip_w - 0.6,
                        3.4,
                        bold=True,
                        fill=style.ink_on(colour),
                    )
                )
        if rows_on_track:
            ky = y + HEAD + n_rows * cell + 1.2
            kx = x
            for tr in rows_on_track:
                colour = colour_of(tr)
                out.append(
                    S.rect(
                        kx, ky, 4.0, 2.8, rx=0.5, fill=colour, stroke=style.INK, stroke_width=0.12
                    )
                )
                out.append(S.text(kx + 5.0, ky + 2.3, tr.name, 2.4, anchor="start"))
                kx += 5.0 + style.text_width(tr.name, 2.4) + 6.0
        return S.g(out, id=f"track-{track.id}")

    return Block(min(width, min(per_row, len(turns)) * cell), h, draw)


def _moon(cx: float, cy: float, r: float) -> str:
    return S.circle(cx, cy, r, fill="#f3e9b5") + S.circle(
        cx + r * 0.55, cy - r * 0.35, r * 0.9, fill=style.NIGHT
    )


def value_track_block(game: Game, track, width: float, rows) -> Block:
    """Per-turn values (artillery, support fire) in rows of turn boxes, one row per track row."""
    turns = _turns(game)
    label_w = min(
        width * 0.4, max(34.0, max(style.text_width(r.name, 2.5, True) for r in rows) + 3.0)
    )
    cell = max(8.0, min(14.0, (width - label_w) / max(1, len(turns))))
    per_row = max(1, int((width - label_w) // cell))
    chunks = [turns[i : i + per_row] for i in range(0, len(turns), per_row)]
    row_h = 7.0
    h = HEAD + len(chunks) * (4.0 + row_h * len(rows)) + 1
    sides = game.sides

    def draw(x: float, y: float) -> str:
        out = [_heading(x, y, track.name, width)]
        cy = y + HEAD
        for chunk in chunks:
            for k, (n, det) in enumerate(chunk):
                night = bool(det and det.night)
                out.append(
                    S.text(
                        x + label_w + k * cell + cell / 2,
                        cy + 3.0,
                        str(n),
                        2.4,
                        bold=True,
                        fill=style.NIGHT if night else style.INK,
                    )
                )
            cy += 4.0
            for tr in rows:
                colour = sides[tr.side].color if tr.side in sides else style.MUTED
                out.append(
                    S.rect(
                        x, cy, label_w - 1, row_h, fill=colour, stroke=style.INK, stroke_width=0.2
                    )
                )
                out.append(
                    S.fitted(
                        x + 1.0,
                        cy + row_h / 2 + 0.9,
                        tr.name,
                        label_w - 3,
                        2.5,
                        bold=True,
                        anchor="start",
                        fill=style.ink_on(colour),
                    )
                )
                for k, (n, det) in enumerate(chunk):
                    idx = n - game.info.turns.first
                    value = tr.per_turn[idx] if idx < len(tr.per_turn) else None
                    night = bool(det and det.night)
                    bx = x + label_w + k * cell
                    out.append(
                        S.rect(
                            bx,
                            cy,
                            cell,
                            row_h,
                            fill=style.NIGHT if night else "#fbf7ea",
                            stroke=style.INK,
                            stroke_width=0.2,
                        )
                    )
                    out.append(
                        S.text(
                            bx + cell / 2,
                            cy + row_h / 2 + 1.3,
                            "–" if value is None else str(value),
                            3.6,
                            bold=True,
                            fill=style.NIGHT_TEXT if night else style.INK,
                        )
                    )
                cy += row_h
        return S.g(out, id=f"track-{track.id}")

    return Block(min(width, label_w + min(per_row, len(turns)) * cell), h, draw)


def number_track_block(game: Game, track, width: float, last: int) -> Block:
    cell = max(counter_mm(game, "marker") + 2.0, 12.0)
    per_row = max(1, int(width // cell))
    values = list(range(last + 1))
    n_rows = -(-len(values) // per_row)
    h = HEAD + n_rows * cell

    def draw(x: float, y: float) -> str:
        out = [_heading(x, y, track.name, width)]
        for i, v in enumerate(values):
            cx = x + (i % per_row) * cell
            cy = y + HEAD + (i // per_row) * cell
            out.append(
                S.rect(cx, cy, cell, cell, fill="#fbf7ea", stroke=style.INK, stroke_width=0.3)
            )
            out.append(S.text(cx + 1.0, cy + 3.2, str(v), 2.8, bold=True, anchor="start"))
        return S.g(out, id=f"track-{track.id}")

    return Block(min(width, min(per_row, len(values)) * cell), h, draw)


def box_block(game: Game, track, width: float) -> Block:
    box = next((b for b in game.info.boxes if b.id == track.box), None)
    c = counter_mm(game) + 1.5
    cols, rows = 4, 2
    w = min(width, cols * c + 4)
    h = HEAD + rows * c + 4
    side = game.sides.get(box.side) if box and box.side else None
    colour = side.color if side else "#c9c0a6"
    name = track.name or (box.name if box else track.id)

    def draw(x: float, y: float) -> str:
        out = [_heading(x, y, name, w)]
        out.append(
            S.rect(
                x,
                y + HEAD,
                w,
                h - HEAD,
                rx=1.2,
                fill=style.lighter(colour, 0.7),
                stroke=style.darker(colour, 0.6),
                stroke_width=0.6,
            )
        )
        if side:
            out.append(S.fitted(x + w / 2, y + h - 2.0, side.name, w - 4, 2.4, fill=style.MUTED))
        return S.g(out, id=f"box-{track.id}")

    return Block(w, h, draw)


def track_blocks(game: Game, width: float) -> list[Block]:
    rows = track_rows(game)
    tracks = game.map.tracks
    claimed = set()
    for t in tracks:
        if t.kind == "artillery":
            mine = [r for r in rows if r.id == t.id or t.id in r.id or r.id in t.id]
            claimed.update(r.id for r in (mine or rows))
    blocks = []
    for t in tracks:
        if t.kind == "turn":
            blocks.append(
                turn_track_block(game, t, width, [r for r in rows if r.id not in claimed])
            )
        elif t.kind == "artillery":
            mine = [r for r in rows if r.id == t.id or t.id in r.id or r.id in t.id] or rows
            if mine:
                blocks.append(value_track_block(game, t, width, mine))
        elif t.kind == "losses":
            blocks.append(digit_track_block(game, t, width))
        elif t.kind == "victory":
            blocks.append(number_track_block(game, t, width, _track_length(game, t)))
        else:
            blocks.append(box_block(game, t, width))
    # holding boxes of game.toml that no map track shows (eliminated units, reserves ...)
    shown = {t.box for t in tracks if t.box}
    for b in game.info.boxes:
        if b.id not in shown and b.kind in ("reserves", "eliminated", "holding"):
            blocks.append(box_block(game, Track(id=b.id, name=b.name, kind="box", box=b.id), width))
    return blocks


def _track_length(game: Game, track) -> int:
    m = game.map
    total = (
        sum(s.vp for s in m.sectors)
        if isinstance(m, AreaMap)
        else sum(int(o.vp or 0) for o in m.objectives)
    )
    return max(10, int(total))


def digit_track_block(game: Game, track, width: float) -> Block:
    """A losses track that counts to 999 in three rows of ten: ones, tens and hundreds (the
    sources give no maximum; a marker on each row reads the total)."""
    cell = max(counter_mm(game, "marker") + 1.5, 10.0)
    label_w = 14.0
    per_row = 10
    w = min(width, label_w + per_row * cell)
    cell = (w - label_w) / per_row
    rows = (("× 1", 1), ("× 10", 10), ("× 100", 100))
    h = HEAD + len(rows) * cell
    box = next((b for b in game.info.boxes if b.id == track.box), None)
    side = game.sides.get(box.side) if box and box.side else None
    colour = side.color if side else "#c9c0a6"

    def draw(x: float, y: float) -> str:
        out = [_heading(x, y, track.name, w)]
        for r, (name, step) in enumerate(rows):
            cy = y + HEAD + r * cell
            out.append(
                S.rect(x, cy, label_w - 1, cell, fill=colour, stroke=style.INK, stroke_width=0.2)
            )
            out.append(
                S.text(
                    x + (label_w - 1) / 2,
                    cy + cell / 2 + 1.0,
                    name,
                    2.8,
                    bold=True,
                    fill=style.ink_on(colour),
                )
            )
            for k in range(per_row):
                bx = x + label_w + k * cell
                out.append(
                    S.rect(bx, cy, cell, cell, fill="#fbf7ea", stroke=style.INK, stroke_width=0.3)
                )
                out.append(
                    S.text(bx + 1.0, cy + 3.2, str(k * step), 2.6, bold=True, anchor="start")
                )
        return S.g(out, id=f"track-{track.id}")

    return Block(w, h, draw)


# --- flow ------------------------------------------------------------------------------------
def _flow(game: Game, width: float):
    blocks = []
    legend = legend_block(game, width)
    if legend:
        blocks.append(legend)
    blocks.extend(track_blocks(game, width))
    # shelves, first fit: a block goes on the first row with room beside what is there and
    # not shorter than the block (or on the last row, which grows), so a narrow box sits
    # beside a wide track instead of starting a row of its own (a shorter map, fewer tiles)
    rows: list[list[float]] = []  # [y, x used, height]
    placed = []
    for b in blocks:
        row = next((r for k, r in enumerate(rows)
                    if r[1] + GAP + b.w <= width and (b.h <= r[2] or k == len(rows) - 1)), None)
        if row is None:
            y = rows[-1][0] + rows[-1][2] + GAP if rows else 0.0
            row = [y, -GAP, 0.0]
            rows.append(row)
        placed.append((b, row[1] + GAP, row[0]))
        row[1] += GAP + b.w
        row[2] = max(row[2], b.h)
    return placed, (rows[-1][0] + rows[-1][2] if rows else 0.0)


def panel_height(game: Game, width: float) -> float:
    """Height of the legend-and-tracks panel for a map `width` mm wide (0 when empty)."""
    return _flow(game, width)[1]


def draw_panel(game: Game, box: Box) -> str:
    placed, _ = _flow(game, box.w)
    return S.g([b.draw(box.x + x, box.y + y) for b, x, y in placed], id="panel")
