"""A fire table in the module: fire strength across, dice down, the loss divided by the target's
terrain and rounded (mirrors builder.tables.fire). The marker is dropped on the target; the
player sets the fire strength from its menu."""

from __future__ import annotations

import math
import re
from fractions import Fraction

from builder import words
from builder.model.rolls import RollSpec
from builder.model.tables import FireTable
from builder.tables import dice as tdice
from builder.tables.common import NO_EFFECT, meaning
from builder.tables.fire import _band as band_range
from builder.tables.rounding import show
from builder.vassal import expr as x
from builder.vassal_combat import rules as vrules
from builder.vassal_combat.calculator import PREFIX, Calculator, Input, results_lookup
from builder.vassal_combat.locations import Field, Packer, commonest, key_text, location_names
from builder.vassal_combat.modifiers import drm_props, roll_modifiers
from builder.vassal_combat.places import default_terrain, place_terrain
from builder.vassal_combat.unit_rules import firing_types, unit_rule

P = PREFIX


def divisor(game, t: FireTable, ids: tuple[str, ...]) -> Fraction:
    """As builder.tables.terrain.divisor with 'best-for-defender': the largest divisor."""
    found = []
    for i in ids:
        tt = game.terrain_types.get(i)
        if tt is not None and t.terrain_effect and t.terrain_effect in tt.effects:
            found.append(Fraction(str(tt.effects[t.terrain_effect])))
    return max(found) if found else Fraction(1)


def _plain(text: str) -> str:
    """Text safe in a report format (no property references or expressions)."""
    return text.replace("$", "").replace("{", "(").replace("}", ")")


def _loss(cell: str) -> int:
    return 0 if cell.strip() in ("-", "—", "") else int(cell)


def _classic(game, t: FireTable) -> bool:
    """A fire table of one firing strength set from the menu, read on numbers (losses) for the
    roll alone (Eben-Emael's): built as it always was, chat line and all."""
    lo, hi = tdice.dice_range(t.dice)
    return bool(t.bands) and not (t.fire_group or t.modifiers or t.natural or t.attempts > 1) \
        and not any(unit_rule(t, r) for r in t.rules) \
        and all(re.fullmatch(r"\d+|-|—", c) for row in t.results.values() for c in row) \
        and set(t.results) == {str(n) for n in range(lo, hi + 1)}


def build(game, t: FireTable) -> Calculator:
    """The calculator of a fire table."""
    return _build_classic(game, t) if _classic(game, t) else _build(game, t)


