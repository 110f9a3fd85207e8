"""Combat resolution inside the VASSAL module, generated from the same table data that prints
the card and answers `builder calc` (issue 7).

For every table of the kinds differential, ratio, fire and modified-roll, `calculators(game)`
builds a Calculator (calculator.py): the properties, player inputs, dice, map data and chat line
of a resolution marker, written as VASSAL expressions by one module per table kind. beanshell.py
evaluates those expressions as the engine does (tests compare them with builder.tables.api);
pieces.py turns calculators into VASSAL pieces and components, and `components_for` is the one
call the module assembly makes.
"""

from __future__ import annotations

import importlib

KINDS = {
    "differential": "builder.vassal_combat.differential",
    "ratio": "builder.vassal_combat.ratio",
    "fire": "builder.vassal_combat.fire",
    "modified-roll": "builder.vassal_combat.modified_roll",
}


def calculators(game) -> list:
    """A Calculator for every table of a kind the module resolves, in the order of tables.toml."""
    out = []
    for t in game.tables:
        if t.kind in KINDS:
            out.append(importlib.import_module(KINDS[t.kind]).build(game, t))
    return out


def components_for(game, *args, **kwargs):
    """The module's combat-resolution components (see builder.vassal_combat.pieces)."""
    from builder.vassal_combat.pieces import components_for as build

    return build(game, *args, **kwargs)
