"""What surrounds a map: paper, border, title band, sheet ids, entry and supply edges, symbols."""

from __future__ import annotations

import math

from builder.model.game_model import Game
from builder.model.maps import AreaMap
from builder.render import style
from builder.render import svg as S
from builder.render.layout import MapLayout
from builder.render.svg import num


def background(game: Game, layout: MapLayout) -> str:
    return S.rect(0, 0, layout.width_mm, layout.height_mm, fill=style.MARGIN_FILL)


def star_d(cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45) -> str:
    pts = []
    for k in range(points * 2):
        rr = r if k % 2 == 0 else r * inner
        a = math.radians(-90 + 180 / points * k)
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return S.poly_d(pts)


OBJECTIVE_COLOUR = "#d4a017"  # an objective that belongs to no side


def objective_colour(game: Game, side: str) -> str:
    """The colour an objective of `side` ('' for none) is printed in: its side's."""
    return game.sides[side].color if side in game.sides else OBJECTIVE_COLOUR


def objective_symbol(
    kind: str, colour: str, cx: float, cy: float, hex_mm: float, vp: float | None = None
) -> str:
    """A victory star, supply source, objective target ... scaled to the hex size."""
    r = hex_mm * 0.11
    if kind == "victory":
        out = S.path(
            star_d(cx, cy, r * 1.15),
            fill=colour,
            stroke=style.INK,
            stroke_width=0.25,
            stroke_linejoin="round",
        )
        if vp is not None:
            label = f"{vp:g}"
            size = r * 0.95
            out += S.circle(
                cx, cy + r * 1.35, r * 0.62, fill="#ffffff", stroke=style.INK, stroke_width=0.18
            )
            out += S.fitted(cx, cy + r * 1.35 + size * 0.36, label, r * 1.1, size, bold=True)
        return out
    if kind == "supply":
        return S.circle(cx, cy, r, fill=colour, stroke=style.INK, stroke_width=0.25) + S.text(
            cx, cy + r * 0.45, "S", r * 1.25, bold=True, fill=style.ink_on(colour)
        )
    if kind == "peak":
        # a summit to take: a pennant on a pole, so it is not read as the peak terrain symbol
        return S.path(
            f"M{num(cx - r * 0.5)} {num(cy + r * 1.1)}V{num(cy - r * 1.2)}",
            fill="none",
            stroke=style.INK,
            stroke_width=0.35,
            stroke_linecap="round",
        ) + S.path(
            f"M{num(cx - r * 0.5)} {num(cy - r * 1.2)}L{num(cx + r * 0.9)} {num(cy - r * 0.65)}"
            f"L{num(cx - r * 0.5)} {num(cy - r * 0.1)}Z",
            fill=colour,
            stroke=style.INK,
            stroke_width=0.22,
            stroke_linejoin="round",
        )
    if kind == "town":
        # a house: walls and a roof, not a square that reads as a bunker
        return S.polygon(
            [(cx - r * 0.65, cy + r * 0.7), (cx - r * 0.65, cy - r * 0.1), (cx, cy - r * 0.8),
             (cx + r * 0.65, cy - r * 0.1), (cx + r * 0.65, cy + r * 0.7)],
            fill=colour,
            stroke=style.INK,
            stroke_width=0.25,
            stroke_linejoin="round",
        )
    # objective: a target ring
    return (
        S.circle(cx, cy, r, fill="none", stroke=colour, stroke_width=r * 0.35)
        + S.circle(cx, cy, r * 0.3, fill=colour)
        + S.circle(cx, cy, r * 1.17, fill="none", stroke=style.INK, stroke_width=0.15)
    )


