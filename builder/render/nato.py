"""NATO unit-type symbols drawn as vectors in a frame, and the size marks above them."""

from __future__ import annotations

from builder.model.counters import UNIT_TYPES
from builder.render import style
from builder.render import svg as S
from builder.render.svg import num


def _oval(x, y, w, h, stroke, sw) -> str:
    return S.rect(
        x + w * 0.22,
        y + h * 0.25,
        w * 0.56,
        h * 0.5,
        rx=num(h * 0.25),
        fill="none",
        stroke=stroke,
        stroke_width=sw,
    )


def _cross(x, y, w, h) -> str:
    return (
        f"M{num(x)} {num(y)}L{num(x + w)} {num(y + h)}M{num(x + w)} {num(y)}L{num(x)} {num(y + h)}"
    )


def _text(x, y, w, h, label, ink) -> str:
    size = h * 0.48
    return S.fitted(x + w / 2, y + h / 2 + size * 0.36, label, w * 0.8, size, bold=True, fill=ink)


def _engineer(x, y, w, h) -> str:
    ly = y + h * 0.38
    x0, x1 = x + w * 0.25, x + w * 0.75
    legs = "".join(
        f"M{num(px)} {num(ly)}L{num(px)} {num(y + h * 0.66)}" for px in (x0, (x0 + x1) / 2, x1)
    )
    return (
        f"M{num(x0)} {num(y + h * 0.66)}L{num(x0)} {num(ly)}L{num(x1)} {num(ly)}"
        f"L{num(x1)} {num(y + h * 0.66)}" + legs
    )


def glyphs(unit_type: str, x: float, y: float, w: float, h: float, ink: str, sw: float) -> str:
    """The inside of the frame for a unit type (frame at x, y, w, h)."""
    lines: list[str] = []  # path data stroked in ink
    extra: list[str] = []  # finished elements
    cx, cy = x + w / 2, y + h / 2
    t = unit_type
    if t in (
        "infantry",
        "armoured-infantry",
        "mechanised",
        "motorised",
        "paratroop",
        "glider-infantry",
        "mountain",
        "marine",
        "militia",
        "security",
        "assault-engineer",
    ):
        lines.append(_cross(x, y, w, h))
    if t in ("armour", "armoured-infantry", "mechanised", "assault-gun", "flail"):
        extra.append(_oval(x, y, w, h, ink, sw))
    if t == "motorised":
        lines.append(f"M{num(cx)} {num(y)}L{num(cx)} {num(y + h)}")
    if t == "paratroop":
        r = h * 0.17
        lines.append(
            f"M{num(cx - 2 * r)} {num(y + h)}a{num(r)} {num(r)} 0 0 1 {num(2 * r)} 0"
            f"a{num(r)} {num(r)} 0 0 1 {num(2 * r)} 0"
        )
    if t == "glider-infantry":
        lines.append(
            f"M{num(cx - w * 0.22)} {num(y + h * 0.86)}Q{num(cx)} {num(y + h * 0.7)} "
            f"{num(cx + w * 0.22)} {num(y + h * 0.86)}"
        )
    if t in ("engineer", "assault-engineer"):
        lines.append(_engineer(x, y, w, h))
    if t in ("assault-gun", "reconnaissance", "cavalry"):
        lines.append(f"M{num(x)} {num(y + h)}L{num(x + w)} {num(y)}")
    if t == "anti-tank":
        lines.append(f"M{num(x)} {num(y + h)}L{num(cx)} {num(y)}L{num(x + w)} {num(y + h)}")
    if t == "artillery":
        extra.append(S.circle(cx, cy, h * 0.15, fill=ink))
    if t == "mortar":
        r = h * 0.1
        lines.append(
            f"M{num(cx)} {num(y + h * 0.72 - r)}L{num(cx)} {num(y + h * 0.18)}"
            f"M{num(cx - r * 1.3)} {num(y + h * 0.32)}L{num(cx)} {num(y + h * 0.18)}"
            f"L{num(cx + r * 1.3)} {num(y + h * 0.32)}"
        )
        extra.append(S.circle(cx, y + h * 0.72, r, fill="none", stroke=ink, stroke_width=sw))
    if t == "machine-gun":
        lines.append(
            f"M{num(cx)} {num(y + h * 0.85)}L{num(cx)} {num(y + h * 0.15)}"
            f"M{num(cx - w * 0.08)} {num(y + h * 0.3)}L{num(cx)} {num(y + h * 0.15)}"
            f"L{num(cx + w * 0.08)} {num(y + h * 0.3)}"
            f"M{num(cx - w * 0.14)} {num(y + h * 0.85)}L{num(cx + w * 0.14)} {num(y + h * 0.85)}"
        )
    if t == "fortress":
        bx0, bx1 = x + w * 0.2, x + w * 0.8
        by0, by1 = y + h * 0.3, y + h * 0.78
        step = (bx1 - bx0) / 5
        d = f"M{num(bx0)} {num(by1)}L{num(bx0)} {num(by0)}"
        for k in range(5):
            xa = bx0 + k * step
            if k % 2 == 0:
                d += f"L{num(xa + step)} {num(by0)}"
            else:
                notch = by0 + h * 0.12
                d += f"L{num(xa)} {num(notch)}L{num(xa + step)} {num(notch)}"
                d += f"L{num(xa + step)} {num(by0)}"
        d += f"L{num(bx1)} {num(by1)}Z"
        extra.append(
            S.path(
                d, fill=ink, fill_opacity=0.2, stroke=ink, stroke_width=sw, stroke_linejoin="miter"
            )
        )
    if t == "mountain":
        extra.append(
            S.path(
                f"M{num(cx - w * 0.1)} {num(y + h)}L{num(cx)} {num(y + h * 0.8)}"
                f"L{num(cx + w * 0.1)} {num(y + h)}Z",
                fill=ink,
            )
        )
    if t == "marine":
        r = h * 0.09
        lines.append(
            f"M{num(cx)} {num(y + h * 0.62)}L{num(cx)} {num(y + h * 0.95)}"
            f"M{num(cx - r * 1.6)} {num(y + h * 0.82)}Q{num(cx)} {num(y + h * 1.02)} "
            f"{num(cx + r * 1.6)} {num(y + h * 0.82)}"
        )
    if t == "headquarters":
        extra.append(_text(x, y, w, h, "HQ", ink))
    if t == "flak":
        lines.append(
            f"M{num(x + w * 0.2)} {num(y + h)}Q{num(cx)} {num(y + h * 0.35)} "
            f"{num(x + w * 0.8)} {num(y + h)}"
        )
    if t == "amphibious":
        k = w / 8
        d = f"M{num(x + w * 0.15)} {num(cy)}"
        for i in range(4):
            d += f"q{num(k * 0.88)} {num(-h * 0.18 if i % 2 == 0 else h * 0.18)} {num(k * 1.75)} 0"
        lines.append(d)
        extra.append(_oval(x, y, w, h, ink, sw))
    if t == "flail":
        lines.append(f"M{num(x + w * 0.78)} {num(cy)}L{num(x + w * 0.94)} {num(cy)}")
        for k in range(3):
            yy = y + h * (0.35 + 0.15 * k)
            lines.append(f"M{num(x + w * 0.9)} {num(yy)}L{num(x + w * 0.98)} {num(yy)}")
    if t == "outpost":
        extra.append(
            S.path(
                f"M{num(cx - w * 0.14)} {num(y + h * 0.75)}L{num(cx)} {num(y + h * 0.25)}"
                f"L{num(cx + w * 0.14)} {num(y + h * 0.75)}Z",
                fill="none",
                stroke=ink,
                stroke_width=sw,
            )
        )
    if t == "militia":
        lines.append(f"M{num(x + w * 0.3)} {num(cy)}L{num(x + w * 0.7)} {num(cy)}")
    if t == "security":
        extra.append(S.circle(cx, cy, h * 0.14, fill="#ffffff", stroke=ink, stroke_width=sw * 0.8))
    out = ""
    if lines:
        out += S.path(
            "".join(lines),
            fill="none",
            stroke=ink,
            stroke_width=sw,
            stroke_linecap="butt",
            stroke_linejoin="round",
        )
    return out + "".join(extra)


