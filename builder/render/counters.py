"""Counters as SVG: units (NATO symbol, size, id, formation, factors; the depleted back) and
markers (square or round, with their front and back text). Text is always fitted inside."""

from __future__ import annotations

import math

from builder.model.counters import Marker, Unit, printed_factors
from builder.model.game_model import Game
from builder.render import nato, style
from builder.render import svg as S
from builder.render.svg import num

MARK_LABELS = {
    "strategic-reserve": "SR",
    "stacking-bonus": "+1",
    "outpost": "OP",
    "mobile": "M",
    "non-mobile": "NM",
    "elite": "★",
}

MARKER_COLOURS = {  # neutral markers: a colour per kind so a player can sort them at a glance
    "turn": "#e9d8a6",
    "phase": "#e9d8a6",
    "sequence": "#e9d8a6",
    "out-of-supply": "#f2c14e",
    "control": "#d9d9d9",
    "losses": "#d8b4a0",
    "victory-points": "#f0d36b",
    "flooded": "#9cc3e0",
    "aircraft": "#b8c7d9",
    "air-support": "#b8c7d9",
    "bombardment": "#d9a38f",
    "support-fire": "#e4b58f",
    "glider": "#c9d3b5",
    "amphibious": "#a9cbd6",
    "assault-boat": "#a9cbd6",
    "equipment": "#cfc6b0",
    "chit": "#e6e0cf",
    "special-action": "#d7c2e0",
    "generic": "#e6e0cf",
}


def counter_size(game: Game, item: Unit | Marker) -> tuple[float, str]:
    """(edge or diameter in mm, 'square' | 'round') of a counter design."""
    for c in game.info.counter_sizes:
        if c.id == item.counter:
            return c.size, c.shape
    raise KeyError(f"{item.id}: no counter size '{item.counter}' in game.toml counter_sizes")


def unit_colours(game: Game, u: Unit) -> tuple[str, str]:
    """(background, text) of a unit: its formation's colours, else its side's."""
    side = game.sides.get(u.side)
    bg = side.color if side else style.SIDE_FALLBACK
    ink = side.text_color if side else style.INK
    if side and u.formation:
        for f in side.formations:
            if f.id == u.formation:
                bg = f.color or bg
                ink = f.text_color or (ink if f.color is None else style.ink_on(bg))
    return bg, ink


ABBREVIATIONS = {
    "canadian": "Cdn",
    "scottish": "Scot",
    "highland": "Hldr",
    "lowland": "Lowl",
    "armoured": "Armd",
    "armored": "Armd",
    "infantry": "Inf",
    "parachute": "Para",
    "panzer": "Pz",
    "panzergrenadier": "PzG",
    "guards": "Gds",
    "kampfgruppe": "KG",
    "brigade": "Bde",
    "brigades": "Bdes",
    "regiment": "Rgt",
    "battalion": "Bn",
    "independent": "Indep",
    "company": "Coy",
    "fallschirmjäger": "FJ",
    "sturmgruppe": "Stgr",
    "assault": "Aslt",
    "mountain": "Mtn",
    "artillery": "Arty",
    "reconnaissance": "Recce",
    "motorised": "Mot",
    "motorized": "Mot",
    "grenadier": "Gren",
    "polish": "Pol",
    "british": "Brit",
    "commonwealth": "Cwlth",
    "garrison": "Gar",
}
_DROP = {"division", "divisions", "troops", "forces", "the", "of", "and", "for", "in"}


