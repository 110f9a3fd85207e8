"""Every input a player gives is accounted for: applied, refused, or named as changing nothing.

After a calculation, each input the player gave (other than a required one, or one given as its
default) is taken away and the calculation made again. When the answer (the working, apart from
lines that only say what an input holds, the result, the odds) is the same, the input changed
nothing, and the answer says so and why: the rules that read it and the part of their condition
that does not hold ("gas: not applied, turn 1 only (17.6)"), or that nothing in the table reads
it. An input of several values (every terrain in a hex) is taken apart value by value.

The sentences are builder.words' (unused, not_applied, input_shown), which the module's chat
uses too.
"""

from __future__ import annotations

from builder import words
from builder.tables import place as places
from builder.tables import rules as rulesmod
from builder.tables.inputs import CalcError

ROLES = ("attacker", "defender", "firer", "target")


def reads(c) -> set[str]:
    """The input ids a condition (and every condition nested in it) reads."""
    out: set[str] = set()
    for x in c.walk():
        if x.turn or x.period:
            out.add("turn")
        if x.scenario:
            out.add("scenario")
        for role in ROLES:
            out |= {f"{role}_{a}" for a in getattr(x, role)}
        if x.terrain:
            out |= {places.TERRAIN, places.HEX, places.SECTOR}
        if x.region or x.place:
            out.add(places.HEX)
        if x.across:
            out |= {"attacker_hexes", places.HEX}
        if x.distance:
            out |= {"distance", "firer_hexes", places.HEX} | (
                {"range"} if "range" in x.distance else set())
        if x.flag:
            out.add(x.flag)
        out |= set(x.input)
    return out


def _empty(value) -> bool:
    return value is None or value is False or value == [] or value == 0 or value == ""


def unused(game, table_id: str, specs: list, given: dict, values: dict, calc,
           recalc) -> list[dict]:
    """The inputs given that changed nothing, each with why: [{input, value, text}].

    specs: the calculator's inputs (api.describe_inputs, passed in: api calls this module);
    values: the checked inputs; recalc(inputs) makes the calculation again without accounting
    (CalcError when the inputs no longer make sense: the input taken away was needed)."""
    from builder.tables.inputs import canonical_name

    by_id = {s.id: s for s in specs}
    base = calc.answer()
    out = []
    for raw_name in given:
        name = canonical_name(raw_name, specs)
        spec = by_id.get(name)
        if spec is None or spec.required:
            continue
        value = values.get(name)
        if _empty(value) or value == spec.default:
            continue
        shown = calc.inputs.get(name)
        rest = {k: v for k, v in given.items() if k != raw_name}
        if _same(recalc, rest, base):
            out.append({"input": name, "value": shown,
                        "text": _line(game, table_id, name, shown, values, spec)})
            continue
        if spec.multiple and isinstance(value, list) and len(value) > 1:
            for v, v_shown in zip(value, shown):
                fewer = [x for x in shown if x != v_shown]
                if _same(recalc, {**rest, raw_name: fewer}, base):
                    out.append({"input": name, "value": v_shown,
                                "text": _line(game, table_id, name, v_shown, values,
                                              spec)})
    return out


def _same(recalc, inputs: dict, base: tuple) -> bool:
    try:
        return recalc(inputs).answer() == base
    except (CalcError, ValueError):
        return False


# --- why, in words ---------------------------------------------------------------------------
def _shown(game, name: str, value, spec=None) -> str:
    """The input as the player gave it, in player words: 'terrain (Hill)', 'hex 1220 (Woods)',
    a yes/no input by its label ('The Allied player uses gas (17.6: first game turn only)'), a
    unit's attribute as 'the attacker's type Armour', a number by its name ('turn 2')."""
    from builder import mapinfo

    if name == places.TERRAIN:
        vals = value if isinstance(value, list) else [value]
        return f"terrain ({', '.join(mapinfo.terrain_name(game, v) for v in vals)})"
    if name == places.HEX and game.is_hex and value is not None:
        h = game.hex(str(value))
        return (f"hex {value} ("
                + ", ".join(mapinfo.terrain_name(game, x) for x in mapinfo.terrain_of(game, h)) + ")")
    if name == places.SECTOR and not game.is_hex:
        return f"sector {game.sector_by_id[value].name}" if value in game.sector_by_id else name
    role, _, attr = name.partition("_")
    if role in ROLES and attr and not isinstance(value, (bool, list)):
        said = next((c.label for c in (spec.choices if spec else ()) if c.value == value), value)
        return f"the {role}'s {attr} {said}"
    if spec is not None and (isinstance(value, bool) or not name.isalnum()):
        return words.input_shown(spec.label, value)
    return words.input_shown(name, value)


def _line(game, table_id: str, name: str, value, values: dict, spec=None) -> str:
    t = game.table_by_id.get(table_id)
    why = _why(game, t, name, value, values) if t is not None else ""
    return words.unused(_shown(game, name, value, spec), why)


