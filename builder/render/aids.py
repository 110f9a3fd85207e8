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
TITLE_H = 6.5  # a card's title band, one line
TITLE_SIZE = 3.4
TITLE_LINE = 4.2  # each further line of a long title


@dataclass
class Para:
    """Lines of text under or between tables (notes, legends, rules reminders)."""

    lines: list[tuple[str, bool]]  # (text, bold)
    size: float = style.CARD_NOTE
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
def _sample_draw(game: Game, items: list):
    """A picture cell's drawing: each map feature as the map's key draws it, side by side."""

    def draw(x: float, y: float, w: float, h: float) -> str:
        from builder.render.map_panel import feature_sample

        each = w / len(items)
        size = min(h, each / 1.3)
        return "".join(feature_sample(game, it, x + k * each, y + (h - size) / 2, size)
                       for k, it in enumerate(items))

    return draw


def _sample_cell(game: Game, items: list) -> Cell:
    return Cell(draw=_sample_draw(game, items), draw_w=8.0 * max(1, len(items))) if items \
        else Cell("")


def terrain_card(game: Game) -> Card | None:
    """The game's one terrain effects chart: the chart of tables.toml marked with 'terrain'
    (its rows with the map's own drawings of what they name, and a row for any terrain with
    effects it leaves out), else one made from map.toml's effects."""
    from builder.terrain_chart import chart_of, map_features, unnamed

    chart = chart_of(game)
    if chart is not None:
        return _designed_terrain_card(game, chart, map_features(game), unnamed(game, chart))
    items = [it for it in map_features(game)]
    keys: list[str] = []
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
        pic = _sample_cell(game, [it])
        if listed:
            rows.append([pic, Cell(it.name, bold=True, align="start"),
                         Cell(_effects_text(game, it), align="start")])
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


def _effects_text(game: Game, it) -> str:
    """A map feature's effects, one a line."""
    return "\n".join(words.effect_line(game, k, v) for k, v in it.effects.items()) or "—"


def _designed_terrain_card(game: Game, chart, items: list, extra: list) -> Card:
    """The terrain chart of tables.toml, each row with the map's drawings of what it names; the
    map's terrain with effects that no row names follows in rows of its own."""
    by_id = {it.id: it for it in items}
    n = len(chart.columns)
    header = [[Cell("", bold=True)] + [Cell(c, bold=True, align="start") for c in chart.columns]]
    rows = []
    for j, row in enumerate(chart.rows):
        named = [by_id[k] for k in chart.terrain_ids(j) if k in by_id]
        rows.append([_sample_cell(game, named)]
                    + [Cell(v, bold=(c == 0), align="start") for c, v in enumerate(row)])
    for it in extra:
        rows.append([_sample_cell(game, [it]), Cell(it.name, bold=True, align="start"),
                     Cell(_effects_text(game, it), align="start", span=n - 1) if n > 1 else Cell("")])
    grid = Grid(header, rows, wrap_cols=set(range(1, n + 1)), col_min=[0.0, 24.0])
    return Card(chart.name, [grid] + _notes(chart))


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


def _side_cell(game: Game, side: str) -> Cell:
    s = game.sides.get(side)
    return Cell(s.name if s else "", fill=s.color if s else None,
                colour=style.ink_on(s.color) if s else style.INK)


def _counted(items: list[str]) -> str:
    """'Squad (infantry), Squad (infantry), Shaped charge' -> '2 × Squad (infantry), Shaped
    charge', in the order first met; names that hold commas are set apart by semicolons."""
    counts: dict[str, int] = {}
    for it in items:
        counts[it] = counts.get(it, 0) + 1
    # three or more units of one kind ('1/1 (infantry battalion) 0114') are listed once under
    # their kind: 'infantry battalions: 1/1 0114, 2/1 0214, 3/1 0314'
    kinds: dict[str, list[str]] = {}
    for it in counts:
        m = _KIND.match(it)
        kinds.setdefault(m.group(2) if m else "", []).append(it)
    parts = []
    sep = "; " if any("," in it for it in counts) else ", "
    for kind, names in kinds.items():
        if kind and len(names) >= 3:
            short = [f"{n} × " if (n := counts[it]) > 1 else "" for it in names]
            listed = [s + "".join(p for p in _KIND.match(it).group(1, 3) if p)
                      for s, it in zip(short, names)]
            parts.append(f"{_plural(kind)}: " + sep.join(listed))
        else:
            parts += [f"{counts[it]} × {it}" if counts[it] > 1 else it for it in names]
    return ("; " if len(parts) > 1 and any(":" in p for p in parts) else sep).join(parts)


