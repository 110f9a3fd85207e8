"""A hex map drawn as SVG: terrain, hexsides, roads, regions, labels, objectives, hex numbers."""

from __future__ import annotations

import re
from functools import cached_property
from xml.sax.saxutils import escape

from builder.geometry.hexgrid import corner_offsets
from builder.geometry.hexid import HexId
from builder.model.game_model import Game
from builder.model.maps import HexMap
from builder.render import geom, map_frame, map_labels, map_symbols, style, terrain_art
from builder.render import svg as S
from builder.render.layout import MapLayout
from builder.render.svg import num


# Above this many hexes, the whole drawing of a multi-sheet map is laid from its sheets' hex
# layers (as the module's board is: builder.vassal.images.BOARD_IN_PIECES_HEXES), not drawn again.
WHOLE_FROM_SHEETS_HEXES = 10_000
_ID_REF = re.compile(r'( id="|url\(#|href="#)')


def _ids_prefixed(svg: str, prefix: str) -> str:
    """svg with every id it defines, and every reference to one, given a prefix: one sheet's
    drawing laid beside others keeps its own clip paths and patterns. Only inside tags: the
    nearest '<' before lies after the nearest '>' (user text is escaped, so a tag never holds
    one), which leaves a label that happens to read 'url(#' as it is."""

    def prefixed(ref: re.Match) -> str:
        at = ref.start()
        in_tag = svg.rfind("<", 0, at) > svg.rfind(">", 0, at)
        return ref.group(1) + prefix if in_tag else ref.group(0)

    return _ID_REF.sub(prefixed, svg)


def fill_terrain(game: Game, terrains: tuple[str, ...]):
    """The terrain whose colour fills the hex: a 'base' one, else the first area terrain."""
    types = game.terrain_types
    for t in terrains:
        if types[t].group == "base":
            return types[t]
    for t in terrains:
        if types[t].pattern not in terrain_art.POINT:
            return types[t]
    for t in terrains:
        if types[t].group:  # a peak alone in its hex: its own colour, not a pale hole
            return types[t]
    return types[game.map.default_terrain]


def _label_font(kind: str) -> tuple[bool, str]:
    """(bold, family) of a map label kind: serif for water, features and regions."""
    bold = kind in ("city", "town", "region")
    return bold, style.SERIF if kind in ("water", "region", "feature") else style.SANS


def _hex_d(corners) -> str:
    return "M" + "L".join(f"{num(x)} {num(y)}" for x, y in corners) + "Z"


def line_art(lt, d: str, hex_mm: float) -> str:
    """A line type (road, railway, ferry, boundary, track) drawn along the path `d`: the map's
    drawing of it, and its key's."""
    w = style.LINE_WIDTH[lt.style] * hex_mm / 19.05
    c = lt.color
    round_ends = {"stroke_linecap": "round", "stroke_linejoin": "round"}
    if lt.style in ("road", "minor-road"):
        return (S.path(d, fill="none", stroke=style.darker(c, 0.55), stroke_width=w + 0.35,
                       **round_ends)
                + S.path(d, fill="none", stroke=c, stroke_width=w, **round_ends))
    if lt.style == "railway":
        return (S.path(d, fill="none", stroke=c, stroke_width=w * 3,
                       stroke_dasharray=f"{num(w * 0.5)} {num(w * 2.2)}")
                + S.path(d, fill="none", stroke=c, stroke_width=w, stroke_linejoin="round"))
    if lt.style == "ferry":
        return S.path(d, fill="none", stroke=c, stroke_width=w,
                      stroke_dasharray=f"{num(w * 3)} {num(w * 2)}", stroke_linecap="round")
    if lt.style == "boundary":
        return S.path(d, fill="none", stroke=c, stroke_width=w,
                      stroke_dasharray=f"{num(w * 6)} {num(w * 2)} {num(w)} {num(w * 2)}")
    return S.path(d, fill="none", stroke=c, stroke_width=w,
                  stroke_dasharray=f"{num(w * 0.1)} {num(w * 2)}", stroke_linecap="round")


def ferry_end(lt, x: float, y: float, w: float) -> str:
    """The landing ring at each end of a ferry line."""
    return S.circle(x, y, w * 1.6, fill="#ffffff", stroke=lt.color, stroke_width=w * 0.7)


