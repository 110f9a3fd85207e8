"""Fire & Movement's integrated CRT: attack minus defence, read on the defender's terrain row.

Each terrain row lists the differential bands over the result columns from the left, so
defensive terrain moves an attack to the left. Rows come from the player's choice or from the
map (the defender's hex and the hexsides the attackers cross); when several apply, the one best
for the defender (the leftmost column) is used.
"""

from __future__ import annotations

from fractions import Fraction

from builder import words
from builder.model.tables import DifferentialTable, parse_band
from builder.tables import dice, place, rules
from builder.tables.common import (
    apply_modifiers,
    item_note,
    meaning,
    modifier_inputs,
    shift_inputs,
    shift_total,
    signed,
    slug,
)
from builder.tables.inputs import CalcError, Choice, InputSpec
from builder.tables.result import Calculation, Outcome, Tally
from builder.tables.rounding import show


def inputs(game, t: DifferentialTable) -> list[InputSpec]:
    """The calculator's inputs: strengths, the terrain row (or hexes), conditions, shifts, DRMs."""
    rows = tuple(Choice(slug(r.name), r.name, aliases=r.terrain + r.hexsides) for r in t.terrain_rows)
    if rules.has_per_unit(t):  # a rule for each unit that crosses: one value per attacking hex
        attack = InputSpec("attack", "attacking strength: the total, or one value per attacking "
                           "hex (in the order of attacker_hexes)", "int", required=True, min=0,
                           multiple=True)
    else:
        attack = InputSpec("attack", "attacking strength (total of the attacking units)", "int",
                           required=True, min=0)
    specs = [
        attack,
        InputSpec("defence", "defending strength", "int", required=True, min=0),
        InputSpec("row", "terrain row", "choice", choices=rows, multiple=True,
                  help=f"the row(s) that could apply; several: the one best for the defender is used; "
                       f"default {t.default_row}. Terrain ids and hexside types also select their row"),
    ]
    for cond in _conditions(t):
        specs.append(InputSpec(slug(cond), cond, "bool", default=False,
                               help="a situation that selects its own terrain row"))
    specs += place.specs(game, t)
    if game.is_hex:
        specs.append(InputSpec("attacker_hexes", "the attacking units' hexes (for hexsides crossed)",
                               "hex", multiple=True))
    specs += shift_inputs(t.shifts)
    specs += modifier_inputs(t.modifiers)
    return specs + rules.inputs(game, t, specs)


def _conditions(t: DifferentialTable) -> list[str]:
    out = []
    for r in t.terrain_rows:
        if r.condition and r.condition not in out:
            out.append(r.condition)
    return out


def _row_aliases(game, t: DifferentialTable, raw: list[str]) -> list:
    """Rows named by slug, name, terrain id or hexside type id."""
    found = []
    for text in raw:
        rows = [r for r in t.terrain_rows if slug(r.name) == text]
        if not rows:
            raise CalcError(f"row={text}: not a row of {t.id}; allowed: "
                            + ", ".join(slug(r.name) for r in t.terrain_rows))
        found += [r for r in rows if r not in found]
    return found


def band_column(t: DifferentialTable, row, diff: int) -> tuple[int | None, str]:
    """(column index, how) for a differential on a row; None when the attack is not allowed."""
    bands = [parse_band(b) for b in row.differentials]
    for i, (lo, hi) in enumerate(bands):
        if lo <= diff <= hi:
            return i, f"{signed(diff)} is in the band {row.differentials[i]}"
    if t.ends == "after-shifts" and (diff < bands[0][0] or diff > bands[-1][1]):
        # past the row's end: a column a point, and the table's end applies after the shifts
        i = int(diff - bands[0][0]) if diff < bands[0][0] else \
            len(bands) - 1 + int(diff - bands[-1][1])
        return i, (f"{signed(diff)} is past the row's {'lowest' if i < 0 else 'highest'} band "
                   f"{row.differentials[0 if i < 0 else -1]}: shifts count from there, and the "
                   "table's end applies after them")
    if diff < bands[0][0]:
        if t.beyond_low == "not-allowed":
            return None, f"{signed(diff)} is below the row's lowest band {row.differentials[0]}: not allowed"
        i = 0 if t.beyond_low == "first-column" else len(bands) - 1
        return i, (f"{signed(diff)} is below the row's lowest band {row.differentials[0]}: "
                   f"read as {row.differentials[i]}")
    if t.beyond_high == "not-allowed":
        return None, f"{signed(diff)} is above the row's highest band {row.differentials[-1]}: not allowed"
    i = len(bands) - 1 if t.beyond_high == "last-column" else 0
    return i, (f"{signed(diff)} is above the row's highest band {row.differentials[-1]}: "
               f"read as {row.differentials[i]}")


