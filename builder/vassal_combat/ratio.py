"""An odds CRT in the module: attack divided by defence, rounded, read as '3:1' or '1:2'.

Mirrors builder.tables.ratio: each attack marker's stack capped per sector edge and divided by
the hexside it attacks across; the defender's fire first (its machine guns from the map, their
arc, a roll on the fire table); the terrain divisor and shift of the defender's place; the odds
rounded as the table says (below 1:1 too); ends of the table; shifts; modifiers; the roll; the
attacker/defender losses and the defender's retreat.
"""

from __future__ import annotations

import re
from fractions import Fraction

from builder import words
from builder.model.tables import RatioTable
from builder.tables import dice as tdice
from builder.tables.common import meaning
from builder.tables.rounding import MIRROR, round_to_int, show
from builder.vassal import expr as x
from builder.vassal_combat import rules as vrules
from builder.vassal_combat.calculator import (
    PREFIX,
    Calculator,
    Input,
    factor_property,
    factor_values,
    results_lookup,
    shift_inputs,
    shift_total,
)
from builder.vassal_combat.locations import Field, Packer, commonest, key_text, location_names
from builder.vassal_combat.modifiers import RollModifiers, drm
from builder.vassal_combat.places import default_terrain, hexside_types, place_terrain

P = PREFIX
FAR = 10**6  # no attack strength: a column far below the first (builder.tables.ratio too)


def _ratio(text: str) -> tuple[int, int]:
    a, b = re.fullmatch(r"\s*(\d+)\s*:\s*(\d+)\s*", text).groups()
    return int(a), int(b)