_KIND = re.compile(r"^(.*?) \(([^()]+)\)( .*)?$")  # 'name (kind) hex'


def _plural(kind: str) -> str:
    """'infantry battalion' -> 'infantry battalions', 'fortress company' -> '... companies'."""
    if kind.endswith("y") and kind[-2:-1] not in "aeiou":
        return kind[:-1] + "ies"
    if kind.endswith("s"):  # corps, headquarters
        return kind
    return kind + ("es" if kind.endswith(("x", "ch", "sh")) else "s")


def _placement_where(game: Game, p) -> tuple[str, str]:
    """(where the row says it sets up, what the unit's entry adds): a placement free anywhere
    in a region groups under the region, its hex given with the unit as a suggestion."""
    where = _where(game, p.at)
    if p.code:
        where += f" [{p.code}]"
    if p.also:
        where = _either([where] + [_where(game, a) for a in p.also])
    if p.within:
        where += f" (or within {p.within} hex{'es' if p.within > 1 else ''})"
    if p.region:
        reg = next((r.name for r in getattr(game.map, "regions", ()) if r.id == p.region),
                   p.region)
        return f"Anywhere in {reg}" + (f". {p.instruction}" if p.instruction else ""), where
    if p.instruction:
        where += f". {p.instruction}"
    return where, ""


def setup_grid(game: Game, setup) -> Grid:
    """The set-up list grouped: one row per side and place (hex, sector, box or region), its
    units counted ('3 × Squad'), rather than one row per counter."""
    ranks = {sid: i for i, sid in enumerate(game.sides)}  # rows by side, in game.toml's order
    named = {p.unit: _unit_name(game, p.unit) for p in setup}  # a campaign's 3,600
    groups: dict[tuple[str, str], list[str]] = {}
    for p in sorted(setup, key=lambda p: (ranks.get(named[p.unit][1], len(ranks)), p.line)):
        name, side = named[p.unit]
        if p.face == "back":
            item = game.unit_by_id.get(p.unit) or game.marker_by_id.get(p.unit)
            name += f", {getattr(item, 'back_name', '') or 'back'} side up"
        where, suggested = _placement_where(game, p)
        groups.setdefault((side, where), []).append(f"{name} ({suggested})" if suggested else name)
    # places holding the same units share a row: 'Bloc 1, Bloc 2, Bloc 4: a squad in each'
    same: dict[tuple[str, str], list[str]] = {}
    for (side, where), units in groups.items():
        same.setdefault((side, _counted(units)), []).append(where)
    rows = [[_side_cell(game, side), Cell(", ".join(places), align="start"),
             Cell(units + (" in each" if len(places) > 1 else ""), align="start")]
            for (side, units), places in same.items()]
    regional = any(p.region for p in setup)
    head = "Units" + (" (suggested hex)" if regional else "")
    return Grid([_h("Side", "Sets up in", head)], rows, wrap_cols={1, 2})


def reinforcement_grid(game: Game, reinforcements) -> Grid:
    """The reinforcement schedule grouped: one row per turn, side, entry and condition, its
    units counted, rather than one row per counter."""
    groups: dict[tuple, list[str]] = {}
    for r in sorted(reinforcements, key=lambda r: (r.turn is None, r.turn or 0)):
        name, side = _unit_name(game, r.unit)
        where = _either([_where(game, a) for a in r.at]) or (
            _where(game, "box:" + r.box) if r.box else "")
        groups.setdefault((r.turn, side, where, r.condition), []).append(name)
    rows = [[Cell(str(turn) if turn is not None else "—", bold=True), _side_cell(game, side),
             Cell(_counted(units), align="start"), Cell(where, align="start"),
             Cell(condition, align="start")]
            for (turn, side, where, condition), units in groups.items()]
    conditions = any(c for (_, _, _, c) in groups)
    if not conditions:
        rows = [r[:4] for r in rows]
    head = ("Turn", "Side", "Units", "Enters at") + (("Condition",) if conditions else ())
    return Grid([_h(*head)], rows, wrap_cols={2, 3, 4} if conditions else {2, 3})


