"""Which tables the module resolves, and the calculator of each (one module per table kind)."""

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
            why = unsupported(game, t, places=t.kind == "modified-roll")
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