def formation_short(name: str) -> str:
    """A formation name as printed on a counter: '2nd Canadian Infantry Division' -> '2 Cdn'."""
    import re

    main = re.sub(r"\([^)]*\)", " ", name)
    inner = " ".join(re.findall(r"\(([^)]*)\)", name))
    number, words = "", []
    for raw in main.replace("'", " ").split():
        m = re.fullmatch(r"(\d+)(?:st|nd|rd|th)?", raw)
        if m and not number:
            number = m.group(1)
        elif re.fullmatch(r"[IVXL]+", raw) and not number:
            number = raw
        elif raw.lower() not in _DROP:
            words.append(raw)
    nick = inner.split()
    if number and nick and all(w[:1].isupper() for w in nick):  # '15th (Scottish) ...': a nickname
        words = ["".join(w[0] for w in nick) if len(nick) > 1 else nick[0]] + words
    if number and not words:  # '1st Division': the type word is all there is to add
        dropped = [w for w in main.split() if w.lower() in ("division", "divisions")]
        words = ["Div"] if dropped else []
    # a type word goes when something more telling is left ('2nd Canadian Infantry' -> '2 Cdn')
    if len(words) > 1 and words[-1].lower() == "infantry":
        words = words[:-1]
    short = [ABBREVIATIONS.get(w.lower(), w[:1].upper() + w[1:]) for w in words]
    lead = [number] if number else []
    text = " ".join(lead + short[:2])
    if len(text) > 13:
        text = (
            " ".join(lead + short[:1])
            if lead
            else " ".join(s[0] + "." for s in short[:1]) + " " + short[1]
        )
    return text or name


def formation_label(game: Game, u: Unit) -> str:
    """The parent formation as printed on the counter (a short form of its name)."""
    side = game.sides.get(u.side)
    if side and u.formation:
        for f in side.formations:
            if f.id == u.formation:
                return formation_short(f.name)
    return u.formation


def _contrast(a: str, b: str) -> float:
    la, lb = style.luminance(a) + 0.05, style.luminance(b) + 0.05
    return max(la, lb) / min(la, lb)


def _factors(
    parts: list[str],
    red_idx: set[int],
    cx: float,
    baseline: float,
    width: float,
    size: float,
    ink: str,
    bg: str,
    sep: str = "-",
) -> str:
    """Factors '5-7-5' centred at cx, red ones in red (on a white pill on dark or red fills);
    `sep` between them (builder.model.counters.printed_factors)."""
    if not parts:
        return ""
    pieces = []
    for i, p in enumerate(parts):
        if i:
            pieces.append((sep if sep == "-" else f"\u2009{sep}\u2009", False))
        pieces.append((p, i in red_idx))
    total = sum(style.text_width(t, size, True) for t, _ in pieces)
    scale = 1.0
    if total > width:
        size2 = max(size * 0.72, size * width / total)
        total = sum(style.text_width(t, size2, True) for t, _ in pieces)
        size = size2
        scale = min(1.0, width / total * 0.999) if total > width else 1.0
    x = cx - total * scale / 2
    out = []
    pill = _contrast(style.RED_FACTOR, bg) < 2.2
    for t, red in pieces:
        w = style.text_width(t, size, True) * scale
        if red and pill:
            out.append(
                S.rect(
                    x - 0.1,
                    baseline - size * 0.8,
                    w + 0.2,
                    size * 0.95,
                    rx=num(size * 0.2),
                    fill="#ffffff",
                )
            )
        out.append(
            S.text(
                x,
                baseline,
                t,
                size,
                bold=True,
                anchor="start",
                scale_x=scale,
                fill=style.RED_FACTOR if red else ink,
            )
        )
        x += w
    return "".join(out)


def _band_colour(bg: str, ink: str) -> str:
    """The depleted face's band: paler under dark text, deeper under light text."""
    return style.lighter(bg, 0.55) if style.luminance(ink) < 0.5 else style.darker(bg, 0.72)