def _build_classic(game, t: FireTable) -> Calculator:
    """A classic fire table: one firing strength set from the menu, losses by the roll."""
    c = Calculator(t.id, t.name, t.kind, marker=f"Resolve: {t.name}")
    tid = x.ident(t.id)
    places = location_names(game)
    keys = [key_text(name) for name, _ in places]
    nodes = vrules.static_nodes(t)  # the rules' place tests, one packed fact each
    raw = [divisor(game, t, place_terrain(game, p)) for _, p in places]
    divs = sorted(set(raw) | {Fraction(1)})
    all_facts = [{"DIV": divs.index(d), **{f"R{i}": vrules.static_value(game, n, p)
                                           for i, n in enumerate(nodes)}}
                 for d, (_, p) in zip(raw, places)]
    default = commonest(all_facts, {"DIV": divs.index(divisor(game, t, default_terrain(game))),
                                    **{f"R{i}": 0 for i in range(len(nodes))}})
    loc = Packer(f"{tid}@", [Field("DIV", len(divs))] + [Field(f"R{i}", 2) for i in range(len(nodes))],
                 f"{P}Loc")
    if t.terrain_effect or nodes:
        c.data.update(loc.data(keys, all_facts, default))
        for name, e in loc.word_props("LocationName", default):
            c.prop(name, e)
        div = loc.field("DIV")
    else:
        c.prop(f"{P}Loc0", "0")
        div = f"{P}Loc0"

    fp = f"{P}Fire"
    if t.exact_bands:
        c.inputs.append(Input(fp, "fire strength", "choice", default=t.bands[0],
                              choices=tuple(t.bands), api="firepower"))
        c.prop(f"{P}Column", x.choose([(f"{fp} == {int(b)}", str(i)) for i, b in enumerate(t.bands)],
                                      "-1"))
    else:
        lo = band_range(t.bands[0])[0]
        hi = band_range(t.bands[-1])[1]
        c.inputs.append(Input(fp, "fire strength", "number", default=str(lo), min=lo,
                              max=999 if hi == float("inf") else int(hi), api="firepower"))
        cases = []
        for i, b in enumerate(t.bands):
            blo, bhi = band_range(b)
            cond = f"{fp} >= {blo}" + ("" if bhi == float("inf") else f" && {fp} <= {int(bhi)}")
            cases.append((cond, str(i)))
        c.prop(f"{P}Column", x.choose(cases, "-1"))
    die = c.roll(f"{P}Die", t.dice)
    c.prop(f"{P}Read", f"{P}Column < 0 ? 0 : " + x.paren(
        results_lookup(t.results, die, f"{P}Column", _loss)))
    c.prop(f"{P}Loss", x.choose(
        [(f"{div} == {i}", x.divide_by(f"{P}Read", d, t.rounding)) for i, d in enumerate(divs)
         if d != 1], f"{P}Read"))
    ctx = vrules.Context(place=lambda i: loc.field(f"R{i}"),
                         role=vrules.StackRoles(c, game, tid, "target", asked="firer"),
                         roles=("firer", "target"))
    ruled = vrules.compile_rules(c, game, t, ctx=ctx)
    c.prop(f"{P}Banned", ruled.prohibited)
    c.prop(f"{P}Shown", f'{P}Loss > 0 ? "" + {P}Loss : "-"')
    c.prop(f"{P}Got", vrules.replaced(c, f"{P}Read", f"{P}Shown", ruled))
    c.prop(f"{P}Result", f'{P}Banned ? "not allowed" : {P}Column < 0 ? "no column" : {P}Got')
    given = {b: meaning(t, b) for _, table in ruled.replace for b in table.values()}
    plain = f'({P}Loss > 0 ? "the target loses " + {P}Loss : "no loss")'
    if given:  # a result a rule gave says what it means
        plain = (f"{P}Got != {P}Shown ? " + x.paren(x.choose(
            [(f"{P}Got == {x.lit(b)}", x.lit(m)) for b, m in given.items()], '""')) + " : " + plain)
    c.prop(f"{P}Meaning", f'{P}Banned ? {x.paren(ruled.why)} : '
           f'{P}Column < 0 ? "no column for this fire strength" : ' + x.paren(plain))
    band_labels = [f"[{b}]" if t.exact_bands else b for b in t.bands]
    c.prop(f"{P}ColumnLabel", f'{P}Column < 0 ? "none" : '
           + x.paren(x.index_lookup(f"{P}Column", list(t.bands))))
    names = []
    for d in divs:
        kinds = [tt.name for tt in game.map.terrain_types if t.terrain_effect in tt.effects
                 and Fraction(str(tt.effects[t.terrain_effect])) == d]
        names.append(f" / {show(d)} ({', '.join(kinds)})")
    div_text = x.choose([(f"{div} == {i}", x.lit(n)) for i, n in enumerate(names) if divs[i] != 1],
                        '""')
    c.report = f"{_plain(t.name)}: fire ${fp}$ at $LocationName$${c.line}$"
    c.prop(c.line, x.text(
        f'{P}Column < 0 ? ": no column for this fire strength" : " -> column " + '
        + x.paren(x.index_lookup(f"{P}Column", band_labels))
        + f' + ", die " + {die} + ": " + {P}Read + ({x.paren(div_text)} == "" ? "" : '
        f'{x.paren(div_text)} + " = " + {P}Loss) + ": " + {P}Meaning + '
        + x.paren(vrules.replacements(ruled, f"{P}Read", f"{P}Banned"))))
    return c


# --- fire tables of today: a fire group, modifiers, rows by the modified roll ------------------
def _uses_units(t) -> bool:
    """Whether the firing units are read from the map (attack markers) rather than the menu."""
    return t.fire_group or any(unit_rule(t, r) for r in t.rules)


def _cubes(game) -> tuple[dict[str, str], int]:
    """Each hex's cube coordinates packed into one number (q * rows + r + 1; 0: not a hex), as
    module data under 'cube@<hex>', and the rows figure to unpack them."""
    cubes = {game.grid.label(h): game.grid.cube(h)[:2] for h in game.grid.all_hexes()}
    q0 = min(q for q, _ in cubes.values())
    r0 = min(r for _, r in cubes.values())
    rows = max(r for _, r in cubes.values()) - r0 + 1
    return ({f"cube@{key_text(k)}": str((q - q0) * rows + (r - r0) + 1)
             for k, (q, r) in cubes.items()}, rows)


