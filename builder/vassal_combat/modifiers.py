"""Roll modifiers in the module, as builder.tables.common.apply_modifiers applies them, for every
kind that has them (odds, differential, fire, modified-roll, rolled lookup): a modifier for
terrain or a region applies from the defender's (target's) place alone, read from the board
(packed per location like the kinds' other place facts); the others are set on the marker's menu
(a yes/no, a count, or a value picked from a list); in a group ('only the highest applies') the
best of the members the place has and the members the player sets counts.
"""

from __future__ import annotations

from dataclasses import dataclass

from builder.tables.common import place_bound, slug
from builder.vassal import expr as x
from builder.vassal_combat import rules as vrules
from builder.vassal_combat.calculator import PREFIX, Calculator, Input
from builder.vassal_combat.locations import Field, Packer, commonest, key_text, location_names
from builder.vassal_combat.places import default_terrain, place_terrain, regions

P = PREFIX


@dataclass(frozen=True)
class Part:
    """One modifier (or group) as the marker adds it: its words, its value, when it counts."""

    label: str  # expression of the words the chat line shows
    value: str  # expression of what it adds to the roll
    when: str  # expression: it applies (so the chat names it)


class RollModifiers:
    """A table's roll modifiers: which the place decides, the packed facts, the expressions."""

    def __init__(self, game, mods):
        self.game, self.mods = game, tuple(mods)
        self.groups: dict[str, list] = {}
        for m in self.mods:
            if m.group:
                self.groups.setdefault(m.group, []).append(m)
        # groups with a member for terrain or a region: the place's best member is packed
        self.placed = [g for g, ms in self.groups.items() if any(place_bound(m) for m in ms)]
        self.auto = [m for m in self.mods if not m.group and place_bound(m)]

    def _bound(self, g: str) -> list:
        return [m for m in self.groups[g] if place_bound(m)]

    def fields(self) -> list:
        """The packed fields: per placed group, its best place-bound member (0: none); per
        modifier for terrain or a region, whether the place has it."""
        return ([Field(f"MG{i}", len(self._bound(g)) + 1) for i, g in enumerate(self.placed)]
                + [Field(f"MA{i}", 2) for i, _ in enumerate(self.auto)])

    def facts(self, place) -> dict[str, int]:
        """The fields' values at a place (None: a place the module has no data for)."""
        game = self.game
        terrain = set(place_terrain(game, place) if place is not None else default_terrain(game))
        regs = set(regions(game, place)) if place is not None else set()

        def holds(m) -> bool:
            return bool(set(m.terrain) & terrain) or bool(set(m.regions) & regs)

        out = {}
        for i, g in enumerate(self.placed):
            bound = self._bound(g)
            hits = [k for k, m in enumerate(bound) if holds(m)]
            out[f"MG{i}"] = max(hits, key=lambda k: bound[k].value) + 1 if hits else 0
        for i, m in enumerate(self.auto):
            out[f"MA{i}"] = int(holds(m))
        return out

    def compile(self, c: Calculator, field=None) -> list[Part]:
        """The marker's inputs for the modifiers the player sets, and every modifier's part;
        field(name): the expression reading a packed field at the marker's place."""
        parts = [self._group(c, g, field) for g in self.groups]  # groups first, as calc says
        for m in self.mods:
            if m.group:
                continue
            if m.values:  # the player picks the value (a leader's printed modifier)
                prop = f"{P}Mod_{x.ident(m.id)}"
                c.inputs.append(Input(prop, m.label, "choice", default="0",
                                      choices=("0",) + tuple(f"{v:+d}" for v in m.values),
                                      api=m.id))
                parts.append(Part(f'{x.lit(m.label + " ")} + ({prop} > 0 ? "+" : "") + {prop}',
                                  prop, f"{prop} != 0"))
                continue
            many = m.max_uses not in (None, 1)
            if m in self.auto:  # for terrain or a region: from the place alone
                n = f"({field(f'MA{self.auto.index(m)}')} == 1 ? 1 : 0)"
            else:
                n = f"{P}Mod_{x.ident(m.id)}"
                c.inputs.append(Input(n, f"{m.label} ({m.value:+d}{' each' if many else ''})",
                                      "count" if many else "toggle",
                                      max=m.max_uses if many else 1, api=m.id))
            label = (f'{x.lit(m.label + " ")} + {n} + {x.lit(f" x {m.value:+d}")}' if many
                     else x.lit(f"{m.label} {m.value:+d}"))
            parts.append(Part(label, f"{n} * {x.lit(m.value)}", f"{n} > 0"))
        return parts

    def _group(self, c: Calculator, g: str, field) -> Part:
        """Only the highest applies: the place's best member and the members set on the menu."""
        members = self.groups[g]
        options: list[tuple[str, object]] = []  # (applies, modifier)
        if g in self.placed:
            f = field(f"MG{self.placed.index(g)}")
            options += [(f"{f} == {k + 1}", m) for k, m in enumerate(self._bound(g))]
        for m in members:
            if place_bound(m):
                continue
            prop = f"{P}Mod_{x.ident(m.id)}"
            c.inputs.append(Input(prop, f"{m.label} ({m.value:+d})", "toggle", api=slug(g),
                                  api_member=m.id))
            options.append((f"{prop} == 1", m))
        on = x.any_of(w for w, _ in options)
        best = x.maximum(f"{x.paren(w)} ? {x.lit(m.value)} : -{x.BIG}" for w, m in options)
        value = f"{x.paren(on)} ? {x.paren(best)} : 0"
        if g not in self.placed:
            return Part(x.lit(g), value, on)
        # the place's member is named (as the rules assistant names the one that counts)
        named = x.choose([(f"{x.paren(w)} && {x.paren(best)} == {x.lit(m.value)}",
                           x.lit(f"{m.label} {m.value:+d}")) for w, m in options], x.lit(g))
        return Part(named, value, on)


