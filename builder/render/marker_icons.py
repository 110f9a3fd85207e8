"""A small icon set for marker kinds, drawn as vectors: one picture per kind so a player can tell
a bombardment from an air unit without reading. Each icon is designed on a 24-unit grid (like an
icon font) and scaled into the counter; the paths use absolute M/L/Q/C/Z commands only, so scaling
is a change of numbers and needs no transform from the drawing backend."""

from __future__ import annotations

import math
import re

from builder.model.counters import MARKER_KINDS
from builder.render import svg as S
from builder.render.svg import num

# each icon: a list of (how, what): ("fill", d), ("stroke", d, width), ("dot", x, y, r),
# ("ring", x, y, r, width), all in the 24-unit grid


def _star(points: int, r: float, inner: float, spin: float = -90) -> str:
    pts = []
    for k in range(points * 2):
        rr = r if k % 2 == 0 else r * inner
        a = math.radians(spin + 180 / points * k)
        pts.append((12 + rr * math.cos(a), 12 + rr * math.sin(a)))
    return S.poly_d(pts)


def _waves(y: float, x0: float = 1.5, x1: float = 22.5, amp: float = 1.6) -> str:
    """A wavy line across the grid at height y."""
    step = (x1 - x0) / 4
    d = f"M{x0} {y} "
    for k in range(4):
        xa, xb = x0 + step * (k + 0.5), x0 + step * (k + 1)
        d += f"Q{xa} {y - amp if k % 2 == 0 else y + amp} {xb} {y} "
    return d


ICONS: dict[str, list[tuple]] = {
    "aircraft": [
        (
            "fill",
            "M12 2C13 2 13.5 3 13.5 4L13.5 9L22 13L22 15L13.5 13L13.5 18L16 20L16 21.5L12 20.5"
            "L8 21.5L8 20L10.5 18L10.5 13L2 15L2 13L10.5 9L10.5 4C10.5 3 11 2 12 2Z",
        )
    ],
    "glider": [
        (
            "fill",
            "M12 3C12.8 3 13 4 13 5L13 10L23 11L23 12.5L13 12.5L13 18L16 19.5L16 20.5L12 20"
            "L8 20.5L8 19.5L11 18L11 12.5L1 12.5L1 11L11 10L11 5C11 4 11.2 3 12 3Z",
        )
    ],
    "bombardment": [("fill", _star(8, 11.5, 0.45)), ("dot", 12, 12, 2.2, "bg")],
    "support-fire": [
        ("ring", 12, 12, 7, 2),
        ("stroke", "M12 1L12 8M12 16L12 23M1 12L8 12M16 12L23 12", 2),
        ("dot", 12, 12, 1.6),
    ],
    "gas": [
        ("dot", 7.5, 11, 4.5),
        ("dot", 12.5, 8, 5.5),
        ("dot", 17, 11.5, 4.5),
        ("dot", 12, 13, 4),
        ("stroke", _waves(19.5, 3, 21, 1.8), 1.6),
    ],
    "turn": [
        (
            "stroke",
            "M6 2L18 2M6 22L18 22M7 2C7 8 10.5 10 10.5 12C10.5 14 7 16 7 22"
            "M17 2C17 8 13.5 10 13.5 12C13.5 14 17 16 17 22",
            1.8,
        ),
        ("fill", "M9 5L15 5C14.5 8 12.5 9.5 12 10.5C11.5 9.5 9.5 8 9 5Z"),
        ("fill", "M8.5 21L15.5 21C15.5 18.5 12.5 17 12 15C11.5 17 8.5 18.5 8.5 21Z"),
    ],
    "phase": [("ring", 12, 12, 9.5, 2), ("stroke", "M12 12L12 5.5M12 12L16.5 14.5", 2)],
    "sequence": [
        ("dot", 4.5, 5.5, 2),
        ("dot", 4.5, 12, 2),
        ("dot", 4.5, 18.5, 2),
        ("stroke", "M9 5.5L22 5.5M9 12L22 12M9 18.5L22 18.5", 2.4),
    ],
    "out-of-supply": [
        ("stroke", "M6.5 8L17.5 8L17.5 17L6.5 17ZM6.5 11L17.5 11", 1.6),
        ("ring", 12, 12, 10.5, 2),
        ("stroke", "M4.6 19.4L19.4 4.6", 2.2),
    ],
    "chit": [
        ("ring", 12, 12, 10.5, 1.6),
        ("stroke", "M8.5 9C8.5 6 10 4.5 12 4.5C14.5 4.5 16 6 16 8C16 10.5 12 11 12 14.5", 2.6),
        ("dot", 12, 18.5, 1.7),
    ],
    "special-action": [("fill", "M14 1L5 13.5L11 13.5L9 23L19 9.5L13 9.5L14 1Z")],
    "assault-boat": [
        ("fill", "M2 12L22 12L19 17L5 17Z"),
        ("dot", 7.5, 9.3, 1.7),
        ("dot", 12, 9.3, 1.7),
        ("dot", 16.5, 9.3, 1.7),
        ("stroke", _waves(20.5), 1.5),
    ],
    "amphibious": [
        ("fill", "M2 12L22 12L19 17L5 17Z"),
        ("stroke", "M7 12L9 7.5L15 7.5L17 12", 1.8),
        ("stroke", _waves(20.5), 1.5),
    ],
    "naval": [
        ("fill", "M1 14L23 14L20 19L4 19Z"),
        ("fill", "M7 14L7 11L10 11L10 8L15 8L15 11L17 11L17 14Z"),
        ("fill", "M11.5 8L11.5 4.5L13.5 4.5L13.5 8Z"),
        ("stroke", "M17 12.2L21.5 10.5M7 12.2L2.5 10.5", 1.2),
        ("stroke", _waves(21.5, 2, 22, 1.0), 1.2),
    ],
    "control": [
        ("stroke", "M5 2L5 22.5", 2),
        ("fill", "M6 3L20 3L16.5 7.5L20 12L6 12Z"),
    ],
    "losses": [("stroke", "M4 4.5L4 19.5M8.5 4.5L8.5 19.5M13 4.5L13 19.5M17.5 4.5L17.5 19.5", 2),
               ("stroke", "M1.5 17L21 6.5", 2.2)],
    "victory-points": [("fill", _star(5, 11.5, 0.45))],
    "equipment": [
        ("fill", "M2 4L22 4L22 7.5L2 7.5Z"),
        ("stroke", "M3.5 7.5L20.5 7.5L20.5 21L3.5 21ZM3.5 7.5L20.5 21M20.5 7.5L3.5 21", 1.6),
    ],
    "flooded": [("stroke", _waves(6) + _waves(12) + _waves(18), 1.8)],
    "movement": [
        ("fill", "M2 5L6.5 5L13.5 12L6.5 19L2 19L9 12Z"),
        ("fill", "M10.5 5L15 5L22 12L15 19L10.5 19L17.5 12Z"),
    ],
    "canal": [
        ("stroke", "M1 5.5L23 5.5M1 18.5L23 18.5", 2.2),
        ("fill", "M1 3.5L23 3.5L23 5.5L1 5.5ZM1 18.5L23 18.5L23 20.5L1 20.5Z"),
        ("stroke", _waves(10, 2, 22, 1.2) + _waves(14, 2, 22, 1.2), 1.3),
    ],
    "airfield": [
        ("stroke", "M4 22L15 2L20 2L9 22Z", 1.6),
        ("stroke", "M11.6 19.5L12.7 17.5M13.8 15.5L14.9 13.5M16 11.5L17.1 9.5M18.2 7.5L19 6", 1.2),
    ],
    "generic": [("stroke", "M12 2L22 12L12 22L2 12Z", 2), ("fill", "M12 7L17 12L12 17L7 12Z")],
}
ICONS["air-support"] = ICONS["aircraft"]