def _label(t: DifferentialTable, row, i: int) -> str:
    if i < 0:  # past the row's lowest band (ends = 'after-shifts'): a column a point
        return f"{signed(int(parse_band(row.differentials[0])[0]) + i)} on {row.name}"
    if i < len(row.differentials):
        return f"{row.differentials[i]} on {row.name}"
    clear = next((r for r in t.terrain_rows if r.name == t.default_row), row)
    band = f", the {clear.name} row's {clear.differentials[i]}" if i < len(clear.differentials) else ""
    return f"column {i + 1} of {t.columns}{band}"


def candidate_rows(game, t: DifferentialTable, values: dict, calc: Calculation, where,
                   ruled=()) -> list:
    """Rows that could apply, with why; from the inputs, the place and the rules that apply."""
    rows: list = []
    if values.get("row"):
        rows = _row_aliases(game, t, values["row"])
        calc.step("terrain row given: " + ", ".join(r.name for r in rows))
        if where.terrain is not None:
            calc.step("the row given is read, not the row of the terrain")
    elif where.terrain is not None:
        rows = rows_from_place(game, t, values, calc, where)
    terrain = set(where.terrain) if where.terrain is not None else None
    for cond in _conditions(t):
        if values.get(slug(cond)):
            for r in t.terrain_rows:
                if r.condition != cond or r in rows:
                    continue
                if terrain is not None and r.terrain and not terrain & set(r.terrain):
                    calc.step(f"{cond}: the {r.name} row needs "
                              + ", ".join(r.terrain) + " in the defender's hex: it does not apply")
                    continue
                calc.step(f"{cond}: the {r.name} row applies" + (f" ({r.source})" if r.source else ""))
                rows.append(r)
    for rule in ruled:
        row = next(x for x in t.terrain_rows if x.name == rule.row)
        if row not in rows:
            calc.step(f"{rule.label}: the {row.name} row applies")
            rows.append(row)
    if not rows:
        rows = [next(r for r in t.terrain_rows if r.name == t.default_row)]
        calc.step(f"no terrain row given: the {t.default_row} row")
    return rows


def rows_from_place(game, t: DifferentialTable, values: dict, calc: Calculation, where) -> list:
    """The rows the defender's terrain (named, or its hex's) and the crossed hexsides select."""
    from builder import mapinfo

    terrain = where.terrain
    rows = [r for r in t.terrain_rows if set(r.terrain) & set(terrain) and not r.condition]
    for r in t.terrain_rows:
        if r.condition and set(r.terrain) & set(terrain) and not values.get(slug(r.condition)):
            calc.step(f"{r.name}: only {r.condition}")
    attackers = values.get("attacker_hexes") or []
    d = where.hex
    if attackers and d is None:
        raise CalcError("attacker_hexes needs hex (the defender's hex) to know the hexsides crossed")
    label = where.where
    crossing: dict[str, list[str]] = {}
    for a in attackers:
        if not game.grid.adjacent(a, d):
            raise CalcError(f"attacker_hexes: {game.grid.label(a)} is not adjacent to the defender's hex "
                            f"{label} (distance {game.grid.distance(a, d)})")
        sides = mapinfo.hexside_types(game, a, d)
        side_names = [mapinfo.hexside_name(game, s) for s in sides]
        calc.step(f"attacker in {game.grid.label(a)} attacks across "
                  + (", ".join(side_names) + " hexside" if side_names else "a plain hexside"))
        for s in sides:
            crossing.setdefault(s, []).append(game.grid.label(a))
    for r in t.terrain_rows:
        hits = [s for s in r.hexsides if s in crossing]
        if not hits or r in rows:
            continue
        if set(r.except_terrain) & set(terrain):
            calc.step(f"{r.name}: never applies to a defender in "
                      + ", ".join(mapinfo.terrain_name(game, x) for x in terrain if x in r.except_terrain)
                      + (f" ({r.source})" if r.source else ""))
            continue
        across = {h for s in hits for h in crossing[s]}
        if t.hexside_applies == "all" and len(across) < len(attackers):
            calc.step(f"{r.name}: not every attacker crosses it, so it does not apply "
                      "(hexside_applies = all)")
            continue
        calc.step(f"{r.name} row: attack across the hexside from {', '.join(sorted(across))}"
                  + (f" ({r.source})" if r.source else ""))
        if t.hexside_applies == "any" and len(across) < len(attackers):
            calc.note("A hexside row applies when any attacking unit attacks across that "
                      "hexside (rows are then chosen best for the defender).")
        rows.append(r)
    if not attackers and d is not None and any(r.hexsides for r in t.terrain_rows):
        calc.note("No attacker hexes given, so no hexside (trench, canal, river) row was considered.")
    return rows