def compass(cx: float, cy: float, r: float, turn: int = 0) -> str:
    """A north arrow; turn = quarter turns clockwise (north printed to the right: 1)."""
    return S.g(
        S.path(
            f"M{num(cx)} {num(cy - r)}L{num(cx + r * 0.35)} {num(cy + r * 0.6)}L{num(cx)} "
            f"{num(cy + r * 0.3)}Z",
            fill=style.INK,
        )
        + S.path(
            f"M{num(cx)} {num(cy - r)}L{num(cx - r * 0.35)} {num(cy + r * 0.6)}L{num(cx)} "
            f"{num(cy + r * 0.3)}Z",
            fill="#ffffff",
            stroke=style.INK,
            stroke_width=0.2,
        )
        + S.text(cx, cy - r - 0.8, "N", r * 0.7, bold=True),
        transform=f"rotate({turn * 90} {num(cx)} {num(cy)})" if turn else None,
    )


def frame(game: Game, layout: MapLayout) -> str:
    """Border lines, the title band and the sheet ids."""
    info = game.info
    w, h = layout.width_mm, layout.height_mm
    out = [
        S.rect(3, 3, w - 6, h - 6, fill="none", stroke=style.INK, stroke_width=0.6),
        S.rect(4.2, 4.2, w - 8.4, h - 8.4, fill="none", stroke=style.INK, stroke_width=0.2),
    ]
    band = style.MAP_TITLE_BAND
    left = layout.frame.x
    title = getattr(game.map, "title", "") or info.title
    right_x = w - style.MAP_MARGIN
    avail = max(20.0, w - 2 * style.MAP_MARGIN - 24)
    sheet_tag = layout.sheet if not layout.group else None  # a group tags each sheet on it
    # the north arrow, its 'N' and the orientation caption own the first 16 mm of the band;
    # the title block starts after them
    text_x = left + 17.0
    # a narrow sheet gives its tag at most 40 % of the band, the title the rest
    tag_w = min(40.0, style.text_width(f"Sheet {sheet_tag}", 7.0, True),
                (right_x - text_x) * 0.4) if sheet_tag else 0.0
    if sheet_tag:
        out.append(
            S.fitted(
                right_x,
                band * 0.62,
                f"Sheet {sheet_tag}",
                tag_w,
                7.0,
                bold=True,
                anchor="end",
                fill="#7a2d1d",
            )
        )
        out.append(
            S.fitted(
                left + 8, h - 6.2, sheet_tag, 30, 4.5, bold=True, anchor="start", fill="#7a2d1d"
            )
        )
        avail -= 45
    turn = orientation(game)
    if sheet_tag:  # a sheet prints no scale lines: the title has the band up to the sheet tag
        title_w = right_x - tag_w - 4.0 - text_x
    else:
        title_w = avail * 0.62 - 7.0
    sub = subtitle(game, title)
    lines = [title]
    if style.text_width(title, 4.0, True, style.SERIF) > title_w:
        # too long for one line at a readable size: up to three lines, no subtitle under them
        lines, sub = S.wrap(title, title_w, 4.0, True, style.SERIF), ""
        lines = lines[:2] + [" ".join(lines[2:])] if len(lines) > 3 else lines
    for i, line in enumerate(lines):
        out.append(
            S.fitted(
                text_x,
                band * 0.55 if len(lines) == 1 else band * 0.35 + i * 4.7,
                line,
                title_w,
                8.5 if len(lines) == 1 else 4.0,
                family=style.SERIF,
                bold=True,
                anchor="start",
                min_size=4.0,
            )
        )
    if sub:
        out.append(
            S.fitted(
                text_x,
                band * 0.55 + 5.2,
                sub,
                title_w,
                3.6,
                family=style.SERIF,
                anchor="start",
                fill=style.MUTED,
            )
        )
    out.append(compass(left + 7.0, band * 0.42, 4.2, turn))
    if turn:
        caption = f"{GEO[(4 - turn) % 4].capitalize()} at top"
        out.append(S.fitted(left + 7.0, band * 0.42 + 9.0, caption, 15.0, 2.3, fill=style.MUTED))
    facts = []
    scale = info.scale
    if scale.hex:
        # an area map has no hexes: the same scale line names its areas
        facts.append(f"One hex = {scale.hex}" if game.is_hex else f"Areas: {scale.hex}")
    if scale.turn:
        facts.append(f"One turn = {scale.turn}")
    if scale.unit:
        facts.append(f"Units: {scale.unit}")
    if not sheet_tag:
        credit = " ".join(x for x in (info.publisher, str(info.year or "")) if x)
        if credit:
            facts.append(credit)
        for i, line in enumerate(facts[:3]):
            out.append(
                S.fitted(
                    right_x,
                    band * 0.38 + i * 3.4,
                    line,
                    avail * 0.38,
                    2.7,
                    anchor="end",
                    fill=style.MUTED,
                )
            )
    return S.g(out, id="frame")