_NUM = re.compile(r"[A-Za-z]|-?\d*\.?\d+(?:e-?\d+)?")


def _scale_d(d: str, cx: float, cy: float, s: float) -> str:
    """Grid path data -> counter mm: every number pair of an absolute path is a point."""
    k = s / 24
    out, coords = [], []
    for tok in _NUM.findall(d):
        if tok.isalpha():
            out.append(tok)
            continue
        coords.append(float(tok))
        if len(coords) == 2:
            out.append(f"{num(cx + (coords[0] - 12) * k)} {num(cy + (coords[1] - 12) * k)}")
            coords = []
    return "".join(f"{t} " if not t.isalpha() else t for t in out).replace(" Z", "Z").strip()


def icon(kind: str, cx: float, cy: float, s: float, ink: str, bg: str = "none") -> str:
    """The kind's icon, s mm across, centred on (cx, cy), in `ink` (holes in `bg`)."""
    k = s / 24
    out = []
    for part in ICONS.get(kind, ICONS["generic"]):
        how = part[0]
        if how == "fill":
            out.append(S.path(_scale_d(part[1], cx, cy, s), fill=ink))
        elif how == "stroke":
            out.append(
                S.path(
                    _scale_d(part[1], cx, cy, s),
                    fill="none",
                    stroke=ink,
                    stroke_width=num(part[2] * k),
                    stroke_linejoin="round",
                )
            )
        elif how == "dot":
            fill = bg if len(part) > 4 and part[4] == "bg" else ink
            out.append(S.circle(cx + (part[1] - 12) * k, cy + (part[2] - 12) * k, part[3] * k, fill=fill))
        elif how == "ring":
            out.append(
                S.circle(
                    cx + (part[1] - 12) * k,
                    cy + (part[2] - 12) * k,
                    part[3] * k,
                    fill="none",
                    stroke=ink,
                    stroke_width=num(part[4] * k),
                )
            )
    return "".join(out)


def missing_kinds() -> list[str]:
    """Marker kinds without an icon of their own (a test keeps this empty)."""
    return [k for k in MARKER_KINDS if k not in ICONS]
