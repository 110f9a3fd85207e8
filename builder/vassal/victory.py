"""Victory in the module: a toolbar button that counts what the board shows and writes the
standing to the chat.

Each scenario's set-up puts one 'Victory standing' piece in the off-map box. Its calculated
properties count, with the engine's Count and Sum over a map's pieces, each of the scenario's
victory_counts: places held by a side (a unit of the side on the place and none of another
side), or a side's units in a box, a region or anywhere on the map (or their printed factor
summed, e.g. soldiers lost). The points are added up and looked up in the scenario's victory
table; a count that decides the game by itself (at_least / at_most) names its result first.
The toolbar's 'Victory' button (a Global Key Command) makes the piece report its line.

The piece filters are the engine's plain property filters ('SideId=allied && LocationName=0302'),
which compare the text of the properties: a location keeps its leading zero and no quotes need
escaping inside the expression.
"""

from __future__ import annotations

from builder.model.game_model import Game
from builder.model.scenario import Scenario, VictoryCount
from builder.render import svg
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


def _places(game: Game, v: VictoryCount) -> list[tuple[str, str, int]]:
    """(location name in the module, name players read, map VP) of each held place."""
    from builder.vassal.ids import sector_label

    out = []
    for p in v.held:
        if game.is_hex:
            label = game.grid.label(game.hex(p))
            obj = next((o for o in game.map.objectives if o.hex == label and o.vp), None)
            named = next((o.name for o in game.map.objectives if o.hex == label), "")
            out.append((label, f"{named} ({label})" if named else label,
                        int(obj.vp) if obj else 0))
        else:
            s = game.sector_by_id[p]
            out.append((sector_label(game, p), s.name, s.vp))
    return out


def _box_name(game: Game, key: str) -> str:
    from builder.vassal import boxes as bx

    return dict(bx.box_keys(game))[key]


def _count(game: Game, v: VictoryCount, i: int, traits: list[t.Trait]) -> tuple[str, str, str]:
    """Adds the count's properties; returns (value property, points expression, chat text expr)."""
    from builder.vassal.ids import BOX_MAP, MAIN_MAP

    side = v.side
    others = [s.id for s in game.info.sides if s.id != side]
    name = x.lit(v.name + ": ")
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
        weights = [p[2] if v.vp == 0 else v.vp for p in places]
        if v.all:
            points = f"({val} == {len(places)} ? {x.lit(v.vp)} : 0)"
        else:
            points = " + ".join(f"{h} * {x.lit(w)}" for h, w in zip(held, weights)) if any(weights) \
                else "0"
        names = []
        for j, (h, (_, shown, _)) in enumerate(zip(held, places)):
            before = " + ".join(held[:j]) or "0"
            names.append(f'({h} == 1 ? (({before}) > 0 ? ", " : "") + {x.lit(shown)} : "")')
        listed = f'({val} == 0 ? "" : " (" + ' + " + ".join(names) + ' + ")")'
        text = f'{name} + {val} + {x.lit(f" of {len(places)}")} + {listed}'
    else:
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
        match = f"SideId={side}{where}"
        if v.factor:
            from builder.vassal.pieces import prop_name

            call = f'Sum("{prop_name(v.factor)}", "{match}", "{target_map}")'
        else:
            call = f'Count("{match}", "{target_map}")'
        traits.append(t.CalculatedProperty(val, call))
        points = f"{val} * {x.lit(v.vp)}" if v.vp else "0"
        text = f"{name} + {val}"
    if v.vp or (v.held and any(p[2] for p in _places(game, v))):
        text += f' + " = " + ({points}) + " VP"'
    return val, points, text


def _decides(v: VictoryCount, val: str) -> str:
    conds = []
    if v.at_least is not None:
        conds.append(f"{val} >= {x.lit(v.at_least)}")
    if v.at_most is not None:
        conds.append(f"{val} <= {x.lit(v.at_most)}")
    return " && ".join(conds)


def _level(game: Game, sc: Scenario, total: str) -> str:
    """The expression of the standing the points give (victory table, else the default)."""
    table = next((tb for tb in game.tables if tb.id == sc.victory_table), None)
    if table is None or getattr(table, "kind", "") != "lookup" or table.dice:
        return x.lit(sc.victory_default)
    key = next(i for i in table.inputs if i.id == table.key)
    values = []
    for n in range(key.min, key.max + 1):
        e = entry_for(table, n, {})
        values.append(e.result if e else "")
    return x.index_lookup(x.clamp(total, key.min, key.max), values, base=key.min)


def victory_piece(game: Game, sc: Scenario) -> t.Piece:
    """The scenario's 'Victory standing' piece: its counts, points, standing and chat line."""
    traits: list[t.Trait] = [t.Marker(((FLAG, "1"),))]
    counted = [_count(game, v, i, traits) for i, v in enumerate(sc.victory_counts)]
    title = f"Victory standing, {sc.name} (if the game ended now): "
    if not counted:
        line = x.lit(title + (" ".join(sc.victory) or "this scenario has no victory conditions"))
    else:
        total = "VictoryPoints"
        traits.append(t.CalculatedProperty(total, " + ".join(p for _, p, _ in counted)))
        decide = [(_decides(v, val), x.lit(v.result))
                  for v, (val, _, _) in zip(sc.victory_counts, counted) if v.result]
        standing = x.choose(decide, _level(game, sc, total))
        traits.append(t.CalculatedProperty("VictoryResult", standing))
        parts = " + \"; \" + ".join(text for _, _, text in counted)
        scored = any(v.vp or v.held for v in sc.victory_counts)
        line = (f'{x.lit(title)} + {parts}'
                + (f' + ". Total " + {total} + " VP"' if scored else "")
                + ' + (VictoryResult == "" ? "." : ": " + VictoryResult + ".")'
                + (x.lit(" Not counted here, add by hand: " + "; ".join(sc.victory_by_hand) + ".")
                   .join([" + ", ""]) if sc.victory_by_hand else ""))
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
