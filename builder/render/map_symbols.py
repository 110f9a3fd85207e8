"""Map drawings shared by the map drawers (map_hex, map_area) and the map's legend (map_panel):
hexside art and machine-gun fire arrows. They sit below all three, so each drawer imports
downward only."""

from __future__ import annotations

import math

from builder.render import geom, style, terrain_art
from builder.render import svg as S
from builder.render.svg import num

MG_RED = "#b3122a"


def mg_arrow(a, b, bend: float, label: str = "", width: float = 0.55,
             opacity: float = 0.9) -> str:
    """A dashed red arrow of machine-gun fire from a to b, bowed sideways by `bend` mm."""
    (x1, y1), (x2, y2) = a, b
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    nx, ny = -uy, ux
    mx, my = (x1 + x2) / 2 + nx * bend, (y1 + y2) / 2 + ny * bend
    # end the shaft short of the target point so the head sits on it
    tx, ty = x2 - ux * 0.2, y2 - uy * 0.2
    hx, hy = tx - mx, ty - my
    hl = math.hypot(hx, hy) or 1.0
    hx, hy = hx / hl, hy / hl
    head = 2.2
    base = (tx - hx * head, ty - hy * head)
    pts = [
        (tx, ty),
        (base[0] - hy * head * 0.45, base[1] + hx * head * 0.45),
        (base[0] + hy * head * 0.45, base[1] - hx * head * 0.45),
    ]
    out = S.path(
        f"M{num(x1)} {num(y1)}Q{num(mx)} {num(my)} {num(base[0])} {num(base[1])}",
        fill="none",
        stroke=MG_RED,
        stroke_width=width,
        stroke_dasharray="1.6 0.9",
        stroke_linecap="round",
        opacity=f"{opacity:g}",
    )
    out += S.polygon(pts, fill=MG_RED, opacity=f"{min(1.0, opacity + 0.2):g}")
    return out


def style_variants(types) -> dict[str, int]:
    """{type id: n}: the n-th type drawn in the same style on this map (0 for the first), so
    two canals or two major rivers with different rules get different marks along them."""
    seen: dict[str, int] = {}
    out = {}
    for t in types:
        out[t.id] = seen.get(t.style, 0)
        seen[t.style] = out[t.id] + 1
    return out


def hexside_art(ht, segs, hex_mm: float, variant: int = 0) -> str:
    """A hexside type drawn along segments [((p, q), far centre)]: rivers, canals, trenches...
    `variant` > 0 adds marks along each side (bars, rings, diamonds) that tell apart types
    sharing a style."""
    if not segs:
        return ""
    return _hexside_line(ht, segs, hex_mm) + _variant_marks(ht, segs, hex_mm, variant)


def _variant_marks(ht, segs, hex_mm: float, variant: int) -> str:
    if variant <= 0:
        return ""
    w = style.HEXSIDE_WIDTH[ht.style] * hex_mm / 19.05
    ink = style.darker(ht.color, 0.45)
    d, rings = [], []
    for (p, q), _far in segs:
        (x1, y1), (x2, y2) = p, q
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        nx, ny = -uy, ux
        k = (variant - 1) % 3
        if k == 0:  # bars across the line, like lock gates
            for t in (0.3, 0.7):
                cx, cy = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
                e = w * 1.6 + 0.4
                d.append(f"M{num(cx - nx * e)} {num(cy - ny * e)}"
                         f"L{num(cx + nx * e)} {num(cy + ny * e)}")
        elif k == 1:  # a ring at the middle
            rings.append(((x1 + x2) / 2, (y1 + y2) / 2))
        else:  # a diamond at the middle
            cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
            e = w * 1.3 + 0.45
            d.append(
                f"M{num(cx - ux * e * 1.4)} {num(cy - uy * e * 1.4)}L{num(cx + nx * e)} "
                f"{num(cy + ny * e)}L{num(cx + ux * e * 1.4)} {num(cy + uy * e * 1.4)}"
                f"L{num(cx - nx * e)} {num(cy - ny * e)}Z"
            )
    out = ""
    if d:
        out += S.path("".join(d), fill=ink, stroke=ink, stroke_width=max(0.3, w * 0.45),
                      stroke_linecap="round")
    for cx, cy in rings:
        out += S.circle(cx, cy, w * 0.9 + 0.35, fill="#ffffff", stroke=ink,
                        stroke_width=max(0.3, w * 0.45))
    return out


