"""The rules assistant's table engine: every table kind computes from its definition.

The public entry point is `builder.tables.api` (list_calculators, describe_inputs, calculate);
the CLI, the HTML aid and the module generator all call it, and nothing here prints. Imports
stay light (one kind module is imported per call) so `builder calc` starts fast.

One module per table kind, each with `inputs(game, table)` and `calculate(...)`:
  differential   F&M integrated CRT: attack - defence on the defender's terrain row; rows from
                 the map (hex terrain, hexsides attacked across), best for the defender
  ratio          odds tables with rounding, terrain divisors, edge caps, fire first, retreat
  fire           firepower bands x dice; losses divided by the target's terrain and rounded
  modified_roll  roll + modifiers ('only the highest' groups), natural rolls, several markers
  lookup         a roll or a value against listed conditions ('<turn', '>=17', 'else')
  chart          a printed chart: look a row (and a column) up
  sight          map rules declared as tables: line of sight, range from the nearest unit
  maprules       distance, what a hex holds, and a line of sight given as inputs (every hex map)

Shared pieces: dice (exact Fraction distributions), rounding, inputs (InputSpec, CalcError),
result (Calculation.to_dict()), common (shifts, modifiers, notes), terrain (divisors, shifts).
Ambiguous rules are data: a table's `note`, `rounding_note`, row and modifier notes are shown
with every calculation they touch, and `readings` name other ways to read a table.
"""
