"""A table's rules (builder.model.rules) compiled to module expressions, with the meanings of
builder.tables.effects and the order of builder.tables.rules.evaluate: a rule's uses (a when-less
rule's from the marker's menu, a condition's 1 or 0), cancellations one for one in order, groups
keeping the strongest, the table's rules_combine stage by stage, then each effect: prohibited,
attack and defence factors (rounded once), a row, a column, shifts, a cap, roll modifiers and
replaced results.

Conditions are read from the board wherever it shows them: the turn, its period and the
scenario from the marker's inputs (the player sets the turn), flags asked, the place's terrain,
region and named place packed per location, the defender's (target's) side, type, formation or
size counted on its stack (CountStack), an attacking unit's on each attack marker's stack, the
hexsides each attack marker attacks across (any, all, or per unit at the marker), the firing
unit's attributes asked. A rule a kind's calculator cannot read (`by_hand` says why) is left out
and named to the player on the marker and in every chat line; `builder check` reports it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from builder import words
from builder.model.tables import RollSpec
from builder.tables import rules as trules
from builder.vassal import expr as x
from builder.vassal_combat.calculator import PREFIX, Input

P = PREFIX
FACTORS = ("attack_divisor", "attack_multiplier", "defence_divisor", "defence_multiplier")
# the effects each kind's calculator applies (builder.tables.effects says which kinds take which)
EFFECTS = {
    "ratio": {"prohibited", "cancels", *FACTORS, "column", "shift", "cap", "drm", "replace"},
    "differential": {"prohibited", "cancels", *FACTORS, "row", "column", "shift", "cap", "drm",
                     "replace"},
    "fire": {"prohibited", "cancels", "drm", "replace"},
    "modified-roll": {"prohibited", "cancels", "drm", "replace"},
    "lookup": {"prohibited", "cancels", "drm", "replace"},
}


def by_hand(game, t, ctx: Context | None = None) -> dict[str, str]:
    """The rules the module cannot apply for this table: rule id -> why. The table is still
    offered; its marker leaves these rules out and tells the player to apply them by hand (a
    cancellation goes with the rule it cancels: one applied without the other would be wrong).
    ctx: what the kind's calculator reads (by default: caps of its kind)."""
    if ctx is None:
        ctx = caps(game, t.kind)
    out: dict[str, str] = {}
    for r in t.rules:
        why = _rule_unsupported(game, t, r, ctx)
        if why:
            out[r.id] = why
    changed = True
    while changed:  # a cancellation and its target are applied together or not at all
        changed = False
        for r in t.rules:
            if r.effect == "cancels" and (r.id in out) != (r.cancels in out):
                other = r.cancels if r.id in out else r.id
                out[other] = f"goes with rule '{r.id if other == r.cancels else r.cancels}'"
                changed = True
        if t.rules_combine != "cumulative" and out and len(out) < len(t.rules):
            # which rule of a stage counts depends on the others: all compiled or none
            for r in t.rules:
                if r.id not in out:
                    out[r.id] = f"rules_combine = '{t.rules_combine}' with a rule applied by hand"
                    changed = True
    return out


def settings_by_hand(game, t) -> list[tuple[str, str]]:
    """(key, what the player does) for a table setting the module cannot apply: the marker names
    it for the player, `builder check` reports it, as for a rule by hand. The module applies
    ends (before or after the shifts), divide = 'per-unit' (each unit's piece divided on its
    own) and modifiers for terrain or a region (read from the board); what is left: dividing
    each unit where the attack is capped per sector edge or the defender fires first (the cap
    and the fire's losses fall on a hex's or edge's total, not on one unit)."""
    out = []
    if t.kind == "ratio" and t.divide == "per-unit" and not per_unit_division(t):
        said = ("divide each attacking unit's strength by the terrain and the rules, rounding "
                "each, before adding them up")
        out.append(("divide", said))
    return out


