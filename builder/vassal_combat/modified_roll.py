"""A modified-roll table in the module (Vimy's bombardment): roll, add the modifiers, read the row.

Mirrors builder.tables.modified_roll: modifiers from the target's place ('only the highest'
terrain groups, terrain and region modifiers) and from the player's menu; natural rolls whatever
the modifiers; rows beyond the table read the end row; several markers on one target each rolled
in turn, the target suffering the first effect rolled.
"""

from __future__ import annotations

from builder.model.tables import ModifiedRollTable
from builder.tables.common import NO_EFFECT, meaning
from builder.vassal import expr as x
from builder.vassal_combat import rules as vrules
from builder.vassal_combat.calculator import PREFIX, Calculator, Input
from builder.vassal_combat.modifiers import drm_props, roll_modifiers

P = PREFIX


def _plain(text: str) -> str:
    return text.replace("$", "").replace("{", "(").replace("}", ")")


def build(game, t: ModifiedRollTable) -> Calculator:
    """The calculator of a modified-roll table."""
    c = Calculator(t.id, t.name, t.kind, marker=f"Resolve: {t.name}")
    tid = x.ident(t.id)
    parts, field_of = roll_modifiers(c, game, t)
    ctx = vrules.Context(place=(lambda i: field_of(f"R{i}")) if field_of else None,
                         role=vrules.StackRoles(c, game, tid, "target", asked="firer"),
                         roles=("firer", "target"))
    ruled = vrules.compile_rules(c, game, t, ctx=ctx)
    drm_props(c, parts, ruled.drm, ruled.shown)

    # one roll per marker on the target; the first effect counts
    rows = sorted(int(k) for k in t.results)
    lo, hi = rows[0], rows[-1]
    n = t.attempts
    if n > 1:
        c.inputs.append(Input(f"{P}Markers", f"markers on the target (1 to {n})", "count",
                              default="1", min=1, max=n, api="markers"))
        markers = f"{P}Markers"
    else:
        markers = "1"
    results = sorted(set(t.results.values()) | set(t.natural.values())
                     | {b for _, table in ruled.replace for b in table.values()})
    for i in range(1, n + 1):
        die = c.roll(f"{P}Die{i}", t.dice)
        row = x.clamp(f"{die} + {P}Drm", lo, hi)
        nat = [(f"{die} == {int(k)}", x.lit(v)) for k, v in sorted(t.natural.items())]
        c.prop(f"{P}Row{i}", row)
        c.prop(f"{P}Res{i}", vrules.replaced(c, f"{P}Read{i}_", x.choose(nat, x.index_lookup(
            f"{P}Row{i}", [t.results[str(r)] for r in range(lo, hi + 1)], base=lo)), ruled))
        c.prop(f"{P}Eff{i}", x.choose([(f"{P}Res{i} == {x.lit(v)}", x.lit(
            v.strip().lower() not in NO_EFFECT)) for v in results], "false"))
        how = (f'"die " + {die} + ({P}Drm != 0 ? " " + ({P}Drm > 0 ? "+" : "") + {P}Drm + '
               f'" = " + ({die} + {P}Drm) : "")')
        if nat:
            said = x.choose([(cond, x.lit(f"die {k}, natural {k} whatever the modifiers"))
                             for (cond, _), k in zip(nat, sorted(t.natural))], '""')
            how = f"{x.any_of(cond for cond, _ in nat)} ? {x.paren(said)} : {x.paren(how)}"
        c.prop(f"{P}How{i}", f'{x.paren(how)} + ": " + {P}Res{i} + '
               + x.paren(vrules.replacements(ruled, f"{P}Read{i}_", f"{P}Banned")))
    first = [(f"{markers} >= {i} && {P}Eff{i}", f"{P}Res{i}") for i in range(1, n + 1)]
    last = x.choose([(f"{markers} == {i}", f"{P}Res{i}") for i in range(1, n)], f"{P}Res{n}")
    c.prop(f"{P}Banned", ruled.prohibited)
    c.prop(f"{P}Result", f'{P}Banned ? "not allowed" : ' + x.paren(x.choose(first, last)))
    c.prop(f"{P}Meaning", f"{P}Banned ? {x.paren(ruled.why)} : " + x.paren(x.choose(
        [(f"{P}Result == {x.lit(v)}", x.lit(meaning(t, v))) for v in results], '""')))
    c.prop(f"{P}ColumnLabel", f'"modifier " + ({P}Drm >= 0 ? "+" : "") + {P}Drm')
    rolls = []
    for i in range(1, n + 1):
        shown = f"{markers} >= {i}" if i > 1 else "true"
        label = f'"; marker {i}: "' if n > 1 else '"; "'
        rolls.append(f"{shown} ? {label} + {P}How{i} : \"\"")
    c.report = f"{_plain(t.name)} at $LocationName$$" + c.line + "$"
    c.prop(c.line, x.text(
        f'": modifier " + ({P}Drm >= 0 ? "+" : "") + {P}Drm + ({P}DrmText == "" ? "" : " ("'
        f' + {P}DrmText + ")")', *rolls,
        f'" -> " + {P}Result + ({P}Meaning == "" ? "" : " (" + {P}Meaning + ")")'))
    return c
