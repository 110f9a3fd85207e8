"""Modified-roll tables (Vimy's WWI bombardment): roll, add modifiers, read the modified roll.

A natural roll listed under 'natural' gives its result whatever the modifiers; a modified roll
beyond the printed rows reads the end row. With several markers on one target each is rolled
in turn and the target suffers the first effect rolled, and no more.
"""

from __future__ import annotations

from fractions import Fraction

from builder.model.tables import ModifiedRollTable
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
from builder.tables.inputs import InputSpec
from builder.tables.result import Calculation, Outcome, Tally
from builder.tables.rounding import show


def inputs(game, t: ModifiedRollTable) -> list[InputSpec]:
    """Modifiers, the target's terrain or place (terrain modifiers read from it), markers."""
    specs = modifier_inputs(t.modifiers) + place.specs(game, t)
    if t.attempts > 1:
        specs.append(InputSpec("markers", f"markers on the target (1 to {t.attempts})", "int",
                               default=1, min=1, max=t.attempts))
    return specs + rules.inputs(game, t, specs)


def read(t: ModifiedRollTable, natural: int, drm: int, applied=None) -> tuple[str, str]:
    """(result, how) for one roll (a rule may replace the result read)."""
    if str(natural) in t.natural:
        got = rules.replaced(applied or rules.Applied(), t.natural[str(natural)])
        return got, f"natural {natural}: {got} whatever the modifiers"
    row, how = modified_row(t.results, natural, drm)
    got = rules.replaced(applied or rules.Applied(), t.results[row])
    return got, how + f": {got}"


def calculate(game, t: ModifiedRollTable, values: dict, roll, calc: Calculation) -> Calculation:
    """One or more markers: the result for the rolls given, or the odds of each outcome."""
    where = place.read(game, values, calc)
    applied = rules.evaluate(game, t, values, rules.facts(game, t, values, where), calc)
    if rules.refuse(applied, calc):
        return calc
    drm = apply_modifiers(calc, t.modifiers, values, where) + applied.drm
    if applied.drm:
        calc.step(f"rules: {signed(applied.drm)} to the roll")
    calc.step(f"net modifier: {signed(drm)}")
    lo, hi = row_span(t.results)
    markers = int(values.get("markers") or 1)
    calc.column = f"modifier {signed(drm)}"
    if any(_beyond(t, n, drm) for n in range(*_span(t))):
        calc.note(f"Modified rolls beyond the printed rows ({lo} to {hi}) read the nearest end row.")
    for k, v in t.natural.items():
        calc.note(f"A natural {k} is always '{v}', whatever the modifiers.")
    if roll is not None:
        rolls = dice.parse_roll(roll, t.dice, count=markers, what="roll")
        calc.roll = rolls
        def read_roll(r: int) -> tuple[Outcome, str]:
            result, how = read(t, r, drm, applied)
            return Outcome(result, meaning(t, result)), how

        calc.outcome = markers_.roll_in_turn(calc, rolls, read_roll)
        final = calc.outcome.result
        calc.step(f"result: {final}" + (f" ({calc.outcome.meaning})" if calc.outcome.meaning else ""))
        if markers > 1:
            calc.note("Several markers on one target: each is rolled in turn; the target suffers "
                      "one result at most (Vimy 17.2: one hit even if both markers hit).")
    single = Tally()
    for total, p in dice.totals(t.dice).items():
        result, _ = read(t, total, drm, applied)
        single.add(Outcome(result, meaning(t, result)), p)
    if markers == 1:
        calc.distribution = single.items()
        return calc
    def outcome_of(total: int) -> Outcome:
        result = read(t, total, drm, applied)[0]
        return Outcome(result, meaning(t, result))

    combined = markers_.combined(dice.totals(t.dice), markers, outcome_of)
    for o, p in single.items():
        if roll is None and markers_.is_effect(o.result):
            calc.step(f"one marker: {o.result} {show_fraction(p)}; with {markers}: "
                      f"1 - (1 - {show_fraction(p)})^{markers} = "
                      f"{show_fraction(1 - (1 - p) ** markers)}")
    calc.note("Several markers on one target: each is rolled in turn; the target suffers one "
              "result at most (Vimy 17.2: one hit even if both markers hit).")
    calc.distribution = combined.items()
    return calc


def show_fraction(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator} ({float(p) * 100:.1f}%)" if p.denominator != 1 else show(p)


def _span(t: ModifiedRollTable) -> tuple[int, int]:
    lo, hi = dice.dice_range(t.dice)
    return lo, hi + 1


def _beyond(t: ModifiedRollTable, natural: int, drm: int) -> bool:
    if str(natural) in t.natural:
        return False
    lo, hi = row_span(t.results)
    return not lo <= natural + drm <= hi