def per_unit_division(t) -> bool:
    """Whether the module divides each attacking unit on its own (a ratio table's divide =
    'per-unit'); with a cap per sector edge or the defender's fire first it cannot."""
    return (t.kind == "ratio" and t.divide == "per-unit" and not t.edge_cap
            and not t.fire_first)


def _rule_unsupported(game, t, r, ctx: Context) -> str:
    if t.kind == "fire":  # a rule on each firing unit's distance: the fire calculator's own
        from builder.vassal_combat.unit_rules import unit_rule_unsupported

        if r.when is not None and any(c.distance for c in r.when.walk()):
            return unit_rule_unsupported(game, t, r)
    if r.effect not in EFFECTS.get(t.kind, ()):
        return f"effect '{r.effect}'"
    if r.effect == "replace" and getattr(t, "result_format", "") == "attacker/defender":
        return "a result replaced where losses are read from it"
    if t.rules_combine == "best-for-defender" and r.effect in FACTORS and r.max_uses > 4:
        return "a factor used more than four times cannot be compared in the engine's arithmetic"
    if r.when is None:
        return ""
    if _per_unit(r):
        if not ctx.per_unit or ctx.across is None:
            return "attackers = 'per-unit'"
        types, _ = _split_per_unit(r.when)
        if types is None:
            return "attackers = 'per-unit' inside any or not"
    for c in r.when.walk():
        if (c.terrain or c.region or c.place) and ctx.place is None:
            return f"a condition on '{next(k for k in ('terrain', 'region', 'place') if getattr(c, k))}'"
        for role in ("attacker", "defender", "firer", "target"):
            if getattr(c, role) and (ctx.role is None or role not in ctx.roles):
                return f"a condition on '{role}'"
        if c.across and ctx.across is None:
            return "a condition on 'across'"
        if c.scenario and not (ctx.scenario and game.scenarios):
            return "a condition on 'scenario'"
        if c.input and t.kind != "lookup":
            return "a condition on 'input'"
        if c.turn and RollSpec(c.turn).names():
            return "turn compared with an input"
    return ""


def static_nodes(t) -> list:
    """Condition nodes that test the place (terrain, region, named place): one packed fact each."""
    out = []
    for r in t.rules:
        for c in (r.when.walk() if r.when else ()):
            if c.terrain or c.region or c.place:
                out.append(c)
    return out


def static_value(game, node, place) -> int:
    """1 when a node's place tests hold at this hex or sector (its other tests are compiled
    apart); as builder.tables.rules: on an area map a region or named place is never known."""
    from builder.vassal_combat.places import place_terrain, regions

    if game.is_hex:
        f = trules.Facts(terrain=set(place_terrain(game, place)),
                         regions=set(regions(game, place)), hex=place)
    else:
        f = trules.Facts(terrain=set(place_terrain(game, place)))
    part = node.model_copy(update={"turn": "", "period": (), "flag": "", "all": (), "any": (),
                                   "not_": None, "scenario": (), "attacker": {}, "defender": {},
                                   "firer": {}, "target": {}, "across": (), "attackers": "any",
                                   "input": {}})
    return int(bool(trules.holds(game, part, f)))


# which unit property holds each attribute a condition tests (builder.vassal.pieces)
UNIT_PROPERTY = {"side": "SideId", "type": "Type", "formation": "FormationId", "size": "Size"}


def stack_test(attr: str, values: tuple[str, ...]) -> str:
    """A CountStack filter: a piece whose attribute is one of the values."""
    prop = UNIT_PROPERTY[attr]
    return "{" + " || ".join(f'{prop}=="{v}"' for v in values) + "}"


def caps(game, kind: str) -> Context:
    """What a kind's calculator reads (the callables stand in; for by_hand without building)."""
    def stub(*_):
        return ""
    hexes = game.is_hex
    if kind == "ratio":
        return Context(place=stub, role=stub, roles=("attacker", "defender"),
                       across=stub if hexes else None, per_unit=hexes)
    if kind == "differential":
        return Context(place=stub, role=stub, roles=("attacker", "defender"),
                       across=stub if hexes else None, per_unit=hexes)
    if kind in ("fire", "modified-roll"):
        return Context(place=stub, role=stub, roles=("firer", "target"))
    return Context()


