"""Victory in the module: a toolbar button that counts what the board shows and writes the
standing to the chat.

Each scenario's set-up puts one 'Victory standing' piece in the off-map box. Its calculated
properties count, with the engine's Count and Sum over a map's pieces, each of the scenario's
victory_counts: places held by a side (a unit of the side on the place and none of another
side), or a side's units in a box, a region or anywhere on the map (or their printed factor
summed, e.g. soldiers lost). The points are added up and looked up in the scenario's victory
table; a count that decides the game by itself (at_least / at_most) names its result first.
The toolbar's 'Victory' button (a Global Key Command) makes the piece report its line.

The counts are builder.tables.victory's (the same definitions `builder calc GAME victory` reads):
half points are kept as whole numbers at a scale (two for halves) and shown as decimals; a count
the board cannot show (by_hand) or whose points hang on a question the players answer (only_if)
is named for the players to add.

The piece filters are the engine's plain property filters ('SideId=allied && LocationName=0302'),
which compare the text of the properties: a location keeps its leading zero and no quotes need
escaping inside the expression.
"""

from __future__ import annotations

import math
from fractions import Fraction

from builder import words
from builder.model.game_model import Game
from builder.model.scenario import Scenario, VictoryCount
from builder.render import svg
from builder.tables import victory as vt
from builder.tables.lookup import entry_for
from builder.vassal import components as c
from builder.vassal import expr as x
from builder.vassal import traits as t
from builder.vassal.encoding import NAMED, keystroke
from builder.vassal.traits import ReportState, named

IMAGE = "victory.png"
PIECE = "Victory standing"
BUTTON = "Victory"
FLAG = "VictoryStanding"  # marker property the button's Global Key Command looks for
REPORT_KEY = named("ReportVictory")
BUTTON_KEY = keystroke(NAMED, 0, "VictoryButton")
LINE = "VictoryLine"


def image_svg() -> str:
    """The piece's face: a small 'VP' chit."""
    body = (svg.rect(2, 2, 60, 60, fill="#f0d36b", stroke="#222222", stroke_width=3)
            + svg.fitted(32, 42, "VP", 52, 26, anchor="middle", bold=True))
    return svg.document(64, 64, body, background=None, title=PIECE)


def _places(game: Game, v: VictoryCount) -> list[tuple[str, str, Fraction]]:
    """(location name in the module, name players read, VP) of each held place
    (builder.tables.victory.places: the count's vp, else the map's)."""
    from builder.vassal.ids import sector_label

    return [(p.id if game.is_hex else sector_label(game, p.id), p.name, p.vp)
            for p in vt.places(game, v)]


def _box_name(game: Game, key: str) -> str:
    from builder.vassal import boxes as bx

    return dict(bx.box_keys(game))[key]


def _denominators(v: VictoryCount) -> int:
    """The scale a count's value is kept at in whole numbers (weights of a half: 2)."""
    return math.lcm(1, *(vt.frac(w).denominator for w in v.weights.values()))


def _points_scale(game: Game, sc: Scenario) -> int:
    """The scale the points are kept at in whole numbers (half points: 2)."""
    dens = [1]
    for v in sc.victory_counts:
        dens.append(vt.frac(v.vp).denominator * _denominators(v))
        dens += [p.vp.denominator for p in vt.places(game, v)]
    return math.lcm(*dens)


def _shown(e: str, scale: int) -> str:
    """An expression kept at a scale, as text: 9 at scale 2 -> '4.5', -1 -> '-0.5'."""
    if scale == 1:
        return x.paren(e)
    tails = [vt.show(Fraction(r, scale))[1:] if r else "" for r in range(scale)]
    whole = f"Math.abs({e}) / {scale}"
    return (f'({x.paren(e)} < 0 ? "-" : "") + ({whole}) + '
            f'{x.paren(x.index_lookup(f"Math.abs({e}) % {scale}", tails))}')


def _points_text(e: str, scale: int) -> str:
    """'+2 VP', '-0.5 VP', '0 VP' (as builder.tables.victory.points says it)."""
    return f'({x.paren(e)} > 0 ? "+" : "") + {_shown(e, scale)} + " VP"'


def _match(game: Game, v: VictoryCount) -> tuple[str, str]:
    """(piece filter, map) for the units a pieces_in count looks at."""
    from builder.vassal.ids import BOX_MAP, MAIN_MAP

    kind, _, ident = v.pieces_in.partition(":")
    where = ""
    if kind == "box":
        target_map, where = BOX_MAP, f" && CurrentZone={_box_name(game, v.pieces_in)}"
    elif kind == "region":
        target_map = MAIN_MAP
        region = next(r for r in game.map.regions if r.id == ident)
        # one filter per hex would be long: the region's hexes as a regular expression
        labels = sorted({game.grid.label(h) for h in game.hexes(region.hexes)})
        where = f" && LocationName=~({'|'.join(labels)})"
    else:
        target_map = MAIN_MAP
    return f"SideId={v.side}{where}", target_map


