"""Player-aid cards drawn from the model's data: every table (by its kind), the terrain effects
chart, the sequence of play, the turn record and per-turn tracks, set-up and reinforcements."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import partial

from builder import words
from builder.model.game_model import Game
from builder.model.tables import parse_band
from builder.render import style
from builder.render import svg as S
from builder.render.grid import Cell, Grid, Row
from builder.render.svg import num
from builder.views import key_label

TEXT = 2.5
TITLE_H = 6.5


@dataclass
class Para:
    """Lines of text under or between tables (notes, legends, rules reminders)."""

    lines: list[tuple[str, bool]]  # (text, bold)
    size: float = 2.3
    colour: str = style.INK


@dataclass
class Card:
    title: str
    parts: list = field(default_factory=list)
    subtitle: str = ""
    colour: str = "#4a4538"


# --- helpers ---------------------------------------------------------------------------------
def _h(*texts: str) -> list[Cell]:
    return [Cell(t, bold=True) for t in texts]


def _notes(t) -> list[Para]:
    out = []
    if t.legend:
        out.append(Para([("Key", True)] + [(f"{k}: {v}", False) for k, v in t.legend.items()]))
    if t.notes:
        out.append(Para([(f"• {n}", False) for n in t.notes]))
    return out


def _words(game: Game, t) -> list[Para]:
    """What the table says in sentences (builder.words): how it is read, its listed shifts and
    modifiers, and its rules, each under its heading."""
    out = []
    settings = words.settings(game, t)
    if settings:
        out.append(Para([(text, False) for text in settings]))
    for title, lines in (("Column shifts", [words.shift(game, t, s) for s in getattr(t, "shifts", ())]),
                         ("Modifiers", [words.modifier(game, t, m)
                                        for m in getattr(t, "modifiers", ())]),
                         ("Rules", words.rules(game, t))):
        if lines:
            out.append(Para([(title, True)] + [(text, False) for text in lines]))
    return out


def subtitle(t) -> str:
    """A card's header note: the rule it comes from and the dice it rolls ('17.5 · roll 1d6');
    of a long list of sources, the first (the header has room for a few words only)."""
    dice = getattr(t, "dice", "")
    rule = t.source if len(t.source) <= 14 else t.source.split(",")[0]
    return " · ".join(x for x in (rule if len(rule) <= 14 else "", f"roll {dice}" if dice else "")
                      if x)


def _roll_rows(results: dict, dice: str) -> list[str]:
    return sorted(results, key=lambda k: int(k) if k.lstrip("-").isdigit() else 999)


def _result_cell(text: str) -> Cell:
    return Cell(text or "—", colour=_result_colour(text))


def _result_colour(text: str) -> str:
    t = text.strip()
    if t.startswith("D"):
        return "#1d4f91"
    if t.startswith(("A", "(A")):
        return "#9b1c1c"
    return style.INK


# --- table cards, one builder per kind --------------------------------------------------------
def _differential(game: Game, t) -> Card:
    cols = [str(i + 1) for i in range(t.columns)]
    header = [[Cell("Terrain", bold=True, align="start")] + [Cell(c, bold=True) for c in cols]]
    rows = []
    for r in t.terrain_rows:
        cells = [Cell(r.name, bold=True, align="start")]
        for i in range(t.columns):
            band = r.differentials[i] if i < len(r.differentials) else ""
            cells.append(Cell(_band_text(band), fill="#efe6cc" if band else None))
        rows.append(cells)
    rows.append(
        [Cell(f"Roll ({t.dice})", bold=True, align="start", fill=style.TABLE_HEAD)]
        + [Cell("", fill=style.TABLE_HEAD) for _ in cols]
    )
    for roll in _roll_rows(t.results, t.dice):
        rows.append([Cell(roll, bold=True)] + [_result_cell(v) for v in t.results[roll]])
    grid = Grid(header, rows, wrap_cols={0})
    return Card(t.name, [grid] + _words(game, t) + _notes(t), subtitle(t))


def _band_text(band: str) -> str:
    if not band:
        return ""
    lo, hi = parse_band(band)
    if hi == float("inf"):
        return f"{int(lo):+d}+" if lo else "0+"
    if lo == float("-inf"):
        return f"{int(hi):+d}−" if hi else "0−"
    if lo == hi:
        return f"{int(lo):+d}" if lo else "0"
    return f"{int(lo):+d}/{int(hi):+d}"


def _dice_grid(t, columns, cell) -> tuple[list, list]:
    """Header and rows of a dice-down, columns-across table (ratio and fire cards)."""
    header = [[Cell(f"Roll ({t.dice})", bold=True)] + [Cell(c, bold=True) for c in columns]]
    rows = [
        [Cell(roll, bold=True)] + [cell(v) for v in t.results[roll]]
        for roll in _roll_rows(t.results, t.dice)
    ]
    return header, rows


def _ratio(game: Game, t) -> Card:
    header, rows = _dice_grid(t, t.columns, _result_cell)
    return Card(t.name, [Grid(header, rows)] + _words(game, t) + _notes(t), subtitle(t))


def _fire(game: Game, t) -> Card:
    """Columns by firepower (or one column), rows by the roll, or the modified roll when the
    table has modifiers (the end rows read 'or less' / 'or more'), natural rolls apart."""
    modified = bool(t.modifiers or any(r.effect == "drm" for r in t.rules))
    columns = [f"[{b}]" if t.exact_bands else b for b in t.bands] or ["Result"]
    header = [[Cell(f"{'Modified roll' if modified else 'Roll'} ({t.dice})", bold=True)]
              + [Cell(c, bold=True) for c in columns]]
    keys = _roll_rows(t.results, t.dice)
    rows = []
    for k, roll in enumerate(keys):
        label = roll + (" or less" if modified and k == 0 else
                        " or more" if modified and k == len(keys) - 1 else "")
        rows.append([Cell(label, bold=True)] + [_result_cell(v) for v in t.results[roll]])
    parts: list = [Grid(header, rows)]
    if t.natural:
        parts.append(Grid([_h("Natural roll", "Result, whatever the modifiers")],
                          [[Cell(k, bold=True), Cell(v)] for k, v in t.natural.items()]))
    return Card(t.name, parts + _words(game, t) + _notes(t), subtitle(t))


def _modified(game: Game, t) -> Card:
    header = [_h("Modified roll", "Result")]
    rows = []
    for roll in _roll_rows(t.results, t.dice):
        rows.append([Cell(roll, bold=True), _result_cell(t.results[roll])])
    parts = [Grid(header, rows)]
    if t.natural:
        parts.append(
            Grid(
                [_h("Natural roll", "Result, whatever the modifiers")],
                [[Cell(k, bold=True), Cell(v)] for k, v in t.natural.items()],
            )
        )
    return Card(t.name, parts + _words(game, t) + _notes(t), subtitle(t))


def _lookup(game: Game, t) -> Card:
    key = f"Roll ({t.dice})" if t.dice else next((i.name for i in t.inputs if i.id == t.key), t.key)
    has_detail = any(e.detail for e in t.entries)
    header = [_h(key, "Result", *(["Detail"] if has_detail else []))]
    rows = []
    for e in t.entries:
        when = words.entry(t, e.when)
        row = [Cell(when, bold=True), Cell(e.result, align="start")]
        if has_detail:
            row.append(Cell(e.detail, align="start"))
        rows.append(row)
    grid = Grid(header, rows, wrap_cols={1, 2} if has_detail else {1})
    return Card(t.name, [grid] + _words(game, t) + _notes(t), subtitle(t))


def _chart(game: Game, t) -> Card:
    header = [[Cell(c, bold=True, align="start") for c in t.columns]]
    rows = [[Cell(v, align="start") for v in r] for r in t.rows]
    grid = Grid(header, rows, wrap_cols=set(range(len(t.columns))))
    return Card(t.name, [grid] + _notes(t), subtitle(t))


def _map_rule(game: Game, t) -> Card:
    """Map rules (range, line of sight): their settings as sentences."""
    return Card(t.name, _words(game, t) + _notes(t), subtitle(t))


BUILDERS = {
    "differential": _differential,
    "ratio": _ratio,
    "fire": _fire,
    "modified-roll": _modified,
    "lookup": _lookup,
    "chart": _chart,
}


def table_card(game: Game, t) -> Card:
    """The card of one table, whatever its kind."""
    return BUILDERS.get(t.kind, _map_rule)(game, t)


# --- game cards ------------------------------------------------------------------------------
def _swatch_draw(tt):
    def draw(x: float, y: float, w: float, h: float) -> str:
        from builder.render.map_panel import _swatch

        size = min(h, w / 1.25)
        return _swatch(tt, x, y + (h - size) / 2, size)

    return draw


def terrain_card(game: Game) -> Card | None:
    """Terrain effects chart: terrain, hexsides and lines with what each does."""
    m = game.map
    keys: list[str] = []
    items = (
        list(m.terrain_types)
        + list(getattr(m, "hexside_types", ()))
        + list(getattr(m, "line_types", ()))
    )
    for it in items:
        for k in it.effects:
            if k not in keys:
                keys.append(k)
    if not items:
        return None

    def title(k: str) -> str:
        return words.effect_heading(game, k)

    values = [_effect(it.effects[k]) for it in items for k in it.effects]
    # many effects, or effects in words: one 'Effects' column listing each, not a sparse grid
    listed = len(keys) > 6 or (values and sum(len(v) for v in values) / len(values) > 14)
    if listed:
        header = [
            [
                Cell("", bold=True),
                Cell("Terrain", bold=True, align="start"),
                Cell("Effects", bold=True, align="start"),
            ]
        ]
    else:
        header = [
            [Cell("", bold=True), Cell("Terrain", bold=True, align="start")]
            + [Cell(title(k), bold=True) for k in keys]
        ]
    rows = []
    for it in items:
        if hasattr(it, "pattern"):
            pic = Cell(draw=_swatch_draw(it), draw_w=8.0)
        elif hasattr(it, "style") and it in getattr(m, "hexside_types", ()):
            pic = Cell(draw=_side_draw(game, it), draw_w=8.0)
        else:
            pic = Cell(draw=_line_draw(game, it), draw_w=8.0)
        if listed:
            text = "\n".join(f"{title(k)}: {_effect(v)}" for k, v in it.effects.items()) or "—"
            rows.append([pic, Cell(it.name, bold=True, align="start"), Cell(text, align="start")])
        else:
            rows.append(
                [pic, Cell(it.name, bold=True, align="start")]
                + [Cell(_effect(it.effects.get(k))) for k in keys]
            )
    grid = Grid(
        header,
        rows,
        wrap_cols={1, 2} if listed else {1} | set(range(2, 2 + len(keys))),
        col_min=[0.0, 24.0],
    )
    notes = [(f"{it.name}: {it.note}", False) for it in items if it.note and not it.assumed]
    parts = [grid]
    if notes:
        parts.append(Para([("Notes", True)] + notes))
    return Card("Terrain Effects Chart", parts, "terrain, hexsides and lines")


def _effect(v) -> str:
    return "—" if v is None else words.effect_value(v)


def _side_draw(game: Game, ht):
    def draw(x, y, w, h):
        from builder.render.map_panel import _hexside_sample

        return _hexside_sample(game, ht, x, y, min(h, w / 1.3))

    return draw


def _line_draw(game: Game, lt):
    def draw(x, y, w, h):
        from builder.render.map_panel import _line_sample

        return _line_sample(game, lt, x, y, min(h, w / 1.3))

    return draw


_ENUMERATED = re.compile(r"^\(?(?:[A-Za-z]|\d{1,2}|[ivxIVX]{1,4})[.)]\s")


def _deck_name(game: Game, deck_id: str) -> str:
    """A deck as a player knows it: its name, not its id."""
    return next((d.name for d in game.info.decks if d.id == deck_id), key_label(deck_id))


def _track_words(sc, text: str) -> str:
    """'per track allied-support-draws' -> 'as the Allied support fire draws track shows'."""
    for tr in sc.tracks:
        if text.strip() == f"per track {tr.id}":
            return f"as the {tr.name} track shows,"
        text = text.replace(tr.id, tr.name)
    return text


def _ranges(numbers: list[int]) -> list[str]:
    """[2, 3, 4, 7] -> ['2-4', '7']."""
    out: list[str] = []
    for n in sorted(set(numbers)):
        if out and int(out[-1].split("-")[-1]) == n - 1:
            out[-1] = f"{out[-1].split('-')[0]}-{n}"
        else:
            out.append(str(n))
    return out


def when_played(game: Game, skipped: tuple[int, ...]) -> str:
    """When a phase skipped on some turns is played, as ranges: 'turn 1 only', 'not on turn 1',
    'turns 2-15 only', 'not on turns 3-5, 9'."""
    t = game.info.turns
    played = [n for n in range(t.first, t.first + t.count) if n not in skipped]
    on, off = _ranges(played), _ranges(list(skipped))
    if len(on) == 1 and (len(on) < len(off) or len(played) < len(skipped)):
        many = "-" in on[0]
        return f"turn{'s' if many else ''} {on[0]} only"
    many = len(skipped) > 1
    return f"not on turn{'s' if many else ''} {', '.join(off)}"


def sequence_card(game: Game) -> Card | None:
    seq = game.info.sequence
    if not seq:
        return None
    rows = []
    for i, ph in enumerate(seq, 1):
        side = game.sides.get(ph.side)
        text = ph.name
        if ph.skip_on_turns and not re.search(r"\bturns? \d", ph.name):  # unless it says so
            text += f" ({when_played(game, ph.skip_on_turns)})"
        # steps the rules already letter or number ('A. Move ...') keep their own enumeration
        numbered = all(_ENUMERATED.match(st) for st in ph.steps)
        steps = "\n".join(st if numbered else f"{chr(97 + k)}. {st}" for k, st in enumerate(ph.steps))
        rows.append(
            [
                Cell(str(i), bold=True),
                Cell(
                    side.name if side else "Both",
                    fill=side.color if side else None,
                    colour=style.ink_on(side.color) if side else style.INK,
                ),
                Cell(text, bold=True, align="start"),
                Cell(steps, align="start"),
            ]
        )
    grid = Grid([_h("#", "Side", "Phase", "Steps")], rows, wrap_cols={2, 3})
    return Card("Sequence of Play", [grid])


def _turn_label(game: Game, n: int) -> str:
    """What the record prints under a turn's number: its name, else its date and period; nothing
    when that only repeats the number."""
    d = next((x for x in game.info.turns.detail if x.number == n), None)
    if d is None:
        return ""
    text = d.name or " ".join(x for x in (d.date, d.period) if x)
    return "" if text.strip() == str(n) else text


def turn_card(game: Game) -> Card:
    """The turn record: each turn's date or period, night turns, what happens on it (keyed to the
    notes below) and each scenario's per-turn track values, turns across (in blocks of 15) so
    a long game reads like the printed track. A row shows only when every turn has its entry,
    so the record has no gaps."""
    from builder.render.map_panel import track_rows

    t = game.info.turns
    detail = {d.number: d for d in t.detail}
    tracks = track_rows(game)
    turns = list(range(t.first, t.first + t.count))
    labels = {n: _turn_label(game, n) for n in turns}
    has_label = all(labels.values())
    events = {n: detail[n].text for n in turns if n in detail and detail[n].text}
    parts: list = []
    per = -(-len(turns) // -(-len(turns) // 15))  # blocks of at most 15, all the same length
    for start in range(0, len(turns), per):
        block = turns[start : start + per]
        nights = [bool(detail.get(n) and detail[n].night) for n in block]

        def cell(text: str, k: int, bold: bool = False, nights=nights) -> Cell:
            return Cell(
                text,
                bold=bold,
                fill=style.NIGHT if nights[k] else None,
                colour=style.NIGHT_TEXT if nights[k] else style.INK,
            )

        header = [
            [Cell("Turn", bold=True, align="start")]
            + [cell(str(n), k, True) for k, n in enumerate(block)]
        ]
        rows = []
        if has_label:
            rows.append([Cell("Date", bold=True, align="start")]
                        + [cell(labels[n], k) for k, n in enumerate(block)])
        if any(nights):
            rows.append(
                [Cell("Night", bold=True, align="start")]
                + [cell("☾" if nights[k] else "", k) for k in range(len(block))]
            )
        if events:
            rows.append(
                [Cell("Events", bold=True, align="start")]
                + [cell("◆" if n in events else "", k, True) for k, n in enumerate(block)]
            )
        for tr in tracks:
            vals = []
            for k, n in enumerate(block):
                idx = n - t.first
                v = tr.per_turn[idx] if idx < len(tr.per_turn) else None
                vals.append(cell("—" if v is None else str(v), k, True))
            rows.append([Cell(tr.name, bold=True, align="start")] + vals)
        parts.append(Grid(header, rows, wrap_cols=set(range(len(block) + 1)), stripes=False))
    notes = [(f"◆ Turn {n}: {text}", False) for n, text in events.items()]
    if tracks:
        notes += [
            (f"{tr.name}: per turn, from the scenario" + (f" ({tr.source})" if tr.source else ""),
             False)
            for tr in tracks
        ]
    if notes:
        parts.append(Para(notes))
    return Card("Turn Record", parts, f"{t.count} turns")


def _where(game: Game, at: str) -> str:
    return words.location(game, at)


def _either(items: list[str]) -> str:
    """'a', 'a or b', 'a, b or c'."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def _unit_name(game: Game, uid: str) -> tuple[str, str]:
    """(printed name, side id) of a unit or marker id."""
    if uid in game.unit_by_id:
        u = game.unit_by_id[uid]
        size = f" {u.size}" if u.size else ""
        return f"{u.unit} ({u.type.replace('-', ' ')}{size})", u.side
    if uid in game.marker_by_id:
        mk = game.marker_by_id[uid]
        return mk.name, mk.side
    return uid, ""