def _unit_body(game: Game, u: Unit, face: str, c: float) -> str:
    bg, ink = unit_colours(game, u)
    out = [S.rect(0, 0, c, c, fill=bg)]
    back = face == "back"
    if back and not u.two_sided:
        return "".join(out)  # a one-sided counter: its back is plain colour
    pad = c * 0.05
    # the depleted face: a pale band behind the factors tells it apart at a glance
    band = _band_colour(bg, ink)
    if back:
        out.append(S.rect(0, c * 0.68, c, c * 0.32, fill=band))
        out.append(
            S.line(0, c * 0.68, c, c * 0.68, stroke=style.darker(bg, 0.6), stroke_width=0.15)
        )
    # unit id across the top
    id_size = c * 0.135
    out.append(
        S.fitted(
            c / 2,
            pad + style.ASCENT * id_size,
            u.unit,
            c - 2 * pad,
            id_size,
            bold=True,
            fill=ink,
            min_size=id_size * 0.75,
        )
    )
    # NATO symbol with the size mark above it
    bw, bh = c * 0.46, c * 0.28
    bx, by = (c - bw) / 2, c * 0.36
    frame_fill = style.lighter(bg, 0.78)
    out.append(nato.symbol(u.type, bx, by, bw, bh, ink=style.INK, fill=frame_fill))
    mark_size = c * 0.1
    out.append(nato.size_mark(u.size, c / 2, by - c * 0.02, mark_size, ink=ink))
    # parent formation up the left side, special marks down the right
    strip = bx - pad * 0.6
    form = formation_label(game, u)
    if form:
        fsize = min(c * 0.095, strip * 0.8)
        length = bh + c * 0.12
        out.append(
            S.fitted(
                pad * 0.6 + strip * 0.5 + fsize * 0.35,
                by + bh / 2,
                form,
                length,
                fsize,
                rotate=-90,
                fill=ink,
                min_size=fsize * 0.8,
            )
        )
    marks = [MARK_LABELS[m] for m in u.marks]
    if back and u.back_name and u.back_name != "depleted":
        marks.insert(0, u.back_name[:3].upper())
    if marks:
        msize = min(c * 0.085, strip * 0.75)
        mx = bx + bw + pad * 0.2 + strip / 2
        for k, m in enumerate(marks[:3]):
            my = by + msize * 0.9 + k * msize * 1.25
            out.append(S.fitted(mx, my, m, strip, msize, bold=True, fill=ink, min_size=msize * 0.7))
    # factors along the bottom
    text = u.back if back else u.front
    parts, sep = printed_factors(text)
    names = game.info.factor_names
    red_idx = {i for i, n in enumerate(names) if n in u.red and i < len(parts)}
    fsize = c * 0.2
    baseline = c - pad - style.DESCENT * fsize
    out.append(
        _factors(parts, red_idx, c / 2, baseline, c - 2 * pad, fsize, ink, band if back else bg,
                 sep)
    )
    return "".join(out)


# --- markers ---------------------------------------------------------------------------------
def marker_colours(game: Game, mk: Marker) -> tuple[str, str]:
    side = game.sides.get(mk.side)
    if side:
        return side.color, side.text_color
    bg = MARKER_COLOURS.get(mk.kind, "#e6e0cf")
    return bg, style.ink_on(bg)


def _width_at(c: float, round_: bool, top: float, bottom: float, pad: float) -> float:
    """Room for a line of text between heights top..bottom on a counter (chord of a round one)."""
    if not round_:
        return c - 2 * pad
    r = c / 2 - pad
    dy = max(abs(top - c / 2), abs(bottom - c / 2))
    return 2 * math.sqrt(max(0.0, r * r - dy * dy))


def _line(s: str, c: float, round_: bool, baseline: float, size: float, pad: float, **kw) -> str:
    """One line of text fitted to the room at its height (font box = ascent..descent)."""
    if not s:
        return ""
    min_size = kw.pop("min_size", size * 0.6)
    fsize, sx = S.fit(s, 1e9, size)
    for _ in range(6):
        room = _width_at(
            c, round_, baseline - style.ASCENT * fsize, baseline + style.DESCENT * fsize, pad
        )
        w = style.text_width(s, fsize, kw.get("bold", False))
        if w <= room or fsize <= min_size:
            break
        fsize = max(min_size, fsize * room / w * 0.98)
    room = _width_at(
        c, round_, baseline - style.ASCENT * fsize, baseline + style.DESCENT * fsize, pad
    )
    w = style.text_width(s, fsize, kw.get("bold", False))
    sx = min(1.0, room / w * 0.999) if w else 1.0
    return S.text(c / 2, baseline, s, fsize, scale_x=sx, **kw)


