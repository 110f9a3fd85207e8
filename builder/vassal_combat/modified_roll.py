"""A modified-roll table in the module (Vimy's bombardment): roll, add the modifiers, read the row.

Mirrors builder.tables.modified_roll: modifiers from the target's place ('only the highest'
terrain groups, terrain and region modifiers) and from the player's menu; natural rolls whatever
the modifiers; rows beyond the table read the end row; several markers on one target each rolled
in turn, the target suffering the first effect rolled.
"""

from __future__ import annotations

from builder.model.tables import ModifiedRollTable
from builder.tables.common import NO_EFFECT, meaning, slug
from builder.vassal import expr as x
from builder.vassal_combat import rules as vrules
from builder.vassal_combat.calculator import PREFIX, Calculator, Input
from builder.vassal_combat.locations import Field, Packer, commonest, key_text, location_names
from builder.vassal_combat.places import default_terrain, place_terrain, regions

P = PREFIX


def _plain(text: str) -> str:
    return text.replace("$", "").replace("{", "(").replace("}", ")")


def build(game, t: ModifiedRollTable) -> Calculator:
    """The calculator of a modified-roll table."""
    c = Calculator(t.id, t.name, t.kind, marker=f"Resolve: {t.name}")
    tid = x.ident(t.id)
    on_map = game.is_hex and any(m.terrain or m.regions for m in t.modifiers)
    groups: dict[str, list] = {}
    for m in t.modifiers:
        if m.group:
            groups.setdefault(m.group, []).append(m)
    map_groups = [g for g, ms in groups.items() if on_map and any(m.terrain for m in ms)]
    auto = [m for m in t.modifiers if not m.group and on_map and (m.terrain or m.regions)]

    # what the target's place says: the best member of each terrain group, terrain/region flags
    fields = [Field(f"G{i}", len(groups[g]) + 1) for i, g in enumerate(map_groups)]
    fields += [Field(f"A{i}", 2) for i, _ in enumerate(auto)]
    nodes = vrules.static_nodes(t)
    fields += [Field(f"R{i}", 2) for i, _ in enumerate(nodes)]

    def facts(terrain: tuple[str, ...], regs: tuple[str, ...], place=None) -> dict[str, int]:
        out = {}
        for i, node in enumerate(nodes):
            out[f"R{i}"] = vrules.static_value(game, node, place) if place is not None else 0
        for i, g in enumerate(map_groups):
            hits = [k for k, m in enumerate(groups[g]) if set(m.terrain) & set(terrain)]
            best = max(hits, key=lambda k: groups[g][k].value) if hits else -1
            out[f"G{i}"] = best + 1
        for i, m in enumerate(auto):
            out[f"A{i}"] = int(bool(set(m.terrain) & set(terrain)) or bool(set(m.regions) & set(regs)))
        return out

    parts: list[tuple[str, str, str]] = []  # (label expression, value expression, shown when)
    if fields:
        loc = Packer(f"{tid}@", fields, f"{P}Loc")
        places = location_names(game)
        all_facts = [facts(place_terrain(game, p), regions(game, p), p) for _, p in places]
        default = commonest(all_facts, facts(default_terrain(game), ()))
        c.data.update(loc.data([key_text(n) for n, _ in places], all_facts, default))
        for name, e in loc.word_props("LocationName", default):
            c.prop(name, e)
        for i, g in enumerate(map_groups):
            f = loc.field(f"G{i}")
            members = groups[g]
            value = x.choose([(f"{f} == {k + 1}", x.lit(m.value)) for k, m in enumerate(members)], "0")
            label = x.choose([(f"{f} == {k + 1}", x.lit(f"{m.label} {m.value:+d}"))
                              for k, m in enumerate(members)], '""')
            parts.append((label, value, f"{f} > 0"))

    # the player's modifiers: toggles or counts; groups not on the map as toggles (best counts)
    seen: set[str] = set()
    for m in t.modifiers:
        if m.group:
            if m.group in map_groups or m.group in seen:
                continue
            seen.add(m.group)
            props = []
            for mm in groups[m.group]:
                prop = f"{P}Mod_{x.ident(mm.id)}"
                c.inputs.append(Input(prop, f"{mm.label} ({mm.value:+d})", "toggle",
                                      api=slug(m.group), api_member=mm.id))
                props.append((prop, mm))
            on = x.any_of(f"{p} == 1" for p, _ in props)
            best = x.maximum(f"{p} == 1 ? {x.lit(mm.value)} : -{x.BIG}" for p, mm in props)
            parts.append((x.lit(m.group), f"{x.paren(on)} ? {x.paren(best)} : 0", on))
            continue
        many = m.max_uses not in (None, 1)
        if m in auto:  # a modifier for terrain or a region applies from the place alone
            n = f"({loc.field(f'A{auto.index(m)}')} == 1 ? 1 : 0)"
        else:
            prop = f"{P}Mod_{x.ident(m.id)}"
            c.inputs.append(Input(prop, f"{m.label} ({m.value:+d}{' each' if many else ''})",
                                  "count" if many else "toggle", max=m.max_uses if many else 1,
                                  api=m.id))
            n = prop
        parts.append((x.lit(f"{m.label} {m.value:+d}") if not many else
                      f'"{m.label} " + {n} + " x {m.value:+d}"', f"{n} * {x.lit(m.value)}",
                      f"{n} > 0"))
    ctx = vrules.Context(place=lambda i: loc.field(f"R{i}"),
                         role=vrules.StackRoles(c, game, tid, "target", asked="firer"),
                         roles=("firer", "target"))
    ruled = vrules.compile_rules(c, game, t, ctx=ctx)
    terms = [v for _, v, _ in parts] + ([ruled.drm] if ruled.drm != "0" else [])
    parts += [(lab, "0", w) for lab, w in ruled.shown]  # shown in the line; counted in ruled.drm
    c.prop(f"{P}Drm", " + ".join(x.paren(v) for v in terms) if terms else "0")
    # the modifiers that apply, separated by '; ' (a separator only after one already shown)
    shown = []
    for i, (lab, _, w) in enumerate(parts):
        sep = f'({x.any_of(p[2] for p in parts[:i])} ? "; " : "")' if i else '""'
        shown.append(f"{x.paren(w)} ? {sep} + {x.paren(lab)} : \"\"")
    c.prop(f"{P}DrmText", x.text(*shown) if parts else '""')

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
        c.prop(f"{P}How{i}", f'{x.paren(how)} + ": " + {P}Res{i}')
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
