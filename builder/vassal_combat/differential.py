"""A differential CRT in the module: attack minus defence on the defender's terrain row.

Mirrors builder.tables.differential: rows from the defender's place (terrain) and from the
hexsides the attack markers cross (any or all attackers), condition rows the player switches on,
the row best for the defender (leftmost column), ends of rows, shifts, modifiers, the roll.
"""

from __future__ import annotations

from fractions import Fraction

from builder import words
from builder.model.tables import DifferentialTable, parse_band
from builder.tables import dice as tdice
from builder.tables.common import meaning, slug
from builder.vassal import expr as x
from builder.vassal_combat import rules as vrules
from builder.vassal_combat.calculator import (
    PREFIX,
    Calculator,
    Input,
    factor_property,
    results_lookup,
    shift_inputs,
    shift_total,
)
from builder.vassal_combat.locations import Field, Packer, commonest, key_text, location_names
from builder.vassal_combat.modifiers import RollModifiers, drm
from builder.vassal_combat.places import default_terrain, hexside_types, place_terrain

P = PREFIX


def _beyond(rule: str, last: int, low: bool) -> int:
    if rule == "not-allowed":
        return -1
    if low:
        return 0 if rule == "first-column" else last
    return last if rule == "last-column" else 0


def row_column(t: DifferentialTable, row, diff: str) -> str:
    """The column index of a differential on one row (-1: not allowed); with ends =
    'after-shifts', past the row's end a column a point beyond it (builder.tables.differential
    .band_column), the table's end applied after the shifts."""
    bands = [parse_band(b) for b in row.differentials]
    last = len(bands) - 1
    after = t.ends == "after-shifts"
    cases = []
    if bands[0][0] != float("-inf"):
        lo = x.lit(int(bands[0][0]))
        cases.append((f"{diff} < {lo}", f"{diff} - {lo}" if after
                      else x.lit(_beyond(t.beyond_low, last, True))))
    if bands[-1][1] != float("inf"):
        hi = x.lit(int(bands[-1][1]))
        cases.append((f"{diff} > {hi}", f"{last} + {diff} - {hi}" if after
                      else x.lit(_beyond(t.beyond_high, last, False))))
    for i in range(last, 0, -1):
        cases.append((f"{diff} >= {x.lit(int(bands[i][0]))}", str(i)))
    return x.choose(cases, "0")


def _label(t: DifferentialTable, row, i: int) -> str:
    """As builder.tables.differential._label."""
    if i < len(row.differentials):
        return f"{row.differentials[i]} on {row.name}"
    clear = next((r for r in t.terrain_rows if r.name == t.default_row), row)
    band = f", the {clear.name} row's {clear.differentials[i]}" if i < len(clear.differentials) else ""
    return f"column {i + 1} of {t.columns}{band}"


def divisors(game, t: DifferentialTable) -> list[Fraction]:
    """The distinct defence divisors the terrain types give, smallest first."""
    vals = {Fraction(str(tt.effects[t.defence_effect])) for tt in game.map.terrain_types
            if t.defence_effect and t.defence_effect in tt.effects}
    return sorted(vals)


