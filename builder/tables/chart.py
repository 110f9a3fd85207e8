"""Charts read by eye (terrain effects, schedules): look a row up, and a column if asked."""

from __future__ import annotations

from fractions import Fraction

from builder.model.tables import ChartTable
from builder.tables.common import slug
from builder.tables.inputs import CalcError, Choice, InputSpec
from builder.tables.result import Calculation, Outcome


def _row_choices(t: ChartTable) -> tuple[Choice, ...]:
    seen: dict[str, int] = {}
    out = []
    for row in t.rows:
        value = slug(row[0])
        seen[value] = seen.get(value, 0) + 1
        if seen[value] > 1:
            value = f"{value}-{seen[value]}"
        out.append(Choice(value, row[0]))
    return tuple(out)


def inputs(game, t: ChartTable) -> list[InputSpec]:
    """The row (by its first cell) and, optionally, one column."""
    specs = [InputSpec("row", t.columns[0], "choice", required=True, choices=_row_choices(t))]
    if len(t.columns) > 2:
        specs.append(InputSpec("column", "column (default: the whole row)", "choice",
                               choices=tuple(Choice(slug(c), c) for c in t.columns[1:])))
    return specs


def calculate(game, t: ChartTable, values: dict, roll, calc: Calculation) -> Calculation:
    """The row's cells (or the one asked for)."""
    if roll is not None:
        raise CalcError(f"{t.id} is a chart: it has no roll")
    choices = _row_choices(t)
    index = next(i for i, c in enumerate(choices) if c.value == values["row"])
    row = t.rows[index]
    calc.step(f"{t.columns[0]}: {row[0]}")
    if values.get("column"):
        j = 1 + next(i for i, c in enumerate(t.columns[1:]) if slug(c) == values["column"])
        calc.column = t.columns[j]
        calc.outcome = Outcome(row[j], f"{t.columns[j]}: {row[j]}")
    else:
        pairs = list(zip(t.columns[1:], row[1:]))
        calc.outcome = Outcome(row[1] if len(pairs) == 1 else "; ".join(f"{c}: {v}" for c, v in pairs),
                               "")
        if len(pairs) == 1:
            calc.column = t.columns[1]
    calc.step(f"result: {calc.outcome.result}")
    calc.distribution = [(calc.outcome, Fraction(1))]
    return calc