def subtitle(game: Game, title: str) -> str:
    """The line under the map's title: the game's subtitle, with the game's title when the map
    has its own; nothing the title already says."""
    import re

    info = game.info
    parts = [info.title] if title != info.title else []
    parts += [info.subtitle] if info.subtitle else []
    said = title.casefold()
    words = set(re.findall(r"[^\W_]+", said))

    def new(part: str) -> str:
        """The part without its comma-separated pieces the title says already, in any form
        ('9 April - 12 April 1917' under a title 'Vimy Ridge, 9-12 April 1917')."""
        pieces = [p.strip() for p in part.split(",")]
        kept = [p for p in pieces if not set(re.findall(r"[^\W_]+", p.casefold())) <= words]
        return ", ".join(kept)

    return " \u2013 ".join(n for n in (new(p) for p in parts) if n and n.casefold() not in said)


GEO = ("north", "east", "south", "west")  # clockwise, as the rules name map edges
PRINTED = ("top", "right", "bottom", "left")  # clockwise, as the sheet lies


def _nearest_side(f, x: float, y: float) -> int:
    d = [y - f.y, f.right - x, f.bottom - y, x - f.x]
    return d.index(min(d))


def orientation(game: Game) -> int:
    """Quarter turns clockwise from the rules' compass to the sheet: 0 when north is up
    (map.toml's 'north': Scheldt is printed with north to the left, Vimy to the right)."""
    return ("up", "right", "down", "left").index(getattr(game.map, "north", "up"))


def edges(game: Game, layout: MapLayout, centres: dict) -> str:
    """Supply and entry edges: a band along a whole edge, or arrows at the entry hexes."""
    m = game.map
    if isinstance(m, AreaMap):
        return ""
    f = layout.frame
    turn = orientation(game)
    out = []
    whole: dict[int, list] = {}
    taken: dict[int, list[tuple[float, float]]] = {}  # label extents along each printed side
    arrows: list[str] = []  # drawn last, over any edge band
    for e in m.edges:
        side = game.sides.get(e.side)
        colour = side.color if side else "#999999"
        label = e.name or f"{side.name if side else e.side} {e.kind} edge"
        hexes = [h for h in game.hexes(e.hexes) if h in centres]
        if e.hexes and not hexes:
            continue  # entry hexes on another sheet
        if not hexes:
            whole.setdefault((GEO.index(e.edge) + turn) % 4, []).append((colour, label))
            continue
        xs = [centres[h][0] for h in hexes]
        ys = [centres[h][1] for h in hexes]
        printed = _nearest_side(f, sum(xs) / len(xs), sum(ys) / len(ys))
        for h in hexes:
            cx, cy = centres[h]
            arrows.append(_arrow(PRINTED[printed], cx, cy, game.grid.hex_mm, f, colour))
        cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        half = style.text_width(label, 2.0, True) / 2 + 3.0
        taken.setdefault(printed, []).append(
            ((cx if printed in (0, 2) else cy) - half, (cx if printed in (0, 2) else cy) + half)
        )
        if printed in (0, 2):
            ty = f.y - 6.3 if printed == 0 else f.bottom + 8.0
            out.append(
                S.text(cx, ty, label, 2.0, bold=True, halo=style.MARGIN_FILL, halo_width=0.5)
            )
        else:
            tx = f.x - 7.2 if printed == 3 else f.right + 7.2
            out.append(
                S.text(
                    tx,
                    cy,
                    label,
                    2.0,
                    bold=True,
                    rotate=-90 if printed == 3 else 90,
                    halo=style.MARGIN_FILL,
                    halo_width=0.5,
                )
            )
    gap, thick = 1.6, 2.4
    for printed, items in sorted(whole.items()):
        part = thick / len(items)
        text = "  ·  ".join(label for _, label in items).upper()
        for k, (colour, _) in enumerate(items):
            if printed in (0, 2):
                y = (f.y - gap - thick if printed == 0 else f.bottom + gap) + k * part
                out.append(S.rect(f.x, y, f.w, part, fill=colour))
            else:
                x = (f.x - gap - thick if printed == 3 else f.right + gap) + k * part
                out.append(S.rect(x, f.y, part, f.h, fill=colour))
        start, length = (f.x, f.w) if printed in (0, 2) else (f.y, f.h)
        at, room = _free_spot(
            start, length, style.text_width(text, 2.2, True), taken.get(printed, [])
        )
        if printed in (0, 2):
            y = f.y - gap - thick if printed == 0 else f.bottom + gap
            out.append(S.rect(f.x, y, f.w, thick, fill="none", stroke=style.INK, stroke_width=0.15))
            ty = y - 0.9 if printed == 0 else y + thick + 2.6
            out.append(S.fitted(at, ty, text, room, 2.2, bold=True))
        else:
            x = f.x - gap - thick if printed == 3 else f.right + gap
            out.append(S.rect(x, f.y, thick, f.h, fill="none", stroke=style.INK, stroke_width=0.15))
            tx = x - 0.8 if printed == 3 else x + thick + 0.8 + 1.6
            out.append(
                S.fitted(tx, at, text, room, 2.2, bold=True, rotate=-90 if printed == 3 else 90)
            )
    return S.g(out + arrows, id="edges")