def setup_cards(game: Game) -> list[Card]:
    cards = []
    ranks = {sid: i for i, sid in enumerate(game.sides)}  # rows by side, in game.toml's order
    for sc in game.scenarios:
        parts: list = []
        if sc.description:
            parts.append(Para([(sc.description, False)]))
        if sc.setup:
            rows = []
            named = {p.unit: _unit_name(game, p.unit) for p in sc.setup}  # a campaign's 3,600
            for p in sorted(
                sc.setup, key=lambda p: (ranks.get(named[p.unit][1], len(ranks)), p.line)
            ):
                name, side = named[p.unit]
                s = game.sides.get(side)
                if p.face == "back":
                    item = game.unit_by_id.get(p.unit) or game.marker_by_id.get(p.unit)
                    name += f", {getattr(item, 'back_name', '') or 'back'} side up"
                where = _where(game, p.at)
                if p.code:
                    where += f" [{p.code}]"
                if p.also:
                    where = _either([where] + [_where(game, a) for a in p.also])
                if p.within:
                    where += f" (or within {p.within} hex{'es' if p.within > 1 else ''})"
                if p.region:
                    reg = next(
                        (r.name for r in getattr(game.map, "regions", ()) if r.id == p.region),
                        p.region,
                    )
                    where += f"; anywhere in {reg}"
                if p.instruction:
                    where += f". {p.instruction}"
                rows.append(
                    [
                        Cell(
                            s.name if s else "",
                            fill=s.color if s else None,
                            colour=style.ink_on(s.color) if s else style.INK,
                        ),
                        Cell(name, align="start"),
                        Cell(where, align="start"),
                    ]
                )
            parts.append(Grid([_h("Side", "Unit", "Sets up in")], rows, wrap_cols={1, 2}))
        if sc.setup_note:
            parts.append(Para([("Set-up", True), (sc.setup_note, False)]))
        turns = f"turns {sc.turns[0]}-{sc.turns[1]}" if sc.turns else ""
        cards.append(Card(f"Set-up: {sc.name}", parts, turns))
        if sc.reinforcements or sc.withdrawals or sc.allowances or sc.draws:
            parts = []
            if sc.reinforcements:
                rows = []
                for r in sorted(sc.reinforcements, key=lambda r: (r.turn is None, r.turn or 0)):
                    name, side = _unit_name(game, r.unit)
                    s = game.sides.get(side)
                    where = _either([_where(game, a) for a in r.at]) or (
                        _where(game, "box:" + r.box) if r.box else ""
                    )
                    rows.append(
                        [
                            Cell(str(r.turn) if r.turn is not None else "—", bold=True),
                            Cell(
                                s.name if s else "",
                                fill=s.color if s else None,
                                colour=style.ink_on(s.color) if s else style.INK,
                            ),
                            Cell(name, align="start"),
                            Cell(where, align="start"),
                            Cell(r.condition, align="start"),
                        ]
                    )
                parts.append(
                    Grid(
                        [_h("Turn", "Side", "Unit", "Enters at", "Condition")],
                        rows,
                        wrap_cols={2, 3, 4},
                    )
                )
            if sc.withdrawals:
                rows = []
                for w in sorted(sc.withdrawals, key=lambda w: w.leaves_as_turn_begins()):
                    name, side = _unit_name(game, w.unit)
                    s = game.sides.get(side)
                    rows.append([
                        Cell(w.timing().capitalize(), bold=True),
                        Cell(s.name if s else "", fill=s.color if s else None,
                             colour=style.ink_on(s.color) if s else style.INK),
                        Cell(name, align="start"),
                        Cell(_where(game, "box:" + w.box) if w.box else "Withdrawn box",
                             align="start"),
                        Cell(w.condition, align="start"),
                    ])
                parts.append(Grid([_h("Leaves", "Side", "Unit", "Goes to", "Or earlier")], rows,
                                  wrap_cols={2, 3, 4}))
            if sc.allowances:
                lines = [("Replacements and rebuilds", True)]
                lines += [(words.allowance(game, a), False) for a in sc.allowances]
                parts.append(Para(lines))
            if sc.draws:
                parts.append(
                    Para(
                        [("Draws", True)]
                        + [(f"{_deck_name(game, d.deck)}: {_track_words(sc, d.count)} {d.when}",
                            False)
                           for d in sc.draws]
                    )
                )
            cards.append(Card(f"Reinforcements: {sc.name}", parts))
        if sc.victory or sc.special_rules:
            parts = []
            if sc.victory:
                parts.append(Para([("Victory", True)] + [(f"• {v}", False) for v in sc.victory]))
            if sc.special_rules:
                parts.append(
                    Para([("Special rules", True)] + [(f"• {v}", False) for v in sc.special_rules])
                )
            cards.append(Card(f"Victory and special rules: {sc.name}", parts))
    return cards


