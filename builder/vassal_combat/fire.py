"""A fire table in the module: fire strength across, dice down, the loss divided by the target's
terrain and rounded (mirrors builder.tables.fire). The marker is dropped on the target; the
player sets the fire strength from its menu."""

from __future__ import annotations

from fractions import Fraction

from builder.model.tables import FireTable
from builder.tables.common import meaning
from builder.tables.fire import _band as band_range
from builder.tables.rounding import show
from builder.vassal import expr as x
from builder.vassal_combat import rules as vrules
from builder.vassal_combat.calculator import PREFIX, Calculator, Input, results_lookup
from builder.vassal_combat.locations import Field, Packer, commonest, key_text, location_names
from builder.vassal_combat.places import default_terrain, place_terrain

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


def build(game, t: FireTable) -> Calculator:
    """The calculator of a fire table."""
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
        f'{x.paren(div_text)} + " = " + {P}Loss) + ": " + {P}Meaning'))
    return c
