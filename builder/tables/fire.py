"""Fire tables: columns by total firepower, rows by the modified roll.

A fire is resolved in this order (builder.tables.effects names the stages): rules that forbid it;
each firing unit's firepower under the rules that hold for it (a unit beyond its range halved, an
adjacent one doubled), added up, the total's fraction rounded once; the column that total falls in,
moved by rules (column, shift, cap); the roll plus every die-roll modifier (the table's modifiers,
the target's terrain from its hex or as named, rules' drm); a natural roll the table lists gives its
result whatever the modifiers; a modified roll beyond the first or last row reads that row. A
number read is a loss (divided by the target's terrain when the table says so); other text is a
result the legend explains. Several markers on one target (attempts) are rolled in turn and the
target suffers the first effect only.
"""

from __future__ import annotations

import re
from fractions import Fraction

from builder.model.tables import FireTable
from builder.tables import dice, place, rules
from builder.tables import markers as markers_
from builder.tables.common import (
    apply_modifiers,
    meaning,
    modified_row,
    modifier_inputs,
    row_span,
    signed,
)
from builder.tables.inputs import CalcError, Choice, InputSpec
from builder.tables.result import Calculation, Outcome, Tally
from builder.tables.rounding import WORDS, is_half, round_to_int, show
from builder.tables.terrain import divisor


def _band(text: str) -> tuple[int, float]:
    m = re.fullmatch(r"\s*(\d+)\s*(?:(-)\s*(\d+)|(\+))?\s*", text)
    lo = int(m.group(1))
    hi = int(m.group(3)) if m.group(3) else (float("inf") if m.group(4) else lo)
    return lo, hi


def firepower_input(t: FireTable, id_: str = "", label: str = "") -> InputSpec:
    """Exact columns ([3] [6] [9]) are a choice; banded columns take any firepower they cover;
    a fire group's is given unit by unit. Named after the factor the columns read."""
    own = not id_
    id_ = id_ or t.strength_input
    what = t.strength
    if t.exact_bands:
        return InputSpec(id_, label or f"{what} [SP]", "choice",
                         choices=tuple(Choice(b, f"[{b}]") for b in t.bands), required=own)
    lo = _band(t.bands[0])[0]
    hi = _band(t.bands[-1])[1]
    if t.fire_group and own:
        return InputSpec(id_, label or f"{what} of each firing unit (the fire group)", "int",
                         required=True, min=0, multiple=True,
                         help="one value per unit, e.g. 6,6,4; columns: " + ", ".join(t.bands))
    return InputSpec(id_, label or f"{what} of the firing unit", "int", required=own, min=lo,
                     max=None if hi == float("inf") else int(hi),
                     help="columns: " + ", ".join(t.bands))


def band_index(t: FireTable, strength: int) -> int:
    """The column a firepower is read in (CalcError listing the columns when none)."""
    for i, b in enumerate(t.bands):
        lo, hi = _band(b)
        if lo <= strength <= hi:
            return i
    raise CalcError(f"{t.id}: no column for {t.strength} {strength}; columns: {', '.join(t.bands)}")


def cell_loss(cell: str) -> int:
    """A numeric cell as a loss ('-' is none)."""
    return 0 if cell.strip() in ("-", "—", "") else int(cell)


def _ranged(t: FireTable) -> tuple[bool, bool]:
    """Whether the table's rules test each unit's distance, and its range."""
    specs = [c.distance for r in t.rules if r.when is not None for c in r.when.walk() if c.distance]
    return bool(specs), any("range" in s for s in specs)


def inputs(game, t: FireTable) -> list[InputSpec]:
    """Firepower (unit by unit for a fire group), each unit's distance and range where rules test
    them, the modifiers, the target's terrain or hex, how many markers, the rules' inputs."""
    specs = [firepower_input(t)] if t.bands else []
    ranged, ranges = _ranged(t)
    if ranged:
        specs.append(InputSpec("distance", "each firing unit's distance to the target, in hexes "
                               f"(in the order of {t.strength})", "int", min=0, multiple=True))
        if game.is_hex:
            specs.append(InputSpec("firer_hexes", "each firing unit's hex (in the order of "
                                   f"{t.strength}): the distance to the target's hex is read from "
                                   "the map", "hex", multiple=True))
        if ranges:
            specs.append(InputSpec("range", "each firing unit's printed range (in the order of "
                                   f"{t.strength})", "int", min=0, multiple=True))
    specs += modifier_inputs(t.modifiers) + place.specs(game, t)
    if ranged and game.is_hex and place.HEX not in {s.id for s in specs}:
        specs.append(InputSpec(place.HEX, f"{place.whose(t)} hex", "hex"))
    if t.attempts > 1:
        specs.append(InputSpec("markers", f"markers on the target (1 to {t.attempts})", "int",
                               default=1, min=1, max=t.attempts))
    return specs + rules.inputs(game, t, specs)


