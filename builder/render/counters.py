"""Counters as SVG: units (NATO symbol, size, id, formation, factors; the depleted back) and
markers (square or round, with their front and back text). Text is always fitted inside."""

from __future__ import annotations

import math
from typing import Callable

from builder.model.counters import Marker, Unit, printed_factors
from builder.model.game_model import Game
from builder.render import marker_icons, nato, style
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
    "naval": "#a9bfd6",
    "movement": "#d6dcb8",
    "canal": "#b5d0d8",
    "airfield": "#c8cfd8",
    "gas": "#d6dca0",
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
    if back and not u.two_sided:  # the rules print no back: the game, the unit's type, its side
        side = game.sides.get(u.side)
        frame_fill = style.lighter(bg, 0.78)

        def picture(y: float, s: float) -> str:
            w, h = s * 1.5, s * 0.95
            return nato.symbol(u.type, (c - w) / 2, y - h / 2, w, h, ink=style.INK, fill=frame_fill)

        out.append(_designed_back(game, c, False, bg, ink, picture, [side.name] if side else []))
        return "".join(out)
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
            min_size=max(SMALLEST, id_size * 0.75),
        )
    )
    # NATO symbol with the size mark above it
    bw, bh = c * 0.46, c * 0.28
    bx, by = (c - bw) / 2, c * 0.36
    frame_fill = style.lighter(bg, 0.78)
    out.append(nato.symbol(u.type, bx, by, bw, bh, ink=style.INK, fill=frame_fill))
    mark_size = max(SMALLEST, c * 0.1)
    out.append(nato.size_mark(u.size, c / 2, by - c * 0.02, mark_size, ink=ink))
    # parent formation up the left side, special marks down the right
    strip = bx - pad * 0.6
    form = formation_label(game, u)
    if form:
        # at least 4 pt, as long as the strip beside the symbol (narrowed, never smaller)
        fsize = max(SMALLEST, min(c * 0.095, strip * 0.8))
        length = bh + c * 0.2
        out.append(
            S.fitted(
                pad * 0.6 + strip * 0.5 + fsize * 0.35,
                by + bh / 2,
                form,
                length,
                fsize,
                rotate=-90,
                fill=ink,
                min_size=fsize,
            )
        )
    marks = [MARK_LABELS[m] for m in u.marks]
    if back and u.back_name and u.back_name != "depleted":
        marks.insert(0, u.back_name[:3].upper())
    if marks:
        msize = max(SMALLEST, min(c * 0.085, strip * 0.75))
        mx = bx + bw + pad * 0.2 + strip / 2
        for k, m in enumerate(marks[:3]):
            my = by + msize * 0.9 + k * msize * 1.25
            out.append(S.fitted(mx, my, m, strip, msize, bold=True, fill=ink, min_size=msize))
    # factors along the bottom
    text = u.back if back else u.front
    parts, sep = printed_factors(text)
    names = game.factor_names_of(u, "back" if back else "front")
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
    sx = max(0.55, min(1.0, room / w * 0.999)) if w else 1.0  # never squeezed to a hairline
    return S.text(c / 2, baseline, s, fsize, scale_x=sx, **kw)


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
    "naval": "Naval",
    "movement": "Movement",
    "canal": "Canal",
    "airfield": "Airfield",
    "gas": "Gas",
    "turn": "Turn",
    "phase": "Phase",
    "sequence": "Sequence",
    "chit": "Chit",
    "generic": "Marker",
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


MIN_TEXT = 5 * 25.4 / 72  # 5 pt in mm: the smallest text a player reads on a counter
SMALLEST = 4 * 25.4 / 72  # 4 pt: the floor of any counter text (a formation up the side)


def short_title(game: Game) -> str:
    """The game's title as a counter back prints it ('Europa: Special Terrain Rules' -> 'Europa')."""
    return game.info.title.split(":")[0].strip()


def _lines_fit(lines: list[str], width: float, size: float, bold: bool) -> bool:
    return all(style.text_width(ln, size, bold) <= width * 1.08 for ln in lines)


def _wrapped(text: str, width: float, size: float, bold: bool, most: int) -> list[str] | None:
    """text wrapped to at most `most` lines of `width` mm at `size` (a little narrowing allowed),
    or None when it does not fit."""
    lines = S.wrap(text, width, size, bold=bold)
    return lines if len(lines) <= most and _lines_fit(lines, width, size, bold) else None