def symbol(
    unit_type: str,
    x: float,
    y: float,
    w: float,
    h: float,
    *,
    ink: str = style.INK,
    fill: str = "#f6f1e1",
) -> str:
    """A framed NATO symbol with its top-left at (x, y)."""
    if unit_type not in UNIT_TYPES:
        raise ValueError(f"no NATO symbol for unit type '{unit_type}'")
    sw = max(0.16, h * 0.055)
    frame = S.rect(x, y, w, h, fill=fill, stroke=ink, stroke_width=sw)
    clip_inside = glyphs(unit_type, x, y, w, h, ink, sw)
    return frame + clip_inside + S.rect(x, y, w, h, fill="none", stroke=ink, stroke_width=sw)


SIZE_MARKS = {
    "team": "Ø",
    "squad": "●",
    "section": "●●",
    "platoon": "●●●",
    "company": "I",
    "battalion": "II",
    "regiment": "III",
    "brigade": "X",
    "division": "XX",
    "corps": "XXX",
    "army": "XXXX",
}


def size_mark(size: str, cx: float, baseline: float, font: float, ink: str = style.INK) -> str:
    """The size mark (II, III, X, XX ...) centred at cx; dots drawn as circles."""
    mark = SIZE_MARKS.get(size, "")
    if not mark:
        return ""
    if "●" in mark:
        n = len(mark)
        r = font * 0.2
        gap = r * 2.8
        x0 = cx - gap * (n - 1) / 2
        return "".join(S.circle(x0 + k * gap, baseline - font * 0.3, r, fill=ink) for k in range(n))
    return S.text(cx, baseline, mark, font, bold=True, fill=ink)