def _icon(kind: str, cx: float, cy: float, s: float, ink: str) -> str:
    """A small picture of the marker's kind, s mm across."""
    if kind in ("aircraft", "air-support", "glider"):
        d = (
            f"M{num(cx)} {num(cy - s * 0.5)}L{num(cx + s * 0.08)} {num(cy - s * 0.1)}"
            f"L{num(cx + s * 0.5)} {num(cy + s * 0.05)}L{num(cx + s * 0.5)} {num(cy + s * 0.15)}"
            f"L{num(cx + s * 0.08)} {num(cy + s * 0.1)}L{num(cx + s * 0.06)} {num(cy + s * 0.35)}"
            f"L{num(cx + s * 0.2)} {num(cy + s * 0.45)}L{num(cx - s * 0.2)} {num(cy + s * 0.45)}"
            f"L{num(cx - s * 0.06)} {num(cy + s * 0.35)}L{num(cx - s * 0.08)} {num(cy + s * 0.1)}"
            f"L{num(cx - s * 0.5)} {num(cy + s * 0.15)}L{num(cx - s * 0.5)} {num(cy + s * 0.05)}"
            f"L{num(cx - s * 0.08)} {num(cy - s * 0.1)}Z"
        )
        return S.path(d, fill=ink, opacity="0.85")
    if kind in ("bombardment", "support-fire"):
        pts = []
        for k in range(16):
            r = s * (0.5 if k % 2 == 0 else 0.24)
            a = math.radians(-90 + 22.5 * k)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        return S.polygon(pts, fill=ink, opacity="0.85")
    if kind in ("assault-boat", "amphibious"):
        return S.path(
            f"M{num(cx - s * 0.5)} {num(cy - s * 0.05)}L{num(cx + s * 0.5)} {num(cy - s * 0.05)}"
            f"L{num(cx + s * 0.3)} {num(cy + s * 0.25)}L{num(cx - s * 0.35)} {num(cy + s * 0.25)}Z",
            fill=ink,
            opacity="0.85",
        )
    if kind == "flooded":
        d = "".join(
            f"M{num(cx - s * 0.5)} {num(cy + k * s * 0.22)}q{num(s * 0.125)} {num(-s * 0.14)} "
            f"{num(s * 0.25)} 0t{num(s * 0.25)} 0t{num(s * 0.25)} 0t{num(s * 0.25)} 0"
            for k in (-1, 0, 1)
        )
        return S.path(d, fill="none", stroke=ink, stroke_width=s * 0.07)
    if kind == "out-of-supply":
        return S.circle(cx, cy, s * 0.42, fill="none", stroke=ink, stroke_width=s * 0.08) + S.line(
            cx - s * 0.3,
            cy + s * 0.3,
            cx + s * 0.3,
            cy - s * 0.3,
            stroke=ink,
            stroke_width=s * 0.08,
        )
    if kind in ("victory-points", "control"):
        from builder.render.map_frame import star_d

        return S.path(star_d(cx, cy, s * 0.5), fill=ink, opacity="0.85")
    return ""


KIND_LABELS = {
    "support-fire": "Support fire",
    "bombardment": "Bombardment",
    "aircraft": "Aircraft",
    "air-support": "Air support",
    "out-of-supply": "Out of supply",
    "special-action": "Special action",
    "assault-boat": "Assault boat",
    "victory-points": "Victory points",
    "equipment": "Equipment",
    "flooded": "Flooded",
    "glider": "Glider",
    "amphibious": "Amphibious",
    "control": "Control",
    "losses": "Losses",
}


def _norm(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum() or ch in "+-")


def marker_label(mk: Marker, main: str) -> str:
    """The small line over a marker's text: its name, or its kind when the name only repeats
    the big text ('Allied support fire +2' over '+2' says 'Support fire'; its colour says whose)."""
    if not main or _norm(main) not in _norm(mk.name):
        return mk.name
    label = KIND_LABELS.get(mk.kind, "")
    return "" if _norm(label) == _norm(main) else label