def drm(parts: list[Part], ruled_drm: str) -> str:
    """The roll's net modifier: every part and the rules' modifiers."""
    terms = [p.value for p in parts] + ([ruled_drm] if ruled_drm != "0" else [])
    return " + ".join(x.paren(e) for e in terms) if terms else "0"


def roll_modifiers(c: Calculator, game, t, extra_fields=(), extra_facts=None):
    """A table's roll modifiers packed with the place facts of its rules' conditions and any
    extra fields the caller packs (fire and modified-roll tables, whose place facts are these
    alone). Returns (parts, field_of): parts are (label expression, value expression, shown-when
    expression); field_of(name) reads a packed field ('R<i>' for the i-th place condition of
    the rules), None when nothing is packed."""
    mods = RollModifiers(game, t.modifiers)
    nodes = vrules.static_nodes(t)
    fields = mods.fields() + [Field(f"R{i}", 2) for i, _ in enumerate(nodes)] + list(extra_fields)

    def facts(place) -> dict[str, int]:
        terrain = place_terrain(game, place) if place is not None else default_terrain(game)
        out = {**(extra_facts(terrain) if extra_facts else {}), **mods.facts(place)}
        for i, node in enumerate(nodes):
            out[f"R{i}"] = vrules.static_value(game, node, place) if place is not None else 0
        return out

    loc = None
    if fields:
        loc = Packer(f"{x.ident(t.id)}@", fields, f"{P}Loc")
        places = location_names(game)
        all_facts = [facts(p) for _, p in places]
        default = commonest(all_facts, facts(None))
        c.data.update(loc.data([key_text(n) for n, _ in places], all_facts, default))
        for name, e in loc.word_props("LocationName", default):
            c.prop(name, e)
    field_of = loc.field if loc is not None else None
    return [(p.label, p.value, p.when) for p in mods.compile(c, field_of)], field_of


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
