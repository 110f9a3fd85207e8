"""Battles to resolve both in the module (its generated expressions) and with builder.tables.api.

For each table kind a generator walks the table: every column of every row (and past both ends),
every die roll, each kind of place on the map (distinct terrain facts), each hexside crossed,
caps, fire first, shifts, modifiers, readings. Each Case carries the Battle the module sees and
the api inputs and roll the rules assistant gets for the same situation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from builder import mapinfo
from builder.model.tables import parse_band
from builder.tables import dice as tdice
from builder.vassal_combat.calculator import Calculator, factor_property
from builder.vassal_combat.places import hexside_types, place_terrain
from builder.vassal_combat.simulate import Battle

SAMPLES = ["scheldt", "vimy-ridge", "eben-emael", "europa-terrain", "operation-veritable"]


@dataclass
class Case:
    battle: Battle
    inputs: dict
    roll: object
    note: str = ""
    expect: dict = field(default_factory=dict)


def faces(dice: str) -> list[int]:
    lo, hi = tdice.dice_range(dice)
    return list(range(lo, hi + 1))


def api_value(inp, value):
    if inp.kind == "board":  # the turn track's label -> the turn number
        return inp.min + inp.choices.index(str(value))
    if inp.kind == "toggle":
        return bool(int(value))
    if inp.kind in ("count", "number"):
        return int(value)
    return value


def top(inp):
    """An input's largest value (the turn track's last label for the turn)."""
    return inp.choices[-1] if inp.kind == "board" else inp.max


def rule_combos(t, c: Calculator) -> list[dict]:
    """Inputs that only mean something together (issue 13): each cancelling rule with the rule it
    cancels (fewer, as many and more), each yes/no on the first turn, everything at once."""
    by_api = {i.api: i for i in c.inputs}
    out = []
    for r in t.rules:
        if r.effect == "cancels" and r.cancels in by_api and r.id in by_api:
            a, b = by_api[r.cancels], by_api[r.id]
            out += [{a.prop: a.max, b.prop: 1}, {a.prop: 1, b.prop: b.max}, {b.prop: b.max},
                    {a.prop: a.max, b.prop: b.max}]
    turn = by_api.get("turn")
    if turn is not None:
        one, two = ((turn.choices[0], turn.choices[1]) if turn.kind == "board"
                    else (turn.min, turn.min + 1))
        out += [{turn.prop: one}, {turn.prop: two}]
        for i in c.inputs:
            if i.kind == "toggle":
                out += [{turn.prop: one, i.prop: 1}, {turn.prop: two, i.prop: 1}]
    return out


def api_inputs(c: Calculator, inputs: dict) -> dict:
    """The player's inputs as the rules assistant takes them."""
    out: dict = {}
    for inp in c.inputs:
        if inp.prop not in inputs and inp.api == "turn":  # the marker always knows the turn
            out["turn"] = api_value(inp, inp.default)
        if inp.prop not in inputs:
            continue
        v = inputs[inp.prop]
        if inp.api_member:
            if int(v):
                out.setdefault(inp.api, []).append(inp.api_member)
        elif inp.kind == "choice" and inp.api == "reading" and v == "written":
            continue
        else:
            out[inp.api] = api_value(inp, v)
    return out