def all_cards(game: Game) -> list[Card]:
    """Every card of the game, in reading order."""
    cards = []
    seq = sequence_card(game)
    if seq:
        cards.append(seq)
    cards.append(turn_card(game))
    cards.extend(table_card(game, t) for t in game.tables)
    terrain = terrain_card(game)
    if terrain:
        cards.append(terrain)
    counters = counter_card(game)
    if counters:
        cards.append(counters)
    cards.extend(setup_cards(game))
    return cards


def counter_card(game: Game) -> Card | None:
    """What the numbers on each kind of counter mean (a game with counter types only)."""
    if not game.info.counter_types:
        return None
    header = [_h("Counter", "Front", "Back")]
    rows = []
    used = {game.counter_type_of(u).id for u in game.units if game.counter_type_of(u)}
    for ct in game.info.counter_types:
        if ct.id not in used:
            continue
        name = ct.name or ct.id.replace("-", " ").capitalize()
        sided = any(u.back for u in game.units if game.counter_type_of(u) is ct)
        back = ("-".join(ct.back_factor_names) if ct.back_factor_names else "as the front") \
            if sided else "—"
        rows.append([Cell(name, bold=True, align="start"),
                     Cell("-".join(ct.factor_names), align="start"), Cell(back, align="start")])
    if any(game.counter_type_of(u) is None for u in game.units) and game.info.factor_names:
        rows.append([Cell("Other units", bold=True, align="start"),
                     Cell("-".join(game.info.factor_names), align="start"),
                     Cell("as the front", align="start")])
    return Card("Reading the counters", [Grid(header, rows, wrap_cols={0, 1, 2})], "counters")