def _unit_props(game, t, c: Calculator, at: str) -> tuple[int, list]:
    """The properties each firing unit carries: its distance to the target (at: the global
    property holding the target's hex), its firepower under the unit rules (scaled so that
    every divisor divides it), a refusal, and which roll-modifier rules hold for it. Returns the
    scale and the drm/prohibited rules with their unit property names."""
    tid = x.ident(t.id)
    data, rows = _cubes(game)
    c.data.update(data)
    me, them = f"{P}Me_{tid}", f"{P}Them_{tid}"
    c.unit_props.append((me, 'Integer.parseInt("0" + GetProperty("cube@" + LocationName))'))
    c.unit_props.append((them, f'Integer.parseInt("0" + GetProperty("cube@" + {at}))'))
    dq = f"(({me} - 1) / {rows} - ({them} - 1) / {rows})"
    dr = f"(({me} - 1) % {rows} - ({them} - 1) % {rows})"
    dist = f"{P}Dist_{tid}"
    c.unit_props.append((dist, (f"Math.max(Math.abs({dq}), Math.max(Math.abs({dr}), "
                                f"Math.abs({dq} + {dr})))")))
    from builder.vassal.pieces import prop_name

    fp = prop_name(t.strength)
    rng = prop_name("range")
    scale = math.prod(int(r.attack_divisor) for r in t.rules
                      if unit_rule(t, r) and r.effect == "attack_divisor")
    value = f"{fp} * {scale}"
    others = []
    for r in t.rules:
        if not unit_rule(t, r):
            continue
        holds = vrules.spec_condition(RollSpec(r.when.distance), dist, {"range": rng})
        if r.effect == "attack_multiplier":
            value = f"{x.paren(value)} * ({holds} ? {int(r.attack_multiplier)} : 1)"
        elif r.effect == "attack_divisor":
            value = f"{x.paren(value)} / ({holds} ? {int(r.attack_divisor)} : 1)"
        else:
            prop = f"{P}U{len(others)}_{tid}"
            c.unit_props.append((prop, f"{holds} ? 1 : 0"))
            others.append((r, prop))
    c.unit_props.append((f"{P}Fire_{tid}", f'{fp} == "" ? 0 : ({value})'))
    c.unit_types = firing_types(game, t)
    return scale, others


def unit_traits(game, t) -> tuple[tuple[str, ...], list[tuple[str, str]]]:
    """(unit types, calculated properties) every firing unit of this table carries in the
    module: nothing when the table reads its firepower from the menu."""
    if t.kind != "fire" or not t.bands or not _uses_units(t) or _classic(game, t):
        return (), []
    c = Calculator(t.id, t.name, t.kind, marker="")
    _unit_props(game, t, c, f"{P}At_{x.ident(t.id)}")
    return c.unit_types, c.unit_props


