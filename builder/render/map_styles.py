"""How each terrain and hexside type looks on the printed map, and which two look alike.

A player finds the terrain a rule depends on from the map and its legend alone, printed in
colour or in greyscale. So every two types a map shows must differ in colour (CIEDE2000 distance)
AND in something that survives greyscale: their pattern or symbol, or their lightness.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from builder.model.game_model import Game
from builder.model.maps import AreaMap
from builder.render import map_symbols

MIN_DELTA_E = 8.0  # CIEDE2000: 2 is a just-noticeable difference; 8 tells two fills apart at once
MIN_GREY_STEP = 10.0  # L* difference that separates two plain fills printed in greyscale


@dataclass(frozen=True)
class Look:
    kind: str  # "terrain" or "hexside"
    id: str
    name: str
    colour: str
    mark: str  # the pattern, symbol or line style drawn: what greyscale keeps


def looks(game: Game) -> list[Look]:
    """The look of every terrain and hexside type this map shows."""
    m = game.map
    if isinstance(m, AreaMap):
        used = {t for s in m.sectors for t in s.terrain}
    else:
        used = game.terrain_used
    out = [
        Look("terrain", t.id, t.name, t.color, t.pattern or "plain")
        for t in m.terrain_types
        if t.id in used
    ]
    if not isinstance(m, AreaMap):
        variants = map_symbols.style_variants(m.hexside_types)
        drawn = {h.type for h in m.hexsides}
        out += [
            Look("hexside", t.id, t.name, t.color, f"{t.style}/{variants[t.id]}")
            for t in m.hexside_types
            if t.id in drawn
        ]
    return out


def look_alikes(game: Game) -> list[str]:
    """'A and B: why' for every two types of one kind a player could mistake for each other."""
    items = looks(game)
    out = []
    for i, a in enumerate(items):
        for b in items[i + 1 :]:
            if a.kind != b.kind:
                continue
            why = _alike(a, b)
            if why:
                out.append(f"{a.kind}s '{a.name}' ({a.id}) and '{b.name}' ({b.id}): {why}")
    return out


def _alike(a: Look, b: Look) -> str:
    de = delta_e(a.colour, b.colour)
    if de < MIN_DELTA_E:
        return (f"colours {a.colour} and {b.colour} differ by only {de:.1f} "
                f"(CIEDE2000, need {MIN_DELTA_E:g})")
    step = abs(lab(a.colour)[0] - lab(b.colour)[0])
    if a.mark == b.mark and step < MIN_GREY_STEP:
        return (
            f"same pattern '{a.mark}' and lightness {step:.1f} apart in greyscale "
            f"(need another pattern or {MIN_GREY_STEP:g})"
        )
    return ""


def lab(colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB '#rrggbb'."""
    rgb = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    x = (0.4124 * lin[0] + 0.3576 * lin[1] + 0.1805 * lin[2]) / 0.95047
    y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    z = (0.0193 * lin[0] + 0.1192 * lin[1] + 0.9505 * lin[2]) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(c1: str, c2: str) -> float:
    """CIEDE2000 colour difference of two sRGB colours."""
    l1, a1, b1 = lab(c1)
    l2, a2, b2 = lab(c2)
    cbar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cbar**7 / (cbar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0
    if c1p * c2p:
        dh = h2p - h1p
        if dh > 180:
            dh -= 360
        elif dh < -180:
            dh += 360
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lbar, cbarp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbar = (h1p + h2p) / 2
    else:
        hbar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hbar - 30))
        + 0.24 * math.cos(math.radians(2 * hbar))
        + 0.32 * math.cos(math.radians(3 * hbar + 6))
        - 0.20 * math.cos(math.radians(4 * hbar - 63))
    )
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc = 1 + 0.045 * cbarp
    sh = 1 + 0.015 * cbarp * t
    rt = (
        -2
        * math.sqrt(cbarp**7 / (cbarp**7 + 25**7))
        * math.sin(math.radians(60 * math.exp(-(((hbar - 275) / 25) ** 2))))
    )
    return math.sqrt(
        (dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh)
    )
