"""What the player aid shows, gathered from the model as plain data for the templates.

Every value here is text from the sources; the templates escape it (autoescape). Nothing
computes a table result here: the calculators' data comes from builder.tables.api.
"""

from __future__ import annotations

from builder import words
from builder.model.counters import factor_text
from builder.model.game_model import Game
from builder.model.tables import (
    ChartTable,
    DifferentialTable,
    FireTable,
    LookupTable,
    ModifiedRollTable,
    RatioTable,
)


def _assumed(item) -> bool:
    return bool(item.assumed_fields())


# --- tables laid out like the printed card ---------------------------------------------------
def table_card(game: Game, t) -> dict:
    """A table as header rows and body rows of cells, as the printed card has them, and the
    sentences the card prints under it (builder.words: settings, shifts, modifiers, rules)."""
    card = {"id": t.id, "name": t.name, "kind": t.kind, "source": t.source,
            "assumed": _assumed(t), "note": t.note, "legend": list(t.legend.items()),
            "notes": list(t.notes), "head": [], "body": [], "extra": words.lines(game, t)}
    if isinstance(t, DifferentialTable):
        # terrain rows carry the differential bands over the result columns, from the left
        card["head"].append(["Terrain", *[f"{i + 1}" for i in range(t.columns)]])
        for row in t.terrain_rows:
            cells = list(row.differentials) + [""] * (t.columns - len(row.differentials))
            card["body"].append({"th": row.name, "cells": cells, "band": True})
        card["body"].append({"th": f"Die roll ({t.dice})", "cells": [""] * t.columns,
                             "divider": True})
        for roll, cells in t.results.items():
            card["body"].append({"th": roll, "cells": list(cells)})
    elif isinstance(t, FireTable):
        modified = bool(t.modifiers or any(r.effect == "drm" for r in t.rules))
        cols = [f"[{b}]" for b in t.bands] if t.exact_bands else list(t.bands) or ["Result"]
        card["head"].append([("Modified roll " if modified else "") + t.dice, *cols])
        keys = sorted(t.results, key=int)
        for k, roll in enumerate(keys):
            label = roll + (" or less" if modified and k == 0 else
                            " or more" if modified and k == len(keys) - 1 else "")
            card["body"].append({"th": label, "cells": list(t.results[roll])})
    elif isinstance(t, RatioTable):
        cols = list(t.columns) if isinstance(t, RatioTable) else (
            [f"[{b}]" for b in t.bands] if t.exact_bands else list(t.bands))
        card["head"].append([t.dice, *cols])
        for roll, cells in t.results.items():
            card["body"].append({"th": roll, "cells": list(cells)})
    elif isinstance(t, ModifiedRollTable):
        card["head"].append([f"Modified roll ({t.dice})", "Result"])
        for roll, result in t.results.items():
            card["body"].append({"th": roll, "cells": [result]})
    elif isinstance(t, LookupTable):
        key = t.dice or next((i.name for i in t.inputs if i.id == t.key), t.key)
        has_detail = any(e.detail for e in t.entries)
        card["head"].append([key, "Result", *(["Detail"] if has_detail else [])])
        for e in t.entries:
            cells = [e.result] + ([e.detail] if has_detail else [])
            card["body"].append({"th": words.entry(t, e.when), "cells": cells})
    elif isinstance(t, ChartTable):
        card["head"].append(list(t.columns))
        for row in t.rows:
            card["body"].append({"th": row[0], "cells": list(row[1:])})
    return card


# --- terrain, tracks, schedules --------------------------------------------------------------
def terrain_rows(game: Game) -> list[dict]:
    """Each terrain, hexside and line type with its effects."""
    out = []
    for t in game.map.terrain_types:
        out.append({"what": "terrain", "name": t.name, "color": t.color, "source": t.source,
                    "assumed": _assumed(t), "note": t.note,
                    "effects": _effects(game, t)})
    for t in getattr(game.map, "hexside_types", ()):
        out.append({"what": "hexside", "name": t.name, "color": t.color, "source": t.source,
                    "assumed": _assumed(t), "note": t.note,
                    "effects": _effects(game, t)})
    for t in getattr(game.map, "line_types", ()):
        out.append({"what": "line", "name": t.name, "color": t.color, "source": t.source,
                    "assumed": _assumed(t), "note": t.note,
                    "effects": _effects(game, t)})
    return out


def _effects(game: Game, item) -> list[tuple[str, str]]:
    return [words.effect_parts(game, k, v) for k, v in item.effects.items()]