def _marker_body(game: Game, mk: Marker, face: str, c: float, shape: str) -> str:
    bg, ink = marker_colours(game, mk)
    round_ = shape == "round"
    out = [S.circle(c / 2, c / 2, c / 2, fill=bg) if round_ else S.rect(0, 0, c, c, fill=bg)]
    pad = c * (0.07 if round_ else 0.05)
    back = face == "back"
    if back and not mk.back:
        return "".join(out)  # a blank back
    if round_:
        out.append(
            S.circle(
                c / 2,
                c / 2,
                c / 2 - c * 0.035,
                fill="none",
                stroke=style.darker(bg, 0.6),
                stroke_width=c * 0.015,
            )
        )
    main = mk.back if back else mk.front
    name_size = c * 0.12
    name_base = c * (0.27 if round_ else 0.2)
    label = marker_label(mk, main)
    if back:
        out.append(_line(label, c, round_, name_base, name_size, pad, fill=ink, opacity="0.75"))
    else:
        out.append(_line(label, c, round_, name_base, name_size, pad, fill=ink, bold=True))
    icon = _icon(mk.kind, c / 2, c * 0.5, c * 0.34, style.darker(bg, 0.55))
    has_icon = bool(icon) and (not main or len(main) <= 4)
    if has_icon:
        out.append(S.g(icon, opacity="0.45"))
    if main:
        words = S.wrap(main, c * 0.8, c * 0.28, bold=True)
        if len(words) == 1:
            size = c * (0.3 if len(main) <= 4 else 0.2)
            base = c * 0.5 + size * 0.36 + (c * 0.06 if round_ else c * 0.05)
            colour = style.RED_FACTOR if (mk.red and not back) else ink
            out.append(_line(main, c, round_, base, size, pad, fill=colour, bold=True))
        else:
            size = c * 0.14
            lines = S.wrap(main, c * 0.75, size, bold=True)[:3]
            for j, ln in enumerate(lines):
                base = c * 0.47 + (j - (len(lines) - 1) / 2) * size * 1.1 + size * 0.36 + c * 0.04
                out.append(_line(ln, c, round_, base, size, pad, fill=ink, bold=True))
    return "".join(out)


# --- the public drawing ----------------------------------------------------------------------
def find(game: Game, counter_id: str) -> Unit | Marker:
    """The unit or marker with this id."""
    if counter_id in game.unit_by_id:
        return game.unit_by_id[counter_id]
    if counter_id in game.marker_by_id:
        return game.marker_by_id[counter_id]
    raise KeyError(f"no unit or marker '{counter_id}' in {game.slug}")


def counter_body(game: Game, counter_id: str, face: str = "front") -> tuple[str, float, str]:
    """(SVG fragment drawn in a c x c box at the origin, c, shape)."""
    if face not in ("front", "back"):
        raise ValueError(f"face must be 'front' or 'back', not '{face}'")
    item = find(game, counter_id)
    c, shape = counter_size(game, item)
    if isinstance(item, Unit):
        return _unit_body(game, item, face, c), c, "square"
    return _marker_body(game, item, face, c, shape), c, shape


def counter_svg(game: Game, counter_id: str, face: str = "front", bleed: float = 0.0) -> str:
    """One counter face as a standalone SVG exactly its size (plus `bleed` mm of background)."""
    body, c, shape = counter_body(game, counter_id, face)
    if bleed:
        item = find(game, counter_id)
        bg = (unit_colours(game, item) if isinstance(item, Unit) else marker_colours(game, item))[0]
        under = (
            S.circle(c / 2, c / 2, c / 2 + bleed, fill=bg)
            if shape == "round"
            else S.rect(-bleed, -bleed, c + 2 * bleed, c + 2 * bleed, fill=bg)
        )
        body = under + S.g(body)
        body = S.g(body, transform=f"translate({num(bleed)} {num(bleed)})")
    size = c + 2 * bleed
    return S.document(size, size, body, title=f"{counter_id} {face}")