def _why(game, t, name: str, value, values: dict) -> str:
    """Why an input changed nothing: the rules that read it and what they need, or that nothing
    in the table reads it."""
    try:
        where = places.read(game, values)
    except CalcError:
        where = places.Place()
    reasons = []
    ruled = t.kind in rulesmod.PLACES  # the kinds that take rules
    f = rulesmod.facts(game, t, values, where) if ruled else None
    for r in t.rules if ruled else ():
        if r.when is None:
            if r.id == name:
                reasons.append(f"{r.label} changes nothing here")
            continue
        if name not in reads(r.when):
            continue
        if name == places.TERRAIN and not _tests_terrain(r.when, value):
            continue
        held = rulesmod.holds(game, r.when, f)
        src = f" ({r.source})" if r.source else ""
        about = _about(r.when, name)  # the rule asks about this input (its flag, its input)
        if held is None:
            reasons.append(("not decided" if about else f"{r.label}: not decided")
                           + f" until {_needed(t, r, f)} {'is' if len(_needs(t, r, f)) == 1 else 'are'}"
                           f" given{src}")
        elif held is False:
            keys = failing_keys(game, r.when, f, name)
            said = phrase(game, t, r.when, keys) if keys else ""
            if not said:
                reasons.append(f"{r.label} does not apply here{src}")
            elif about:
                reasons.append(words.not_applied(said, r.source))
            else:
                reasons.append(f"{r.label} applies {_only(said)}{src}")
        else:
            reasons.append(f"{r.label} applies, but changes nothing here{src}")
    if name == places.TERRAIN:
        reasons += _terrain_reasons(game, t, value)
    elif name in (places.HEX, places.SECTOR) and not reasons:
        reasons.append("nothing in this table depends on that place")
    if not reasons:
        reasons.append("it makes no difference to this calculation")
    return words.unused_reasons(reasons)


def _needs(t, r, f) -> list[str]:
    return rulesmod._needs(r.when, f, rulesmod.PLACES[t.kind][0] or "defender")


def _needed(t, r, f) -> str:
    """What would decide a rule now unknown, in words ('the turn and the defender's hex')."""
    return words.either(_needs(t, r, f), "and")


def _about(c, name: str) -> bool:
    """Whether a condition asks about this input itself (its flag, or its number)."""
    return any(x.flag == name or name in x.input for x in c.walk())


def _tests_terrain(c, value) -> bool:
    vals = set(value if isinstance(value, list) else [value])
    return any(set(x.terrain) & vals for x in c.walk())


def _terrain_reasons(game, t, value) -> list[str]:
    from builder import mapinfo

    vals = value if isinstance(value, list) else [value]
    names = ", ".join(mapinfo.terrain_name(game, v) for v in vals)
    read = any(set(m.terrain) & set(vals) for m in getattr(t, "modifiers", ()))
    read |= any(set(r.terrain) & set(vals) for r in getattr(t, "terrain_rows", ()))
    effects = [e for e in (getattr(t, "terrain_effect", ""), getattr(t, "defence_effect", ""),
                           getattr(t, "shift_effect", "") if t.kind == "ratio" else "") if e]
    read |= any(game.terrain_types[v].effects.get(e) is not None for v in vals for e in effects
                if v in game.terrain_types)
    if read:
        return ["another terrain counts instead"]
    return [f"no row, modifier or rule of this table depends on {names}"]


# the keys of a condition, in the order they are written; a key's companions go with it
KEYS = ("turn", "period", "scenario", "attacker", "defender", "firer", "target", "terrain",
        "region", "place", "distance", "across", "flag", "input", "all", "any", "not_")
_WITH = {"place": ("within",), "across": ("attackers",)}


def _only(said: str) -> str:
    return said if said.startswith(("except ", "unless ")) else "only " + said


def sub_when(c, keys):
    """The part of a condition made of these keys (with their companions)."""
    data = {}
    for k in keys:
        for field in (k, *_WITH.get(k, ())):
            data["not" if field == "not_" else field] = getattr(c, field)
    return type(c).model_validate(data)


def written_keys(c) -> list[str]:
    return [k for k in KEYS if getattr(c, k) not in ("", (), {}, None)]


def failing_keys(game, c, f, name: str) -> list[str]:
    """The keys of a condition that do not hold (or cannot be decided), the input asked about
    apart (a rule's own flag, a lookup's own number, the terrain named)."""
    out = []
    for k in written_keys(c):
        if (k == "flag" and c.flag == name) or (k == "input" and name in c.input) or (
                k == "terrain" and name == places.TERRAIN):
            continue
        if rulesmod.holds(game, sub_when(c, [k]), f) is not True:
            out.append(k)
    return out


def phrase(game, t, c, keys) -> str:
    """The part of a condition made of these keys in a player's words (builder.words)."""
    return words.condition(game, t, sub_when(c, keys))


def phrases(game, t) -> dict[str, dict[str, str]]:
    """Every rule's condition part by part, for the aid's engine: rule id -> {'turn+flag': words}
    for each combination of its keys, so the page says what builder.words says."""
    from itertools import combinations

    out: dict[str, dict[str, str]] = {}
    for r in t.rules:
        if r.when is None:
            continue
        keys = written_keys(r.when)
        said = {}
        for n in range(1, len(keys) + 1):
            for combo in combinations(keys, n):
                said["+".join(combo)] = phrase(game, t, r.when, combo)
        out[r.id] = said
    return out


def _matches(spec: str, value) -> bool:
    from builder.model.tables import RollSpec

    return RollSpec(spec).matches(value)