# --- flowing cards onto pages ------------------------------------------------------------------
def _para_rows(p: Para, width: float) -> list[Row]:
    rows = []
    for text, bold in p.lines:
        for k, ln in enumerate(S.wrap(text, width - 2.0, p.size, bold)):
            indent = k > 0 and text.startswith("• ")

            def draw(x, y, ln=ln, bold=bold, indent=indent):
                return S.fitted(
                    x + 1.0 + (1.6 if indent else 0),
                    y + p.size * 0.98,
                    ln,
                    width - 2.0,
                    p.size,
                    bold=bold,
                    anchor="start",
                    fill=p.colour,
                )

            rows.append(Row(p.size * 1.3, draw))
    if rows:
        rows.append(Row(1.0, lambda x, y: ""))
    return rows


class _Flow:
    """Cards laid down pages in two columns, as a published aid sheet is: a narrow card goes into
    the shorter column, a wide one across both; a card that does not fit where it starts runs on
    into the next column or page with its title and header repeated, never leaving fewer than
    ORPHAN rows behind or ahead. Every table fills its card's width."""

    GAP = 5.0
    ORPHAN = 3

    def __init__(self, width: float, height: float, measured: dict[int, tuple] | None = None):
        self.width, self.height = width, height
        self.half = (width - self.GAP) / 2
        # what each page shows, as drawings still to make (partial calls): flow tries several
        # page heights and keeps one, so only the kept layout's rows are drawn
        self.pages: list[list[partial]] = [[]]
        self.col_y = [0.0, 0.0]  # where the next card starts in each column of the last page
        # a card's measure depends on the page's width only: flow's tries at other page
        # heights share it (laying out every table again for each try took most of the time)
        self._measured = {} if measured is None else measured
        self.boxes: dict[int, list[float]] = {}  # page -> areas of the card frames on it

    def _segments(self, card: Card, card_w: float) -> list[tuple[list[Row], list[Row]]]:
        out = []
        for part in card.parts:
            if isinstance(part, Grid):
                head, body, _ = part.layout(card_w, stretch=True)
                out.append((head, body))
            else:
                out.append(([], _para_rows(part, card_w)))
        return out

    def _title(self, card: Card, x: float, y: float, card_w: float, cont: bool) -> float:
        t = card.title + (" (continued)" if cont else "")
        page = self.pages[-1]
        page.append(partial(S.rect, x, y, card_w, TITLE_H, fill=card.colour))
        page.append(
            partial(
                S.fitted,
                x + 2.0,
                y + 4.6,
                t,
                card_w * 0.72,
                3.4,
                bold=True,
                family=style.SERIF,
                anchor="start",
                fill="#ffffff",
            )
        )
        if card.subtitle:
            page.append(
                partial(
                    S.fitted,
                    x + card_w - 2.0,
                    y + 4.4,
                    card.subtitle,
                    card_w * 0.25,
                    2.3,
                    anchor="end",
                    fill="#e8e2d0",
                )
            )
        return y + TITLE_H + 0.8

    def _frame(self, x: float, top: float, bottom: float, card_w: float) -> None:
        self.boxes.setdefault(len(self.pages) - 1, []).append((bottom - top) * card_w)
        self.pages[-1].append(
            partial(
                S.rect,
                x,
                top,
                card_w,
                bottom - top,
                fill="none",
                stroke=style.CARD_BORDER,
                stroke_width=0.35,
            )
        )

    def _next_place(self, narrow: bool, col: int, need: float) -> tuple[int, float]:
        """Where a card runs on: the other column of this page when it has room, else a new page."""
        if narrow and col == 0 and self.col_y[1] + need <= self.height:
            return 1, self.col_y[1]
        self.pages.append([])
        self.col_y = [0.0, 0.0]
        return 0, 0.0

    def _place(self, card: Card, segments, narrow: bool, col: int, y: float, card_w: float):
        """Draw a card from column `col` at y, running on as needed; returns (column, bottom)."""
        x = col * (self.half + self.GAP)
        top = y
        y = self._title(card, x, y, card_w, False)
        after = [r for _, body in segments for r in body]  # the card's rows still to draw
        for head, body in segments:
            for row in head:
                self.pages[-1].append(partial(row.draw, x, y))
                y += row.h
            for k, row in enumerate(body):
                left = len(after)
                # break before the row that does not fit, or earlier so that ORPHAN rows go on
                tail = sum(r.h for r in after[: self.ORPHAN])
                after.pop(0)
                must = y + row.h > self.height
                early = k and left <= self.ORPHAN and y + tail > self.height
                if must or early:
                    self._frame(x, top, y, card_w)
                    if not narrow:
                        self.col_y = [self.height, self.height]
                    else:
                        self.col_y[col] = self.height
                    need = TITLE_H + sum(r.h for r in head) + tail
                    col, top = self._next_place(narrow, col, need)
                    x = col * (self.half + self.GAP)
                    y = self._title(card, x, top, card_w, True)
                    for hr in head:
                        self.pages[-1].append(partial(hr.draw, x, y))
                        y += hr.h
                self.pages[-1].append(partial(row.draw, x, y))
                y += row.h
            y += 1.0
        self._frame(x, top, y, card_w)
        return col, y

    def _fits_column(self, card: Card) -> bool:
        """Whether every table of the card reads well in one column: at its own type size, its
        long cells wrapped to at most twice as many lines as across the page."""
        for part in card.parts:
            if not isinstance(part, Grid):
                continue
            widths, size = part.widths(self.half)
            if size < part.size * 0.99 or sum(part.word_widths(size)) > self.half:
                return False
            _, wide, _ = part.layout(self.width)
            _, tall, _ = part.layout(self.half)
            if sum(r.h for r in tall) > 2.0 * sum(r.h for r in wide):
                return False
        return True

    def _measure(self, card: Card):
        """(narrow, card width, segments, total height, height of its head and first rows)."""
        hit = self._measured.get(id(card))
        if hit is None:
            narrow = self._fits_column(card)
            card_w = self.half if narrow else self.width
            segments = self._segments(card, card_w)
            rows = [r for head, body in segments for r in head + body]
            total = TITLE_H + 0.8 + sum(r.h for r in rows) + len(segments)
            first = TITLE_H + 0.8 + sum(r.h for r in rows[: self.ORPHAN + 1])
            hit = self._measured[id(card)] = (narrow, card_w, segments, total, first)
        return hit

    def _fill(self, queue: list[Card], limit: float) -> None:
        """Fill the columns' free room above `limit` with later narrow cards that fit whole (a
        published sheet packs its small tables rather than leave a hole)."""
        for col in sorted((0, 1), key=lambda c: self.col_y[c]):
            k = 0
            while k < len(queue):
                narrow, card_w, segments, total, _ = self._measure(queue[k])
                if narrow and self.col_y[col] + total <= limit:
                    card = queue.pop(k)
                    _, bottom = self._place(card, segments, True, col, self.col_y[col], card_w)
                    self.col_y[col] = bottom + self.GAP
                else:
                    k += 1

    def add(self, card: Card, queue: list[Card]) -> None:
        narrow, card_w, segments, total, first = self._measure(card)
        if not narrow and abs(self.col_y[0] - self.col_y[1]) > 15.0:
            self._fill(queue, max(self.col_y))
        if narrow:
            order = sorted((0, 1), key=lambda c: self.col_y[c])
            spots = [(c, self.col_y[c]) for c in order]
        else:
            spots = [(0, max(self.col_y))]
        # whole in a column where it fits; else split where at least its head and a few rows fit
        # and the column is at least 30 % free (a long card would fill it anyway); else a new page
        choice = next((s for s in spots if s[1] + total <= self.height), None)
        if choice is None and total > self.height * 0.6:
            choice = next(
                (s for s in spots if s[1] + first <= self.height
                 and self.height - s[1] >= self.height * 0.3), None)
        if choice is None:
            self._fill(queue, self.height)
            if self.pages[-1]:
                self.pages.append([])
            self.col_y = [0.0, 0.0]
            choice = (0, 0.0)
        col, y = choice
        col, bottom = self._place(card, segments, narrow, col, y, card_w)
        if narrow:
            self.col_y[col] = bottom + self.GAP
        else:
            self.col_y = [bottom + self.GAP, bottom + self.GAP]