@dataclass
class Context:
    """What a kind's calculator reads for a rule's conditions beyond its inputs (None: it cannot,
    and a rule testing it is applied by hand).

    place(i): the packed fact of static_nodes(t)[i] at the defender's (target's) place, 1 when
    its terrain/region/place tests hold; role(role, attr, values): whether a unit of that role
    has one of the values (read from the pieces, or asked); across(types, mode): whether any or
    all attacking units attack across one of the hexside types; per_unit: the kind applies
    attackers = 'per-unit' rules at each attack marker (Compiled.per_unit says how)."""

    place: Callable[[int], str] | None = None
    role: Callable[[str, str, tuple[str, ...]], str] | None = None
    roles: tuple[str, ...] = ()
    across: Callable[[tuple[str, ...], str], str] | None = None
    per_unit: bool = False
    scenario: bool = True


@dataclass
class Compiled:
    shift: str = "0"
    drm: str = "0"
    prohibited: str = "false"
    why: str = '""'
    replace: list = field(default_factory=list)  # (uses expression, {read: given})
    replace_rules: list = field(default_factory=list)  # the rule of each replace entry
    shown: list = field(default_factory=list)  # (label expression, shown-when expression)
    # attack and defence strength: (factor numerator, denominator, rounding-or-None) per rule,
    # each as expressions of the uses (1 when the rule does not apply)
    attack: list = field(default_factory=list)  # (uses expression, rule)
    defence: list = field(default_factory=list)
    rows: list = field(default_factory=list)  # (row name, applies expression)
    column: list = field(default_factory=list)  # (applies expression, column text), first wins
    cap: list = field(default_factory=list)  # (applies expression, column text), first wins
    # per-unit rules: (rule, its uses after cancels, groups and combination, the hexside types,
    # the rest of its condition as an expression at the resolution marker)
    per_unit: list = field(default_factory=list)
    uses: dict = field(default_factory=dict)  # rule id -> property holding its final uses