# --- differential -----------------------------------------------------------------------------
def differential_cases(game, t, c: Calculator) -> list[Case]:
    att, dfn = factor_property(game, "attack"), factor_property(game, "defence")
    grid = game.grid
    sides = {(a, b): types for a, b, types in hexside_types(game)}

    def plain_neighbour(h):
        for n in grid.neighbours(h):
            if not sides.get((grid.label(n), grid.label(h))):
                return grid.label(n)
        return grid.label(grid.neighbours(h)[0])

    conds = {i.api: i.prop for i in c.inputs if i.api and i.prop.startswith("CombatCond_")}
    setups = []  # (defender label, [attacker labels], inputs, note)
    hexes = list(grid.all_hexes())
    for k, r in enumerate(t.terrain_rows):
        if r.terrain and not r.condition:
            h = next((h for h in hexes if set(place_terrain(game, h)) & set(r.terrain)), None)
            if h is not None:
                setups.append((grid.label(h), [plain_neighbour(h)], {}, f"row {r.name} (terrain)"))
        if r.hexsides:
            pair = next(((a, b) for (a, b), ty in sides.items() if set(ty) & set(r.hexsides)
                         and not set(place_terrain(game, game.hex(b))) & set(r.except_terrain)),
                        None)
            if pair:
                setups.append((pair[1], [pair[0]], {}, f"row {r.name} (hexside {pair[0]}>{pair[1]})"))
                other = plain_neighbour(game.hex(pair[1]))
                setups.append((pair[1], [pair[0], other], {},
                               f"row {r.name}: one of two attackers across ({t.hexside_applies})"))
            pair = next(((a, b) for (a, b), ty in sides.items() if set(ty) & set(r.hexsides)
                         and set(place_terrain(game, game.hex(b))) & set(r.except_terrain)), None)
            if pair:
                setups.append((pair[1], [pair[0]], {}, f"row {r.name} never in {r.except_terrain}"))
        if r.condition:
            prop = conds[_slug(r.condition)]
            for h in [next((h for h in hexes if set(place_terrain(game, h)) & set(r.terrain)), None),
                      next((h for h in hexes if not set(place_terrain(game, h)) & set(r.terrain)),
                           None)]:
                if h is not None:
                    setups.append((grid.label(h), [plain_neighbour(h)], {prop: 1},
                                   f"condition {r.condition} in {grid.label(h)}"))
    bounds = [int(v) for r in t.terrain_rows for b in r.differentials for v in parse_band(b)
              if abs(v) != float("inf")]
    lo, hi = min(bounds) - 2, max(bounds) + 2
    out = []
    for at, attackers, inputs, note in setups:
        for diff in range(lo, hi + 1):
            for die in faces(t.dice):
                out.append(_diff_case(c, att, dfn, at, attackers, inputs, diff, die, note))
    # every kind of place once, rolls cycling
    seen = set()
    for i, h in enumerate(hexes):
        key = tuple(sorted(place_terrain(game, h)))
        if key in seen:
            continue
        seen.add(key)
        for diff in (lo, 0, hi):
            out.append(_diff_case(c, att, dfn, grid.label(h), [plain_neighbour(h)], {}, diff,
                                  faces(t.dice)[(i + diff) % len(faces(t.dice))], f"terrain {key}"))
    for s in t.shifts:
        prop = next(i.prop for i in c.inputs if i.api == s.id)
        h = hexes[len(hexes) // 2]
        for diff in (lo, 0, hi):
            out.append(_diff_case(c, att, dfn, grid.label(h), [plain_neighbour(h)],
                                  {prop: s.max_uses or 2}, diff, 3, f"shift {s.id}"))
    return out


def _diff_case(c, att, dfn, at, attackers, inputs, diff, die, note) -> Case:
    defence = 21
    b = Battle(at=at, stack={dfn: defence}, inputs=dict(inputs), dice={"CombatDie": die})
    from builder.vassal_combat.simulate import answer

    divided = int(answer(c, b, ["CombatDefence"])["CombatDefence"])
    attack = max(divided + diff, 0)
    share = [attack // len(attackers)] * len(attackers)
    share[0] += attack - sum(share)
    b.attackers = [(a, {att: s}) for a, s in zip(attackers, share)]
    api = {"attack": attack, "defence": defence, "defender_hex": at,
           "attacker_hexes": ",".join(attackers), **api_inputs(c, inputs)}
    return Case(b, api, die, note)


def _slug(text):
    from builder.tables.common import slug

    return slug(text)


# --- ratio ------------------------------------------------------------------------------------
def ratio_cases(game, t, c: Calculator) -> list[Case]:
    att, dfn = factor_property(game, "attack"), factor_property(game, "defence")
    fire = game.table_by_id.get(t.fire_first) if t.fire_first else None
    setups = []  # (defender place id or hex label, [attacker places], note)
    if game.is_hex:
        grid = game.grid
        sides = {(a, b): ty for a, b, ty in hexside_types(game)}
        seen = set()
        for h in grid.all_hexes():
            key = tuple(sorted(place_terrain(game, h)))
            if key in seen:
                continue
            seen.add(key)
            lab = grid.label(h)
            plain = [grid.label(n) for n in grid.neighbours(h) if not sides.get((grid.label(n), lab))]
            setups.append((lab, plain[:1] or [grid.label(grid.neighbours(h)[0])], f"terrain {key}"))
        for (a, b), ty in sides.items():
            if any(isinstance(x.effects.get(t.terrain_effect), (int, float))
                   for x in game.map.hexside_types if x.id in ty):
                other = [grid.label(n) for n in grid.neighbours(game.hex(b))
                         if grid.label(n) != a][:1]
                setups.append((b, [a], f"across {ty}"))
                setups.append((b, [a] + other, f"one of two across {ty}"))
                break
    else:
        adj = {}
        for p, q in game.map.adjacent:
            adj.setdefault(p, []).append(q)
            adj.setdefault(q, []).append(p)
        for s in game.map.sectors:
            nbs = sorted(adj.get(s.id, []))
            if not nbs:
                continue
            inarc = [n for n in nbs if n in s.fire_arc]
            out_arc = [n for n in nbs if n not in s.fire_arc]
            setups.append((s.id, nbs[:1], f"sector {s.id}"))
            if inarc and out_arc:
                setups.append((s.id, out_arc[:1], f"{s.id} from outside the arc"))
                setups.append((s.id, [out_arc[0], inarc[0]], f"{s.id} one attacker in the arc"))
    cases = []
    lo_d, hi_d = tdice.dice_range(t.dice)
    # every column with every roll, at a place that neither divides nor fires
    from builder.vassal_combat.ratio import terrain_divisor

    def plain(setup) -> bool:
        at = setup[0]
        place = game.hex(at) if game.is_hex else at
        quiet = game.is_hex or not game.sector_by_id[at].mg
        return quiet and terrain_divisor(game, t, place_terrain(game, place)) == 1

    sweep = next((su for su in setups if plain(su)), setups[0])
    for col in t.columns:
        p, q = (int(v) for v in col.split(":"))
        for a in (12 * p // q, 12 * p // q + 1):
            for die in faces(t.dice):
                cases.append(_ratio_case(game, t, c, att, dfn, fire, sweep[0], sweep[1], a, 12,
                                         die, die, {}, f"column {col} at {sweep[0]}"))
    for n, (at, attackers, note) in enumerate(setups):
        defences = (1, 3, 7, 20) if n == 0 else ((7,) if n % 2 else (20,))
        for d in defences:
            attacks = sorted({0, 1, d // 2, d - 1, d, d + 1, 2 * d, 3 * d - 1, 3 * d, 7 * d, 9 * d + 5}
                             if n < 3 else {0, d // 3, d, 2 * d + 1, 5 * d, 9 * d})
            for a in attacks:
                for k, die in enumerate(faces(t.dice)):
                    if n >= 3 and (k + a) % 4:
                        continue
                    cases.append(_ratio_case(game, t, c, att, dfn, fire, at, attackers, a, d, die,
                                             (die + a) % 11 + 2, {}, note))
    # caps, modifiers, shifts, retreat, readings
    at, attackers, note = setups[0]
    extra = []
    if t.edge_cap:
        extra.append(({}, [t.edge_cap + 10, t.edge_cap - 1], t.edge_cap + 5, "edge caps"))
    for inp in c.inputs:
        if inp.kind == "choice":
            for v in inp.choices:
                extra.append(({inp.prop: v}, None, None, f"{inp.api}={v}"))
        else:
            extra.append(({inp.prop: top(inp)}, None, None, f"{inp.api}={top(inp)}"))
    extra += [(combo, None, None, f"rules {combo}") for combo in rule_combos(t, c)]
    for inputs, strengths, d, why in extra:
        for a in (strengths and [strengths] or [5, 13, 27, 41]):
            for die in (lo_d, (lo_d + hi_d) // 2, hi_d):
                cases.append(_ratio_case(game, t, c, att, dfn, fire, at, attackers, a, d or 20, die,
                                         die + 1 if die < hi_d else lo_d, inputs, why))
    return cases


def _ratio_case(game, t, c, att, dfn, fire, at, attackers, attack, defence, die, fire_die, inputs,
                note) -> Case:
    from builder.vassal.module import sector_label

    strengths = attack if isinstance(attack, list) else _split(attack, len(attackers))
    if isinstance(attack, list) and len(attack) != len(attackers):
        attackers = (attackers * len(attack))[:len(attack)]
    where = at if game.is_hex else sector_label(game, at)
    b = Battle(at=where, stack={dfn: defence}, inputs=dict(inputs),
               dice={"CombatDie": die, "CombatFireDie": fire_die})
    b.attackers = [(a if game.is_hex else sector_label(game, a), {att: s})
                   for a, s in zip(attackers, strengths)]
    api = {"attack": ",".join(map(str, strengths)), "defence": defence, **api_inputs(c, inputs)}
    if game.is_hex:
        api["hex"] = at
        api["attacker_hexes"] = ",".join(attackers)
    else:
        api["sector"] = at
        api["attacker_sectors"] = ",".join(attackers)
        s = game.sector_by_id[at]
        if fire is not None and s.mg and (not s.fire_arc or set(attackers) & set(s.fire_arc)):
            api["mg_roll"] = fire_die
    return Case(b, api, die, note)


def _split(total: int, n: int) -> list[int]:
    share = [total // n] * n
    share[0] += total - sum(share)
    return share


# --- fire -------------------------------------------------------------------------------------
def fire_cases(game, t, c: Calculator) -> list[Case]:
    from builder.tables.fire import _band
    from builder.vassal.module import sector_label

    if not t.bands:  # one column, no firepower: walked as a modified roll is
        return modified_roll_cases(game, t, c)

    if t.exact_bands:
        strengths = [int(b) for b in t.bands]  # the marker offers exactly these
    else:
        strengths = sorted({v for b in t.bands for v in _band(b) if v != float("inf")}
                           | {_band(t.bands[-1])[0] + 7})
    places = ([(grid_label, h) for grid_label, h in _hex_places(game)] if game.is_hex else
              [(sector_label(game, s.id), s.id) for s in game.map.sectors])
    seen = {}
    for lab, p in places:
        seen.setdefault(tuple(sorted(place_terrain(game, p))), (lab, p))
    cases = []
    for lab, p in seen.values():
        for f in strengths:
            for die in faces(t.dice):
                b = Battle(at=lab, inputs={"CombatFire": f}, dice={"CombatDie": die})
                api = {"firepower": f, ("target_hex" if game.is_hex else "target_sector"):
                       lab if game.is_hex else p}
                cases.append(Case(b, api, die, f"fire {f} at {lab}"))
    return cases


def _hex_places(game):
    return [(game.grid.label(h), h) for h in game.grid.all_hexes()]


# --- modified roll ----------------------------------------------------------------------------
def modified_roll_cases(game, t, c: Calculator) -> list[Case]:
    places = _hex_places(game) if game.is_hex else []
    seen = {}
    from builder.vassal_combat.rules import static_nodes, static_value

    nodes = static_nodes(t)
    for lab, h in places:
        key = (tuple(sorted(place_terrain(game, h))), mapinfo.regions_of(game, h),
               tuple(static_value(game, n, h) for n in nodes))
        seen.setdefault(key, lab)
    targets = list(seen.values()) or [None]
    toggles = [i for i in c.inputs if i.prop != "CombatMarkers"]
    markers = next((i for i in c.inputs if i.prop == "CombatMarkers"), None)
    cases = []
    for n, lab in enumerate(targets):
        combos = [{}] + [{i.prop: top(i)} for i in toggles] + rule_combos(t, c)
        if n == 0 and len(toggles) > 1:
            combos.append({i.prop: top(i) for i in toggles})
        for inputs in combos:
            counts = range(1, (markers.max if markers else 1) + 1)
            for m in counts:
                for rolls in _roll_sets(t.dice, m, n):
                    ins = dict(inputs)
                    if markers:
                        ins[markers.prop] = m
                    b = Battle(at=lab or "", inputs=ins,
                               dice={f"CombatDie{i + 1}": r for i, r in enumerate(rolls)})
                    for i in range(len(rolls), t.attempts):
                        b.dice[f"CombatDie{i + 1}"] = 1
                    api = {**api_inputs(c, ins)}
                    if lab is not None and game.is_hex:
                        api["target_hex"] = lab
                    cases.append(Case(b, api, ",".join(map(str, rolls)), f"{lab} {inputs} x{m}"))
    return cases


def _roll_sets(dice: str, m: int, salt: int) -> list[list[int]]:
    fs = faces(dice)
    if m == 1:
        return [[f] for f in fs]
    out = [[a, b] for a in fs for b in fs] if m == 2 else [[fs[(salt + k) % len(fs)]] * m
                                                           for k in range(len(fs))]
    return out if salt == 0 else out[salt % 3::3]


# --- rolled lookups ------------------------------------------------------------------------
def lookup_cases(game, t, c: Calculator) -> list[Case]:
    ranges = [(i, range(i.min, i.max + 1)) for i in c.inputs if i.kind == "number"]
    toggles = [i for i in c.inputs if i.kind != "number"]
    combos: list[dict] = [{}]
    for inp, values in ranges:
        combos = [{**cmb, inp.prop: v} for cmb in combos for v in values]
    combos += [{**combos[0], i.prop: top(i)} for i in toggles]
    combos += [{**combos[0], **combo} for combo in rule_combos(t, c)]
    out = []
    for inputs in combos:
        for die in faces(t.dice):
            b = Battle(at="", inputs=dict(inputs), dice={"CombatDie": die})
            out.append(Case(b, api_inputs(c, inputs), die, f"{inputs}"))
    return out


CASES = {
    "lookup": lookup_cases,
    "differential": differential_cases,
    "ratio": ratio_cases,
    "fire": fire_cases,
    "modified-roll": modified_roll_cases,
}


def cases_for(game, t, c: Calculator) -> list[Case]:
    return CASES[t.kind](game, t, c)


def expected(calc: dict) -> dict:
    """What the module must show, from the rules assistant's answer."""
    out = {"CombatResult": calc["result"]}
    if calc["column"] is not None:
        out["CombatColumnLabel"] = calc["column"]
    numbers = calc.get("numbers") or {}
    if "attacker losses" in numbers:
        out["CombatALoss"] = str(numbers["attacker losses"])
        out["CombatDLoss"] = str(numbers["defender losses"])
    if "losses" in numbers:
        out["CombatLoss"] = str(numbers["losses"])
    if calc.get("meaning") is not None:
        out["CombatMeaning"] = calc["meaning"]
    return out