def turn_track(game: Game) -> list[dict]:
    """Every turn of the track with its name, night flag and note."""
    turns = game.info.turns
    detail = {d.number: d for d in turns.detail}
    out = []
    for n in range(turns.first, turns.first + turns.count):
        d = detail.get(n)
        out.append({"number": n, "name": d.name if d else "", "night": bool(d and d.night),
                    "period": d.period if d else "", "note": d.text if d else ""})
    return out


def side_name(game: Game, side_id: str) -> str:
    s = game.sides.get(side_id)
    return s.name if s else side_id


def piece_label(game: Game, piece_id: str) -> str:
    """A unit as printed ('413/104 · infantry regiment · 5-7-5'), or a marker's name."""
    u = game.unit_by_id.get(piece_id)
    if u:
        kind = " ".join([u.type.replace("-", " ")] + ([u.size] if u.size else []))
        return " · ".join([u.unit, kind] + ([factor_text(u.front)] if u.front else []))
    m = game.marker_by_id.get(piece_id)
    return m.name if m else piece_id


def _piece_side(game: Game, piece_id: str) -> str:
    u = game.unit_by_id.get(piece_id)
    if u:
        return u.side
    m = game.marker_by_id.get(piece_id)
    return m.side if m else ""


def _place(game: Game, at: str) -> str:
    return words.location(game, at)


def scenario_view(game: Game, sc) -> dict:
    """A scenario's set-up (grouped by side), reinforcements by turn, tracks and allowances."""
    sides: dict[str, list[dict]] = {s.id: [] for s in game.info.sides}
    other: list[dict] = []
    for p in sc.setup:
        where = _place(game, p.at)
        if p.also:
            where += " or " + ", ".join(_place(game, a) for a in p.also)
        if p.within:
            where += f" (or within {p.within} hex{'es' if p.within > 1 else ''})"
        if p.region:
            region = next((r.name for r in getattr(game.map, "regions", ()) if r.id == p.region),
                          p.region)
            where += f"; anywhere in {region}"
        row = {"piece": piece_label(game, p.unit), "where": where, "note": p.note,
               "source": p.source, "assumed": _assumed(p)}
        sides.get(_piece_side(game, p.unit), other).append(row)
    setup = [(side_name(game, sid), rows) for sid, rows in sides.items() if rows]
    if other:
        setup.append(("Markers", other))
    reinf = sorted(sc.reinforcements, key=lambda r: (r.turn is None, r.turn or 0))
    tracks = [{"name": t.name, "side": side_name(game, t.side), "values": list(t.per_turn),
               "note": t.note, "assumed": _assumed(t), "source": t.source} for t in sc.tracks]
    return {
        "id": sc.id, "name": sc.name, "description": sc.description, "turns": sc.turns,
        "setup_note": sc.setup_note, "setup": setup,
        "reinforcements": [{"turn": r.turn, "piece": piece_label(game, r.unit),
                            "side": side_name(game, _piece_side(game, r.unit)),
                            "at": ", ".join(_place(game, a) for a in r.at)
                            + (f" (waits in the {words.location(game, 'box:' + r.box)})"
                               if r.box else ""),
                            "condition": r.condition, "source": r.source, "note": r.note}
                           for r in reinf],
        "withdrawals": [{"when": w.timing(), "piece": piece_label(game, w.unit),
                         "side": side_name(game, _piece_side(game, w.unit)),
                         "to": next((b.name for b in game.info.boxes if b.id == w.box), "Withdrawn"),
                         "condition": w.condition, "note": w.note}
                        for w in sorted(sc.withdrawals, key=lambda w: w.leaves_as_turn_begins())],
        "allowances": [{"text": words.allowance(game, a), "note": a.note, "source": a.source}
                       for a in sc.allowances],
        "tracks": tracks,
        "draws": [{"deck": next((d.name for d in game.info.decks if d.id == x.deck), x.deck),
                   "count": x.count, "when": x.when} for x in sc.draws],
        "victory": list(sc.victory), "special_rules": list(sc.special_rules),
    }


def sequence(game: Game) -> list[dict]:
    """The sequence of play: phases with their steps, each with a stable id for the checklist."""
    out = []
    for i, ph in enumerate(game.info.sequence):
        out.append({"id": f"p{i}", "name": ph.name,
                    "side": side_name(game, ph.side) if ph.side else "",
                    "steps": [{"id": f"p{i}s{j}", "text": s} for j, s in enumerate(ph.steps)],
                    "skip": list(ph.skip_on_turns), "source": ph.source, "note": ph.note,
                    "assumed": _assumed(ph)})
    return out