def compile_rules(c, game, t, field_of=None, ctx: Context | None = None) -> Compiled:
    """Inputs for the rules and the expressions of their combined effects (the rules by_hand
    names are left out: the calculator's chat line names them for the player). Mirrors
    builder.tables.rules.evaluate: uses, cancellations, groups, the table's rules_combine."""
    out = Compiled()
    if ctx is None:
        ctx = Context(place=field_of)
    nodes = static_nodes(t)  # numbered over every rule, as the caller packed them
    skip = by_hand(game, t)  # as the kind's caps say: the marker names the same rules
    if t.kind == "fire":  # the firing units' rules are compiled on the units (fire.unit_props)
        from builder.vassal_combat.unit_rules import unit_rule

        skip = {**skip, **{r.id: "per unit" for r in t.rules if unit_rule(t, r)}}
    t = t.model_copy(update={"rules": tuple(r for r in t.rules if r.id not in skip)})
    if not t.rules:
        return out
    tid = x.ident(t.id)
    if any(r.when and any(n.turn or n.period for n in r.when.walk()) for r in t.rules):
        # the turn is on the board: the turn track's global property 'Turn' holds its label
        from builder.vassal.turn_events import turn_label

        first = game.info.turns.first
        numbers = range(first, first + game.info.turns.count)
        labels = tuple(turn_label(game, n) for n in numbers)
        c.inputs.append(Input("Turn", "game turn (from the turn track)", "board",
                              default=labels[0], min=first, max=numbers[-1], choices=labels,
                              api="turn"))
        c.prop(f"{P}Turn", x.choose([(f"Turn == {x.lit(lab)}", str(n))
                                     for lab, n in zip(labels, numbers)], str(first)))
    if any(r.when and any(n.scenario for n in r.when.walk()) for r in t.rules):
        ids = tuple(sc.id for sc in game.scenarios)
        c.inputs.append(Input(f"{P}Scenario", "scenario", "choice", default=ids[0], choices=ids,
                              api="scenario"))
    flags = []
    for r in t.rules:
        for n in (r.when.walk() if r.when else ()):
            if n.flag and n.flag not in flags:
                flags.append(n.flag)
    for f in flags:
        c.inputs.append(Input(f"{P}Flag_{x.ident(f)}", t.flags.get(f, f), "toggle", api=f))
    cond = _Conditions(game, nodes, ctx)
    base: dict[str, str] = {}
    for r in t.rules:
        if r.when is None:
            prop = f"{P}Rule_{x.ident(r.id)}"
            kind = "toggle" if r.max_uses == 1 else "count"
            c.inputs.append(Input(prop, r.label, kind, max=r.max_uses, api=r.id))
            base[r.id] = prop
        elif _per_unit(r):
            types, rest = _split_per_unit(r.when)
            rest_e = cond.of(rest) if rest is not None else "true"
            crossed = ctx.across(types, "any")
            out.per_unit.append([r, "", types, rest_e])
            base[r.id] = c.prop(f"{P}When_{tid}_{x.ident(r.id)}",
                                f"({x.paren(rest_e)} && {x.paren(crossed)}) ? 1 : 0")
        else:
            base[r.id] = c.prop(f"{P}When_{tid}_{x.ident(r.id)}",
                                f"{x.paren(cond.of(r.when))} ? 1 : 0")
    uses = dict(base)
    for r in t.rules:  # cancellations in order, one for one, never below zero
        if r.effect == "cancels":
            uses[r.cancels] = f"Math.max({x.paren(uses[r.cancels])} - {x.paren(uses[r.id])}, 0)"
            uses[r.id] = "0"
    live = {r.id: c.prop(f"{P}Live_{tid}_{x.ident(r.id)}", uses[r.id])
            for r in t.rules if r.effect != "cancels"}
    kept = dict(live)
    groups: dict[str, list] = {}
    for r in t.rules:
        if r.group and r.id in live:
            groups.setdefault(r.group, []).append(r)
    for members in groups.values():  # only the strongest that applies; the first on a tie
        for i, r in enumerate(members):
            beaten = [f"{live[s.id]} > 0" for j, s in enumerate(members)
                      if s is not r and (_strength(s) > _strength(r)
                                         or (_strength(s) == _strength(r) and j < i))]
            if beaten:
                kept[r.id] = f"{x.any_of(beaten)} ? 0 : {live[r.id]}"
    if t.rules_combine != "cumulative":
        kept = _combined(t, kept)
    final = {r.id: c.prop(f"{P}Use_{tid}_{x.ident(r.id)}", kept[r.id])
             for r in t.rules if r.id in kept}
    out.uses = final
    said = [_unused_flag(c, game, t, cond, f) for f in flags]
    if any(said) and not any(n == f"{P}Unused" for n, _ in c.props):
        c.prop(f"{P}Unused", x.text(*[e for e in said if e]))
    for item in out.per_unit:
        item[1] = final[item[0].id]
    shifts, drms, bans = [], [], []
    for r in t.rules:
        if r.id not in final:
            continue
        n = final[r.id]
        e = r.effect
        # the chat names a rule that applies with the sentence every output uses (builder.words)
        said = x.lit(words.rule(game, t, r))
        # a replaced result is said where the result is (replacements()), not as a modifier
        if e not in ("prohibited", "cap", "row", "replace"):
            out.shown.append((f'{said} + ({n} > 1 ? {x.lit(" — ")} + {n} + " times" : "")',
                              f"{n} > 0"))
        if e == "shift":
            shifts.append(f"{n} * {x.lit(r.shift)}")
        elif e == "drm":
            drms.append(f"{n} * {x.lit(r.drm)}")
        elif e == "prohibited":
            bans.append((f"{n} > 0", said))
        elif e == "replace":
            out.replace.append((n, r.replace))
            out.replace_rules.append(r)
        elif e in ("attack_divisor", "attack_multiplier") and not _per_unit(r):
            out.attack.append((n, r))
        elif e in ("defence_divisor", "defence_multiplier"):
            out.defence.append((n, r))
        elif e == "row":
            out.rows.append((r.row, f"{n} > 0"))
            out.shown.append((said, f"{n} > 0"))
        elif e == "column":
            out.column.append((f"{n} > 0", r.column))
        elif e == "cap":
            out.cap.append((f"{n} > 0", r.cap))
            out.shown.append((said, f"{n} > 0"))
    out.shift = " + ".join(shifts) if shifts else "0"
    out.drm = " + ".join(drms) if drms else "0"
    if bans:
        out.prohibited = x.any_of(b for b, _ in bans)
        out.why = x.choose(bans, '""')
    return out


