"""Map-rule calculators: line of sight (Vimy 17.3) and range from the nearest unit (Scheldt 14.2)."""

from __future__ import annotations

from fractions import Fraction

from builder.tables.inputs import CalcError, InputSpec
from builder.tables.result import Calculation, Outcome


def _need_hex(game, t) -> None:
    if not game.is_hex:
        raise CalcError(f"{t.id}: {game.slug} has an area map; this calculator needs hexes")


def inputs(game, t) -> list[InputSpec]:
    """Hexes in; for a line of sight also whether it is a night turn (or which turn)."""
    if t.kind == "range":
        return [InputSpec("target", f"the {t.target}'s hex", "hex", required=True),
                InputSpec("origins", f"hexes of every {t.origin} (the nearest counts)", "hex",
                          required=True, multiple=True)]
    specs = [InputSpec("observer", "the observing unit's hex", "hex", required=True),
             InputSpec("target", "the target's hex", "hex", required=True)]
    if t.spotter:
        specs.append(InputSpec("spotters", f"hexes of every {t.spotter} (observes its hex and the "
                               "adjacent ones)", "hex", multiple=True))
    if t.night_range is not None:
        specs.append(InputSpec("night", "a night turn", "bool", default=False))
        turns = game.info.turns
        if any(d.night for d in turns.detail):
            specs.append(InputSpec("turn", "the game turn (night turns from the turn track)", "int",
                                   min=turns.first, max=turns.first + turns.count - 1))
    return specs


def calculate(game, t, values: dict, roll, calc: Calculation) -> Calculation:
    """Answer the map question, with the working."""
    from builder import mapinfo

    _need_hex(game, t)
    if roll is not None:
        raise CalcError(f"{t.id} has no roll: leave out --roll")
    label = game.grid.label
    if t.kind == "range":
        target = values["target"]
        dists = sorted((game.grid.distance(o, target), label(o)) for o in values["origins"])
        for dist, o in dists:
            calc.step(f"{t.origin} in {o}: {dist} hex{'es' if dist != 1 else ''} from {label(target)}")
        nearest, where = dists[0]
        ok = nearest <= t.max
        calc.column = f"{nearest} hexes"
        calc.step(f"{_nearest(t.origin)}: {where}, {nearest} hex{'es' if nearest != 1 else ''}; "
                  f"the most allowed is {t.max}" + (f" ({t.source})" if t.source else ""))
        calc.outcome = Outcome("in range" if ok else "out of range",
                               f"{label(target)} is {'within' if ok else 'more than'} {t.max} hexes of "
                               f"the {_nearest(t.origin)}")
        calc.distribution = [(calc.outcome, Fraction(1))]
        return calc
    night = bool(values.get("night"))
    if values.get("turn") is not None:
        detail = {d.number: d for d in game.info.turns.detail}.get(values["turn"])
        if detail and detail.night:
            night = True
            calc.step(f"turn {values['turn']} ({detail.name or 'night'}) is a night turn")
    obs, tgt = values["observer"], values["target"]
    levels = has_levels(game)
    for who, h in (("observer", obs), ("target", tgt)):
        calc.step(f"{who} {label(h)}: " + ", ".join(mapinfo.terrain_name(game, x)
                                                    for x in mapinfo.terrain_of(game, h))
                  + (f", level {mapinfo.ground_level(game, h)}" if levels else ""))
    for sp in values.get("spotters") or []:
        if game.grid.distance(sp, tgt) <= 1:
            calc.column = f"{game.grid.distance(obs, tgt)} hexes"
            why = f"{t.spotter or 'a spotter'} in {label(sp)}: its hex and the adjacent ones are observed"
            calc.step(why + (f" ({t.source})" if t.source else ""))
            calc.outcome = Outcome("observed", why)
            calc.distribution = [(calc.outcome, Fraction(1))]
            return calc
    ans = mapinfo.line_of_sight(game, t, obs, tgt, night)
    calc.column = f"{ans['distance']} hexes"
    calc.step(f"distance {ans['distance']}" + (" on a night turn" if night else ""))
    calc.step(ans["why"])
    calc.outcome = Outcome("observed" if ans["seen"] else "not observed", ans["why"])
    calc.distribution = [(calc.outcome, Fraction(1))]
    calc.note("Lines run " + ("from any corner of the observer's hex to any corner of the target's"
                              if t.corner_to_corner else "centre to centre")
              + "; the observer's and the target's own hexes and hexsides never block. Terrain "
              "between them blocks when it stands above the lower end and as high as the higher "
              "one" + (f", or hides the lower end within {t.blind_hexes} hex"
                       f"{'es' if t.blind_hexes != 1 else ''} behind it" if t.blind_hexes else "")
              + "; sight is the same both ways.")
    return calc


def has_levels(game) -> bool:
    """Whether the map gives any ground a level other than 0."""
    return bool(game.hex_levels) or any(t.level for t in game.map.terrain_types)


def _nearest(origin: str) -> str:
    """'nearest <origin>', once even when the table's origin already says 'nearest'."""
    return origin if origin.startswith("nearest ") else f"nearest {origin}"
