"""Combat resolution inside the VASSAL module, generated from the same table data that prints
the card and answers `builder calc` (issue 7).

In the module a player drops a table's resolution marker (palette 'Combat') on the defender or
target, drops an attack marker on each attacking hex or sector, sets options from the marker's
menu (shifts, modifiers, conditions, a reading, fire strength, markers) and chooses Resolve
(Ctrl+R): the marker rolls and writes one plain-words line in the chat log.

For every table of the kinds differential, ratio, fire, modified-roll and rolled lookup,
`calculators(game)` builds a Calculator (calculator.py) with one module per kind: its properties
are VASSAL expressions; map facts (terrain rows, divisors, shifts, machine guns, hexsides
crossed) are packed into module global properties (locations.py). beanshell.py evaluates the
expressions as the engine does and simulate.py plays a battle with it (tests compare both with
builder.tables.api); pieces.py turns calculators into pieces and components, and
`components_for` is the one call the module assembly (builder.vassal.module) makes.
"""

from __future__ import annotations

import importlib

KINDS = {
    "differential": "builder.vassal_combat.differential",
    "ratio": "builder.vassal_combat.ratio",
    "fire": "builder.vassal_combat.fire",
    "modified-roll": "builder.vassal_combat.modified_roll",
    "lookup": "builder.vassal_combat.lookup",  # rolled lookups only (not value lookups)
}


def refused(game) -> list[tuple[str, str]]:
    """(table id, why) for tables the module leaves out because it cannot apply one of their
    rules (they are resolved in the aid and by `builder calc`)."""
    from builder.vassal_combat.rules import unsupported

    out = []
    for t in game.tables:
        if t.kind in KINDS:
            kind = importlib.import_module(KINDS[t.kind])
            why = getattr(kind, "unsupported", lambda g, tt: "")(game, t) \
                or unsupported(game, t, places=t.kind == "modified-roll")
            if why:
                out.append((t.id, why))
    return out


def calculators(game) -> list:
    """A Calculator for every table of a kind the module resolves, in the order of tables.toml
    (not those `refused` lists)."""
    out = []
    skip = {tid for tid, _ in refused(game)}
    for t in game.tables:
        if t.kind in KINDS and t.id not in skip:
            c = importlib.import_module(KINDS[t.kind]).build(game, t)
            if c is not None:
                out.append(c)
    return out


def components_for(game, *args, **kwargs):
    """The module's combat-resolution components (see builder.vassal_combat.pieces)."""
    from builder.vassal_combat.pieces import components_for as build

    return build(game, *args, **kwargs)