def setup_cards(game: Game) -> list[Card]:
    cards = []
    for sc in game.scenarios:
        parts: list = []
        if sc.description:
            parts.append(Para([(sc.description, False)]))
        if sc.setup:
            parts.append(setup_grid(game, sc.setup))
        if sc.setup_note:
            parts.append(Para([("Set-up", True), (sc.setup_note, False)]))
        turns = f"turns {sc.turns[0]}-{sc.turns[1]}" if sc.turns else ""
        cards.append(Card(f"Set-up: {sc.name}", parts, turns))
        if sc.reinforcements or sc.withdrawals or sc.allowances or sc.draws:
            parts = []
            if sc.reinforcements:
                parts.append(reinforcement_grid(game, sc.reinforcements))
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
    terrain = terrain_card(game)
    for t in game.tables:  # the terrain chart of tables.toml prints as the one terrain card
        if getattr(t, "terrain", ()) and terrain:
            cards.append(terrain)
            terrain = None
        else:
            cards.append(table_card(game, t))
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
    """A paragraph's lines as rows; the lines of one note, and a heading with the note after it,
    are glued (a page or column never breaks a sentence), and so is a short paragraph whole."""
    rows = []
    for text, bold in p.lines:
        lines = S.wrap(text, width - 2.0, p.size, bold)
        for k, ln in enumerate(lines):
            indent = k > 0 and text.startswith("• ")

            def draw(x, y, ln=ln, bold=bold, indent=indent):
                return S.fitted(
                    x + 1.0 + (1.6 if indent else 0),
                    y + p.size * 0.98,
                    ln,
                    width - 2.0 - (1.6 if indent else 0),
                    p.size,
                    bold=bold,
                    anchor="start",
                    fill=p.colour,
                    min_size=p.size,
                )

            rows.append(Row(p.size * 1.3, draw, glue=bold or k < len(lines) - 1))
    if len(rows) <= SHORT_PARA:
        for r in rows:
            r.glue = True
    if rows:
        rows[-1].glue = False
        rows.append(Row(1.0, lambda x, y: ""))
    return rows


SHORT_PARA = 6  # lines: a paragraph this short never splits


def _units(rows: list[Row]) -> list[list[Row]]:
    """Rows in the runs that must stay together (each row glued to the next)."""
    out: list[list[Row]] = []
    run: list[Row] = []
    for r in rows:
        run.append(r)
        if not r.glue:
            out.append(run)
            run = []
    if run:
        out.append(run)
    return out