Row = tuple  # ('text', line, size, bold) or ('icon', picture, size, None)


def _stack(c: float, rows: list[Row], gap: float) -> list[tuple[Row, float]]:
    """Rows stacked and centred vertically: (row, y), y a text baseline or a picture's centre."""
    heights = [r[2] * 1.1 if r[0] == "text" else r[2] for r in rows]
    y = (c - sum(heights) - gap * max(0, len(rows) - 1)) / 2
    out = []
    for r, h in zip(rows, heights):
        out.append((r, y + r[2] * (style.ASCENT + 0.04) if r[0] == "text" else y + h / 2))
        y += h + gap
    return out


def _fits(stack: list[tuple[Row, float]], c: float, round_: bool, pad: float) -> bool:
    """Every line within the counter's width at its height (a round one's chord), the whole
    stack within the face, and no text below 5 pt."""
    for r, y in stack:
        if r[0] == "text":
            top, bottom = y - style.ASCENT * r[2], y + style.DESCENT * r[2]
            room = _width_at(c, round_, top, bottom, pad)
            if r[2] < MIN_TEXT * 0.999 or style.text_width(r[1], r[2], r[3]) > room * 1.1:
                return False
        else:
            top, bottom = y - r[2] / 2, y + r[2] / 2
            if _width_at(c, round_, top, bottom, pad) < r[2] * 0.75:
                return False
        if top < pad * 0.5 or bottom > c - pad * 0.5:
            return False
    return True


def _best_stack(c: float, round_: bool, pad: float, gap: float, layouts: list[list[Row]]):
    """The first layout that fits the face (the last one when none does)."""
    for rows in layouts:
        stack = _stack(c, rows, gap)
        if _fits(stack, c, round_, pad):
            return stack
    return _stack(c, layouts[-1], gap)


def _draw_stack(stack, c: float, round_: bool, pad: float, ink: str, red: bool = False) -> str:
    out = []
    for r, y in stack:
        if r[0] == "icon":
            out.append(r[1](y, r[2]))
        else:
            colour = style.RED_FACTOR if red and r[2] >= c * 0.14 else ink
            out.append(_line(r[1], c, round_, y, r[2], pad, fill=colour, bold=r[3],
                             min_size=min(r[2], MIN_TEXT)))
    return "".join(out)


def _main_lines(main: str, width: float, c: float) -> tuple[list[str], float]:
    """The marker's main text: one big line when short ('+2', 'SC'), else up to three lines."""
    if len(main) <= 4:
        return [main], c * 0.3
    size = max(MIN_TEXT * 1.12, c * 0.15)
    while size > MIN_TEXT:
        lines = _wrapped(main, width, size, True, 3)
        if lines:
            return lines, size
        size = max(MIN_TEXT, size * 0.94)
        if size == MIN_TEXT:
            break
    return S.wrap(main, width, MIN_TEXT, bold=True)[:3], MIN_TEXT


def _icon_sizes(c: float) -> list[float]:
    return [c * k for k in (0.42, 0.36, 0.3, 0.25, 0.2)]


def _marker_face(mk: Marker, main: str, c: float, round_: bool, bg: str, ink: str, back: bool):
    """A marker face with text: its name (small), its kind's icon, its main text (big)."""
    pad = c * (0.08 if round_ else 0.05)
    width = c - 2 * pad if not round_ else c * 0.72
    lines, msize = _main_lines(main, width, c) if main else ([], 0.0)
    lsize = max(MIN_TEXT, c * 0.115)
    label = marker_label(mk, main)
    labels = []
    if label:
        labels.append(_wrapped(label, width, lsize, not back, 2))
    if len(main) <= 4:  # a long name: its kind says enough over a '+2'
        kind = KIND_LABELS.get(mk.kind, "")
        if kind and _norm(kind) != _norm(main):
            labels.append([kind])
    labels = [ln for ln in labels if ln] + [[]]
    icon_ink = style.darker(bg, 0.5)

    def picture(y: float, s: float) -> str:
        return marker_icons.icon(mk.kind, c / 2, y, s, icon_ink, bg)

    main_rows = [("text", ln, msize, True) for ln in lines]
    layouts = [
        [("text", ln, lsize, not back) for ln in label_lines] + [("icon", picture, s, None)]
        + main_rows
        for label_lines in labels
        for s in _icon_sizes(c)
    ]
    stack = _best_stack(c, round_, pad, c * 0.035, layouts)
    return _draw_stack(stack, c, round_, pad, ink, red=mk.red and not back)