def _hexside_line(ht, segs, hex_mm: float) -> str:
    w = style.HEXSIDE_WIDTH[ht.style] * hex_mm / 19.05
    colour = ht.color
    lines = geom.chain([e for e, _ in segs])
    seed = terrain_art.salt(ht.id)
    if ht.style in ("river", "major-river", "minor-river"):
        d = "".join(geom.wiggle_d(line, hex_mm * 0.035, seed) for line in lines)
        return S.path(
            d,
            fill="none",
            stroke=style.darker(colour, 0.65),
            stroke_width=w + 0.3,
            stroke_linecap="round",
            stroke_linejoin="round",
        ) + S.path(
            d,
            fill="none",
            stroke=colour,
            stroke_width=w,
            stroke_linecap="round",
            stroke_linejoin="round",
        )
    d = "".join(S.poly_d(line, close=False) for line in lines)
    if ht.style == "canal":
        return (
            S.path(d, fill="none", stroke=style.darker(colour, 0.6), stroke_width=w + 0.35)
            + S.path(d, fill="none", stroke=colour, stroke_width=w)
            + S.path(d, fill="none", stroke=style.lighter(colour, 0.55), stroke_width=w * 0.25)
        )
    if ht.style == "sea":
        return S.path(
            d,
            fill="none",
            stroke=colour,
            stroke_width=w,
            stroke_linecap="round",
            stroke_linejoin="round",
        ) + S.path(
            d,
            fill="none",
            stroke=style.lighter(colour, 0.6),
            stroke_width=w * 0.2,
            stroke_dasharray=f"{num(w)} {num(w * 0.8)}",
        )
    if ht.style == "causeway":
        # a raised road across water: a dark embankment with a pale roadway, hachures down
        # both slopes and bridge-end ticks, so it reads as a crossing and not a river
        hach = []
        for (p, q), _far in segs:
            (x1, y1), (x2, y2) = p, q
            length = math.hypot(x2 - x1, y2 - y1) or 1.0
            ux, uy = (x2 - x1) / length, (y2 - y1) / length
            nx, ny = -uy, ux
            n = 6
            for k in range(n + 1):
                t = 0.08 + 0.84 * k / n
                cx, cy = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
                for sgn in (1, -1):
                    a = w * 0.75
                    b = w * 0.75 + hex_mm * 0.05
                    hach.append(f"M{num(cx + sgn * nx * a)} {num(cy + sgn * ny * a)}"
                                f"L{num(cx + sgn * nx * b)} {num(cy + sgn * ny * b)}")
        return (
            S.path("".join(hach), fill="none", stroke=style.INK, stroke_width=0.25)
            + S.path(d, fill="none", stroke=style.INK, stroke_width=w + 0.6, stroke_linecap="butt")
            + S.path(d, fill="none", stroke=colour, stroke_width=w, stroke_linecap="butt")
            + S.path(d, fill="none", stroke="#f4ead2", stroke_width=w * 0.35,
                     stroke_linecap="butt")
        )
    if ht.style == "border":
        return S.path(
            d,
            fill="none",
            stroke=colour,
            stroke_width=w,
            stroke_dasharray=f"{num(w * 6)} {num(w * 2)} {num(w)} {num(w * 2)}",
        )
    # trench, fortified, escarpment: a line with teeth or ticks facing the second hex
    teeth = []
    for (p, q), far in segs:
        teeth.append(_teeth(p, q, far, ht.style, w, hex_mm))
    return S.path(
        d,
        fill="none",
        stroke=colour,
        stroke_width=w,
        stroke_linecap="round",
        stroke_linejoin="round",
    ) + S.path(
        "".join(teeth),
        fill=colour if ht.style == "fortified" else "none",
        stroke=colour,
        stroke_width=w * 0.7,
        stroke_linejoin="miter",
    )

def _teeth(p, q, far, kind: str, w: float, hex_mm: float) -> str:
    (x1, y1), (x2, y2) = p, q
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    nx, ny = -uy, ux
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    if (far[0] - mx) * nx + (far[1] - my) * ny < 0:
        nx, ny = -nx, -ny
    n = 5
    step = length / n
    depth = hex_mm * (0.05 if kind != "escarpment" else 0.06)
    d = []
    for k in range(n):
        sx, sy = x1 + ux * step * k, y1 + uy * step * k
        if kind == "fortified":
            d.append(
                f"M{num(sx + ux * step * 0.2)} {num(sy + uy * step * 0.2)}"
                f"L{num(sx + ux * step * 0.5 + nx * depth)} "
                f"{num(sy + uy * step * 0.5 + ny * depth)}"
                f"L{num(sx + ux * step * 0.8)} {num(sy + uy * step * 0.8)}Z"
            )
        elif kind == "trench":
            a = (sx + ux * step * 0.25, sy + uy * step * 0.25)
            b = (sx + ux * step * 0.75, sy + uy * step * 0.75)
            d.append(
                f"M{num(a[0])} {num(a[1])}l{num(nx * depth)} {num(ny * depth)}"
                f"L{num(b[0] + nx * depth)} {num(b[1] + ny * depth)}L{num(b[0])} {num(b[1])}"
            )
        else:
            c = (sx + ux * step * 0.5, sy + uy * step * 0.5)
            d.append(f"M{num(c[0])} {num(c[1])}l{num(nx * depth)} {num(ny * depth)}")
    return "".join(d)
