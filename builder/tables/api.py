"""The one public API of the rules assistant: the CLI, the HTML aid and the module all call it.

    list_calculators(game)                 -> [dict]   every calculator with its inputs
    describe_inputs(game, table_id)        -> [InputSpec]
    calculate(game, table_id, inputs, roll=None) -> Calculation  (.to_dict() for JSON)

Inputs are plain values (or strings as typed); a bad table, input or value raises CalcError
with the allowed values. Nothing here prints.
"""

from __future__ import annotations

import importlib
from dataclasses import replace

from builder.tables.inputs import CalcError, Choice, InputSpec, canonical_name, resolve
from builder.tables.result import Calculation

__all__ = [
    "CalcError",
    "Calculation",
    "InputSpec",
    "calculate",
    "describe_inputs",
    "list_calculators",
    "parse_assignments",
]

_KINDS = {
    "differential": "builder.tables.differential",
    "ratio": "builder.tables.ratio",
    "fire": "builder.tables.fire",
    "modified-roll": "builder.tables.modified_roll",
    "lookup": "builder.tables.lookup",
    "chart": "builder.tables.chart",
    "line-of-sight": "builder.tables.sight",
    "range": "builder.tables.sight",
    "limit": "builder.tables.limit",
}
WRITTEN = "written"


def _module(kind: str):
    return importlib.import_module(_KINDS[kind])


# calculators made from the game's data rather than declared as tables: the map's (distance, what
# a hex holds, line of sight) and the scenarios' (victory; where units start, what starts in a
# place, what a turn brings); each module offers calculators(game),
# has(game, id), inputs(game, id) and calculate(game, id, values, roll)
_BUILT_IN = ("builder.tables.maprules", "builder.tables.victory",
             "builder.tables.scenario_lookups")


def _built_in(game, calc_id: str):
    """The module that makes this calculator, when no table has its id."""
    if calc_id in game.table_by_id:
        return None
    for name in _BUILT_IN:
        module = importlib.import_module(name)
        if module.has(game, calc_id):
            return module
    return None



def _table(game, table_id: str):
    t = game.table_by_id.get(table_id)
    if t is None:
        names = list(game.table_by_id) + [c["id"] for name in _BUILT_IN
                                           for c in importlib.import_module(name).calculators(game)]
        raise CalcError(f"{game.slug} has no table or calculator '{table_id}'; choose from: "
                        + ", ".join(names))
    return t


def _reading_spec(t) -> list[InputSpec]:
    if not t.readings:
        return []
    choices = (Choice(WRITTEN, "the table as written"),) + tuple(
        Choice(r.id, r.label) for r in t.readings)
    return [InputSpec("reading", "reading of an ambiguous rule", "choice", default=WRITTEN,
                      choices=choices, help="; ".join(f"{r.id}: {r.label}" for r in t.readings))]


def describe_inputs(game, table_id: str) -> list[InputSpec]:
    """The inputs a calculator takes, as data (id, label, type, allowed values, default)."""
    built = _built_in(game, table_id)
    if built is not None:
        return built.inputs(game, table_id)
    t = _table(game, table_id)
    specs = _reading_spec(t) + _module(t.kind).inputs(game, t)
    if t.required:  # the table's own say: these must be given (the aid asks for them first)
        specs = [replace(s, required=True, default=None) if s.id in t.required else s
                 for s in specs]
    return specs


def list_calculators(game) -> list[dict]:
    """Every table and map calculator of the game with its inputs, as plain data."""
    out = []
    for t in game.tables:
        out.append({"id": t.id, "name": t.name, "kind": t.kind, "source": t.source,
                    "dice": getattr(t, "dice", "") or "",
                    "assumed": list(t.assumed_fields()),
                    "inputs": [s.to_dict() for s in describe_inputs(game, t.id)]})
    for name in _BUILT_IN:
        module = importlib.import_module(name)
        for c in module.calculators(game):
            out.append({**c, "inputs": [s.to_dict() for s in module.inputs(game, c["id"])]})
    return out


def calculate(game, table_id: str, inputs: dict | None = None, roll=None,
              account: bool = True) -> Calculation:
    """Resolve a table with these inputs: with a roll, the result; without, the odds of each.

    With account (the default), every input given that changed nothing is named in the answer,
    with why (builder.tables.accounting)."""
    from builder.tables import accounting

    inputs = dict(inputs or {})
    calc, values = _calculate(game, table_id, inputs, roll)
    if account and inputs:
        calc.unused = accounting.unused(
            game, table_id, describe_inputs(game, table_id), inputs, values, calc,
            lambda other: _calculate(game, table_id, other, roll)[0])
    return calc


def _calculate(game, table_id: str, inputs: dict, roll) -> tuple[Calculation, dict]:
    from builder import mapinfo
    from builder.tables.common import table_notes

    built = _built_in(game, table_id)
    if built is not None:
        specs = built.inputs(game, table_id)
        values = resolve(specs, inputs, lambda text: mapinfo.parse_hex(game, text))
        return built.calculate(game, table_id, values, roll), values
    t = _table(game, table_id)
    specs = describe_inputs(game, table_id)
    values = resolve(specs, inputs, lambda text: mapinfo.parse_hex(game, text))
    calc = Calculation(game=game.slug, table=t.id, name=t.name, kind=t.kind,
                       inputs={k: _plain(game, v) for k, v in values.items()},
                       given=[canonical_name(k, specs) for k in inputs])
    reading = values.pop("reading", WRITTEN)
    if reading and reading != WRITTEN:
        r = next(r for r in t.readings if r.id == reading)
        t = t.with_reading(reading)
        calc.step(f"reading: {r.label}" + (f" ({r.source})" if r.source else "")
                  + ": " + ", ".join(f"{k} = {v}" for k, v in r.set.items()))
        if r.note:
            calc.note(f"Reading '{r.id}': {r.note}")
    elif t.readings:
        calc.note("Other readings of this table: " + "; ".join(
            f"reading={r.id} ({r.label})" for r in t.readings) + ".")
    if roll is not None and t.kind == "chart":
        raise CalcError(f"{t.id} is a chart: it has no roll (leave out --roll)")
    _module(t.kind).calculate(game, t, values, roll, calc)
    table_notes(calc, t)
    return calc, {"reading": reading, **values}


def _plain(game, value):
    """Input values as JSON-friendly data (hexes as printed)."""
    if isinstance(value, list):
        return [_plain(game, v) for v in value]
    if hasattr(value, "col") and hasattr(value, "row"):
        return game.grid.label(value)
    return value


def parse_assignments(args) -> dict:
    """['attack=12', 'defence=7'] -> {'attack': '12', 'defence': '7'} (CalcError on a bad one)."""
    out: dict = {}
    for a in args:
        name, sep, value = str(a).partition("=")
        name = name.strip()
        if not sep or not name:
            raise CalcError(f"'{a}' is not NAME=VALUE: write e.g. attack=12")
        if name in out:
            raise CalcError(f"{name} is given twice")
        out[name] = value.strip()
    return out
