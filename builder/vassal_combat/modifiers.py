"""A table's roll modifiers in the module, shared by the modified-roll and fire calculators: from
the target's place (packed location facts) and from the player's menu."""

from __future__ import annotations

from builder.tables.common import slug
from builder.vassal import expr as x
from builder.vassal_combat import rules as vrules
from builder.vassal_combat.calculator import PREFIX, Calculator, Input
from builder.vassal_combat.locations import Field, Packer, commonest, key_text, location_names
from builder.vassal_combat.places import default_terrain, place_terrain, regions

P = PREFIX


def roll_modifiers(c: Calculator, game, t, extra_fields=(), extra_facts=None):
    """A table's roll modifiers as the module applies them: 'only the highest' terrain groups and
    terrain or region modifiers from the target's place (packed location facts, with the place
    facts of the rules' conditions and any extra fields the caller packs), the rest as menu
    options (toggles, counts, a value chosen from a list). Returns (parts, field_of): parts are
    (label expression, value expression, shown-when expression); field_of(name) reads a packed
    field ('R<i>' for the i-th place condition of the rules)."""
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
    nodes = vrules.static_nodes(t) if game.is_hex else []
    fields += [Field(f"R{i}", 2) for i, _ in enumerate(nodes)]
    fields += list(extra_fields)

    def facts(terrain: tuple[str, ...], regs: tuple[str, ...], place=None) -> dict[str, int]:
        out = dict(extra_facts(terrain) if extra_facts else {})
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
    loc = None
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
        if m.values:  # the player picks the value (a leader's printed modifier)
            prop = f"{P}Mod_{x.ident(m.id)}"
            c.inputs.append(Input(prop, m.label, "choice", default="0",
                                  choices=("0",) + tuple(f"{v:+d}" for v in m.values), api=m.id))
            parts.append((f'{x.lit(m.label + " ")} + ({prop} > 0 ? "+" : "") + {prop}', prop,
                          f"{prop} != 0"))
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
    return parts, (loc.field if loc is not None else None)


def drm_props(c: Calculator, parts, ruled_drm: str, ruled_shown, extra=()) -> None:
    """CombatDrm (every modifier that applies) and CombatDrmText (their labels, '; ' between)."""
    terms = [v for _, v, _ in parts] + ([ruled_drm] if ruled_drm != "0" else []) + \
        [v for _, v, _ in extra]
    parts = parts + [(lab, "0", w) for lab, w in ruled_shown] + [(lab, "0", w) for lab, _, w in extra]
    c.prop(f"{P}Drm", " + ".join(x.paren(v) for v in terms) if terms else "0")
    shown = []
    for i, (lab, _, w) in enumerate(parts):
        sep = f'({x.any_of(p[2] for p in parts[:i])} ? "; " : "")' if i else '""'
        shown.append(f"{x.paren(w)} ? {sep} + {x.paren(lab)} : \"\"")
    c.prop(f"{P}DrmText", x.text(*shown) if parts else '""')