def _run(cards: list[Card], width: float, height: float,
         measured: dict[int, tuple] | None = None) -> _Flow:
    f = _Flow(width, height, measured)
    queue = list(cards)
    while queue:
        f.add(queue.pop(0), queue)
    return f


def _filled(f: _Flow, width: float, height: float) -> list[float]:
    """The share of each page's area that cards cover."""
    return [sum(f.boxes.get(i, [])) / (width * height) for i in range(len(f.pages))]


def _fingerprint(obj, out: list) -> None:
    """Append what a card shows to out: its texts, colours, sizes and pictures, so a card set is
    laid out again only when that changes (flow's cache key). A picture cell is its drawing
    function and what the function captured; a captured game counts as its game.toml and map
    (the terrain card's samples draw from the map's styles): a picture drawn from counters must
    capture them, not the game."""
    if type(obj) is Cell and obj.draw is None:  # most of it: 3,600 set-up rows of a campaign
        out.append((obj.text, obj.bold, obj.fill, obj.colour, obj.align, obj.span, obj.draw_w))
    elif obj is None or isinstance(obj, (str, int, float, bool)):
        out.append(obj)
    elif isinstance(obj, (list, tuple)):
        out.append(len(obj))
        for x in obj:
            _fingerprint(x, out)
    elif isinstance(obj, (set, frozenset)):
        _fingerprint(sorted(obj, key=repr), out)
    elif isinstance(obj, dict):
        _fingerprint(sorted(obj.items(), key=repr), out)
    elif isinstance(obj, Game):
        from builder import keys

        out.append(("game", keys.slice_digest(obj, "info"), keys.slice_digest(obj, "map")))
    elif hasattr(obj, "model_dump_json"):
        out.append(type(obj).__name__ + obj.model_dump_json())
    elif callable(obj) and hasattr(obj, "__code__"):
        out.append(obj.__qualname__)
        _fingerprint([c.cell_contents for c in obj.__closure__ or ()], out)
    elif hasattr(obj, "__dataclass_fields__"):
        out.append(type(obj).__name__)
        _fingerprint(list(vars(obj).values()), out)
    else:
        raise TypeError(f"an aid card holds a {type(obj).__name__}: teach _fingerprint it")