# words a title may lose on a small back and still name its game ('Battle of the Scheldt')
_LEADING = {"a", "an", "the", "of", "battle", "battles", "operation", "campaign", "for", "at",
            "on", "in", "to"}


def _title_lines(game: Game, width: float) -> list[list[str]]:
    """The game's short title as a back may print it, longest first: whole in one or two lines,
    else its last words ('Battle of the Scheldt' -> 'Scheldt')."""
    words = short_title(game).split()
    out = []
    for k in range(len(words)):
        tail = " ".join(words[k:])
        if k and (not tail[:1].isupper() or not all(w.casefold() in _LEADING for w in words[:k])):
            continue  # 'Vimy Ridge' is never printed 'Ridge': only words that name no place go
        for most in (1, 2):
            lines = _wrapped(tail, width, MIN_TEXT, True, most)
            if lines:
                out.append(lines)
    return out + [[]]


def _designed_back(
    game: Game,
    c: float,
    round_: bool,
    bg: str,
    ink: str,
    picture: Callable[[float, float], str],
    caption: list[str],
) -> str:
    """A back where the rules print none: a frame, the game's title, a picture (drawn by
    picture(centre y, size)) and the first caption that fits."""
    pad = c * (0.08 if round_ else 0.06)
    width = c - 2 * pad if not round_ else c * 0.72
    frame = style.darker(bg, 0.62)
    out = [
        S.circle(c / 2, c / 2, c / 2 - c * 0.05, fill="none", stroke=frame, stroke_width=c * 0.02)
        if round_
        else S.rect(c * 0.05, c * 0.05, c * 0.9, c * 0.9, fill="none", stroke=frame,
                    stroke_width=c * 0.02)
    ]
    captions = [_wrapped(t, width, MIN_TEXT, False, 2) for t in caption] + [[]]
    captions = [x for x in captions if x is not None]
    layouts = [
        [("text", t, MIN_TEXT, True) for t in title] + [("icon", picture, s, None)]
        + [("text", t, MIN_TEXT, False) for t in cap]
        for cap in captions
        for title in _title_lines(game, width)
        for s in _icon_sizes(c)[1:]
    ]
    out.append(_draw_stack(_best_stack(c, round_, pad, c * 0.04, layouts), c, round_, pad, ink))
    return "".join(out)


def back_colours(game: Game, item: Unit | Marker) -> tuple[str, str]:
    """(background, text) of a counter's back: a marker drawn from a deck shows the deck's colour
    (neutral when the deck mixes sides), so no back tells what its front is before the draw."""
    if isinstance(item, Unit):
        return unit_colours(game, item)
    deck = next((d for d in game.info.decks if d.id == item.deck), None)
    if deck and not item.back:
        side = game.sides.get(deck.side)
        if side:
            return side.color, side.text_color
        return "#d9d2bf", style.INK
    return marker_colours(game, item)


def _marker_body(game: Game, mk: Marker, face: str, c: float, shape: str) -> str:
    back = face == "back"
    bg, ink = back_colours(game, mk) if back else marker_colours(game, mk)
    round_ = shape == "round"
    out = [S.circle(c / 2, c / 2, c / 2, fill=bg) if round_ else S.rect(0, 0, c, c, fill=bg)]
    if round_:
        out.append(
            S.circle(c / 2, c / 2, c / 2 - c * 0.035, fill="none", stroke=style.darker(bg, 0.6),
                     stroke_width=c * 0.015)
        )
    if back and not mk.back:
        deck = next((d for d in game.info.decks if d.id == mk.deck), None)
        kinds = {m.kind for m in game.markers if deck and m.deck == deck.id} or {mk.kind}
        kind = mk.kind if len(kinds) == 1 else "chit"
        caption = [deck.name if deck else mk.name, KIND_LABELS.get(kind, "Marker")]
        icon_ink = style.darker(bg, 0.5)

        def picture(y: float, s: float) -> str:
            return marker_icons.icon(kind, c / 2, y, s, icon_ink, bg)

        out.append(_designed_back(game, c, round_, bg, ink, picture, caption))
        return "".join(out)
    main = mk.back if back else mk.front
    out.append(_marker_face(mk, main, c, round_, bg, ink, back))
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
        if face == "back":
            bg = back_colours(game, item)[0]
        else:
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