def calculate(game, t: DifferentialTable, values: dict, roll, calc: Calculation) -> Calculation:
    """Resolve one attack, or give the odds of every result when no roll is given."""
    defence = values["defence"]
    where = place.read(game, values, calc)
    facts = rules.facts(game, t, values, where)
    applied = rules.evaluate(game, t, values, facts, calc)
    if rules.refuse(applied, calc):
        return calc
    attack = _attack_total(values, applied, calc)
    afac, arule = rules.attack_factor(applied)
    attack = rules.scale(attack, afac, arule or "down", calc, "attack")
    dfac, drule = rules.defence_factor(applied)
    defence = rules.scale(defence, dfac, drule or "down", calc, "defence")
    defence = _divided_defence(game, t, where, defence, calc)
    diff = attack - defence
    calc.step(f"differential: attack {attack} - defence {defence} = {signed(diff)}")
    rows = candidate_rows(game, t, values, calc, where, applied.rows)
    options = []
    for r in rows:
        i, how = band_column(t, r, diff)
        options.append((r, i, how))
    allowed = [o for o in options if o[1] is not None]
    if len(options) > 1:
        for r, i, how in options:
            calc.step(f"  {r.name}: {how}" + (f" -> column {i + 1}" if i is not None else ""))
    if not allowed:
        r, _, how = options[0]
        calc.step(how)
        calc.outcome = Outcome("not allowed", words.cannot(t, "this differential"))
        calc.distribution = [(calc.outcome, Fraction(1))]
        return calc
    row, col, how = min(allowed, key=lambda o: o[1])
    if len(options) > 1:
        calc.step(f"the row best for the defender is {row.name} (column {col + 1})")
        calc.note("When more than one terrain row applies, the one best for the defender (the "
                  "leftmost column) is used.")
    else:
        calc.step(f"{row.name} row: {how}")
    if "beyond" in how:
        calc.note(f"Beyond the end of a row: {how}.")
    item_note(calc, row, f"row {row.name}")
    col = rules.move_column(t, calc, col, applied, shift_total(calc, t.shifts, values),
                            t.columns - 1, lambda i: _label(t, row, i), lambda n: int(n) - 1,
                            lambda n: int(n) - 1)
    if col is None:
        calc.outcome = Outcome("not allowed", words.cannot(t, "this differential"))
        calc.distribution = [(calc.outcome, Fraction(1))]
        return calc
    calc.column = _label(t, row, col)
    calc.step(f"column: {calc.column}")
    drm = apply_modifiers(calc, t.modifiers, values, where) + applied.drm
    if applied.drm:
        calc.step(f"rules: {signed(applied.drm)} to the roll")
    return read_column(t, col, drm, roll, calc, applied)


def _attack_total(values: dict, applied, calc: Calculation) -> int:
    """The attack added up, each unit that crosses under a per-unit rule first (one value per
    attacking hex: a canal halving each unit attacking across it), rounded down unless the rule
    says (a differential table has no rounding of its own)."""
    given = values["attack"]
    edges = list(given) if isinstance(given, (list, tuple)) else [given]
    attackers = values.get("attacker_hexes") or []
    if attackers:
        edges = rules.per_unit(applied, edges, len(attackers), "down", calc)
    attack = sum(edges)
    if len(edges) > 1:
        calc.step(f"attack: {' + '.join(map(str, edges))} = {attack}")
    return attack


def read_column(t, col: int, drm: int, roll, calc: Calculation, applied=None) -> Calculation:
    """Roll (or every roll) on one column."""
    lo, hi = dice.dice_range(t.dice)
    applied = applied or rules.Applied()

    def cell(total: int) -> tuple[str, int]:
        mod = min(max(total + drm, lo), hi)
        return rules.replaced(applied, t.results[str(mod)][col]), mod

    if roll is not None:
        (total,) = dice.parse_roll(roll, t.dice)
        result, mod = cell(total)
        calc.roll = [total]
        calc.step(f"roll {total}" + (f" {signed(drm)} = {total + drm}" if drm else ""))
        if drm and mod != total + drm:
            calc.step(f"modified roll {total + drm} is off the table: read as {mod}")
            calc.note("A modified roll beyond the table reads the nearest end row.")
        calc.outcome = Outcome(result, meaning(t, result))
        calc.step(f"result: {result}" + (f" ({calc.outcome.meaning})" if calc.outcome.meaning else ""))
    tally = Tally()
    for total, p in dice.totals(t.dice).items():
        result, _ = cell(total)
        tally.add(Outcome(result, meaning(t, result)), p)
    calc.distribution = tally.items()
    return calc


def _divided_defence(game, t: DifferentialTable, where, defence: int, calc: Calculation) -> int:
    """The defence divided by the defender's terrain (Vimy 14.1), fractions rounded down."""
    if not t.defence_effect or where.terrain is None:
        return defence
    found = [game.terrain_types[i] for i in where.terrain
             if i in game.terrain_types and t.defence_effect in game.terrain_types[i].effects]
    if not found:
        return defence
    best = max(found, key=lambda x: Fraction(str(x.effects[t.defence_effect])))
    div = Fraction(str(best.effects[t.defence_effect]))
    new = int(Fraction(defence) / div)
    calc.step(f"defence in {best.name}: {defence} / {show(div)} = {show(Fraction(defence) / div)}, "
              f"fractions rounded down = {new}" + (f" ({best.source})" if best.source else ""))
    return new