def _per_unit(r) -> bool:
    return r.when is not None and any(n.attackers == "per-unit" for n in r.when.walk())


def _split_per_unit(when):
    """(hexside types, the rest of the condition) of a rule whose per-unit 'across' stands in
    the top-level conjunction (None when it cannot be split so)."""
    if when.attackers == "per-unit":
        rest = when.model_copy(update={"across": (), "attackers": "any"})
        return when.across, (rest if rest.keys() else None)
    for k, sub in enumerate(when.all):
        if any(n.attackers == "per-unit" for n in sub.walk()):
            types, inner = _split_per_unit(sub)
            if types is None:
                return None, None
            others = list(when.all[:k]) + ([inner] if inner is not None else []) + list(when.all[k + 1:])
            rest = when.model_copy(update={"all": tuple(others)})
            return types, (rest if rest.keys() else None)
    return None, None


def _strength(r) -> Fraction:
    from builder.tables.rules import _strength as strength

    return strength(r)


def _fraction(r) -> tuple[int, int]:
    """A factor rule's factor as numerator, denominator (a divisor of 2: 1, 2)."""
    from builder.tables.rules import factor

    f = factor(r)
    return f.numerator, f.denominator


def _power(u: str, n: int, most: int) -> str:
    """n ** u for u from 0 to `most` (the engine has no power function)."""
    return x.choose([(f"{u} == {k}", str(n ** k)) for k in range(most)], str(n ** most))


def _combined(t, kept: dict[str, str]) -> dict[str, str]:
    """rules_combine 'first' or 'best-for-defender', stage by stage, as
    builder.tables.rules._combine: of the rules that apply to one stage, one counts."""
    from builder.tables.effects import EFFECTS

    by_stage: dict[str, list] = {}
    for r in t.rules:
        if r.id in kept:
            by_stage.setdefault(EFFECTS[r.effect].stage, []).append(r)
    out = dict(kept)
    for stage, members in by_stage.items():
        if len(members) == 1 or stage in ("gate", "result", "row"):
            continue
        for i, r in enumerate(members):
            before = []
            for j, s in enumerate(members):
                if s is r:
                    continue
                if t.rules_combine == "first" or stage not in ("shift", "attack", "defence"):
                    if j < i:
                        before.append(f"{kept[s.id]} > 0")
                    continue
                better = _better(stage, s, r, kept, tie=j < i)
                before.append(f"{kept[s.id]} > 0 && {x.paren(better)}")
            if before:
                out[r.id] = f"{x.paren(x.any_of(before))} ? 0 : {x.paren(kept[r.id])}"
    return out


def _better(stage: str, s, r, kept: dict[str, str], tie: bool) -> str:
    """Whether rule s counts before rule r (both applying) in a 'best-for-defender' stage:
    the least shift, the smallest attack factor, the largest defence factor; the first on a tie."""
    us, ur = kept[s.id], kept[r.id]
    if stage == "shift":
        a, b = f"{x.paren(us)} * {x.lit(s.shift)}", f"{x.paren(ur)} * {x.lit(r.shift)}"
        less = f"{a} < {b}"
        return f"{less} || {a} == {b}" if tie else less
    (ns, ds), (nr, dr) = _fraction(s), _fraction(r)
    fs = (_power(us, ns, s.max_uses), _power(us, ds, s.max_uses))
    fr = (_power(ur, nr, r.max_uses), _power(ur, dr, r.max_uses))
    left = f"{x.paren(fs[0])} * {x.paren(fr[1])}"  # fs < fr  <=>  ns^u * dr^u < nr^u * ds^u
    right = f"{x.paren(fr[0])} * {x.paren(fs[1])}"
    op = "<" if stage == "attack" else ">"
    return f"{left} {op} {right}" + (f" || {left} == {right}" if tie else "")


