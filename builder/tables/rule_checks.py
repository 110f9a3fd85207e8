"""The loader's checks on a table's rules: every effect and condition is one its kind applies,
and every name it uses (terrain, hexside, region, place, scenario, side, row, column, rule,
flag, result) exists. A rule that passes these is applied by the calculation; nothing is
accepted and then ignored.
"""

from __future__ import annotations

from builder.tables.effects import CONDITIONS, EFFECTS, RULED
from builder.tables.place import PLACE_KINDS
from builder.tables.rules import ATTRIBUTES, attribute_values


def problems(game, t) -> list[tuple[tuple, str, str]]:
    """(key path under the table, what is wrong, how to fix it) for each problem."""
    out: list[tuple[tuple, str, str]] = []
    if t.required:
        from builder.tables.api import describe_inputs

        have = {s.id: s for s in describe_inputs(game, t.id)}
        for k, name in enumerate(t.required):
            if name not in have:
                out.append((("required", k), f"'{name}' is not an input of table '{t.id}'",
                            "name one of its inputs: " + ", ".join(have)))
    if t.kind not in RULED:
        if t.rules:
            out.append((("rules",), f"a {t.kind} table takes no rules (nothing computes with it)",
                        "move the rule to the table it changes: " + ", ".join(RULED)
                        + " tables take rules"))
        if t.flags:
            out.append((("flags",), f"a {t.kind} table takes no flags", "remove flags"))
        return out
    if t.rules_combine != "cumulative" and not t.rules:
        out.append((("rules_combine",), "rules_combine is set but the table has no rules",
                    "remove it, or add the rules it combines"))
    ids = [r.id for r in t.rules]
    others = {x.id for x in (*getattr(t, "shifts", ()), *getattr(t, "modifiers", ()))}
    tested: set[str] = set()
    for j, r in enumerate(t.rules):
        at = ("rules", j)
        if ids.count(r.id) > 1 or r.id in others:
            out.append((at + ("id",), f"rule id '{r.id}' is used twice in table '{t.id}'",
                        "give each rule, shift and modifier a unique id"))
        e = r.effect
        if t.kind not in EFFECTS[e].kinds:
            out.append((at + (e,), f"a {t.kind} table cannot apply '{e}' ({EFFECTS[e].means})",
                        f"'{e}' works on " + ", ".join(EFFECTS[e].kinds) + " tables; use an effect "
                        f"a {t.kind} table takes: " + ", ".join(
                            k for k, v in EFFECTS.items() if t.kind in v.kinds)))
            continue
        if t.kind == "lookup" and e in ("drm", "cancels") and not t.dice:
            out.append((at + (e,), f"'{e}' changes a roll, but table '{t.id}' looks up "
                        f"{t.key}, not a roll", "remove it, or give the table dice"))
        out += [(at + k, m, f) for k, m, f in _effect_refs(game, t, r)]
        if r.when is not None:
            for c in r.when.walk():
                if c.flag:
                    tested.add(c.flag)
                out += [(at + ("when",) + k, m, f) for k, m, f in _condition(game, t, c)]
    if t.rules_combine == "best-for-defender" and sum(r.effect == "drm" and not r.group
                                                      for r in t.rules) > 1:
        out.append((("rules_combine",), "best-for-defender cannot choose between die-roll "
                    "modifiers: the table does not say which rolls favour the defender",
                    "put the modifiers in a group (only the strongest counts) or use cumulative"))
    for flag in t.flags:
        if flag not in tested:
            out.append((("flags", flag), f"flag '{flag}' is tested by no rule",
                        "remove it, or test it in a rule: when = { flag = '" + flag + "' }"))
    return out


def _effect_refs(game, t, r) -> list[tuple[tuple, str, str]]:
    out = []
    e = r.effect
    if e == "cancels":
        target = next((x for x in t.rules if x.id == r.cancels), None)
        if target is None or target is r or target.effect == "cancels":
            out.append(((e,), f"'{r.cancels}' is not another rule of table '{t.id}' to cancel",
                        "name a rule's id: " + ", ".join(x.id for x in t.rules if x is not r)))
    if e == "row":
        names = [x.name for x in t.terrain_rows]
        if r.row not in names:
            out.append(((e,), f"'{r.row}' is not a row of table '{t.id}'", f"use one of: {names}"))
    if e in ("attack_divisor", "attack_multiplier", "column", "shift", "cap") \
            and t.kind == "fire" and not t.bands:
        out.append(((e,), f"table '{t.id}' has no firepower columns for '{e}' to change",
                    "give the table bands (firepower columns), or use drm or replace"))
        return out
    if e in ("column", "cap"):
        text = getattr(r, e)
        if t.kind == "fire":
            if text.replace(" ", "") not in [b.replace(" ", "") for b in t.bands]:
                out.append(((e,), f"'{text}' is not a firepower column of table '{t.id}'",
                            f"use one of: {', '.join(t.bands)}"))
        elif t.kind == "ratio":
            labels = [c.replace(" ", "") for c in t.columns]
            if text.replace(" ", "") not in labels:
                out.append(((e,), f"'{text}' is not a column of table '{t.id}'",
                            f"use one of: {', '.join(labels)}"))
        elif not text.isdigit() or not 1 <= int(text) <= t.columns:
            out.append(((e,), f"'{text}' is not a column number of table '{t.id}'",
                        f"write a number from 1 to {t.columns}"))
    if e == "replace":
        known = _results(t)
        for k in r.replace:
            if k not in known:
                out.append(((e, k), f"table '{t.id}' never gives the result '{k}', so this "
                            "replacement would never apply", "use a result the table gives: "
                            + ", ".join(sorted(known)[:30])))
    return out