def flow(cards: list[Card], width: float, height: float) -> list[str]:
    """Lay cards down pages `width` x `height` mm (the printable area); SVG bodies per page.
    When the last page would be less than half full, the pages are laid out a little shorter
    (the same number of them), so the cards spread to the last one instead. From the build
    cache when the same cards were laid out on the same area before (a changed counter's
    factors change no card: its 3,600 set-up rows are not measured again)."""
    import pickle

    from builder import cache

    shown: list = []
    _fingerprint(cards, shown)
    data = cache.cached(("aid-flow", repr(shown), width, height),
                        lambda: pickle.dumps(_flow_bodies(cards, width, height), protocol=5))
    return pickle.loads(data)


def _flow_bodies(cards: list[Card], width: float, height: float) -> list[str]:
    measured: dict[int, tuple] = {}  # id(card) -> its measure; the cards live while this runs
    f = _run(cards, width, height, measured)
    if len(f.pages) > 1 and _filled(f, width, height)[-1] < 0.55:
        best = min(_filled(f, width, height))
        for k in range(1, 12):  # the same pages a little shorter: keep the fullest emptiest page
            g = _run(cards, width, height * (1 - 0.025 * k), measured)
            worst = min(_filled(g, width, height))
            if len(g.pages) == len(f.pages) and worst > best:
                f, best = g, worst
            if best >= 0.6:
                break
    return ["".join(draw() for draw in p) for p in f.pages if p]


def aid_pages(game: Game, paper: str, cards: list[Card] | None = None,
              heading: str = "player aids"):
    """The player-aid pages (convert.Page list); `cards` and `heading` for other card sets
    (the designer's proof)."""
    from builder.render.convert import Layer, Page
    from builder.render.pages import FOOTER, HEADER, _furniture, paper_size

    w, h = paper_size(paper)
    m = style.PAGE_MARGIN
    top = m + HEADER
    bodies = flow(all_cards(game) if cards is None else cards, w - 2 * m, h - top - m - FOOTER)
    out = []
    for i, body in enumerate(bodies, 1):
        content = S.document(w, h, S.g(body, transform=f"translate({num(m)} {num(top)})"))
        furniture = _furniture(
            w,
            h,
            f"{game.info.title}: {heading}",
            f"page {i} of {len(bodies)}",
            game.info.title + (f", version {game.info.version}" if game.info.version else ""),
        )
        out.append(Page(w, h, (Layer(furniture), Layer(content)), f"aids page {i}"))
    return out