def _label(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _effect_values(kinds, effect: str) -> dict[str, Fraction]:
    out = {}
    for k in kinds:
        v = k.effects.get(effect) if effect else None
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            out[k.id] = Fraction(str(v))
    return out


def terrain_divisor(game, t: RatioTable, ids: tuple[str, ...]) -> Fraction:
    """As builder.tables.terrain.divisor: the best for the defender, or all multiplied."""
    vals = _effect_values(game.map.terrain_types, t.terrain_effect)
    found = [vals[i] for i in ids if i in vals]
    if not found:
        return Fraction(1)
    if t.terrain_choice == "cumulative":
        out = Fraction(1)
        for v in found:
            out *= v
        return out
    return max(found)


def terrain_shift(game, t: RatioTable, ids: tuple[str, ...]) -> int:
    """As builder.tables.terrain.terrain_shift: the shift best for the defender (most left)."""
    found = []
    for i in ids:
        tt = game.terrain_types.get(i)
        if tt is None or not t.shift_effect or t.shift_effect not in tt.effects:
            continue
        try:
            found.append(int(tt.effects[t.shift_effect]))
        except (TypeError, ValueError):
            continue
    if t.terrain_choice == "cumulative":
        return sum(found)
    return min(found) if found else 0


def _has_shift(game, t: RatioTable, ids: tuple[str, ...]) -> bool:
    """Whether a terrain of the place gives a column shift (as terrain_shift finds one)."""
    for i in ids:
        tt = game.terrain_types.get(i)
        if tt is not None and t.shift_effect and t.shift_effect in tt.effects:
            try:
                int(tt.effects[t.shift_effect])
            except (TypeError, ValueError):
                continue
            return True
    return False


def _side_shifts(game, t: RatioTable) -> list[tuple[str, int]]:
    """(hexside type, shift) for the hexside types that shift the column of an attack across
    them (builder.tables.ratio: each type crossed counts once, with the terrain's shifts)."""
    if not game.is_hex or not t.shift_effect:
        return []
    out = []
    for ht in game.map.hexside_types:
        v = ht.effects.get(t.shift_effect)
        if isinstance(v, int) and not isinstance(v, bool):
            out.append((ht.id, v))
    return out


def hexside_divisor(game, t: RatioTable, types: tuple[str, ...]) -> Fraction:
    vals = _effect_values(game.map.hexside_types if game.is_hex else (), t.terrain_effect)
    return max([Fraction(1)] + [vals[s] for s in types if s in vals])


def build(game, t: RatioTable) -> Calculator:
    """The calculator of a ratio table (and its readings, chosen on the marker)."""
    c = _build(game, t)
    if not t.readings:
        return c
    variants = [(r, _build(game, t.with_reading(r.id))) for r in t.readings]
    prop = f"{P}Reading"
    values = ("written",) + tuple(r.id for r in t.readings)
    c.inputs.append(Input(prop, "reading of the table", "choice", default="written",
                          choices=values, api="reading"))
    for attr in ("props", "attacker"):
        merged = []
        for name, e in getattr(c, attr):
            alts = []
            for r, v in variants:
                other = dict(getattr(v, attr)).get(name)
                if other is None:
                    raise ValueError(f"{t.id}: reading {r.id} changes the table's shape")
                if other != e:
                    alts.append((f"{prop} == {x.lit(r.id)}", other))
            merged.append((name, x.choose(alts, e) if alts else e))
        setattr(c, attr, merged)
    if any(f"{prop} ==" in e for _, e in c.attacker):
        # an attack marker reads the reading from a global property the marker sets on Resolve
        glob = f"{P}ReadingAt_{x.ident(t.id)}"
        c.attacker = [(n, e.replace(f"{prop} ==", f"{glob} ==")) for n, e in c.attacker]
        c.published[glob] = prop
    return c


def _build(game, t: RatioTable) -> Calculator:
    c = Calculator(t.id, t.name, t.kind, marker=f"Resolve: {t.name}", place="defender",
                   attacker_name=f"Attacker: {t.name}")
    tid = x.ident(t.id)
    fire = game.table_by_id.get(t.fire_first) if t.fire_first else None
    if fire is not None and game.is_hex:
        # the rules assistant reads the firing machine guns from a sector; a hex map has none
        c.notes.append(f"{t.fire_first}: fire first needs sector machine guns; not on a hex map")
    places = location_names(game)
    keys = [key_text(name) for name, _ in places]

    nodes = vrules.static_nodes(t)  # the rules' place tests, one packed fact each
    across = vrules.across_sets(game, t) if game.is_hex else []
    mods = RollModifiers(game, t.modifiers)

    # facts about the defender's place
    def facts(place) -> dict[str, Fraction | int]:
        ids = place_terrain(game, place) if place is not None else default_terrain(game)
        out = {"DIV": terrain_divisor(game, t, ids), "SHIFT": terrain_shift(game, t, ids),
               "TSH": int(_has_shift(game, t, ids)), **mods.facts(place)}
        for i, node in enumerate(nodes):
            out[f"R{i}"] = vrules.static_value(game, node, place) if place is not None else 0
        if fire is not None and place is not None and not game.is_hex:
            s = game.sector_by_id[place]
            out["MG"] = _band(fire, s.mg) + 1 if s.mg else 0
            out["ARC"] = int(bool(s.fire_arc))
        return out

    raw = [facts(p) for _, p in places]
    divs = sorted({f["DIV"] for f in raw} | {Fraction(1)})
    shifts_seen = sorted({f["SHIFT"] for f in raw} | {0})
    lo_shift = shifts_seen[0]

    def coded(f) -> dict[str, int]:
        out = {"DIV": divs.index(f["DIV"]), "SHIFT": f["SHIFT"] - lo_shift}
        for k in ("MG", "ARC", "TSH", *(f"R{i}" for i in range(len(nodes))),
                  *(m.name for m in mods.fields())):
            if k in f:
                out[k] = f[k]
        return out

    fields = [Field("DIV", len(divs)), Field("SHIFT", shifts_seen[-1] - lo_shift + 1)]
    if fire is not None and not game.is_hex:
        fields += [Field("MG", len(fire.bands) + 1), Field("ARC", 2)]
    fields += [Field(f"R{i}", 2) for i in range(len(nodes))]
    fields += mods.fields()
    side_shifts = _side_shifts(game, t)
    if side_shifts:
        fields.append(Field("TSH", 2))
    loc = Packer(f"{tid}@", fields, f"{P}Loc")
    all_facts = [coded(f) for f in raw]
    default = commonest(all_facts, coded(facts(None)))
    c.data.update(loc.data(keys, all_facts, default))
    for name, e in loc.word_props("LocationName", default):
        c.prop(name, e)

    # each attack marker: its stack, capped per edge, divided by the hexside crossed
    attack_prop = factor_property(game, "attack")
    defence_prop = factor_property(game, "defence")
    rule = t.divisor_rounding or t.rounding
    c.engine_prop(f"{P}S_{tid}", f'SumStack("{attack_prop}")', attacker=True)
    strength = f"{P}S_{tid}"
    if t.edge_cap:
        c.attacker.append((f"{P}Capped_{tid}", f"Math.min({strength}, {t.edge_cap})"))
        strength = f"{P}Capped_{tid}"
    pair_fields = []
    side_divs: list[Fraction] = []
    # what happens to a strength at an attack marker, step by step: (expression of a strength,
    # the values a unit's strength may become) for the division of each unit (divide = per-unit)
    steps: list[tuple] = []
    sides = hexside_types(game) if game.is_hex else []
    if game.is_hex:
        side_divs = sorted({hexside_divisor(game, t, types) for _, _, types in sides} - {1})
        if side_divs:
            pair_fields.append(Field("HD", len(side_divs) + 1))
    pair_fields += [Field(f"XC{j}", 2) for j in range(len(across))]
    pair_fields += [Field(f"SS{m}", 2) for m in range(len(side_shifts))]
    arc_pairs = []
    if fire is not None and not game.is_hex:
        pair_fields.append(Field("INARC", 2))
        for s in game.map.sectors:
            for a in s.fire_arc:
                if a in game.sector_by_id:
                    arc_pairs.append((a, s.id))
    if pair_fields:
        c.at_property = f"{P}At_{tid}"
        c.published[c.at_property] = "LocationName"
        pair = Packer(f"{tid}>", pair_fields, f"{P}Side")
        for a, b, types in sides:  # what each side between two hexes does to an attack across
            vals = {f"XC{j}": int(bool(set(types) & set(want))) for j, want in enumerate(across)}
            vals.update({f"SS{m}": int(h in types) for m, (h, _) in enumerate(side_shifts)})
            if side_divs:
                d = hexside_divisor(game, t, types)
                vals["HD"] = side_divs.index(d) + 1 if d != 1 else 0
            if any(vals.values()):
                c.data.update(pair.data([f"{key_text(a)}>{key_text(b)}"], [vals], {}))
        from builder.vassal.ids import sector_label

        for a, b in arc_pairs:
            where = f"{key_text(sector_label(game, a))}>{key_text(sector_label(game, b))}"
            c.data.update(pair.data([where], [{"INARC": 1}], {}))
        key = f'LocationName + ">" + {c.at_property}'
        for name, e in pair.word_props(key, {}):
            c.attacker.append((name, e))
        if side_divs:
            hd = pair.field("HD")

            def across_side(s: str) -> str:
                return x.choose([(f"{hd} == {i + 1}", x.divide_by(s, d, rule))
                                 for i, d in enumerate(side_divs)], s)
            c.attacker.append((f"{P}H_{tid}", across_side(strength)))
            strength = f"{P}H_{tid}"
            steps.append((across_side, lambda v: {v} | {round_to_int(Fraction(v) / d, rule)
                                                       for d in side_divs}))
        if arc_pairs:
            c.attacker.append((f"{P}Arc_{tid}", pair.field("INARC")))
        for j in range(len(across)):
            c.attacker.append((f"{P}XC{j}_{tid}", pair.field(f"XC{j}")))
        for m in range(len(side_shifts)):
            c.attacker.append((f"{P}SS{m}_{tid}", pair.field(f"SS{m}")))
    c.attacker_marks.append((f"{P}One_{tid}", "1"))
    c.engine_prop(f"{P}Attackers", f'Sum("{P}One_{tid}", "{{true}}")')
    for j in range(len(across)):
        c.engine_prop(f"{P}XC{j}", f'Sum("{P}XC{j}_{tid}", "{{true}}")')
    for m in range(len(side_shifts)):
        c.engine_prop(f"{P}SS{m}", f'Sum("{P}SS{m}_{tid}", "{{true}}")')

    def crossed(types: tuple[str, ...], mode: str) -> str:
        j = across.index(tuple(types))
        return (f"{P}XC{j} > 0" if mode == "any"
                else f"{P}Attackers > 0 && {P}XC{j} == {P}Attackers")

    # the rules: what they read from the board, their inputs, which apply and how much
    shifts = shift_inputs(c, t.shifts)
    ctx = vrules.Context(place=lambda i: loc.field(f"R{i}"),
                         role=vrules.StackRoles(c, game, tid, "defender", "attacker"),
                         roles=("attacker", "defender"), across=crossed if across else None,
                         per_unit=game.is_hex)
    ruled = vrules.compile_rules(c, game, t, ctx=ctx)
    # a per-unit rule (a unit attacking across a canal halved) at each attack marker that crosses
    for k, (r, uses, types, _rest) in enumerate(ruled.per_unit):
        keep = f"{P}Keep_{tid}_{x.ident(r.id)}"
        c.published[keep] = uses
        a, b = vrules._fraction(r)
        j = across.index(tuple(types))
        crosses = f"{pair.field(f'XC{j}')} == 1 && {keep} > 0"

        def scaled(s: str, a=a, b=b, r=r, crosses=crosses) -> str:
            return f"{crosses} ? {x.paren(x.round_div(f'{s} * {a}', str(b), r.rounding or rule))} : {s}"
        c.attacker.append((f"{P}U{k}_{tid}", scaled(strength)))
        strength = f"{P}U{k}_{tid}"
        steps.append((scaled, lambda v, a=a, b=b, r=r: {
            v, round_to_int(Fraction(v * a, b), r.rounding or rule)}))
    per_unit = vrules.per_unit_division(t)
    counts: dict[int, str] = {}  # each value a unit's strength may take -> the marker's units
    if per_unit:  # each unit's strength through the steps above on its own, counted by value
        counts = _unit_counts(c, game, tid, attack_prop, steps)
        c.attacker.append((f"{P}A_{tid}", " + ".join(
            f"{w} * {n}" for w, n in counts.items() if w) or "0"))
    else:
        c.attacker.append((f"{P}A_{tid}", strength))

    c.engine_prop(f"{P}Attack", f'Sum("{P}A_{tid}", "{{true}}")')
    c.engine_prop(f"{P}DefRaw", f'SumStack("{defence_prop}")')
    defence = f"{P}DefRaw"
    if t.edge_cap and t.edge_cap_defence:
        defence = c.prop(f"{P}DefCapped", f"Math.min({P}DefRaw, {t.edge_cap})")
    if ruled.defence:  # a rule's factor on the defence, rounded once, at least 1 of a defence
        dn, dd = vrules.factor(ruled.defence)
        c.prop(f"{P}Defence", f"{defence} == 0 ? 0 : Math.max(" + vrules.rounded(
            f"{defence} * {x.paren(dn)}", dd, ruled.defence, rule) + ", 1)")
    else:
        c.prop(f"{P}Defence", defence)

    # the defender's fire first: its machine guns (from the map), their arc, a roll
    if fire is not None and not game.is_hex:
        c.engine_prop(f"{P}ArcHits", f'Sum("{P}Arc_{tid}", "{{true}}")')
        mg = loc.field("MG")
        c.prop(f"{P}Fires", f"{mg} > 0 && ({loc.field('ARC')} == 0 || {P}Attackers == 0 || "
                            f"{P}ArcHits > 0)")
        fdie = c.roll(f"{P}FireDie", fire.dice)
        c.prop(f"{P}Loss", f"!{P}Fires ? 0 : " + x.paren(results_lookup(
            fire.results, fdie, f"({mg} - 1)", _loss)))
        c.prop(f"{P}FireBand", x.index_lookup(mg, [""] + [f"[{b}]" if fire.exact_bands else b
                                                           for b in fire.bands]))
    else:
        c.prop(f"{P}Loss", "0")
    c.prop(f"{P}Net", f"Math.max({P}Attack - {P}Loss, 0)")
    div = loc.field("DIV")
    if per_unit:  # divide = per-unit: each unit divided and rounded, then added
        totals = {w: c.engine_prop(f"{P}M{w}", f'Sum("{n}", "{{true}}")')
                  for w, n in counts.items() if w}

        def each_divided(d: Fraction) -> str:
            terms = []
            for w, m in totals.items():
                if ruled.attack:
                    an, ad = vrules.factor(ruled.attack)
                    one = vrules.rounded(f"{w * d.denominator} * {x.paren(an)}",
                                         f"{d.numerator} * {x.paren(ad)}", ruled.attack, rule)
                else:
                    one = x.lit(round_to_int(Fraction(w) / d, rule))
                terms.append(f"{m} * {x.paren(one)}")
            return " + ".join(terms) or "0"
        c.prop(f"{P}Divided", x.choose([(f"{div} == {i}", each_divided(d))
                                        for i, d in enumerate(divs) if d != 1],
                                       each_divided(Fraction(1))))
    elif ruled.attack:  # the terrain's divisor and the rules' factors, rounded once
        an, ad = vrules.factor(ruled.attack)
        c.prop(f"{P}Divided", x.choose(
            [(f"{div} == {i}", vrules.rounded(f"{P}Net * {d.denominator} * {x.paren(an)}",
                                              f"{d.numerator} * {x.paren(ad)}", ruled.attack, rule))
             for i, d in enumerate(divs) if d != 1],
            vrules.rounded(f"{P}Net * {x.paren(an)}", ad, ruled.attack, rule)))
    else:
        c.prop(f"{P}Divided", x.choose(
            [(f"{div} == {i}", x.divide_by(f"{P}Net", d, rule)) for i, d in enumerate(divs)
             if d != 1], f"{P}Net"))

    # the odds as a fraction WNum / WDen, and the column (-1: not allowed)
    below = t.rounding_below or MIRROR[t.rounding]
    a, d = f"{P}Divided", f"{P}Defence"
    c.prop(f"{P}WNum", f"{a} >= {d} ? {x.paren(x.round_div(a, d, t.rounding))} : ({a} == 0 ? 0 : 1)")
    c.prop(f"{P}WDen", f"{a} >= {d} || {a} == 0 ? 1 : {x.paren(x.round_div(d, a, below))}")
    cols = [_ratio(col) for col in t.columns]
    last = len(cols) - 1
    low = str(-1 if t.beyond_low == "not-allowed" else (0 if t.beyond_low == "first-column" else last))
    high = str(-1 if t.beyond_high == "not-allowed" else (last if t.beyond_high == "last-column" else 0))
    wn, wd = f"{P}WNum", f"{P}WDen"

    def le(k: int) -> str:  # column k's value <= the odds
        p, q = cols[k]
        return f"{p} * {wd} <= {wn} * {q}"

    p0, q0 = cols[0]
    pn, qn = cols[-1]
    if t.ends == "after-shifts":  # past an end the odds keep their place beyond it
        low, high = _beyond_ends(cols, wn, wd)
    c.prop(f"{P}OddsCol", x.choose(
        [(f"{p0} * {wd} > {wn} * {q0}", low), (f"{pn} * {wd} < {wn} * {qn}", high)]
        + [(le(k), str(k)) for k in range(last, 0, -1)], "0"))
    sh = loc.field("SHIFT")
    here = f"{sh} - {-lo_shift}" if lo_shift else sh
    if not side_shifts:
        c.prop(f"{P}TerrainShift", here)
    elif t.terrain_choice == "cumulative":  # the hexside types any attacker crosses, once each
        c.prop(f"{P}TerrainShift", " + ".join(
            [x.paren(here)] + [f"({P}SS{m} > 0 ? {x.lit(v)} : 0)" for m, (_, v) in
                               enumerate(side_shifts)]))
    else:  # the one best for the defender of the terrain's and the crossed hexsides'
        options = [f"{loc.field('TSH')} == 1 ? {x.paren(here)} : {x.BIG}"] + [
            f"{P}SS{m} > 0 ? {x.lit(v)} : {x.BIG}" for m, (_, v) in enumerate(side_shifts)]
        c.prop(f"{P}ShiftBest", x.minimum(options))
        c.prop(f"{P}TerrainShift", f"{P}ShiftBest == {x.BIG} ? 0 : {P}ShiftBest")
    c.prop(f"{P}Banned", ruled.prohibited)
    labels = [_label(col) for col in t.columns]
    base = f"{P}OddsCol"
    if ruled.column:  # a rule's column, read before the shifts
        c.prop(f"{P}RuleCol", vrules.first_index(ruled.column, lambda col: labels.index(_label(col))))
        base = c.prop(f"{P}BaseCol", f"{P}RuleCol >= 0 ? {P}RuleCol : {P}OddsCol")
    moved = vrules.moved(base, f"{P}TerrainShift + {shift_total(shifts)} + {x.paren(ruled.shift)}",
                         last, t.beyond_low, t.beyond_high)
    if ruled.cap:  # at most this column, after the shifts
        c.prop(f"{P}Moved", moved)
        c.prop(f"{P}CapCol", vrules.first_index(ruled.cap, lambda col: labels.index(_label(col))))
        moved = (f"{P}Moved >= 0 && {P}CapCol >= 0 && {P}Moved > {P}CapCol ? {P}CapCol : "
                 f"{P}Moved")
    # before the shifts, odds past a 'not-allowed' end refuse the attack; after them, the table's
    # ends apply to the column shifted (vrules.moved)
    early = f" || {P}OddsCol < 0" if t.ends == "before-shifts" else ""
    c.prop(f"{P}Column", f"{P}Banned{early} ? -1 : " + x.paren(moved))

    # roll, modifiers, result, losses
    modified = mods.compile(c, loc.field)  # the place's modifiers and those set on the menu
    c.prop(f"{P}Drm", drm(modified, ruled.drm))
    lo, hi = tdice.dice_range(t.dice)
    die = c.roll(f"{P}Die", t.dice)
    c.prop(f"{P}Roll", x.clamp(f"{die} + {P}Drm", lo, hi))
    read = vrules.replaced(c, f"{P}Read", results_lookup(t.results, f"{P}Roll", f"{P}Column",
                                                        lambda v: v), ruled)
    c.prop(f"{P}Result", f'{P}Column < 0 ? "not allowed" : ' + x.paren(read))
    c.prop(f"{P}Why", ruled.why)
    c.prop(f"{P}ColumnLabel", f'{P}Column < 0 ? "not allowed" : '
           + x.paren(x.index_lookup(f"{P}Column", [_label(col) for col in t.columns])))
    outcome = f"{P}Result"
    if t.result_format == "attacker/defender":
        c.prop(f"{P}ALoss", f"{P}Column < 0 ? 0 : " + x.paren(results_lookup(
            t.results, f"{P}Roll", f"{P}Column", lambda v: _loss(v.split("/")[0]))))
        c.prop(f"{P}DLossRead", f"{P}Column < 0 ? 0 : " + x.paren(results_lookup(
            t.results, f"{P}Roll", f"{P}Column", lambda v: _loss(v.split("/")[1]))))
        if t.retreat_reduces:
            prop = f"{P}Retreat"
            c.inputs.append(Input(prop, f"the defender retreats one sector (loses "
                                        f"{t.retreat_reduces} less)", "toggle", api="retreat"))
            c.prop(f"{P}DLoss", f"{P}DLossRead - ({prop} == 1 ? Math.min({P}DLossRead, "
                                f"{t.retreat_reduces}) : 0)")
        else:
            c.prop(f"{P}DLoss", f"{P}DLossRead")
        c.prop(f"{P}Meaning", f'{P}Banned ? {P}Why : {P}Column < 0 ? '
               f'{x.lit(words.cannot(t, "these odds"))} : "attacker loses " + {P}ALoss + ", defender loses " + {P}DLoss'
               f' + ({P}DLoss != {P}DLossRead ? " (retreats one sector: " + {P}DLossRead + " - "'
               f' + ({P}DLossRead - {P}DLoss) + ")" : "")')
    else:
        results = sorted({v for row in t.results.values() for v in row}
                         | {b for _, table in ruled.replace for b in table.values()})
        c.prop(f"{P}Meaning", f'{P}Banned ? {P}Why : {P}Column < 0 ? '
               f'{x.lit(words.cannot(t, "these odds"))} : ' + x.paren(x.choose([(f"{P}Result == {x.lit(v)}", x.lit(meaning(t, v)))
                                   for v in results], '""')))

    # the chat line
    parts = [x.lit(f"{t.name}: attack "), f"{P}Attack"]
    if fire is not None and not game.is_hex:
        parts.append(f'{P}Fires ? ", machine guns " + {P}FireBand + " fire first, die " + '
                     f'{P}FireDie + ": -" + {P}Loss + " = " + {P}Net : ""')
    div_names = []
    for dv in divs:
        names = [tt.name for tt in game.map.terrain_types
                 if _effect_values([tt], t.terrain_effect).get(tt.id) == dv]
        div_names.append(", ".join(names) if t.terrain_choice != "cumulative" else "terrain")
    each = "each unit " if per_unit else ""
    if len(divs) > 1:
        parts.append(x.choose([(f"{div} == {i}", x.text(
            x.lit(f", {each}/ {show(dv)} ({div_names[i]}) = "), f"{P}Divided"))
            for i, dv in enumerate(divs) if dv != 1], '""'))
    parts += [x.lit(" vs "), f"{P}Defence",
              f'{P}Defence != {P}DefRaw ? " (of " + {P}DefRaw + ")" : ""',
              x.lit(", odds "), f"{P}Divided", x.lit(":"), f"{P}Defence"]
    if t.ends == "after-shifts":
        past = x.lit(", past the table's end (shifts count from there)")
        parts.append(f'{P}OddsCol < 0 || {P}OddsCol > {last} ? {past} : ""')
    parts.append(f'{P}TerrainShift != 0 ? ", terrain " + ({P}TerrainShift > 0 ? "+" : "") + '
                 f'{P}TerrainShift : ""')
    for prop, n in shifts:
        s = next(s for s in t.shifts if f"{P}Shift_{x.ident(s.id)}" == prop)
        parts.append(f'{prop} > 0 ? {x.lit(", " + s.label + " ")} + ({prop} * {x.lit(n)} >= 0 ? "+" : "") '
                     f'+ {prop} * {x.lit(n)} : ""')
    for label, when in ruled.shown + [(m.label, m.when) for m in modified]:
        parts.append(f'{x.paren(when)} ? ", " + {x.paren(label)} : ""')
    parts.append(f'{P}Column < 0 ? " -> not allowed" : " -> column " + {P}ColumnLabel + ", die " '
                 f'+ {die} + ({P}Drm != 0 ? " " + ({P}Drm > 0 ? "+" : "") + {P}Drm + " = " + '
                 f'({die} + {P}Drm) : "") + ": " + {outcome} + '
                 f'{x.paren(vrules.replacements(ruled, f"{P}Read", f"{P}Column < 0"))} + " (" + {P}Meaning + ")"')
    c.prop(c.line, x.text(*parts))
    return c


def _beyond_ends(cols: list[tuple[int, int]], wn: str, wd: str) -> tuple[str, str]:
    """Where odds WNum:WDen past the first or last column lie (ends = 'after-shifts'), as
    builder.tables.ratio._virtual counts: a column per whole step beyond an end (8:1 is two
    past a last 6:1, 1:6 two before a first 1:4), one when the end is not such a step; no
    attack strength is far below every column."""
    last = len(cols) - 1
    bottom, top = Fraction(*cols[0]), Fraction(*cols[-1])
    below = (f"{bottom.denominator} - {wd}" if bottom.numerator == 1 else "-1")
    low = f"{wn} == 0 ? {x.lit(-FAR)} : {x.paren(below)}"
    high = f"{last} + {wn} - {top.numerator}" if top.denominator == 1 else str(last + 1)
    return low, high


def _unit_counts(c: Calculator, game, tid: str, attack_prop: str, steps) -> dict[int, str]:
    """At each attack marker, how many of its units have each strength after the steps (the
    hexside crossed, per-unit rules): value -> the marker's property holding the count. A
    unit's strength is one of the printed ones (factor_values), counted by CountStack."""
    counted: dict[int, str] = {}
    values = factor_values(game, attack_prop)
    for v in values:
        test = "{" + f"{attack_prop}=={v}" + "}"
        counted[v] = c.engine_prop(f"{P}N{v}_{tid}", f"CountStack({x.lit(test)})", attacker=True)
    if not steps:
        return counted
    became: dict[int, str] = {}  # printed strength -> the property of what it becomes here
    may: dict[int, set[int]] = {}  # a strength it may become -> the printed ones that may
    for v in values:
        expr, could = str(v), {v}
        for step, becomes in steps:
            expr = step(expr)
            could = {w for m in could for w in becomes(m)}
        became[v] = f"{P}C{v}_{tid}"
        c.attacker.append((became[v], expr))
        for w in could:
            may.setdefault(w, set()).add(v)
    out = {}
    for w in sorted(may):
        out[w] = f"{P}W{w}_{tid}"
        c.attacker.append((out[w], " + ".join(f"({became[v]} == {w} ? {counted[v]} : 0)"
                                              for v in sorted(may[w]))))
    return out


def _band(fire, strength: int) -> int:
    from builder.tables.fire import band_index

    return band_index(fire, int(strength))


def _loss(cell: str) -> int:
    cell = cell.strip()
    return 0 if cell.strip("-—") == "" else int(cell)
