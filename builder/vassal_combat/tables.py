"""Which tables the module resolves, and the calculator of each (one module per table kind)."""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from builder.vassal_combat.calculator import PREFIX

KINDS = {
    "differential": "builder.vassal_combat.differential",
    "ratio": "builder.vassal_combat.ratio",
    "fire": "builder.vassal_combat.fire",
    "modified-roll": "builder.vassal_combat.modified_roll",
    "lookup": "builder.vassal_combat.lookup",  # rolled lookups only (not value lookups)
}


@dataclass(frozen=True)
class ByHand:
    """A rule of a table the module offers but cannot apply: the player applies it by hand."""

    table_id: str
    table_name: str
    rule_id: str
    label: str  # as the player reads it
    source: str  # the rule number
    why: str  # for the designer: what the module cannot compile


def by_hand(game) -> list[ByHand]:
    """Every rule the module leaves to the player, table by table, in the order of the sources."""
    from builder.vassal_combat.rules import by_hand as rules_by_hand
    from builder.vassal_combat.rules import settings_by_hand

    out = []
    for t in game.tables:
        if t.kind not in KINDS or not _resolved(t):
            continue
        skip = rules_by_hand(game, t)
        out += [ByHand(t.id, t.name, r.id, r.label, r.source, skip[r.id])
                for r in t.rules if r.id in skip]
        out += [ByHand(t.id, t.name, "", said, t.source, f"the setting {key}")
                for key, said in settings_by_hand(game, t)]
    return out


def by_hand_warnings(game) -> list[str]:
    """by_hand as `builder check` and `builder build` report it: file, line, table, rule, why."""
    from pathlib import Path

    from builder.load.tomlindex import find_line, index_lines

    found = by_hand(game)
    if not found:
        return []
    path = Path(game.folder) / "tables.toml"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        text = ""
    index = index_lines(text)
    ids = [t.id for t in game.tables]
    out = []
    for h in found:
        t = game.table_by_id[h.table_id]
        if h.rule_id:
            ri = next(i for i, r in enumerate(t.rules) if r.id == h.rule_id)
            line = find_line(index, ("tables", ids.index(h.table_id), "rules", ri))
            what = f"rule '{h.rule_id}'"
        else:
            line = find_line(index, ("tables", ids.index(h.table_id), h.why.split()[-1]))
            what = h.why
        where = f"{path}: line {line}" if line else str(path)
        out.append(f"{where}: table '{h.table_id}', {what}: the VASSAL module cannot apply it "
                   f"({h.why}); the table's marker tells players to apply it by hand "
                   "(the aid and builder calc apply it)")
    return out


def _resolved(t) -> bool:
    return t.kind != "lookup" or bool(getattr(t, "dice", ""))


def calculators(game) -> list:
    """A Calculator for every table of a kind the module resolves, in the order of tables.toml.
    A rule it cannot apply (by_hand) is named in the marker's palette entry and at the end of
    every chat line it writes, in the player's words, for the player to apply by hand."""
    from builder import words

    hand: dict[str, list[ByHand]] = {}
    for h in by_hand(game):
        hand.setdefault(h.table_id, []).append(h)
    out = []
    for t in game.tables:
        if t.kind in KINDS:
            c = importlib.import_module(KINDS[t.kind]).build(game, t)
            if c is None:
                continue
            if any(n == f"{PREFIX}Unused" for n, _ in c.props):  # flags set that changed nothing
                c.report += f"${PREFIX}Unused$"
            if t.id in hand:
                rules = {r.id: r for r in t.rules}
                said = "; ".join(words.rule(game, t, rules[h.rule_id]) if h.rule_id else h.label
                                 for h in hand[t.id])
                c.by_hand = [h.rule_id or h.why for h in hand[t.id]]
                c.marker += f" (apply {words.plural(len(hand[t.id]), 'rule')} by hand)"
                c.report += " " + ("Not applied here, apply by hand: " + said + ".").replace(
                    "$", "")
            out.append(c)
    return out


def unit_traits(game) -> dict[str, list]:
    """Calculated properties the module's unit prototypes carry for the calculators, by unit
    type: each firing unit works out its own firepower under the fire tables' unit rules."""
    from builder.vassal import traits as vt
    from builder.vassal_combat import fire

    out: dict[str, list] = {}
    for t in game.tables:
        types, props = fire.unit_traits(game, t)
        for unit_type in types:
            out.setdefault(unit_type, []).extend(vt.CalculatedProperty(n, e) for n, e in props)
    return out