def _results(t) -> set[str]:
    if t.kind in ("ratio", "differential"):
        return {c for row in t.results.values() for c in row}
    if t.kind == "modified-roll":
        return set(t.results.values()) | set(t.natural.values())
    if t.kind == "lookup":
        return {e.result for e in t.entries}
    read = {c for row in t.results.values() for c in row} | set(t.natural.values())  # fire
    if t.terrain_effect:  # losses after the terrain division
        return read | {"-"} | {str(n) for n in range(1000)}
    return read


def _condition(game, t, c) -> list[tuple[tuple, str, str]]:
    out = []
    for key in c.keys():
        kinds = CONDITIONS[key][0]
        if t.kind not in kinds:
            out.append(((key,), f"a {t.kind} table cannot test '{key}' (it has no such input)",
                        f"'{key}' is tested on " + ", ".join(kinds) + " tables"))
    if not game.is_hex and (c.region or c.place or c.across):
        out.append((("region" if c.region else "place" if c.place else "across",),
                    "an area map has no hexes, regions or hexsides to test", "test terrain instead"))
        return out
    terrain = {x.id for x in game.map.terrain_types}
    for k in c.terrain:
        if k not in terrain:
            out.append((("terrain",), f"unknown terrain '{k}'", f"use one of: {', '.join(sorted(terrain))}"))
    if game.is_hex:
        sides = {x.id for x in game.map.hexside_types}
        for k in c.across:
            if k not in sides:
                out.append((("across",), f"unknown hexside type '{k}'",
                            f"use one of: {', '.join(sorted(sides)) or '(none in map.toml)'}"))
        regions = {x.id for x in game.map.regions}
        for k in c.region:
            if k not in regions:
                out.append((("region",), f"unknown region '{k}'",
                            f"use one of: {', '.join(sorted(regions)) or '(none in map.toml)'}"))
        labels = [lab.text for lab in game.map.labels]
        if c.place and c.place not in labels:
            out.append((("place",), f"'{c.place}' is not a named place on the map",
                        "use a label's text from map.toml: " + ", ".join(labels[:20])))
    scen = {s.id for s in game.scenarios}
    for k in c.scenario:
        if k not in scen:
            out.append((("scenario",), f"unknown scenario '{k}'", f"use one of: {', '.join(sorted(scen))}"))
    for role in ("attacker", "defender", "firer", "target"):
        for attr, want in getattr(c, role).items():
            if attr not in ATTRIBUTES:
                out.append(((role, attr), f"'{attr}' is not a counter attribute a rule can test",
                            f"use one of: {', '.join(ATTRIBUTES)}"))
                continue
            have = attribute_values(game, attr)
            for v in want:
                if v not in have:
                    out.append(((role, attr), f"no counter has {attr} '{v}'",
                                f"use one of: {', '.join(have)}"))
    periods = {d.period for d in game.info.turns.detail if d.period} | (
        {"night"} if any(d.night for d in game.info.turns.detail) else set())
    for p in c.period:
        if p not in periods:
            out.append((("period",), f"no turn of the turn record is a '{p}' turn",
                        "name the period in game.toml [[turns.detail]] period = '" + p + "', or use "
                        + (", ".join(sorted(periods)) or "turn numbers")))
    names = {i.id for i in getattr(t, "inputs", ())}
    for k in c.input:
        if k not in names:
            out.append((("input", k), f"'{k}' is not one of table '{t.id}'s inputs",
                        "use one of: " + (", ".join(sorted(names)) or "(the table has none)")))
    if c.flag and c.flag not in t.flags:
        out.append((("flag",), f"flag '{c.flag}' is not one of table '{t.id}'s flags",
                    "declare it: flags = { " + c.flag + " = 'the question a player answers' }"))
    if t.kind not in PLACE_KINDS and (c.terrain or c.region or c.place):
        out.append((("terrain",), f"a {t.kind} table has no hex to test", "remove it"))
    return out
