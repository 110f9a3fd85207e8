"""Plain lookups: a roll (or a value such as victory points) against listed conditions."""

from __future__ import annotations

from fractions import Fraction

from builder import words
from builder.model.rolls import RollSpec
from builder.model.tables import LookupTable
from builder.tables import dice, rules
from builder.tables.common import apply_modifiers, modifier_inputs, signed
from builder.tables.inputs import CalcError, InputSpec
from builder.tables.result import Calculation, Outcome, Tally


def inputs(game, t: LookupTable) -> list[InputSpec]:
    """The table's own inputs (the key first when it is an input), then roll modifiers."""
    specs = []
    for i in sorted(t.inputs, key=lambda i: i.id != t.key):
        specs.append(InputSpec(i.id, i.name, "int", required=True, min=i.min, max=i.max))
    specs += modifier_inputs(t.modifiers)
    return specs + rules.inputs(game, t, specs)


def entry_for(t: LookupTable, value: int, extra: dict):
    """The first entry matching (the entries are read in order)."""
    for e in t.entries:
        if RollSpec(e.when).matches(value, extra):
            return e
    return None


def _outcome(t: LookupTable, e, applied=None) -> Outcome:
    got = rules.replaced(applied or rules.Applied(), e.result)
    if got != e.result:
        return Outcome(got, t.legend.get(got, ""))
    return Outcome(e.result, e.detail or t.legend.get(e.result, ""))


def calculate(game, t: LookupTable, values: dict, roll, calc: Calculation) -> Calculation:
    """Look the value (or the roll, or every roll) up."""
    extra = {i.id: values[i.id] for i in t.inputs if i.id != t.key}
    applied = rules.evaluate(game, t, values, rules.facts(game, t, values), calc)
    if rules.refuse(applied, calc):
        return calc
    for k, v in extra.items():
        calc.step(f"{next(i.name for i in t.inputs if i.id == k)}: {v}")
    if not t.dice:
        if roll is not None:
            raise CalcError(f"{t.id} looks up {t.key}, not a roll: leave out --roll")
        value = values[t.key]
        e = entry_for(t, value, extra)
        calc.column = None
        calc.step(f"{next(i.name for i in t.inputs if i.id == t.key)} {value}: row "
                  f"“{words.entry(t, e.when)}”")
        calc.outcome = _outcome(t, e, applied)
        calc.step(f"result: {calc.outcome.result}" + (f" ({calc.outcome.meaning})" if calc.outcome.meaning else ""))
        calc.distribution = [(calc.outcome, Fraction(1))]
        _overlap_note(t, value, extra, calc)
        return calc
    drm = apply_modifiers(calc, t.modifiers, values) + applied.drm
    if applied.drm:
        calc.step(f"rules: {signed(applied.drm)} to the roll")
    lo, hi = dice.dice_range(t.dice)

    def look(total: int):
        value = total + drm
        e = entry_for(t, value, extra)
        if e is None:  # a modified roll past every entry reads the nearest end of the dice
            e = entry_for(t, min(max(value, lo), hi), extra)
        return e, value

    if roll is not None:
        (total,) = dice.parse_roll(roll, t.dice)
        calc.roll = [total]
        e, value = look(total)
        calc.step(f"roll {total}" + (f" {signed(drm)} = {value}" if drm else "")
                  + f": row “{words.entry(t, e.when)}”")
        calc.outcome = _outcome(t, e, applied)
        calc.step(f"result: {calc.outcome.result}" + (f" ({calc.outcome.meaning})" if calc.outcome.meaning else ""))
        _overlap_note(t, value, extra, calc)
    tally = Tally()
    for total, p in dice.totals(t.dice).items():
        e, _ = look(total)
        tally.add(_outcome(t, e, applied), p)
    for total in range(lo, hi + 1):
        _overlap_note(t, total + drm, extra, calc)
    calc.distribution = tally.items()
    return calc


def _overlap_note(t: LookupTable, value: int, extra: dict, calc: Calculation) -> None:
    """Say so when a later entry also matches: the first one listed wins."""
    hits = [e for e in t.entries if not RollSpec(e.when).is_else and RollSpec(e.when).matches(value, extra)]
    if len(hits) > 1:
        calc.note(f"{value} matches both “{words.entry(t, hits[0].when)}” ({hits[0].result}) "
                  f"and “{words.entry(t, hits[1].when)}” ({hits[1].result}): the first listed "
                  "applies.")