class _Conditions:
    """A rule's condition as an expression, from the calculator's inputs and its context."""

    def __init__(self, game, nodes, ctx: Context):
        self.game, self.nodes, self.ctx = game, nodes, ctx

    def of(self, c) -> str:
        parts = list(dict.fromkeys(self.parts(c).values()))  # terrain and region: one fact
        return x.all_of(parts) if parts else "true"

    def parts(self, c) -> dict[str, str]:
        """Each key of a condition as an expression (builder.tables.accounting.KEYS; terrain,
        region and place share one packed fact): what holds and what does not, for the chat's
        'not applied, only ...' that calc writes."""
        game, parts = self.game, {}
        if c.turn:
            parts["turn"] = _turn(c.turn)
        if c.period:
            numbers = sorted({d.number for d in game.info.turns.detail
                              if d.period in c.period or ("night" in c.period and d.night)})
            parts["period"] = (x.any_of(f"{P}Turn == {k}" for k in numbers) if numbers
                               else "false")
        if c.scenario:
            parts["scenario"] = x.any_of(f"{P}Scenario == {x.lit(s)}" for s in c.scenario)
        for role in ("attacker", "defender", "firer", "target"):
            if getattr(c, role):
                parts[role] = x.all_of(self.ctx.role(role, attr, tuple(want))
                                       for attr, want in getattr(c, role).items())
        if c.flag:
            parts["flag"] = f"{P}Flag_{x.ident(c.flag)} == 1"
        if c.input:
            parts["input"] = x.all_of(_turn(spec, f"{P}In_{x.ident(k)}")
                                      for k, spec in c.input.items())
        if c.terrain or c.region or c.place:
            i = next(k for k, n in enumerate(self.nodes) if n is c)
            for key in ("terrain", "region", "place"):
                if getattr(c, key):
                    parts[key] = f"{self.ctx.place(i)} == 1"
        if c.across:
            parts["across"] = self.ctx.across(tuple(c.across), c.attackers)
        if c.all:
            parts["all"] = x.all_of(x.paren(self.of(sub)) for sub in c.all)
        if c.any:
            parts["any"] = x.paren(x.any_of(x.paren(self.of(s)) for s in c.any))
        if c.not_ is not None:
            parts["not_"] = f"!{x.paren(self.of(c.not_))}"
        return parts


def _turn(text: str, t: str = f"{P}Turn") -> str:
    return x.paren(spec_condition(RollSpec(text), t, {}))


def spec_condition(spec: RollSpec, value: str, inputs: dict[str, str]) -> str:
    """A roll or value condition ('5', '5-10', '<=2', '<turn', 'else') on an expression."""
    parts = []
    for p in spec.parts:
        if p["else"]:
            return "true"
        if p["one"] is not None:
            parts.append(f"{value} == {x.lit(int(p['one']))}")
        elif p["lo"] is not None:
            parts.append(f"{value} >= {x.lit(int(p['lo']))} && {value} <= {x.lit(int(p['hi']))}")
        elif p["op"]:
            ref = p["opval"]
            other = x.lit(int(ref)) if ref.lstrip("-").isdigit() else inputs[ref]
            if p.get("times"):
                other = f"{int(p['times'])} * {x.paren(other)}"
            parts.append(f"{value} {p['op']} {other}")
    return x.any_of(parts)