class HexDrawing:
    """Draws one hex map layout (the whole map or a sheet)."""

    def __init__(self, game: Game, layout: MapLayout):
        self.game = game
        self.m: HexMap = game.map
        self.layout = layout
        self.hexes = list(layout.hexes)
        self.on = set(self.hexes)
        self.hex_mm = game.grid.hex_mm
        self.defs: list[str] = []
        self._corner_cache: dict[HexId, list] = {}
        self._placed: list | None = None

    @cached_property
    def centres(self) -> dict[HexId, tuple[float, float]]:
        """Every hex's centre on this layout: worked out when first drawn (a sheet whose hex
        layers come from the cache needs none)."""
        return {h: self.layout.hex_center_mm(h) for h in self.hexes}

    def corners(self, h: HexId):
        c = self._corner_cache.get(h)
        if c is None:
            grid = self.game.grid
            cx, cy = grid.center_mm(h)
            ox, oy = self.layout.origin_mm
            x, y = ox + cx, oy + cy
            c = [(x + dx, y + dy) for dx, dy in corner_offsets(grid.radius_mm)]
            self._corner_cache[h] = c
        return c

    def clip_for(self, cid: str, hexes) -> str:
        d = "".join(_hex_d(self.corners(h)) for h in hexes)
        self.defs.append(f'<clipPath id="{cid}"><path d="{d}"/></clipPath>')
        return f"url(#{cid})"

    # --- layers --------------------------------------------------------------------------
    def terrain(self) -> str:
        terr = self.game.hex_terrain
        by_colour: dict[str, list[HexId]] = {}
        area: dict[str, list[HexId]] = {}
        point: list[tuple[HexId, str, str]] = []
        for h in self.hexes:
            ts = terr[h]
            base = fill_terrain(self.game, ts)
            by_colour.setdefault(base.color, []).append(h)
            for t in ts:
                tt = self.game.terrain_types[t]
                if tt.pattern in terrain_art.AREA:
                    area.setdefault(t, []).append(h)
                elif tt.pattern in terrain_art.POINT:
                    point.append((h, tt.pattern, tt.color))
        out = []
        for colour in sorted(by_colour):
            d = "".join(_hex_d(self.corners(h)) for h in by_colour[colour])
            # a hairline in the fill colour closes the anti-aliasing seams between hexes
            out.append(S.path(d, fill=colour, stroke=colour, stroke_width=0.05))
        for t in [tt.id for tt in self.m.terrain_types if tt.id in area]:
            tt = self.game.terrain_types[t]
            self.defs.append(terrain_art.texture_pattern(
                f"texture-{t}", tt.pattern, tt.color, self.hex_mm, terrain_art.salt(t)))
            d = "".join(_hex_d(self.corners(h)) for h in area[t])
            out.append(S.path(d, fill=f"url(#texture-{t})"))
        for h, pattern, colour in point:
            cx, cy = self.centres[h]
            out.append(
                terrain_art.point_symbol(pattern, colour, cx, cy, self.hex_mm, h.col * 1000 + h.row)
            )
        return S.g(out, id="terrain")

    def regions(self) -> tuple[str, str]:
        """(tints under the grid, outlines over it)."""
        tints, outlines = [], []
        for reg in self.m.regions:
            members = {h for h in self.game.hexes(reg.hexes) if h in self.on}
            if not members or reg.style == "none":
                continue
            if reg.style == "tint":
                d = "".join(_hex_d(self.corners(h)) for h in sorted(members))
                tints.append(S.path(d, fill=reg.color, fill_opacity=0.22, stroke="none"))
            segs = geom.boundary_segments(members, self.centres, self.corners, self.hex_mm)
            clip = self.clip_for(f"region-{reg.id}", sorted(members))
            d = "".join(S.poly_d(line, close=False) for line in geom.chain(segs))
            width = 1.6 if reg.style == "outline" else 0.9
            outlines.append(
                S.path(
                    d,
                    fill="none",
                    stroke=reg.color,
                    stroke_width=width,
                    stroke_opacity=0.75,
                    clip_path=clip,
                    stroke_linejoin="round",
                )
            )
        return S.g(tints, id="region-tints"), S.g(outlines, id="region-outlines")

    def hexsides(self) -> str:
        by_type: dict[str, list] = {}
        for kind, a, b in self.game.hexside_list:  # the model's one parser of 'A/B'
            if a not in self.on and b not in self.on:
                continue
            edge = geom.shared_edge(self.corners(a), self.corners(b))
            if edge:
                by_type.setdefault(kind, []).append((edge, self.centres.get(b) or self._centre(b)))
        variants = map_symbols.style_variants(self.m.hexside_types)
        out = [
            map_symbols.hexside_art(ht, by_type[ht.id], self.hex_mm, variants[ht.id])
            for ht in self.m.hexside_types
            if ht.id in by_type
        ]
        return S.g(out, id="hexsides")

    def _centre(self, h: HexId):
        x, y = self.game.grid.center_mm(h)
        return self.layout.origin_mm[0] + x, self.layout.origin_mm[1] + y

    def lines(self) -> str:
        types = {t.id: t for t in self.m.line_types}
        order = {"boundary": 0, "track": 1, "ferry": 2, "minor-road": 3, "road": 4, "railway": 5}
        out = []
        for ln in sorted(self.m.lines, key=lambda x: order.get(types[x.type].style, 9)):
            lt = types[ln.type]
            hexes = self.game.hexes(ln.hexes)
            if len(hexes) < 2 or not any(h in self.on for h in hexes):
                continue
            pts = [self.centres.get(h) or self._centre(h) for h in hexes]
            d = geom.smooth_d(pts)
            out.append(line_art(lt, d, self.hex_mm))
            if lt.style == "ferry":
                w = style.LINE_WIDTH[lt.style] * self.hex_mm / 19.05
                for h in (hexes[0], hexes[-1]):
                    if h in self.on:
                        x, y = self.centres[h]
                        out.append(ferry_end(lt, x, y, w))
        return S.g(out, id="lines")

    def grid_lines(self) -> str:
        seen = set()
        d = []
        for h in self.hexes:
            cs = self.corners(h)
            keys = [geom.key(p) for p in cs]  # each corner snapped and written once per hex
            text = [f"{num(x)} {num(y)}" for x, y in cs]
            for i in range(6):
                j = (i + 1) % 6
                a, b = keys[i], keys[j]
                k = (a, b) if a <= b else (b, a)
                if k in seen:
                    continue
                seen.add(k)
                d.append(f"M{text[i]}L{text[j]}")
        return S.path(
            "".join(d),
            fill="none",
            stroke=style.GRID_LINE,
            stroke_width=style.HEX_LINE_WIDTH,
            stroke_opacity=0.85,
            stroke_linecap="round",
            id="hexgrid",
        )

    def number_place(self, h: HexId) -> tuple[str, float, float, float]:
        """(text, x, baseline y, size) of a hex's printed number, at the top of the hex."""
        size = max(style.HEX_NUMBER_MIN, style.HEX_NUMBER_SIZE * self.hex_mm)
        cx, cy = self.centres[h]
        text = (
            h.label(self.m.column_digits, self.m.row_digits)
            if not h.sheet
            else HexId("", h.col, h.row).label(self.m.column_digits, self.m.row_digits)
        )
        return text, cx, cy - self.hex_mm / 2 + 0.35 + style.ASCENT * size, size

    def numbers(self) -> str:
        terr = self.game.hex_terrain
        plates: dict[str, list[str]] = {}  # colour -> the patches of that colour
        inked: dict[tuple[str, float], list[str]] = {}  # (ink, size) -> its numbers
        for h in self.hexes:
            text, cx, y, size = self.number_place(h)
            fill = fill_terrain(self.game, terr[h]).color
            ink = "#2f2d29" if style.luminance(fill) > 0.4 else "#f2f2f2"
            # a patch of the hex's colour keeps the number legible over trees, houses and the
            # roads and rivers that pass under it
            w = style.text_width(text, size) + 0.7
            plates.setdefault(fill, []).append(
                S.rounded_rect_d(cx - w / 2, y - size * 0.8, w, size * 1.02, 0.4))
            inked.setdefault((ink, size), []).append(
                S.el("text", escape(text), x=num(cx), y=num(y)))
        # the patches one path per colour, under all the numbers (each lies inside its own hex,
        # clear of the others' numbers): 1,700 separate fills were a quarter of a map sheet's
        # drawing and of its PDF's writing
        under = [S.path("".join(ds), fill=fill, fill_opacity=0.93) for fill, ds in plates.items()]
        # the numbers of one ink in a group that says their font and colour once: 1,700 texts
        # each saying all five were two thirds of a campaign sheet's SVG
        over = [S.g(texts, font_family=style.SANS, font_size=num(size), text_anchor="middle",
                    fill=ink, fill_opacity="0.9") for (ink, size), texts in inked.items()]
        return S.g(under + over, id="hex-numbers")

    def objective_places(self) -> list:
        """[(objective, x, y)]: each symbol left of the hex centre; a second or third symbol in
        the same hex beside the first rather than over it."""
        out, count = [], {}
        s = self.hex_mm
        for ob in self.m.objectives:
            h = self.game.hex(ob.hex)
            if h not in self.on:
                continue
            k = count[h] = count.get(h, -1) + 1
            cx, cy = self.centres[h]
            x = cx - 0.3 * s + (0.6 * s if k % 2 else 0)
            out.append((ob, x, cy - 0.02 * s + 0.3 * s * (k // 2)))
        return out

    def objectives(self) -> str:
        out = []
        s = self.hex_mm
        for ob, x, y in self.objective_places():
            colour = map_frame.objective_colour(self.game, ob.side)
            out.append(map_frame.objective_symbol(ob.kind, colour, x, y, s, ob.vp))
        return S.g(out, id="objectives")

    def setup_codes(self) -> str:
        """Set-up codes the scenarios print in hexes (the .setup.csv 'code' column), several
        scenarios' codes in one hex joined by '/'."""
        codes: dict = {}
        for sc in self.game.scenarios:
            for p in sc.setup:
                if p.code:
                    h = self.game.hex(p.at)
                    if h in self.on and p.code not in codes.setdefault(h, []):
                        codes[h].append(p.code)
        out = []
        s = self.hex_mm
        for h, texts in codes.items():
            cx, cy = self.centres[h]
            out.append(S.text(cx + 0.22 * s, cy + 0.3 * s, "/".join(texts), 0.22 * s, bold=True,
                              fill=style.INK, halo=style.MARGIN_FILL, halo_width=0.4))
        return S.g(out, id="setup-codes")

    def keep_out(self) -> tuple[list, list]:
        """(boxes, segments) a name must not cover: hex numbers, victory and supply symbols,
        set-up codes, hexside features."""
        boxes = []
        for h in self.hexes:
            text, x, y, size = self.number_place(h)
            boxes.append(map_labels.text_box(x, y, text, size, False, style.SANS))
        s = self.hex_mm
        for ob, x, y in self.objective_places():
            r = 0.15 * s
            boxes.append((x - r, y - r, x + r, y + r * (2.2 if ob.vp is not None else 1)))
        segments = []
        for _kind, a, b in self.game.hexside_list:
            if a in self.on or b in self.on:
                edge = geom.shared_edge(self.corners(a), self.corners(b))
                if edge:
                    segments.append(edge)
        return boxes, segments

    def place_labels(self) -> list:
        """[(label, Placed)]: every name on this layout at a place that covers nothing a
        player needs; towns first (they belong to one hex), then water, features, regions."""
        if self._placed is not None:
            return self._placed
        boxes, segments = self.keep_out()
        f = self.layout.frame
        placer = map_labels.Placer(boxes, segments, (f.x, f.y, f.right, f.bottom))
        order = {"city": 0, "town": 1, "village": 2, "water": 3, "feature": 4, "region": 5}
        out = []
        for lb in sorted(self.m.labels, key=lambda lb: order[lb.kind]):
            h = self.game.hex(lb.hex)
            if h not in self.on:
                continue
            cx, cy = self.centres[h]
            size = max(style.PLACE_NAME_MIN, style.LABEL_SIZE[lb.kind] * self.hex_mm)
            bold, family = _label_font(lb.kind)
            text = lb.text.upper() if lb.kind == "region" else lb.text
            y = cy + size * 0.35 if lb.kind == "region" else cy + 0.36 * self.hex_mm
            out.append((lb, placer.place(text, cx, y, size, bold, family, self.hex_mm * 0.45)))
        self._placed = out
        return out

    def labels(self) -> str:
        out = []
        for lb, p in self.place_labels():
            bold, family = _label_font(lb.kind)
            look = {
                "water": {"fill": "#1f4e7a", "skew": -12, "halo_width": p.size * 0.18},
                "region": {"fill": "#5a2a1a", "opacity": "0.8", "halo_width": p.size * 0.12},
                "feature": {"fill": "#4a3320", "skew": -10, "halo_width": p.size * 0.2},
            }.get(lb.kind, {"fill": style.INK, "halo_width": p.size * 0.25})
            out.append(S.text(p.x, p.y, p.text, p.size, family=family, bold=bold,
                              halo=style.HALO, **look))
        return S.g(out, id="labels")

    def sheet_joins(self) -> str:
        """On the whole map of a multi-sheet game: where each sheet ends, with its id (kept in
        the build cache like hex_layers: the printed map and the module's board both draw it;
        a campaign map's take about 1.5 s, drawn before the formats split by
        vassal.images.draw_shared_map)."""
        if (self.layout.sheet is not None and not self.layout.group) or not self.m.sheets:
            return ""
        from builder import cache

        parts = self.hex_layers_parts()
        return cache.cached_text(("map-sheet-joins", *parts[1:]), self._sheet_joins)

    def _sheet_joins(self) -> str:
        import numpy as np

        out = []
        by_pos = geom.hexes_by_position(self.centres)  # once, not once per sheet
        by_sheet: dict[str, set] = {}
        for h in self.hexes:
            by_sheet.setdefault(h.sheet, set()).add(h)
        points = np.array([self.centres[h] for h in self.hexes]).reshape(-1, 2)
        sheet_of = np.array([h.sheet or "" for h in self.hexes])
        for sheet in self.m.sheets:
            own = by_sheet.get(sheet.id, set())
            if not own:
                continue  # a sheet not on this layout (a group's drawing)
            segs = geom.boundary_segments(
                own, self.centres, self.corners, self.hex_mm, inner_only=True, by_pos=by_pos
            )
            d = "".join(S.poly_d(line, close=False) for line in geom.chain(segs))
            if d:
                out.append(
                    S.path(
                        d,
                        fill="none",
                        stroke="#7a2d1d",
                        stroke_width=0.5,
                        stroke_dasharray="3 1.5",
                        stroke_opacity=0.8,
                    )
                )
            out.append(self._sheet_tag(sheet.id, own, points[sheet_of != sheet.id]))
        return S.g(out, id="sheet-joins")

    def _sheet_tag(self, sheet_id: str, own: set, others) -> str:
        """'Sheet 16A' just under the sheet, or over it, wherever no other sheet's hexes are
        (others: their centres, an n x 2 array)."""
        xs = [self.centres[h][0] for h in own]
        ys = [self.centres[h][1] for h in own]
        r, half = self.game.grid.radius_mm, self.hex_mm / 2
        x0 = min(xs) - r
        x1 = x0 + style.text_width(f"Sheet {sheet_id}", 3.6, True)  # where the tag would lie
        # the other sheets' hexes under or over the tag: array tests, not a Python loop over
        # every hex of a 20-sheet map for each sheet
        others = others[(others[:, 0] > x0 - r) & (others[:, 0] < x1 + r)]

        def free(top: float, bottom: float) -> bool:
            ys_ = others[:, 1]
            return not bool(((ys_ > top - half) & (ys_ < bottom + half)).any())

        below, above = max(ys) + half, min(ys) - half
        if free(below, below + 5.5):
            x, y = x0, below + 4.4
        elif free(above - 5.5, above):
            x, y = x0, above - 1.2
        else:
            x, y = x0 + 1.0, min(ys) + 2.0
        return S.text(
            x,
            y,
            f"Sheet {sheet_id}",
            3.6,
            bold=True,
            fill="#7a2d1d",
            anchor="start",
            halo=style.MARGIN_FILL,
            halo_width=0.6,
        )

    def hex_layers_parts(self) -> tuple:
        """The cache key parts of hex_layers: the map's inputs and where its hexes lie."""
        from builder import keys

        lay = self.layout
        return ("map-hex-layers", keys.map_parts(self.game, lay.sheet), lay.origin_mm,
                (lay.frame.x, lay.frame.y, lay.frame.w, lay.frame.h), len(self.hexes))

    def hex_layers(self) -> tuple[str, str]:
        """The map's own drawing, under and over the sheet joins: terrain, regions, grid,
        hexsides, roads and rivers; then objectives, set-up codes, names and hex numbers.
        The printed map and the module's board draw the same hexes at the same place (the
        board only leaves out the panel under the map), so this, the bulk of a map's drawing,
        is kept in the build cache under the map's inputs and the hexes' place, and is drawn
        once for both."""
        import json

        from builder import cache

        drawn_here = []

        def draw() -> bytes:
            drawn_here.append(True)
            start = len(self.defs)
            tints, outlines = self.regions()
            under = "".join([
                self.terrain(), tints, self.grid_lines(), outlines,
                # hexside features over the outlines of regions that follow the same sides
                self.hexsides(), self.lines(),
            ])
            over = "".join([self.objectives(), self.setup_codes(), self.labels(), self.numbers()])
            return json.dumps([under, over, self.defs[start:]]).encode("utf-8")

        under, over, defs = json.loads(cache.cached(self.hex_layers_parts(), draw))
        if not drawn_here:  # drawn here, its clip paths and patterns are in self.defs already
            self.defs.extend(defs)
        return under, over

    def _from_sheets(self) -> bool:
        """Whether this whole drawing of a campaign map is laid from its sheets' hex layers."""
        return (self.layout.sheet is None and bool(self.m.sheets)
                and self.game.grid.hex_count > WHOLE_FROM_SHEETS_HEXES)

    def sheets_hex_layers(self) -> tuple[str, str]:
        """hex_layers of the whole map laid from each sheet's (drawn, and kept in the build
        cache, for the sheet files and the module's board), each sheet within its own edges as
        it prints: the 34,000 hexes of a campaign map are not drawn a second time."""
        ox, oy = self.layout.origin_mm
        unders, overs = [], []
        for i, sid in enumerate(self.layout.sheet_ids):
            sheet = HexDrawing(self.game, self.layout.sheet_layout(sid))
            under, over = sheet.hex_layers()
            prefix = f"sheet{i}-"
            f = sheet.layout.frame
            frame = f"{prefix}frame"
            self.defs.append(_ids_prefixed("".join(sheet.defs), prefix))
            self.defs.append(f'<clipPath id="{frame}">{S.rect(f.x, f.y, f.w, f.h)}</clipPath>')
            sx, sy = sheet.layout.origin_mm
            # the sheet's hexes lie at its own origin: moved to where the sheet lies on the map
            moved = f"translate({num(ox - sx)} {num(oy - sy)})"
            for layer, out in ((under, unders), (over, overs)):
                out.append(S.g(S.g(_ids_prefixed(layer, prefix), clip_path=f"url(#{frame})"),
                               transform=moved))
        return "".join(unders), "".join(overs)

    def draw(self, part: str = "whole") -> str:
        """The map as SVG. `part` splits a campaign-sized map so each piece can be rasterised
        alone and the pieces laid over each other (the VASSAL board of a 20-sheet map):
        "hexes" = only the clipped hex layers on a transparent ground (one sheet's layout),
        "surround" = the whole map without them (margins, frame, edges, key and tracks),
        "joins" = only the dashed sheet boundaries and sheet names."""
        if part not in ("whole", "hexes", "surround", "joins"):
            raise ValueError(f"map part '{part}': choose whole, hexes, surround or joins")
        if part == "joins":
            return S.document(self.layout.width_mm, self.layout.height_mm, self.sheet_joins())
        clip = None
        if self.layout.sheet is not None and not self.layout.group:
            # one sheet alone: roads and rivers running on to other sheets stop at its edge
            # (a group's sheets are all the sheets they touch: its sheet tags lie outside)
            f = self.layout.frame
            self.defs.append(f'<clipPath id="sheet-frame">{S.rect(f.x, f.y, f.w, f.h)}</clipPath>')
            clip = "url(#sheet-frame)"
        if part == "surround":
            layers = []
        elif self.m.artwork:
            # supplied art already shows terrain, features and numbers: print it, on the grid
            from builder.render.artwork import artwork_svg

            layers = [artwork_svg(self.game, self.layout), self.sheet_joins()]
        else:
            under, over = (self.sheets_hex_layers() if part == "whole" and self._from_sheets()
                           else self.hex_layers())
            layers = [under, "" if part == "hexes" else self.sheet_joins(), over]
        if part == "hexes":
            return S.document(self.layout.width_mm, self.layout.height_mm,
                              S.g(layers, id="map", clip_path=clip), defs="".join(self.defs))
        body = [
            map_frame.background(self.game, self.layout),
            S.g(layers, id="map", clip_path=clip) if layers else "",
            map_frame.frame(self.game, self.layout),
            map_frame.edges(self.game, self.layout, self.centres),
        ]
        if self.layout.panel:
            from builder.render.map_panel import draw_panel

            body.append(draw_panel(self.game, self.layout.panel))
        label = self.layout.sheet_label
        title = self.game.info.title + (f" - {label[0].lower()}{label[1:]}" if label else "")
        return S.document(
            self.layout.width_mm,
            self.layout.height_mm,
            "\n".join(b for b in body if b),
            defs="".join(self.defs),
            title=title,
        )


def draw_hex_map(game: Game, layout: MapLayout, part: str = "whole") -> str:
    """The SVG of a hex map layout (whole map or one sheet), or one part of it (see draw)."""
    return HexDrawing(game, layout).draw(part)