_PROPERTY = {"type": "Type", "size": "Size", "formation": "FormationId"}


def _value(game: Game, sc: Scenario, v: VictoryCount, i: int,
           traits: list[t.Trait]) -> tuple[str, str]:
    """Adds the count's properties; returns (value property at the count's scale, listed places
    expression or '')."""
    from builder.vassal.ids import MAIN_MAP

    side = v.side
    others = [s.id for s in game.info.sides if s.id != side]
    val = f"VictoryCount{i}"
    if v.held:
        places = _places(game, v)
        held = []
        for j, (loc, _, _) in enumerate(places):
            own = f'Count("SideId={side} && LocationName={loc}", "{MAIN_MAP}")'
            enemy = " + ".join(f'Count("SideId={o} && LocationName={loc}", "{MAIN_MAP}")'
                               for o in others) or "0"
            prop = f"VictoryHeld{i}_{j}"
            traits.append(t.CalculatedProperty(prop, f"({own} > 0 && ({enemy}) == 0) ? 1 : 0"))
            held.append(prop)
        traits.append(t.CalculatedProperty(val, " + ".join(held)))
        names = []
        for j, (h, (_, shown, _)) in enumerate(zip(held, places)):
            before = " + ".join(held[:j]) or "0"
            names.append(f'({h} == 1 ? (({before}) > 0 ? ", " : "") + {x.lit(shown)} : "")')
        listed = f'({val} == 0 ? "" : " (" + ' + " + ".join(names) + ' + ")")'
        return val, listed
    match, target_map = _match(game, v)
    if v.factor:
        from builder.vassal.pieces import prop_name

        call = f'Sum("{prop_name(v.factor)}", "{match}", "{target_map}")'
    elif v.weights:
        scale = _denominators(v)
        prop = _PROPERTY[v.weigh_by]
        call = " + ".join(f'Count("{match} && {prop}={value}", "{target_map}") * '
                          f'{x.lit(int(vt.frac(w) * scale))}'
                          for value, w in v.weights.items() if vt.frac(w)) or "0"
    elif v.per == "formation":
        formations = sorted({u.formation for u in game.units if u.side == side and u.formation})
        call = x.maximum([f'Count("{match} && FormationId={f}", "{target_map}")'
                          for f in formations] or ["0"])
    else:
        call = f'Count("{match}", "{target_map}")'
    if v.left:
        call = f"{len(vt.starting_in(game, sc, v.pieces_in[4:]))} - ({call})"
    traits.append(t.CalculatedProperty(val, call))
    return val, ""


def _count(game: Game, sc: Scenario, v: VictoryCount, i: int, scale: int,
           traits: list[t.Trait]) -> tuple[str, str, str]:
    """(value property, points expression at the points scale or '0', chat text expression)."""
    val, listed = _value(game, sc, v, i, traits)
    cs = _denominators(v)
    text = f"{x.lit(v.name + ': ')} + {_shown(val, cs)}"
    if v.held:
        places = _places(game, v)
        text += f" + {x.lit(f' of {len(places)}')} + {listed}"
    has_vp = bool(v.vp) or (bool(v.held) and any(p[2] for p in _places(game, v)))
    if not has_vp:
        return val, "0", text
    per_unit = vt.frac(v.vp) * scale / cs  # points (at scale) for one count (at its scale)
    if v.threshold is not None:
        points = f"({val} >= {x.lit(int(vt.frac(v.threshold) * cs))} ? " \
                 f"{x.lit(int(vt.frac(v.vp) * scale))} : 0)"
    elif v.held and v.all:
        points = f"({val} == {len(v.held)} ? {x.lit(int(vt.frac(v.vp) * scale))} : 0)"
    elif v.held:
        held = [f"VictoryHeld{i}_{j}" for j in range(len(v.held))]
        points = " + ".join(f"{h} * {x.lit(int(p[2] * scale))}"
                            for h, p in zip(held, _places(game, v)) if p[2]) or "0"
    else:
        points = f"{val} * {x.lit(int(per_unit))}"
    if v.only_if:  # the board cannot answer the question: shown, added by hand
        question = words.clause(sc.victory_questions[v.only_if])
        text += f' + " (" + {_points_text(points, scale)} + {x.lit(" only when " + question + ", add by hand)")}'
        return val, "0", text
    text += f' + " = " + {_points_text(points, scale)}'
    return val, points, text