def moved(index: str, shift: str, last: int, beyond_low: str, beyond_high: str) -> str:
    """The column after every shift, past an end as the table says (-1: not allowed), as
    builder.tables.rules.move_column."""
    low = -1 if beyond_low == "not-allowed" else (0 if beyond_low == "first-column" else last)
    high = -1 if beyond_high == "not-allowed" else (last if beyond_high == "last-column" else 0)
    total = x.paren(f"{index} + {shift}")
    return f"{total} < 0 ? {low} : ({total} > {last} ? {high} : {total})"


# --- what the kinds' calculators share for the rules' facts and effects ---------------------------
def across_sets(game, t) -> list[tuple[str, ...]]:
    """The distinct hexside-type sets the compiled rules' 'across' conditions test."""
    skip = by_hand(game, t)
    out: list[tuple[str, ...]] = []
    for r in t.rules:
        for n in (r.when.walk() if r.when and r.id not in skip else ()):
            if n.across and tuple(n.across) not in out:
                out.append(tuple(n.across))
    return out


class StackRoles:
    """Unit attributes read from the pieces: the defender's (target's) from the stack under the
    resolution marker, an attacking unit's from each attack marker's stack (summed); a role the
    board cannot show (the firing unit of a fire table) is asked, one choice per attribute."""

    def __init__(self, c, game, tid: str, stack: str, attackers: str = "", asked: str = ""):
        self.c, self.game, self.tid = c, game, tid
        self.stack, self.attackers, self.asked = stack, attackers, asked
        self.made: dict[tuple, str] = {}

    def __call__(self, role: str, attr: str, values: tuple[str, ...]) -> str:
        key = (role, attr, values)
        if key in self.made:
            return self.made[key]
        k = len(self.made)
        test = stack_test(attr, values)
        if role == self.stack:
            name = self.c.engine_prop(f"{P}Is{k}", f"CountStack({x.lit(test)})")
            out = f"{name} > 0"
        elif role == self.attackers:
            one = self.c.engine_prop(f"{P}Has{k}_{self.tid}", f"CountStack({x.lit(test)})",
                                     attacker=True)
            name = self.c.engine_prop(f"{P}Has{k}", f'Sum("{one}", "{{true}}")')
            out = f"{name} > 0"
        else:  # asked of the player
            prop = f"{P}{role.capitalize()}_{attr}"
            if not any(i.prop == prop for i in self.c.inputs):
                choices = tuple(trules.attribute_values(self.game, attr))
                self.c.inputs.append(Input(prop, f"the {role}'s {attr}", "choice",
                                           default=choices[0] if choices else "",
                                           choices=choices, api=f"{role}_{attr}"))
            out = x.any_of(f"{prop} == {x.lit(v)}" for v in values)
        self.made[key] = out
        return out