class _Flow:
    """Cards laid down pages in two columns, as a published aid sheet is: a narrow card goes into
    the shorter column, a wide one across both; a card that does not fit where it starts runs on
    into the next column or page with its title and header repeated, never leaving fewer than
    ORPHAN rows behind or ahead. Every table fills its card's width."""

    GAP = 5.0
    ORPHAN = 3

    def __init__(self, width: float, height: float, measured: dict[int, tuple] | None = None,
                 split_share: float = 0.6):
        self.width, self.height = width, height
        # a card longer than this share of a page may start in a column it does not fit
        self.split_share = split_share
        self.frames: list[tuple[int, float, float, float, float]] = []  # page, x, w, top, bottom
        self.splits = 0  # cards run on into another column or page
        self.short_splits = 0  # ... of them shorter than half a page (a split that shows)
        self.half = (width - self.GAP) / 2
        # what each page shows, as drawings still to make (partial calls): flow tries several
        # page heights and keeps one, so only the kept layout's rows are drawn
        self.pages: list[list[partial]] = [[]]
        self.col_y = [0.0, 0.0]  # where the next card starts in each column of the last page
        # a card's measure depends on the page's width only: flow's tries at other page
        # heights share it (laying out every table again for each try took most of the time)
        self._measured = {} if measured is None else measured
        self.boxes: dict[int, list[float]] = {}  # page -> areas of the card frames on it
        self.queue: list[Card] = []  # the cards still to lay down, in reading order

    def _segments(self, card: Card, card_w: float) -> list[tuple[list[Row], list[Row]]]:
        out: list[tuple[list[Row], list[Row]]] = []
        for part in card.parts:
            if isinstance(part, Grid):
                head, body, _ = part.layout(card_w, stretch=True)
                out.append((head, body))
            else:
                rows = _para_rows(part, card_w)
                if out and out[-1][1] and rows and rows[0].glue and len(rows) <= SHORT_PARA + 1:
                    out[-1][1][-1].glue = True  # a short note stays with the table it follows
                out.append(([], rows))
        return out

    @staticmethod
    def _title_lines(card: Card, card_w: float, cont: bool) -> tuple[list[str], float]:
        """The title band's lines (a long title wraps, never squeezed) and the room they have."""
        t = card.title + (" (continued)" if cont else "")
        sub = style.text_width(card.subtitle, style.CARD_NOTE) + 3.0 if card.subtitle else 0.0
        room = card_w - 4.0 - sub
        return S.wrap(t, room, TITLE_SIZE, True, style.SERIF), room

    def _title_h(self, card: Card, card_w: float, cont: bool) -> float:
        """Height of the title band and the gap under it."""
        lines, _ = self._title_lines(card, card_w, cont)
        return TITLE_H + TITLE_LINE * (len(lines) - 1) + 0.8

    def _title(self, card: Card, x: float, y: float, card_w: float, cont: bool) -> float:
        lines, room = self._title_lines(card, card_w, cont)
        band = self._title_h(card, card_w, cont) - 0.8
        page = self.pages[-1]
        page.append(partial(S.rect, x, y, card_w, band, fill=card.colour))
        for k, ln in enumerate(lines):
            page.append(
                partial(
                    S.fitted,
                    x + 2.0,
                    y + 4.6 + k * TITLE_LINE,
                    ln,
                    room,
                    TITLE_SIZE,
                    min_size=TITLE_SIZE,
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
                    card_w - 4.0,
                    style.CARD_NOTE,
                    min_size=style.CARD_NOTE,
                    anchor="end",
                    fill="#e8e2d0",
                )
            )
        return y + band + 0.8

    def _frame(self, x: float, top: float, bottom: float, card_w: float) -> None:
        self.boxes.setdefault(len(self.pages) - 1, []).append((bottom - top) * card_w)
        self.frames.append((len(self.pages) - 1, x, card_w, top, bottom))
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
        self._fill(self.queue, self.height)  # the page's other column, before leaving it
        self.pages.append([])
        self.col_y = [0.0, 0.0]
        return 0, 0.0

    def _place(self, card: Card, segments, narrow: bool, col: int, y: float, card_w: float):
        """Draw a card from column `col` at y, running on as needed; returns (column, bottom).
        It breaks only between units (a table row, a whole note), never inside one, and never
        leaves a table's header alone at the foot of a column."""
        title_h = self._title_h(card, card_w, True)
        room = self.height - title_h
        split = []
        for head, body in segments:
            head_h = sum(r.h for r in head)
            units = []
            for u in _units(body):  # a unit taller than a column is split after all
                tall = sum(r.h for r in u) > room - head_h
                units.extend([[r] for r in u] if tall else [u])
            split.append((head, head_h, units))
        after = [u for _, _, units in split for u in units]  # units still to draw
        left_rows = sum(len(u) for u in after)
        if split and split[0][2] and y > 0:  # its head and first unit must fit where it starts
            need = self._title_h(card, card_w, False) + split[0][1]
            if y + need + sum(r.h for r in split[0][2][0]) > self.height:
                if not narrow:
                    self.col_y = [self.height, self.height]
                else:
                    self.col_y[col] = self.height
                col, y = self._next_place(narrow, col, need + sum(r.h for r in split[0][2][0]))
        x = col * (self.half + self.GAP)
        top = y
        y = fresh_y = self._title(card, x, y, card_w, False)
        for head, head_h, units in split:
            for k, unit in enumerate(units):
                uh = sum(r.h for r in unit)
                # ORPHAN rows (or the units holding them) must go on together at the end
                tail, n = 0.0, 0
                for u in after:
                    if n >= self.ORPHAN:
                        break
                    tail += sum(r.h for r in u)
                    n += len(u)
                after.pop(0)
                first = k == 0
                need = uh + (head_h if first else 0.0)
                must = y + need > self.height
                early = not first and left_rows <= self.ORPHAN and y + tail > self.height
                if (must or early) and y > fresh_y + 1e-6:
                    self.splits += 1
                    if sum(r.h for _, _, us in split for u in us for r in u) < self.height / 2:
                        self.short_splits += 1
                    self._frame(x, top, y, card_w)
                    if not narrow:
                        self.col_y = [self.height, self.height]
                    else:
                        self.col_y[col] = self.height
                    col, top = self._next_place(narrow, col, title_h + head_h + max(tail, uh))
                    x = col * (self.half + self.GAP)
                    y = self._title(card, x, top, card_w, True)
                    if not first:
                        for hr in head:
                            self.pages[-1].append(partial(hr.draw, x, y))
                            y += hr.h
                    fresh_y = y
                if first:
                    for hr in head:
                        self.pages[-1].append(partial(hr.draw, x, y))
                        y += hr.h
                for row in unit:
                    self.pages[-1].append(partial(row.draw, x, y))
                    y += row.h
                left_rows -= len(unit)
            if not units:
                for hr in head:
                    self.pages[-1].append(partial(hr.draw, x, y))
                    y += hr.h
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
            title_h = self._title_h(card, card_w, False)
            total = title_h + sum(r.h for r in rows) + len(segments)
            # its title, first head and the units holding its first ORPHAN + 1 rows
            first, n = title_h, 0
            for head, body in segments:
                first += sum(r.h for r in head)
                for u in _units(body):
                    if n > self.ORPHAN:
                        break
                    first += sum(r.h for r in u)
                    n += len(u)
                break
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
        if choice is None and total > self.height * self.split_share:
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
         measured: dict[int, tuple] | None = None, split_share: float = 0.6) -> _Flow:
    f = _Flow(width, height, measured, split_share)
    f.queue = queue = list(cards)
    while queue:
        f.add(queue.pop(0), queue)
    return f


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