# --- the fire group ---------------------------------------------------------------------------
def _per_unit(game, t: FireTable, values: dict, f: rules.Facts, n: int) -> None:
    """Each firing unit's distance (given, or read from its hex) and range, into the facts."""
    dist = values.get("distance")
    hexes = values.get("firer_hexes")
    if dist and hexes:
        raise CalcError("give distance or firer_hexes, not both: firer_hexes reads the distance "
                        "from the map")
    if hexes:
        target = values.get(place.HEX)
        if target is None:
            raise CalcError("firer_hexes needs the target's hex (the distance is measured to it)")
        dist = [game.grid.distance(h, target) for h in hexes]
    for name, got in (("distance" if not hexes else "firer_hexes", dist),
                      ("range", values.get("range"))):
        if got and len(got) != n:
            raise CalcError(f"{name}: give one value per firing unit, in the order of "
                            f"{t.strength} ({n} unit{'s' if n != 1 else ''}), not {len(got)}")
    f.distances = list(dist) if dist else None
    f.ranges = list(values["range"]) if values.get("range") else None


def _firepower(t: FireTable, units: list[int], applied: rules.Applied, f: rules.Facts,
               calc: Calculation) -> int:
    """The fire group's total: each unit under the rules that hold for it, added up, then the
    rules on the whole fire, the fraction rounded once."""
    out: list[Fraction] = [Fraction(u) for u in units]
    several = len(units) > 1
    for r, k, which in applied.attack:
        if which is None:
            continue
        for i in which:
            raw = out[i] * k
            rounded = Fraction(round_to_int(raw, r.rounding)) if r.rounding else raw
            op = f"x {show(k)}" if k > 1 else f"/ {show(1 / k)}"
            where = ""
            if f.distances is not None:
                where = f", {f.distances[i]} hex{'es' if f.distances[i] != 1 else ''} away" + (
                    f", range {f.ranges[i]}" if f.ranges is not None else "")
            calc.step(f"unit {i + 1} ({t.strength} {units[i]}{where}), {r.label}: {show(out[i])} {op}"
                      f" = {show(raw)}" + (f", rounded {WORDS[r.rounding]} = {show(rounded)}"
                                           if r.rounding and raw.denominator != 1 else ""))
            out[i] = rounded
    total = sum(out, Fraction(0))
    if several or total != units[0]:
        calc.step(f"total {t.strength}: " + " + ".join(show(v) for v in out) + f" = {show(total)}"
                  if several else f"{t.strength}: {show(total)}")
    rounding = None
    for r, k, which in applied.attack:
        if which is not None:
            continue
        raw = total * k
        op = f"x {show(k)}" if k > 1 else f"/ {show(1 / k)}"
        calc.step(f"{r.label}: {show(total)} {op} = {show(raw)}")
        total = raw
        rounding = rounding or r.rounding
    rounding = rounding or t.firepower_rounding
    n = round_to_int(total, rounding)
    if total.denominator != 1:
        calc.step(f"{show(total)} rounded {WORDS[rounding]}: {t.strength} {n}")
    return n


def _column(t: FireTable, strength: int, applied: rules.Applied, calc: Calculation) -> int | None:
    """The column read for a total firepower, after the rules' column, shifts and cap (None: the
    firepower is below the first column)."""
    lo = _band(t.bands[0])[0]
    if strength < lo and applied.column is None:
        calc.step(f"{t.strength} {strength} is below the first column ({t.bands[0]}): no effect")
        return None
    top = _band(t.bands[-1])[1]
    if strength > top:
        calc.step(f"{t.strength} {strength} is above the last column ({t.bands[-1]}): read on it")
        col = len(t.bands) - 1
    else:
        col = band_index(t, strength)
    calc.step(f"{t.strength} {strength}: column " + (f"[{t.bands[col]}]" if t.exact_bands
                                                  else t.bands[col]))
    last = len(t.bands) - 1
    return rules.move_column(t, calc, col, applied, 0, last, lambda i: t.bands[i],
                             lambda text: _band_of(t, text), lambda text: _band_of(t, text),
                             beyond=("first-column", "last-column"))


def _band_of(t: FireTable, text: str) -> int:
    return [b.replace(" ", "") for b in t.bands].index(text.replace(" ", ""))


# --- reading a roll ---------------------------------------------------------------------------
def read(t: FireTable, col: int, natural: int, drm: int) -> tuple[str, str]:
    """(cell, how) for one roll: a natural result, or the row of the modified roll (an end row
    beyond the table)."""
    if str(natural) in t.natural:
        got = t.natural[str(natural)]
        return got, f"natural {natural}: {got} whatever the modifiers"
    row, how = modified_row(t.results, natural, drm)
    return t.results[row][col], how