def _unused_flag(c, game, t, cond: _Conditions, flag: str) -> str:
    """The chat's sentence for a flag the player set that changed nothing in this combat (no
    rule reading it holds or fails because of it), with why, in calc's words
    (builder.tables.accounting, builder.words.unused): '; Engineers attack with demolition
    charges: not applied, only when the defender is in a Stone building hex (3.8)'; '' when
    the module cannot tell (a rule on each attacking unit reads the flag)."""
    from itertools import combinations

    from builder.tables import accounting

    readers = [r for r in t.rules if r.when and any(n.flag == flag for n in r.when.walk())]
    if not readers or any(_per_unit(r) for r in readers):
        return ""
    on_flag = f"{P}Flag_{x.ident(flag)} == 1"

    def set_flag(e: str, value: str) -> str:
        return e.replace(on_flag, value)

    changed, reasons = [], []
    for r in readers:
        whole = cond.of(r.when)
        changed.append(f"{x.paren(set_flag(whole, 'true'))} != {x.paren(set_flag(whole, 'false'))}")
        parts = {k: set_flag(e, "true") for k, e in cond.parts(r.when).items()
                 if not (k == "flag" and r.when.flag == flag)}
        src = f" ({r.source})" if r.source else ""
        cases = []
        for n in range(1, len(parts) + 1):
            for combo in combinations(parts, n):
                when = x.all_of([f"!{x.paren(parts[k])}" for k in combo]
                                + [parts[k] for k in parts if k not in combo])
                phrase = accounting.phrase(game, t, r.when, list(combo))
                why = (words.not_applied(phrase, r.source) if phrase
                       else f"{r.label} does not apply here{src}")
                cases.append((when, why))
        reasons.append((cases, f"{r.label} applies, but changes nothing here{src}"))
    if not any(cases for cases, _ in reasons):  # a rule on the flag alone: the flag always counts
        return ""
    shown = words.input_shown(t.flags.get(flag, flag))
    first_cases, first_held = reasons[0]
    text = [x.choose([(w, x.lit(f"; {words.unused(shown, why)}")) for w, why in first_cases],
                     x.lit(f"; {words.unused(shown, first_held)}"))]
    firsts = [x.choose([(w, x.lit(why)) for w, why in first_cases], x.lit(first_held))]
    for cases, held in reasons[1:]:  # as builder.words.unused_reasons: each reason once
        full = x.choose([(w, x.lit(why)) for w, why in cases], x.lit(held))
        stripped = x.choose([(w, x.lit("; " + why.removeprefix("not applied, ")))
                             for w, why in cases], x.lit("; " + held))
        same = x.any_of(f"{x.paren(full)} == {x.paren(e)}" for e in firsts)
        text.append(f"{x.paren(same)} ? \"\" : {x.paren(stripped)}")
        firsts.append(full)
    unused = f"{on_flag} && !{x.paren(x.any_of(changed))}"
    return f'{x.paren(unused)} ? {x.paren(x.text(*text))} : ""'


def factor(items) -> tuple[str, str]:
    """(numerator, denominator) expressions of the product of the factor rules that apply, each
    raised to its uses: items are (uses expression, rule)."""
    nums, dens = [], []
    for n, r in items:
        a, b = _fraction(r)
        if a != 1:
            nums.append(x.paren(_power(n, a, r.max_uses)))
        if b != 1:
            dens.append(x.paren(_power(n, b, r.max_uses)))
    return (" * ".join(nums) or "1"), (" * ".join(dens) or "1")


def rounded(num: str, den: str, items, default: str) -> str:
    """num / den rounded as the first rule that applies and states a rounding says (the table's
    rounding otherwise), as builder.tables.rules.attack_factor/defence_factor pick it."""
    stated = [(f"{n} > 0", x.round_div(num, den, r.rounding)) for n, r in items if r.rounding]
    return x.choose(stated, x.round_div(num, den, default))


def replaced(c, name: str, read: str, ruled: Compiled) -> str:
    """A result read, replaced as each rule that applies says, in order (a chain of properties)."""
    for k, (n, table) in enumerate(ruled.replace):
        prop = c.prop(f"{name}{k}", read)
        read = x.choose([(f"{n} > 0 && {prop} == {x.lit(a)}", x.lit(b)) for a, b in table.items()],
                        prop)
    return read


def replacements(ruled: Compiled, name: str, unless: str = "false") -> str:
    """Text after a result read through replaced(c, name, ...): ' (Label: Suppressed becomes no
    effect (11.2))' for each rule that changed it (builder.words.replacement), '' when none did
    or when unless holds (a combat not allowed reads no result)."""
    parts = []
    for k, ((n, table), r) in enumerate(zip(ruled.replace, ruled.replace_rules)):
        said = x.choose([(f"{name}{k} == {x.lit(a)}", x.lit(f" ({words.replacement(r, a, b)})"))
                         for a, b in table.items()], '""')
        parts.append(f'{n} > 0 ? {x.paren(said)} : ""')
    if not parts:
        return '""'
    return f'{x.paren(unless)} ? "" : {x.paren(x.text(*parts))}'


def first_index(items, index) -> str:
    """The column index of the first rule that applies (-1: none): items (applies, column text)."""
    return x.choose([(w, str(index(col))) for w, col in items], "-1")
