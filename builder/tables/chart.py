"""Charts read by eye (terrain effects, schedules): look a row up, and a column if asked."""

from __future__ import annotations

from fractions import Fraction

from builder.model.tables import ChartTable
from builder.tables.common import slug
from builder.tables.inputs import CalcError, Choice, InputSpec
from builder.tables.result import Calculation, Outcome


def row_labels(t: ChartTable) -> list[str]:
    """Each row named by as many of its first cells as tell it from the others: 'Forest', or
    'Three · German · 8-9-5 (59)' where three rows begin 'Three, German'."""
    out = []
    for row in t.rows:
        k = 1
        while k < len(row) and any(other is not row and other[:k] == row[:k] for other in t.rows):
            k += 1
        out.append(" · ".join(row[:k]))
    return out


def _row_choices(t: ChartTable) -> tuple[Choice, ...]:
    seen: dict[str, int] = {}
    out = []
    for row, label in zip(t.rows, row_labels(t)):
        value = slug(row[0])
        seen[value] = seen.get(value, 0) + 1
        if seen[value] > 1:
            value = f"{value}-{seen[value]}"
        out.append(Choice(value, label))
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
    label = choices[index].label
    calc.step(f"{t.columns[0]}: {row[0]}")
    if values.get("column"):
        j = 1 + next(i for i, c in enumerate(t.columns[1:]) if slug(c) == values["column"])
        calc.column = t.columns[j]
        calc.outcome = Outcome(row[j], f"{t.columns[j]}: {row[j]}")
    elif len(row) == 2:
        calc.outcome = Outcome(row[1], "")
        calc.column = t.columns[1]
    else:
        # the headline names the row; the cells it does not name follow, each under its heading
        named = label.count(" · ") + 1
        calc.outcome = Outcome(label, "; ".join(f"{c}: {v}" for c, v in
                                                zip(t.columns[named:], row[named:]) if v))
    calc.step(f"result: {calc.outcome.result}")
    calc.distribution = [(calc.outcome, Fraction(1))]
    return calc
