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

from builder.vassal_combat.tables import KINDS, ByHand, by_hand, calculators, unit_traits  # noqa: F401


def components_for(game, *args, **kwargs):
    """The module's combat-resolution components (see builder.vassal_combat.pieces)."""
    from builder.vassal_combat.pieces import components_for as build

    return build(game, *args, **kwargs)