def _decides(v, val: str, cs: int) -> str:
    conds = []
    if v.at_least is not None:
        conds.append(f"{val} >= {x.lit(math.ceil(vt.frac(v.at_least) * cs))}")
    if v.at_most is not None:
        conds.append(f"{val} <= {x.lit(math.floor(vt.frac(v.at_most) * cs))}")
    return " && ".join(conds)


def _rounded(total: str, scale: int, rounding: str) -> str:
    """A total kept at a scale, rounded to a whole number of points as the table says."""
    if scale == 1:
        return total
    pos = x.round_div(total, str(scale), rounding)
    neg = x.round_div(f"-{x.paren(total)}", str(scale), {"down": "up", "up": "down",
                                                         "half-up": "half-down",
                                                         "half-down": "half-up"}.get(rounding,
                                                                                     rounding))
    return f"({x.paren(total)} >= 0 ? {pos} : -({neg}))"


def _level(game: Game, sc: Scenario, total: str, scale: int) -> str:
    """The expression of the standing the points give (victory table, else the default)."""
    table = next((tb for tb in game.tables if tb.id == sc.victory_table), None)
    if table is None or getattr(table, "kind", "") != "lookup" or table.dice:
        return x.lit(sc.victory_default)
    key = next(i for i in table.inputs if i.id == table.key)
    values = []
    for n in range(key.min, key.max + 1):
        e = entry_for(table, n, {})
        values.append(e.result if e else "")
    whole = _rounded(total, scale, table.rounding or "down")
    return x.index_lookup(x.clamp(whole, key.min, key.max), values, base=key.min)


def _by_hand(game: Game, sc: Scenario) -> list[str]:
    """What the players add themselves: counts the board cannot show, and the remarks."""
    out = []
    for v in sc.victory_counts:
        if not v.by_hand:
            continue
        each = f"{vt.points(vt.frac(v.vp))} each" if v.vp else ""
        when = (f" when {words.clause(sc.victory_questions[v.only_if])}" if v.only_if else "")
        out.append(f"{v.name}" + (f" ({each}{when})" if each else ""))
    return out + list(sc.victory_by_hand)


def victory_piece(game: Game, sc: Scenario) -> t.Piece:
    """The scenario's 'Victory standing' piece: its counts, points, standing and chat line."""
    traits: list[t.Trait] = [t.Marker(((FLAG, "1"),))]
    scale = _points_scale(game, sc)
    on_board = [v for v in sc.victory_counts if not v.by_hand]
    counted = {v.id: _count(game, sc, v, i, scale, traits) for i, v in enumerate(on_board)}
    title = f"Victory standing, {sc.name} (if the game ended now): "
    hand = _by_hand(game, sc)
    if not counted:
        line = x.lit(title + (" ".join(sc.victory) or "this scenario has no victory conditions"))
    else:
        total = "VictoryPoints"
        traits.append(t.CalculatedProperty(total, " + ".join(
            x.paren(p) for _, p, _ in counted.values()) or "0"))
        decide = []
        by_id = {v.id: v for v in on_board}
        for v in on_board:
            if not v.result:
                continue
            conds = [_decides(v, counted[v.id][0], _denominators(v))]
            for p in v.provided:
                other = by_id.get(p.count)
                if other is not None:
                    conds.append(_decides(p, counted[p.count][0], _denominators(other)))
            decide.append((x.all_of(conds), x.lit(v.result)))
        standing = x.choose(decide, _level(game, sc, total, scale))
        traits.append(t.CalculatedProperty("VictoryResult", standing))
        parts = " + \"; \" + ".join(text for _, _, text in counted.values())
        scored = any(v.vp or v.held for v in on_board)
        line = (f'{x.lit(title)} + {parts}'
                + (f' + ". Total " + {_points_text(total, scale)}' if scored else "")
                + ' + (VictoryResult == "" ? "." : ": " + VictoryResult + ".")'
                + (x.lit(" Not counted here, add by hand: " + "; ".join(hand) + ".")
                   .join([" + ", ""]) if hand else ""))
    traits.append(t.CalculatedProperty(LINE, line))
    traits.append(ReportState((REPORT_KEY,), f"${LINE}$", description="Victory standing"))
    traits.append(t.BasicPiece(IMAGE, PIECE))
    return t.Piece(tuple(traits))


def components(game: Game) -> list[c.Component]:
    """The toolbar's Victory button: every 'Victory standing' piece reports its line."""
    if not game.scenarios:
        return []
    return [c.GlobalKeyCommand(
        name=BUTTON, buttonText=BUTTON, tooltip="Count what the board shows and write the victory "
        "standing to the chat", buttonHotkey=BUTTON_KEY, hotkey=REPORT_KEY,
        filter=f"{{{FLAG}==\"1\"}}", singleMap=False,
        reportSingle=False,  # true would silence the piece's report (the engine's "suppress")
        reportFormat="")]