def _build(game, t: FireTable) -> Calculator:
    """A fire table with a fire group, modifiers, natural rolls, text results or rows beyond the
    dice: mirrors builder.tables.fire."""

    tid = x.ident(t.id)
    units = bool(t.bands) and _uses_units(t)
    c = Calculator(t.id, t.name, t.kind, marker=f"Resolve: {t.name}",
                   attacker_name=f"Fire: {t.name}" if units else "")
    divs: list[Fraction] = [Fraction(1)]
    extra, extra_facts = (), None
    if t.terrain_effect:
        divs = sorted({divisor(game, t, place_terrain(game, p)) for _, p in location_names(game)}
                      | {Fraction(1)})
        extra = [Field("DIV", len(divs))]

        def extra_facts(terrain):
            return {"DIV": divs.index(divisor(game, t, terrain))}
    parts, field_of = roll_modifiers(c, game, t, extra, extra_facts)
    div = field_of("DIV") if t.terrain_effect else "0"

    # the firepower: the firing units on the map, or the menu
    bans: list[tuple[str, str]] = []
    unit_drms: list[tuple[str, str, str]] = []
    strength = f"{P}Strength"
    if units:
        at = f"{P}At_{tid}"
        c.published[at] = "LocationName"
        scale, others = _unit_props(game, t, c, at)
        c.engine_prop(f"{P}S_{tid}", f'SumStack("{P}Fire_{tid}")', attacker=True)
        c.attacker.append((f"{P}A_{tid}", f"{P}S_{tid}"))
        c.engine_prop(f"{P}Scaled", f'Sum("{P}A_{tid}", "{{true}}")')
        for r, prop in others:
            c.engine_prop(f"{prop}s", f'SumStack("{prop}")', attacker=True)
            c.attacker.append((f"{prop}a", f"{prop}s"))
            total = c.engine_prop(f"{prop}n", f'Sum("{prop}a", "{{true}}")')
            if r.effect == "prohibited":
                bans.append((f"{total} > 0", x.lit(words.rule(game, t, r))))
            else:
                unit_drms.append((x.lit(f"{r.label} {r.drm:+d}"),
                                  f"({total} > 0 ? {x.lit(r.drm)} : 0)", f"{total} > 0"))
        c.prop(strength, x.divide_by(f"{P}Scaled", Fraction(scale), t.firepower_rounding))
    elif t.bands and t.exact_bands:
        c.inputs.append(Input(strength, t.strength, "choice", default=t.bands[0],
                              choices=tuple(t.bands), api=t.strength_input))
    elif t.bands:
        lo = band_range(t.bands[0])[0]
        hi = band_range(t.bands[-1])[1]
        c.inputs.append(Input(strength, t.strength, "number", default=str(lo), min=lo,
                              max=999 if hi == float("inf") else int(hi), api=t.strength_input))
    if t.bands:
        cases = []
        for i, b in enumerate(t.bands):
            blo, bhi = band_range(b)
            cond = f"{strength} >= {blo}" + ("" if bhi == float("inf") else
                                              f" && {strength} <= {int(bhi)}")
            cases.append((cond, str(i)))
        top = band_range(t.bands[-1])[1]
        if top != float("inf"):  # above the last column: read on it (builder.tables.fire)
            cases.append((f"{strength} > {int(top)}", str(len(t.bands) - 1)))
        c.prop(f"{P}Column", x.choose(cases, "-1"))
    else:
        c.prop(f"{P}Column", "(0)")

    ctx = vrules.Context(place=(lambda i: field_of(f"R{i}")) if field_of else None,
                         role=vrules.StackRoles(c, game, tid, "target", asked="firer"),
                         roles=("firer", "target"))
    ruled = vrules.compile_rules(c, game, t, ctx=ctx)
    drm_props(c, parts, ruled.drm, ruled.shown, unit_drms)
    ban = x.any_of([ruled.prohibited] + [b for b, _ in bans]) if bans else ruled.prohibited
    why = x.choose(bans, ruled.why) if bans else ruled.why
    c.prop(f"{P}Banned", ban)

    # one roll per marker on the target; the first effect counts
    rows = sorted(int(k) for k in t.results)
    lo_row, hi_row = rows[0], rows[-1]
    n = t.attempts
    markers = "1"
    if n > 1:
        c.inputs.append(Input(f"{P}Markers", f"markers on the target (1 to {n})", "count",
                              default="1", min=1, max=n, api="markers"))
        markers = f"{P}Markers"
    numeric = bool(t.terrain_effect) or any(cell.strip().isdigit() for row in t.results.values()
                                            for cell in row)
    cells = sorted({cell for row in t.results.values() for cell in row} | set(t.natural.values())
                   | {b for _, table in ruled.replace for b in table.values()})
    for i in range(1, n + 1):
        die = c.roll(f"{P}Die{i}", t.dice)
        c.prop(f"{P}Row{i}", x.clamp(f"{die} + {P}Drm", lo_row, hi_row))
        read = results_lookup({str(r): t.results[str(r)] for r in rows}, f"{P}Row{i}",
                              f"{P}Column", lambda v: v)
        nat = [(f"{die} == {int(k)}", x.lit(v)) for k, v in sorted(t.natural.items())]
        c.prop(f"{P}Cell{i}", x.choose(nat, read) if nat else read)
        if ruled.replace and not numeric:  # a rule replaces a result read
            c.prop(f"{P}Cell{i}r", vrules.replaced(c, f"{P}Read{i}_", f"{P}Cell{i}", ruled))
        if numeric:
            c.prop(f"{P}Loss{i}", x.choose([(f"{div} == {k}", x.divide_by(
                f"Integer.parseInt(({P}Cell{i} == \"-\" || {P}Cell{i} == \"—\") ? \"0\" : "
                f"\"\" + {P}Cell{i})", d, t.rounding)) for k, d in enumerate(divs) if d != 1],
                f"Integer.parseInt(({P}Cell{i} == \"-\" || {P}Cell{i} == \"—\") ? \"0\" : "
                f"\"\" + {P}Cell{i})"))
            shown = f'{P}Loss{i} > 0 ? "" + {P}Loss{i} : "-"'
            if ruled.replace:  # a rule replaces the loss read (as builder.tables.fire)
                shown = vrules.replaced(c, f"{P}Shown{i}_", x.paren(shown), ruled)
            c.prop(f"{P}Res{i}", shown)
        else:
            c.prop(f"{P}Res{i}", f"{P}Cell{i}r" if ruled.replace else f"{P}Cell{i}")
        c.prop(f"{P}Eff{i}", x.choose([(f"{P}Res{i} == {x.lit(v)}", x.lit(
            v.strip().lower() not in NO_EFFECT)) for v in cells if v.strip()], "false")
               if not numeric else f'!({P}Res{i} == "-" || {P}Res{i} == "—")')
        how = (f'"die " + {die} + ({P}Drm != 0 ? " " + ({P}Drm > 0 ? "+" : "") + {P}Drm + '
               f'" = " + ({die} + {P}Drm) : "")')
        if nat:
            said = x.choose([(cond, x.lit(f"die {k}, natural {k} whatever the modifiers"))
                             for (cond, _), k in zip(nat, sorted(t.natural))], '""')
            how = f"{x.any_of(cond for cond, _ in nat)} ? {x.paren(said)} : {x.paren(how)}"
        replaced = vrules.replacements(ruled, f"{P}Shown{i}_" if numeric else f"{P}Read{i}_",
                                       f"{P}Banned")
        c.prop(f"{P}How{i}", f'{x.paren(how)} + ": " + {P}Res{i} + {x.paren(replaced)}')
    first = [(f"{markers} >= {i} && {P}Eff{i}", f"{P}Res{i}") for i in range(1, n + 1)]
    last = x.choose([(f"{markers} == {i}", f"{P}Res{i}") for i in range(1, n)], f"{P}Res{n}")
    c.prop(f"{P}Result", f'{P}Banned ? "not allowed" : {P}Column < 0 ? "-" : '
           + x.paren(x.choose(first, last)))
    meanings = [(f"{P}Result == {x.lit(v)}", x.lit(meaning(t, v))) for v in cells
                if meaning(t, v) and not numeric]
    if numeric:
        meanings = [(f'{P}Result != "-"', f'"the target loses " + {P}Result')]
    c.prop(f"{P}Meaning", f"{P}Banned ? {x.paren(why)} : {P}Column < 0 ? "
           + x.lit(f"no effect: the {t.strength} is below the first column") + " : "
           + x.paren(x.choose(meanings, x.lit(t.legend.get("-", t.legend.get("—", "no loss"))
                                              if numeric else meaning(t, "-") or "no effect"))))
    if t.bands:
        c.prop(f"{P}ColumnLabel", f'{P}Column < 0 ? "none" : '
               + x.paren(x.index_lookup(f"{P}Column", list(t.bands))))
    else:
        c.prop(f"{P}ColumnLabel", f'"modifier " + ({P}Drm >= 0 ? "+" : "") + {P}Drm')
    rolls = []
    for i in range(1, n + 1):
        shown = f"{markers} >= {i}" if i > 1 else "true"
        label = f'"; marker {i}: "' if n > 1 else '"; "'
        rolls.append(f"{shown} ? {label} + {P}How{i} : \"\"")
    head = (f'": {t.strength} " + {strength} + " -> column " + {P}ColumnLabel' if t.bands
            else '""')
    c.report = f"{_plain(t.name)} at $LocationName$$" + c.line + "$"
    c.prop(c.line, x.text(
        f"{P}Banned ? {x.lit(': not allowed: ')} + {x.paren(why)} : "
        f"{P}Column < 0 ? {x.lit(': ' + t.strength + ' ')} + {strength} + "
        + x.lit(" is below the first column: no effect") + " : "
        + x.paren(x.text(head, f'", modifier " + ({P}Drm >= 0 ? "+" : "") + {P}Drm + '
                         f'({P}DrmText == "" ? "" : " (" + {P}DrmText + ")")', *rolls,
                         f'" -> " + {P}Result + ({P}Meaning == "" ? "" : " (" + {P}Meaning + '
                         '")")'))))
    return c
