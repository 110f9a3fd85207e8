"""Limits players check: at most so many strength points or units in one place (stacking)."""

from __future__ import annotations

from fractions import Fraction

from builder import words
from builder.model.tables import LimitTable
from builder.tables.inputs import CalcError, InputSpec
from builder.tables.result import Calculation, Outcome


def inputs(game, t: LimitTable) -> list[InputSpec]:
    """Each unit's strength (several, comma-separated), or how many units."""
    if t.counts == "strength":
        return [InputSpec("strengths", f"each unit's strength points in the {t.place}", "int",
                          required=True, min=0, multiple=True)]
    return [InputSpec("units", f"units in the {t.place}", "int", required=True, min=0)]


def calculate(game, t: LimitTable, values: dict, roll, calc: Calculation) -> Calculation:
    """Within the limit or over it, and by how much."""
    if roll is not None:
        raise CalcError(f"{t.id} has no roll: leave out --roll")
    if t.counts == "strength":
        each = values["strengths"]
        total = sum(each)
        calc.step(("" if len(each) == 1 else " + ".join(map(str, each)) + " = ")
                  + f"{total} strength points in one {t.place}")
    else:
        total = values["units"]
        calc.step(f"{total} unit{'s' if total != 1 else ''} in one {t.place}")
    rule = words.limit(t) + (f" ({t.source})" if t.source else "")
    if total <= t.most:
        calc.step(f"{rule}: allowed")
        calc.outcome = Outcome("allowed", f"{total} of at most {t.most}")
    else:
        calc.step(f"{rule}: {total - t.most} too many")
        calc.outcome = Outcome("not allowed", f"{total - t.most} over the limit: {rule}")
    calc.distribution = [(calc.outcome, Fraction(1))]
    return calc
