"""Calculators every hex map has without declaring them: distance between hexes, what a hex holds,
and a line of sight whose rule is given as inputs when the game declares none."""

from __future__ import annotations

from fractions import Fraction

from builder.tables.inputs import Choice, InputSpec
from builder.tables.result import Calculation, Outcome

BUILTIN = {
    "distance": "Distance between two hexes",
    "hex": "What a hex holds: terrain and the hexsides around it",
    "los": "Line of sight (rule given as inputs)",
}


def _declared_los(game) -> bool:
    return any(t.kind == "line-of-sight" for t in game.tables)


def calculators(game) -> list[dict]:
    """The built-in map calculators this game has (hex maps only)."""
    if not game.is_hex:
        return []
    return [{"id": k, "name": v, "kind": "map", "source": "", "dice": "", "assumed": []}
            for k, v in BUILTIN.items() if not (k == "los" and _declared_los(game))]


def has(game, calc_id: str) -> bool:
    return any(c["id"] == calc_id for c in calculators(game))


def inputs(game, calc_id: str) -> list[InputSpec]:
    """Inputs of a built-in map calculator."""
    if calc_id == "distance":
        return [InputSpec("from", "from hex", "hex", required=True),
                InputSpec("to", "to hex", "hex", required=True),
                InputSpec("within", "the most hexes allowed (answers in or out of range)", "int",
                          min=0)]
    if calc_id == "hex":
        return [InputSpec("hex", "hex", "hex", required=True)]
    kinds = tuple(Choice(t.id, t.name) for t in game.map.terrain_types)
    return [InputSpec("observer", "the observing unit's hex", "hex", required=True),
            InputSpec("target", "the target's hex", "hex", required=True),
            InputSpec("max_range", "farthest hex a line of sight reaches", "int", required=True, min=1),
            InputSpec("night", "a night turn (sees adjacent hexes only)", "bool", default=False),
            InputSpec("spotters", "hexes of spotting markers (each observes its hex and the adjacent "
                      "ones, whatever the terrain)", "hex", multiple=True),
            InputSpec("clear", "terrain that never blocks (besides the default terrain)", "choice",
                      multiple=True, choices=kinds),
            InputSpec("blind_hexes", "hexes behind an obstacle hidden from higher ground "
                      "(levels and heights from the map)", "int", default=0, min=0, max=9)]


def calculate(game, calc_id: str, values: dict, roll) -> Calculation:
    """Answer a built-in map question."""
    from builder import mapinfo
    from builder.model.tables import LineOfSightTable
    from builder.tables import sight
    from builder.tables.inputs import CalcError

    if roll is not None:
        raise CalcError(f"{calc_id} has no roll: leave out --roll")
    calc = Calculation(game=game.slug, table=calc_id, name=BUILTIN[calc_id], kind="map",
                       inputs={k: (game.grid.label(v) if hasattr(v, "col") else
                                   [game.grid.label(x) for x in v] if isinstance(v, list) and v
                                   and hasattr(v[0], "col") else v)
                               for k, v in values.items()},
                       given=[k for k, v in values.items() if v not in (None, False, [])])
    label = game.grid.label
    if calc_id == "distance":
        a, b = values["from"], values["to"]
        d = game.grid.distance(a, b)
        calc.step(f"{label(a)} to {label(b)}: {d} hex{'es' if d != 1 else ''} (counting {label(b)}, "
                  f"not {label(a)})")
        within = values.get("within")
        if within is not None:
            calc.outcome = Outcome("in range" if d <= within else "out of range",
                                   f"{d} {'<=' if d <= within else '>'} {within}")
        else:
            calc.outcome = Outcome(str(d), f"{d} hexes")
    elif calc_id == "hex":
        h = values["hex"]
        terrain = mapinfo.terrain_of(game, h)
        calc.step(f"{label(h)}: " + ", ".join(mapinfo.terrain_name(game, x) for x in terrain))
        for n in game.grid.neighbours(h):
            sides = mapinfo.hexside_types(game, h, n)
            if sides:
                calc.step(f"side to {label(n)}: "
                          + ", ".join(mapinfo.hexside_name(game, s) for s in sides))
        for lab in game.map.labels:
            if lab.hex == label(h):
                calc.step(f"label: {lab.text}")
        calc.outcome = Outcome(", ".join(mapinfo.terrain_name(game, x) for x in terrain), "")
    else:
        rule = LineOfSightTable(id="los", name=BUILTIN["los"], kind="line-of-sight",
                                max_range=values["max_range"],
                                night_range=1 if values.get("night") else None,
                                clear_terrain=tuple(values.get("clear") or ()),
                                blind_hexes=values.get("blind_hexes") or 0,
                                spotter="spotting marker" if values.get("spotters") else "")
        return sight.calculate(game, rule, values, None, calc)
    calc.distribution = [(calc.outcome, Fraction(1))]
    return calc
