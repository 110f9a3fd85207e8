"""A rolled lookup table in the module (air support, morale checks, glider landings ...).

Mirrors builder.tables.lookup for tables with dice: the roll plus the modifiers the player sets,
read against the entries in order (conditions such as '5-10', '2,3,12', '<=factor', '<turn',
'else' compare with the inputs the player sets); a modified roll past every entry reads the
nearest end of the dice. Tables looked up by a value rather than a roll are not resolved here.
"""

from __future__ import annotations

from builder.model.tables import LookupTable, RollSpec
from builder.tables import dice as tdice
from builder.vassal import expr as x
from builder.vassal_combat import rules as vrules
from builder.vassal_combat.calculator import PREFIX, Calculator, Input
from builder.vassal_combat.modifiers import RollModifiers, drm

P = PREFIX


def _plain(text: str) -> str:
    return text.replace("$", "").replace("{", "(").replace("}", ")")


def build(game, t: LookupTable) -> Calculator | None:
    """The calculator of a rolled lookup table (None for a table looked up by a value)."""
    if not t.dice:
        return None
    c = Calculator(t.id, t.name, t.kind, marker=f"Roll: {t.name}", place="anywhere")
    inputs = {}
    for i in t.inputs:
        prop = f"{P}In_{x.ident(i.id)}"
        c.inputs.append(Input(prop, i.name, "number", default=str(i.min), min=i.min, max=i.max,
                              api=i.id))
        inputs[i.id] = prop
    # a lookup has no place: the loader refuses a modifier for terrain or a region on one
    mods = RollModifiers(game, t.modifiers).compile(c)
    ruled = vrules.compile_rules(c, game, t)
    c.prop(f"{P}Drm", drm(mods, ruled.drm))
    lo, hi = tdice.dice_range(t.dice)
    die = c.roll(f"{P}Die", t.dice)
    c.prop(f"{P}Value", f"{die} + {P}Drm")

    def entry_index(value: str) -> str:
        return x.choose([(vrules.spec_condition(RollSpec(e.when), value, inputs), str(k))
                         for k, e in enumerate(t.entries)], "-1")

    c.prop(f"{P}First", entry_index(f"{P}Value"))
    c.prop(f"{P}Clamped", x.clamp(f"{P}Value", lo, hi))
    c.prop(f"{P}Entry", f"{P}First >= 0 ? {P}First : " + x.paren(entry_index(f"{P}Clamped")))
    c.prop(f"{P}Banned", ruled.prohibited)
    read = x.index_lookup(f"{P}Entry", [e.result for e in t.entries])
    given = {}
    for k, (n, table) in enumerate(ruled.replace):  # a rule's replacement, in order
        c.prop(f"{P}Read{k}", read)
        read = x.choose([(f"{n} > 0 && {P}Read{k} == {x.lit(a)}", x.lit(b)) for a, b in table.items()],
                        f"{P}Read{k}")
        given.update({b: t.legend.get(b, "") for b in table.values()})
    c.prop(f"{P}Raw", x.index_lookup(f"{P}Entry", [e.result for e in t.entries]))
    c.prop(f"{P}Result", f'{P}Banned ? "not allowed" : ' + x.paren(read))
    meaning_read = x.index_lookup(f"{P}Entry", [e.detail or t.legend.get(e.result, "")
                                                for e in t.entries])
    if given:
        meaning_read = (f"{P}Result != {P}Raw ? " + x.paren(x.choose(
            [(f"{P}Result == {x.lit(b)}", x.lit(m)) for b, m in given.items()], '""'))
            + " : " + x.paren(meaning_read))
    c.prop(f"{P}Meaning", f"{P}Banned ? {x.paren(ruled.why)} : " + x.paren(meaning_read))
    shown = [f'", {_plain(i.name)} " + {inputs[i.id]}' for i in t.inputs]
    c.report = f"{_plain(t.name)}: $" + c.line + "$"
    c.prop(c.line, x.text(
        f'"die " + {die} + ({P}Drm != 0 ? " " + ({P}Drm > 0 ? "+" : "") + {P}Drm + " = " + '
        f'{P}Value : "")', *shown,
        *[f'{x.paren(when)} ? ", " + {label} : ""' for label, when in ruled.shown],
        f'": " + {P}Result + {x.paren(vrules.replacements(ruled, f"{P}Read", f"{P}Banned"))}'
        f' + ({P}Meaning == "" ? "" : " (" + {P}Meaning + ")")'))
    return c
