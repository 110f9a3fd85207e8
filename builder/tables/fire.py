"""Fire tables: firepower bands across, dice down; the loss read is divided by the target's terrain."""

from __future__ import annotations

import re
from fractions import Fraction

from builder.model.tables import FireTable
from builder.tables import dice, place, rules
from builder.tables.common import meaning
from builder.tables.inputs import CalcError, Choice, InputSpec
from builder.tables.result import Calculation, Outcome, Tally
from builder.tables.rounding import WORDS, is_half, round_to_int, show
from builder.tables.terrain import divisor


def _band(text: str) -> tuple[int, float]:
    m = re.fullmatch(r"\s*(\d+)\s*(?:(-)\s*(\d+)|(\+))?\s*", text)
    lo = int(m.group(1))
    hi = int(m.group(3)) if m.group(3) else (float("inf") if m.group(4) else lo)
    return lo, hi


def firepower_input(t: FireTable, id_: str = "firepower", label: str = "") -> InputSpec:
    """Exact columns ([3] [6] [9]) are a choice; banded columns take any strength they cover."""
    label = label or "fire strength [SP]"
    if t.exact_bands:
        return InputSpec(id_, label, "choice", choices=tuple(Choice(b, f"[{b}]") for b in t.bands),
                         required=id_ == "firepower")
    lo = _band(t.bands[0])[0]
    hi = _band(t.bands[-1])[1]
    return InputSpec(id_, label, "int", required=id_ == "firepower", min=lo,
                     max=None if hi == float("inf") else int(hi),
                     help="columns: " + ", ".join(t.bands))


def band_index(t: FireTable, strength: int) -> int:
    """The column a fire strength is read in (CalcError listing the columns when none)."""
    for i, b in enumerate(t.bands):
        lo, hi = _band(b)
        if lo <= strength <= hi:
            return i
    raise CalcError(f"{t.id}: no column for fire strength {strength}; columns: {', '.join(t.bands)}")


def cell_loss(cell: str) -> int:
    return 0 if cell.strip() in ("-", "—", "") else int(cell)


def inputs(game, t: FireTable) -> list[InputSpec]:
    """Fire strength and the target's terrain (or its place on the map)."""
    specs = [firepower_input(t)] + place.specs(game, t)
    return specs + rules.inputs(game, t, specs)


def calculate(game, t: FireTable, values: dict, roll, calc: Calculation) -> Calculation:
    """Read the loss for a roll (or every roll), divide by the terrain and round."""
    strength = int(values["firepower"])
    col = band_index(t, strength)
    calc.column = t.bands[col]
    calc.step(f"fire strength {strength}: column {t.bands[col]}" if not t.exact_bands
              else f"fire strength [{strength}]: column [{t.bands[col]}]")
    div = Fraction(1)
    where = place.read(game, values, calc)
    ids = list(where.terrain) if where.terrain is not None else None
    applied = rules.evaluate(game, t, values, rules.facts(game, t, values, where), calc)
    if rules.refuse(applied, calc):
        return calc
    if t.terrain_effect:
        div = divisor(game, t.terrain_effect, ids, "best-for-defender", calc, "target's terrain")

    def loss(total: int, say: bool) -> Outcome:
        read = cell_loss(t.results[str(total)][col])
        if div == 1:
            n = read
            if say:
                calc.step(f"table: {t.results[str(total)][col]} -> loss {n}")
        else:
            raw = Fraction(read) / div
            n = round_to_int(raw, t.rounding)
            if say:
                calc.step(f"table: {read}, divided by the terrain: {read} / {show(div)} = {show(raw)}"
                          + (f", rounded {WORDS[t.rounding]} = {n}" if raw.denominator != 1 else ""))
                if is_half(raw):
                    calc.note(f"{show(raw)} is an exact half: rounded {WORDS[t.rounding]} it is {n}.")
        shown = str(n) if n else "-"
        got = rules.replaced(applied, shown)
        if got != shown:
            return Outcome(got, meaning(t, got), {"losses": n})
        return Outcome(shown, f"the target loses {n}" if n else "no loss", {"losses": n})

    if roll is not None:
        (total,) = dice.parse_roll(roll, t.dice)
        calc.roll = [total]
        calc.step(f"roll {total}")
        calc.outcome = loss(total, True)
        calc.step(f"result: {calc.outcome.meaning}")
    elif div != 1:
        calc.step(f"every loss read is divided by {show(div)} and rounded {WORDS[t.rounding]}")
    tally = Tally()
    for total, p in dice.totals(t.dice).items():
        tally.add(loss(total, False), p)
    calc.distribution = sorted(tally.items(), key=lambda op: op[0].numbers["losses"])
    calc.expected = tally.expected()
    return calc