def calculate(game, t: FireTable, values: dict, roll, calc: Calculation) -> Calculation:
    """A fire's result for the roll given, or the odds of each result over every roll."""
    where = place.read(game, values, calc)
    ids = list(where.terrain) if where.terrain is not None else None
    f = rules.facts(game, t, values, where)
    units: list[int] = []
    if t.bands:
        given = values[t.strength_input]
        units = [int(v) for v in (given if isinstance(given, list) else [given])]
        if not units:
            raise CalcError(f"{t.strength_input}: give each firing unit's {t.strength}")
    _per_unit(game, t, values, f, max(len(units), 1))
    applied = rules.evaluate(game, t, values, f, calc)
    if rules.refuse(applied, calc):
        return calc
    col: int | None = 0
    if t.bands:
        strength = _firepower(t, units, applied, f, calc) if not t.exact_bands else units[0]
        col = _column(t, strength, applied, calc)
        if col is not None:
            calc.column = t.bands[col]
    div = Fraction(1)
    if t.terrain_effect:
        div = divisor(game, t.terrain_effect, ids, "best-for-defender", calc, "target's terrain")
    drm = apply_modifiers(calc, t.modifiers, values, where) + applied.drm
    if applied.drm:
        calc.step(f"rules: {signed(applied.drm)} to the roll")
    if t.modifiers or applied.drm or t.rules:
        calc.step(f"net modifier: {signed(drm)}")
    if col is None:
        calc.outcome = Outcome("-", meaning(t, "-") or "no effect", {"losses": 0})
        calc.distribution = [(calc.outcome, Fraction(1))]
        return calc
    if not t.bands:
        calc.column = f"modifier {signed(drm)}"

    numeric = bool(t.terrain_effect) or any(c.strip().isdigit() for row in t.results.values()
                                            for c in row)

    def outcome(cell: str, say: bool) -> Outcome:
        if not numeric or not re.fullmatch(r"\d+|-|—", cell.strip()):  # a result code
            got = rules.replaced(applied, cell)
            if say and got != cell:
                calc.step(f"{cell} becomes {got}")
            return Outcome(got, meaning(t, got))
        read_loss = cell_loss(cell)
        n = read_loss
        if div != 1:
            raw = Fraction(read_loss) / div
            n = round_to_int(raw, t.rounding)
            if say:
                calc.step(f"loss {read_loss}, divided by the terrain: {read_loss} / {show(div)} = "
                          f"{show(raw)}" + (f", rounded {WORDS[t.rounding]} = {n}"
                                            if raw.denominator != 1 else ""))
                if is_half(raw):
                    calc.note(f"{show(raw)} is an exact half: rounded {WORDS[t.rounding]} it is {n}.")
        shown = str(n) if n else "-"
        got = rules.replaced(applied, shown)
        if got != shown:
            return Outcome(got, meaning(t, got), {"losses": n})
        nothing = t.legend.get("-", t.legend.get("—", "no loss"))
        return Outcome(shown, f"the target loses {n}" if n else nothing,
                       {"losses": n})

    lo, hi = row_span(t.results)
    if any(str(n) not in t.natural and not lo <= n + drm <= hi for n in dice.totals(t.dice)):
        calc.note(f"Modified rolls beyond the rows ({lo} to {hi}) read the nearest end row.")
    for k, v in t.natural.items():
        calc.note(f"A natural {k} is always '{v}', whatever the modifiers.")
    markers = int(values.get("markers") or 1)
    if roll is not None:
        rolls = dice.parse_roll(roll, t.dice, count=markers, what="roll")
        calc.roll = rolls
        def read_roll(r: int) -> tuple[Outcome, str]:
            cell, how = read(t, col, r, drm)
            return outcome(cell, True), how

        got = markers_.roll_in_turn(calc, rolls, read_roll)
        calc.outcome = got
        calc.step(f"result: {got.result}" + (f" ({got.meaning})" if got.meaning
                                             and got.meaning != got.result else ""))
    elif div != 1:
        calc.step(f"every loss read is divided by {show(div)} and rounded {WORDS[t.rounding]}")
    single = Tally()
    per = dice.totals(t.dice)
    for total, p in per.items():
        single.add(outcome(read(t, col, total, drm)[0], False), p)
    if markers == 1:
        items = single.items()
        if all("losses" in o.numbers for o, _ in items):
            items = sorted(items, key=lambda op: op[0].numbers["losses"])
            calc.expected = single.expected()
        calc.distribution = items
        return calc
    combined = markers_.combined(per, markers,
                                 lambda total: outcome(read(t, col, total, drm)[0], False))
    calc.note("Several markers on one target: each is rolled in turn; the target suffers one "
              "result at most.")
    calc.distribution = combined.items()
    return calc