FULL = 2 / 3  # a page other than the last is at least this full


def coverage(f: _Flow, width: float, height: float) -> list[float]:
    """Each page's share that cards cover, as a reader sees it: in each of the two columns,
    the height from the top that some card frame spans (a wide card spans both), over the
    page's full height."""
    half = (width - _Flow.GAP) / 2
    spans: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for page, x, w, top, bottom in f.frames:
        for col, (c0, c1) in enumerate(((0.0, half), (width - half, width))):
            if x < c1 and x + w > c0:
                spans.setdefault((page, col), []).append((top, bottom))
    out = []
    for i in range(len(f.pages)):
        covered = 0.0
        for col in (0, 1):
            end = 0.0
            for top, bottom in sorted(spans.get((i, col), [])):
                covered += max(0.0, bottom - max(top, end))
                end = max(end, bottom)
        out.append(covered / (2 * height))
    return out


def _score(f: _Flow, width: float, height: float) -> tuple:
    """Smaller is better: fewer pages; no page but the last under FULL; fewer short cards, then
    fewer cards, run on from one column or page into another; a fuller emptiest page."""
    shares = [c for c, p in zip(coverage(f, width, height), f.pages) if p]
    body = shares[:-1]
    short = sum(max(0.0, FULL - c) for c in body)
    return (len(shares), round(short, 3), f.short_splits, f.splits,
            -round(min(shares, default=1.0), 3))


def _flow_bodies(cards: list[Card], width: float, height: float) -> list[str]:
    """The best of a few layouts: cards split where they start or only when long, on the
    full page or on pages laid out a little shorter (so that cards spread to the last one)."""
    measured: dict[int, tuple] = {}  # id(card) -> its measure; the cards live while this runs
    best, best_score = None, None
    for split_share in (0.6, 0.4):
        for k in range(12):
            g = _run(cards, width, height * (1 - 0.025 * k), measured, split_share)
            score = _score(g, width, height)
            if best_score is None or score < best_score:
                best, best_score = g, score
            if len(g.pages) > best_score[0]:
                break  # shorter pages only need more of them from here
    return ["".join(draw() for draw in p) for p in best.pages if p]


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