def build(game, t: DifferentialTable) -> Calculator:
    """The calculator of a differential table."""
    c = Calculator(t.id, t.name, t.kind, marker=f"Resolve: {t.name}", place="defender",
                   attacker_name=f"Attacker: {t.name}")
    tid = x.ident(t.id)
    rows = list(t.terrain_rows)
    divs = divisors(game, t)
    nodes = vrules.static_nodes(t)  # the rules' place tests, one packed fact each
    across = vrules.across_sets(game, t) if game.is_hex else []
    mods = RollModifiers(game, t.modifiers)

    # what the module looks up about the defender's place, and about each attacker -> defender side
    fields = []
    for k, r in enumerate(rows):
        if not r.condition and r.terrain:
            fields.append(Field(f"T{k}", 2))
        if r.condition:
            fields.append(Field(f"C{k}", 2))
        if r.hexsides and r.except_terrain:
            fields.append(Field(f"E{k}", 2))
    if divs:
        fields.append(Field("DIV", len(divs) + 1))
    fields += [Field(f"R{i}", 2) for i in range(len(nodes))]
    fields += mods.fields()
    loc = Packer(f"{tid}@", fields or [Field("NONE", 1)], f"{P}Loc")

    def facts(terrain: tuple[str, ...], place=None) -> dict[str, int]:
        out = mods.facts(place)
        for i, node in enumerate(nodes):
            out[f"R{i}"] = vrules.static_value(game, node, place) if place is not None else 0
        ts = set(terrain)
        for k, r in enumerate(rows):
            if not r.condition and r.terrain:
                out[f"T{k}"] = int(bool(ts & set(r.terrain)))
            if r.condition:
                out[f"C{k}"] = int(not r.terrain or bool(ts & set(r.terrain)))
            if r.hexsides and r.except_terrain:
                out[f"E{k}"] = int(bool(ts & set(r.except_terrain)))
        if divs:
            found = [Fraction(str(game.terrain_types[i].effects[t.defence_effect])) for i in terrain
                     if i in game.terrain_types and t.defence_effect in game.terrain_types[i].effects]
            out["DIV"] = divs.index(max(found)) + 1 if found else 0
        return out

    places = location_names(game)
    keys = [key_text(name) for name, _ in places]
    all_facts = [facts(place_terrain(game, p), p) for _, p in places]
    default = commonest(all_facts, facts(default_terrain(game)))
    c.data.update(loc.data(keys, all_facts, default))
    for name, e in loc.word_props("LocationName", default):
        c.prop(name, e)

    side_rows = [k for k, r in enumerate(rows) if r.hexsides] if game.is_hex else []
    if side_rows or across:
        c.at_property = f"{P}At_{tid}"
        c.published[c.at_property] = "LocationName"
        pair = Packer(f"{tid}>", [Field(f"H{k}", 2) for k in side_rows]
                      + [Field(f"XC{j}", 2) for j in range(len(across))], f"{P}Side")
        for a, b, types in hexside_types(game):
            vals = {f"H{k}": int(bool(set(types) & set(rows[k].hexsides))) for k in side_rows}
            vals.update({f"XC{j}": int(bool(set(types) & set(want)))
                         for j, want in enumerate(across)})
            if any(vals.values()):
                c.data.update(pair.data([f"{key_text(a)}>{key_text(b)}"], [vals], {}))
        key = f'LocationName + ">" + {c.at_property}'
        for name, e in pair.word_props(key, {}):
            c.attacker.append((name, e))
        for k in side_rows:
            c.attacker.append((f"{P}X{k}_{tid}", pair.field(f"H{k}")))
        for j in range(len(across)):
            c.attacker.append((f"{P}XC{j}_{tid}", pair.field(f"XC{j}")))

    # the strengths: attack markers total their stacks; the defender's stack is under the marker
    attack_prop = factor_property(game, "attack")
    defence_prop = factor_property(game, "defence")
    c.engine_prop(f"{P}S_{tid}", f'SumStack("{attack_prop}")', attacker=True)
    c.attacker_marks.append((f"{P}One_{tid}", "1"))
    c.engine_prop(f"{P}Attack", f'Sum("{P}A_{tid}", "{{true}}")')
    c.engine_prop(f"{P}Attackers", f'Sum("{P}One_{tid}", "{{true}}")')
    for k in side_rows:
        c.engine_prop(f"{P}X{k}", f'Sum("{P}X{k}_{tid}", "{{true}}")')
    for j in range(len(across)):
        c.engine_prop(f"{P}XC{j}", f'Sum("{P}XC{j}_{tid}", "{{true}}")')
    c.engine_prop(f"{P}DefRaw", f'SumStack("{defence_prop}")')

    def crossed(types: tuple[str, ...], mode: str) -> str:
        j = across.index(tuple(types))
        return (f"{P}XC{j} > 0" if mode == "any"
                else f"{P}Attackers > 0 && {P}XC{j} == {P}Attackers")

    # the rules: what they read from the board, their inputs, which apply and how much
    ctx = vrules.Context(place=lambda i: loc.field(f"R{i}"),
                         role=vrules.StackRoles(c, game, tid, "defender", "attacker"),
                         roles=("attacker", "defender"), across=crossed if across else None,
                         per_unit=game.is_hex)
    shifts = shift_inputs(c, t.shifts)
    ruled = vrules.compile_rules(c, game, t, ctx=ctx)
    # a per-unit rule (a unit attacking across a canal halved) at each attack marker that crosses,
    # rounded down unless the rule says (builder.tables.differential._attack_total)
    strength = f"{P}S_{tid}"
    for k, (r, uses, types, _rest) in enumerate(ruled.per_unit):
        keep = f"{P}Keep_{tid}_{x.ident(r.id)}"
        c.published[keep] = uses
        a, b = vrules._fraction(r)
        crosses = f"{pair.field(f'XC{across.index(tuple(types))}')} == 1 && {keep} > 0"
        scaled = x.round_div(f"{strength} * {a}", str(b), r.rounding or "down")
        c.attacker.append((f"{P}U{k}_{tid}", f"{crosses} ? {x.paren(scaled)} : {strength}"))
        strength = f"{P}U{k}_{tid}"
    c.attacker.append((f"{P}A_{tid}", strength))
    attack = f"{P}Attack"
    if ruled.attack:  # the rules' factors on the attack, rounded once (down unless a rule says)
        an, ad = vrules.factor(ruled.attack)
        attack = c.prop(f"{P}AttackRuled", vrules.rounded(f"{P}Attack * {x.paren(an)}", ad,
                                                         ruled.attack, "down"))
    defence = f"{P}DefRaw"
    if ruled.defence:
        dn, dd = vrules.factor(ruled.defence)
        defence = c.prop(f"{P}DefRuled", vrules.rounded(f"{P}DefRaw * {x.paren(dn)}", dd,
                                                       ruled.defence, "down"))
    if divs:
        div = loc.field("DIV")
        c.prop(f"{P}Defence", x.choose(
            [(f"{div} == {i + 1}", x.divide_by(defence, d, "down")) for i, d in enumerate(divs)],
            defence))
    else:
        c.prop(f"{P}Defence", defence)
    c.prop(f"{P}Diff", f"{attack} - {P}Defence")

    # condition rows (e.g. a beach assault): the player says so
    conds: dict[str, str] = {}
    for r in rows:
        if r.condition and r.condition not in conds:
            prop = f"{P}Cond_{x.ident(slug(r.condition))}"
            conds[r.condition] = prop
            c.inputs.append(Input(prop, r.condition, "toggle", api=slug(r.condition)))

    # which rows apply, each row's column, the best for the defender
    # the rules assistant lists the rows from the terrain, then from hexsides, then conditions;
    # on a tie the first listed is named (the column is the same)
    phases: list[list[tuple[int, str]]] = [[], [], [], []]
    for k, r in enumerate(rows):
        c.prop(f"{P}Col{k}", row_column(t, r, f"{P}Diff"))
        why = []
        if not r.condition and r.terrain:
            phases[0].append((k, c.prop(f"{P}RowT{k}", f"{loc.field(f'T{k}')} == 1")))
        if r.hexsides and c.at_property:
            hit = (f"{P}X{k} > 0" if t.hexside_applies == "any"
                   else f"{P}Attackers > 0 && {P}X{k} == {P}Attackers")
            if r.except_terrain:
                hit = f"{hit} && {loc.field(f'E{k}')} == 0"
            phases[1].append((k, c.prop(f"{P}RowH{k}", hit)))
        if r.condition:
            phases[2].append((k, c.prop(f"{P}RowC{k}", f"{conds[r.condition]} == 1 && "
                                                      f"{loc.field(f'C{k}')} == 1")))
        ruling = [w for name, w in ruled.rows if name == r.name]
        if ruling:  # a rule names this row (the rules assistant lists those rows last)
            phases[3].append((k, c.prop(f"{P}RowR{k}", x.any_of(ruling))))
        why = [p for phase in phases for kk, p in phase if kk == k]
        c.prop(f"{P}Row{k}", x.any_of(why))
    d = next(k for k, r in enumerate(rows) if r.name == t.default_row)
    c.prop(f"{P}Any", x.any_of(f"{P}Row{k}" for k in range(len(rows))))
    # a column < 0 is 'not allowed' (before the shifts) or past the row's low end (after them)
    allowed = "" if t.ends == "after-shifts" else " >= 0"

    def col(k: int) -> str:
        return f"{P}Col{k}{allowed}" if allowed else "true"
    options = [f"{P}Row{k} && {col(k)} ? {P}Col{k} : {x.BIG}" for k in range(len(rows))]
    c.prop(f"{P}Base", f"!{P}Any ? ({col(d)} ? {P}Col{d} : {x.BIG}) : {x.minimum(options)}")
    c.prop(f"{P}RowIdx", f"!{P}Any ? {d} : " + x.choose(
        [(f"{p} && {P}Col{k} == {P}Base", str(k)) for phase in phases for k, p in phase],
        str(d)))
    c.prop(f"{P}Banned", ruled.prohibited)
    base = f"{P}Base"
    if ruled.column:  # a rule's column, read before the shifts
        c.prop(f"{P}RuleCol", vrules.first_index(ruled.column, lambda col: int(col) - 1))
        base = c.prop(f"{P}BaseCol", f"{P}RuleCol >= 0 ? {P}RuleCol : {P}Base")
    moved = vrules.moved(base, f"{shift_total(shifts)} + {x.paren(ruled.shift)}", t.columns - 1,
                         t.beyond_low, t.beyond_high)
    if ruled.cap:  # at most this column, after the shifts
        c.prop(f"{P}Moved", moved)
        c.prop(f"{P}CapCol", vrules.first_index(ruled.cap, lambda col: int(col) - 1))
        moved = (f"{P}Moved >= 0 && {P}CapCol >= 0 && {P}Moved > {P}CapCol ? {P}CapCol : "
                 f"{P}Moved")
    c.prop(f"{P}Column", f"{P}Banned || {P}Base == {x.BIG} ? -1 : " + x.paren(moved))

    # roll, modifiers, result
    modified = mods.compile(c, loc.field)  # the place's modifiers and those set on the menu
    c.prop(f"{P}Drm", drm(modified, ruled.drm))
    lo, hi = tdice.dice_range(t.dice)
    die = c.roll(f"{P}Die", t.dice)
    c.prop(f"{P}Roll", x.clamp(f"{die} + {P}Drm", lo, hi))
    read = vrules.replaced(c, f"{P}Read", results_lookup(t.results, f"{P}Roll", f"{P}Column",
                                                        lambda v: v), ruled)
    c.prop(f"{P}Result", f'{P}Column < 0 ? "not allowed" : ' + x.paren(read))
    results = sorted({v for row in t.results.values() for v in row}
                     | {b for _, table in ruled.replace for b in table.values()})
    c.prop(f"{P}Why", ruled.why)
    c.prop(f"{P}Meaning", f'{P}Banned ? {P}Why : {P}Column < 0 ? '
           f'{x.lit(words.cannot(t, "this differential"))} : ' + x.paren(x.choose([(f"{P}Result == {x.lit(v)}", x.lit(meaning(t, v)))
                               for v in results], '""')))

    # the column's label as the rules assistant gives it, and the chat line
    labels = []
    for k, r in enumerate(rows):
        inner = x.index_lookup(f"{P}Column", [_label(t, r, i) for i in range(t.columns)])
        labels.append((f"{P}RowIdx == {k}", inner))
    c.prop(f"{P}ColumnLabel", f'{P}Column < 0 ? "not allowed" : ' + x.paren(
        x.choose(labels[:-1], labels[-1][1])))
    c.prop(f"{P}RowName", x.index_lookup(f"{P}RowIdx", [r.name for r in rows]))
    defence_text = f"{P}Defence"
    if divs:
        names = []
        for dv in divs:
            kinds = [tt.name for tt in game.map.terrain_types if t.defence_effect in tt.effects
                     and Fraction(str(tt.effects[t.defence_effect])) == dv]
            names.append(f" ({{raw}} / {_show(dv)} in {', '.join(kinds)})")
        div = loc.field("DIV")
        defence_text = x.text(f"{P}Defence", x.choose(
            [(f"{div} == {i + 1}", x.text(x.lit(n.split('{raw}')[0]), f"{P}DefRaw",
                                          x.lit(n.split('{raw}')[1])))
             for i, n in enumerate(names)], '""'))
    shift_text = []
    for prop, n in shifts:
        s = next(s for s in t.shifts if f"{P}Shift_{x.ident(s.id)}" == prop)
        shift_text.append(f'{prop} > 0 ? {x.lit(", " + s.label + " ")} + ({prop} * {x.lit(n)} >= 0 ? "+" : "") '
                          f'+ {prop} * {x.lit(n)} : ""')
    past = x.lit(", past the row's end (shifts count from there)")
    c.prop(c.line, x.text(
        x.lit(f"{t.name}: attack "), attack, x.lit(" vs "), defence_text,
        x.lit(", "), f"{P}RowName", x.lit(" row, "), x.signed(f"{P}Diff"),
        *([f'{P}Base < 0 || ({P}Base > {t.columns - 1} && {P}Base != {x.BIG}) ? {past} : ""']
          if t.ends == "after-shifts" else []),
        *[x.paren(s) for s in shift_text],
        *[f'{x.paren(w)} ? ", " + {x.paren(lab)} : ""'
          for lab, w in ruled.shown + [(m.label, m.when) for m in modified]],
        x.lit(" -> "), f'{P}Column < 0 ? "not allowed" : "column " + ({P}Column + 1) + " ("'
        f' + {P}ColumnLabel + "), die " + {die} + ({P}Drm != 0 ? " " + ({P}Drm > 0 ? "+" : "")'
        f' + {P}Drm + " = " + ({die} + {P}Drm) : "") + ": " + {P}Result + '
        f'{x.paren(vrules.replacements(ruled, f"{P}Read", f"{P}Column < 0"))}'
        f' + ({P}Meaning == "" ? "" : " (" + {P}Meaning + ")")'))
    return c


def _show(v: Fraction) -> str:
    from builder.tables.rounding import show

    return show(v)
