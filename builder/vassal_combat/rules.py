"""A table's rules (builder.model.rules) compiled to module expressions, with the meanings of
builder.tables.effects: player-set rules and flags become menu inputs, the turn an input, a
condition on the target's place a packed location fact; a rule's uses (after cancellations) feed
the column shift, the die-roll modifier or the refusal.

The module compiles the effects 'shift', 'drm', 'cancels' and 'prohibited' under conditions on
the turn, its period, flags and (where the calculator packs place facts) the terrain, region and
named place, combined with all/any/not. A table with any other rule is not offered in the module
(`unsupported` says why, and the module assembly lists it), never resolved without its rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from builder import words
from builder.model.tables import RollSpec
from builder.tables import rules as trules
from builder.vassal import expr as x
from builder.vassal_combat.calculator import PREFIX, Input

P = PREFIX
EFFECTS = {"shift", "drm", "cancels", "prohibited"}
DYNAMIC = {"turn", "period", "flag", "all", "any", "not_"}
STATIC = {"terrain", "region", "place", "within"}


def by_hand(game, t, places: bool) -> dict[str, str]:
    """The rules the module cannot apply for this table: rule id -> why. The table is still
    offered; its marker leaves these rules out and tells the player to apply them by hand (a
    cancellation goes with the rule it cancels: one applied without the other would be wrong)."""
    out: dict[str, str] = {}
    if t.rules_combine != "cumulative" and len(t.rules) > 1:
        return {r.id: f"rules_combine = '{t.rules_combine}'" for r in t.rules}
    for r in t.rules:
        why = _rule_unsupported(game, t, r, places)
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
    return out


def _rule_unsupported(game, t, r, places: bool) -> str:
    if t.kind == "fire":
        from builder.vassal_combat.unit_rules import unit_rule, unit_rule_unsupported

        if r.when is not None and any(c.distance for c in r.when.walk()):
            return unit_rule_unsupported(game, t, r)  # compiled per firing unit, or why not
        if unit_rule(t, r):
            return ""
    if r.group:
        return "it is in a group"
    if r.effect not in EFFECTS and not (r.effect == "replace" and t.kind == "lookup"):
        return f"effect '{r.effect}'"
    if r.effect == "shift" and t.kind not in ("ratio", "differential"):
        return "shift"
    for c in (r.when.walk() if r.when else ()):
        for k in c.keys():
            if k in STATIC and not (places and game.is_hex):
                return f"a condition on '{k}'"
            if k not in DYNAMIC | STATIC and not (k == "input" and t.kind == "lookup"):
                return f"a condition on '{k}'"
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
    """1 when a node's place tests hold at this hex (its other tests are compiled apart)."""
    from builder import mapinfo

    f = trules.Facts(terrain=set(mapinfo.terrain_of(game, place)),
                     regions=set(mapinfo.regions_of(game, place)), hex=place)
    part = node.model_copy(update={"turn": "", "period": (), "flag": "", "all": (), "any": (),
                                   "not_": None})
    return int(bool(trules.holds(game, part, f)))


@dataclass
class Compiled:
    shift: str = "0"
    drm: str = "0"
    prohibited: str = "false"
    why: str = '""'
    replace: list = field(default_factory=list)  # (uses expression, {read: given})
    shown: list = field(default_factory=list)  # (label expression, shown-when expression)


def compile_rules(c, game, t, field_of=None) -> Compiled:
    """Inputs for the rules and the expressions of their combined effects (the rules by_hand
    names are left out: the calculator's chat line names them for the player)."""
    out = Compiled()
    nodes = static_nodes(t)  # numbered over every rule, as the caller packed them
    skip = by_hand(game, t, places=field_of is not None)
    if t.kind == "fire":  # the firing units' rules are compiled on the units (fire.unit_props)
        from builder.vassal_combat.unit_rules import unit_rule

        skip = {**skip, **{r.id: "per unit" for r in t.rules if unit_rule(t, r)}}
    t = t.model_copy(update={"rules": tuple(r for r in t.rules if r.id not in skip)})
    if not t.rules:
        return out
    if any(r.when and any(n.turn or n.period for n in r.when.walk()) for r in t.rules):
        first = game.info.turns.first
        c.inputs.append(Input(f"{P}Turn", "game turn", "count", default=str(first), min=first,
                              max=first + game.info.turns.count - 1, api="turn"))
    flags = []
    for r in t.rules:
        for n in (r.when.walk() if r.when else ()):
            if n.flag and n.flag not in flags:
                flags.append(n.flag)
    for f in flags:
        c.inputs.append(Input(f"{P}Flag_{x.ident(f)}", t.flags.get(f, f), "toggle", api=f))
    base: dict[str, str] = {}
    for r in t.rules:
        if r.when is None:
            prop = f"{P}Rule_{x.ident(r.id)}"
            kind = "toggle" if r.max_uses == 1 else "count"
            c.inputs.append(Input(prop, r.label, kind, max=r.max_uses, api=r.id))
            base[r.id] = prop
        else:
            base[r.id] = f"({_cond(game, r.when, nodes, field_of)} ? 1 : 0)"
    uses = dict(base)
    for r in t.rules:
        if r.effect == "cancels":
            uses[r.cancels] = f"Math.max({x.paren(uses[r.cancels])} - {x.paren(base[r.id])}, 0)"
    shifts, drms, bans = [], [], []
    out.replace = [(x.paren(uses[r.id]), r.replace) for r in t.rules if r.effect == "replace"]
    for r in t.rules:
        n = x.paren(uses[r.id])
        # the chat names a rule that applies with the sentence every output uses (builder.words)
        said = x.lit(words.rule(game, t, r))
        if r.effect in ("shift", "drm", "replace"):
            out.shown.append((f'{said} + ({n} > 1 ? {x.lit(" — ")} + {n} + " times" : "")',
                              f"{n} > 0"))
        if r.effect == "shift":
            shifts.append(f"{n} * {x.lit(r.shift)}")
        elif r.effect == "drm":
            drms.append(f"{n} * {x.lit(r.drm)}")
        elif r.effect == "prohibited":
            bans.append((f"{n} > 0", said))
    out.shift = " + ".join(shifts) if shifts else "0"
    out.drm = " + ".join(drms) if drms else "0"
    if bans:
        out.prohibited = x.any_of(b for b, _ in bans)
        out.why = x.choose(bans, '""')
    return out


def _cond(game, c, nodes, field_of) -> str:
    parts = []
    if c.turn:
        parts.append(_turn(c.turn))
    if c.period:
        numbers = sorted({d.number for d in game.info.turns.detail
                          if d.period in c.period or ("night" in c.period and d.night)})
        parts.append(x.any_of(f"{P}Turn == {k}" for k in numbers) if numbers else "false")
    if c.flag:
        parts.append(f"{P}Flag_{x.ident(c.flag)} == 1")
    for k, spec in c.input.items():
        parts.append(_turn(spec, f"{P}In_{x.ident(k)}"))
    if c.terrain or c.region or c.place:
        i = next(k for k, n in enumerate(nodes) if n is c)
        parts.append(f"{field_of(i)} == 1")
    for sub in c.all:
        parts.append(x.paren(_cond(game, sub, nodes, field_of)))
    if c.any:
        parts.append(x.paren(x.any_of(x.paren(_cond(game, s, nodes, field_of)) for s in c.any)))
    if c.not_ is not None:
        parts.append(f"!{x.paren(_cond(game, c.not_, nodes, field_of))}")
    return x.all_of(parts) if parts else "true"


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
