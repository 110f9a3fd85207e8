"""A rules-assistant calculation set up on the module's board: the hand-worked cases of
tests/tables run through the module too (issue 38 item 5).

`on_the_board(game, table_id, inputs, roll)` gives the module's answer for the same situation,
or None where the inputs say something the board cannot (a terrain typed without a hex, a turn
left out that the marker always has, one attack total for several attacking hexes).
"""

from __future__ import annotations

from types import SimpleNamespace

from builder.tables.rules import ATTRIBUTES
from builder.vassal_combat import calculators
from builder.vassal_combat.calculator import factor_property, factor_values
from builder.vassal_combat.simulate import Battle, answer
from tests.vassal_combat.situations import _by_strength, _counts

PLACE = ("hex", "defender_hex", "target_hex", "sector", "target_sector")
STRENGTH = ("attack", "defence", "attacker_hexes", "attacker_sectors", "firepower", "roll")


def _values(text) -> list[str]:
    if isinstance(text, (list, tuple)):
        return [str(v) for v in text]
    return [v.strip() for v in str(text).split(",") if v.strip()]


def _unit(role: str, inputs: dict):
    """A stand-in piece with the attributes the inputs give the role (first value each)."""
    return SimpleNamespace(**{a: (_values(inputs.get(f"{role}_{a}", ""))[:1] or [""])[0]
                              for a in ATTRIBUTES})


def on_the_board(game, table_id: str, inputs: dict, roll=None) -> dict | None:
    """The module's CombatResult and CombatColumnLabel for these inputs (None: not expressible)."""
    c = next((c for c in calculators(game) if c.table_id == table_id), None)
    if c is None:
        return None
    by_api = {i.api: i for i in c.inputs if not i.api_member}
    marker: dict = {}
    for k, v in inputs.items():
        if k in PLACE or k in STRENGTH or any(k == f"{r}_{a}" for r in
                                              ("attacker", "defender", "firer", "target")
                                              for a in ATTRIBUTES):
            continue
        i = by_api.get(k)
        if i is None:
            return None  # typed terrain, a row, a reading the marker does not offer...
        if i.kind == "board":  # the turn: the turn track shows its label
            marker[i.prop] = i.choices[int(v) - i.min]
            continue
        marker[i.prop] = int(v) if isinstance(v, bool) else v
    for i in c.inputs:  # the marker always knows these; left out, the calculator does not
        if i.api in ("turn", "scenario") and i.prop not in marker:
            return None
    where = next((str(inputs[k]) for k in PLACE if k in inputs), "")
    hexes = _values(inputs.get("attacker_hexes", inputs.get("attacker_sectors", "")))
    if not where and game.is_hex and c.kind != "lookup":
        # no place given: the calculator knows no terrain; on the board, a plain place
        plain = _plain_place(game, game.table_by_id[table_id])
        if plain is None or hexes:
            return None
        where, around = plain
        hexes = around[:max(1, len(_values(inputs.get("attack", 0))))]
    if c.kind in ("ratio", "differential"):
        strengths = [int(v) for v in _values(inputs.get("attack", 0))]
        if len(hexes) > 1 and len(strengths) != len(hexes):
            return None
        if not hexes:
            hexes = [""]
        att, dfn = factor_property(game, "attack"), factor_property(game, "defence")
        defender = _unit("defender", inputs)
        attacker = _unit("attacker", inputs)
        stack = {dfn: int(inputs.get("defence", 0)), **_counts(c, [defender], False)}
        strengths += [0] * (len(hexes) - len(strengths))
        if _by_strength(c) and not set(strengths) <= set(factor_values(game, att)):
            return None  # the module counts units by printed strength: no such unit
        attackers = [(h, {att: s, **_counts(c, [attacker], True, s)})
                     for h, s in zip(hexes, strengths)]
        b = Battle(at=where, stack=stack, attackers=attackers, inputs=marker)
    else:
        target = _unit("target", inputs)
        b = Battle(at=where, stack=_counts(c, [target], False), inputs=marker)
        if "firepower" in inputs:
            b.inputs["CombatFire"] = inputs["firepower"]
    rolls = [int(r) for r in _values(roll)] if roll is not None else []
    dice = [p for p, _ in c.dice]
    for k, p in enumerate(dice):
        b.dice[p] = rolls[k] if k < len(rolls) else (rolls[0] if rolls else 1)
    if c.kind == "modified-roll" and rolls and "CombatMarkers" in {i.prop for i in c.inputs}:
        b.inputs.setdefault("CombatMarkers", len(rolls))
    got = answer(c, b, ["CombatResult", "CombatColumnLabel"] if "CombatColumnLabel" in c.calcs()
                 else ["CombatResult"])
    return got


def _plain_place(game, t):
    """A hex whose terrain has no effect, in no region, where no rule's place test holds, with
    three neighbours across plain hexsides (the board's stand-in for 'no place given')."""
    from builder import mapinfo
    from builder.vassal_combat.rules import static_nodes, static_value

    nodes = static_nodes(t)
    for h in game.grid.all_hexes():
        if any(game.terrain_types[i].effects for i in mapinfo.terrain_of(game, h)
               if i in game.terrain_types) or mapinfo.regions_of(game, h):
            continue
        if any(static_value(game, n, h) for n in nodes):
            continue
        around = [game.grid.label(n) for n in game.grid.neighbours(h)
                  if not mapinfo.hexside_types(game, n, h)]
        if len(around) >= 3:
            return game.grid.label(h), around
    return None