def _free_spot(start: float, length: float, width: float, taken: list) -> tuple[float, float]:
    """(centre, room) for a label of `width` along a side, clear of the labels already there."""
    gaps, pos = [], start
    for a, b in sorted(taken):
        if a > pos:
            gaps.append((pos, min(a, start + length)))
        pos = max(pos, b)
    if pos < start + length:
        gaps.append((pos, start + length))
    if not gaps:
        return start + length / 2, length
    middle = start + length / 2
    fits = [g for g in gaps if g[1] - g[0] >= width]
    if fits:
        a, b = min(
            fits, key=lambda g: abs(min(max(middle, g[0] + width / 2), g[1] - width / 2) - middle)
        )
        return min(max(middle, a + width / 2), b - width / 2), b - a
    a, b = max(gaps, key=lambda g: g[1] - g[0])
    return (a + b) / 2, b - a


def _arrow(edge: str, cx: float, cy: float, hex_mm: float, f, colour: str) -> str:
    """An arrow from the margin pointing at the hex."""
    length, half = 5.2, 1.9
    if edge == "top":
        tip = (cx, max(f.y, cy - hex_mm * 0.5) - 0.4)
        d = (0, 1)
    elif edge == "bottom":
        tip = (cx, min(f.bottom, cy + hex_mm * 0.5) + 0.4)
        d = (0, -1)
    elif edge == "left":
        tip = (max(f.x, cx - hex_mm * 0.55) - 0.4, cy)
        d = (1, 0)
    else:
        tip = (min(f.right, cx + hex_mm * 0.55) + 0.4, cy)
        d = (-1, 0)
    tx, ty = tip
    bx, by = tx - d[0] * length, ty - d[1] * length
    nx, ny = -d[1], d[0]
    pts = [
        (tx, ty),
        (tx - d[0] * 3 + nx * half, ty - d[1] * 3 + ny * half),
        (tx - d[0] * 3 + nx * half * 0.45, ty - d[1] * 3 + ny * half * 0.45),
        (bx + nx * half * 0.45, by + ny * half * 0.45),
        (bx - nx * half * 0.45, by - ny * half * 0.45),
        (tx - d[0] * 3 - nx * half * 0.45, ty - d[1] * 3 - ny * half * 0.45),
        (tx - d[0] * 3 - nx * half, ty - d[1] * 3 - ny * half),
    ]
    return S.polygon(pts, fill=colour, stroke=style.INK, stroke_width=0.2, stroke_linejoin="round")
