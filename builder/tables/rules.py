"""Applying a table's rules (conditions and effects) in a calculation, as builder.tables.effects
describes them: the inputs the rules need, the facts they test, which rules apply, and each stage's
combined effect for the table kind's calculator to use.

A condition is True, False or unknown (None: the fact it tests was not given). An unknown rule is
not applied and the working says so, naming the input that would decide it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from builder import words
from builder.tables.effects import EFFECTS
from builder.tables.inputs import CalcError, Choice, InputSpec
from builder.tables.rounding import WORDS, round_to_int, show

ATTRIBUTES = ("side", "formation", "type", "size")

# per kind: (defending role, acting role, the attacking units' hexes input)
PLACES = {
    "ratio": ("defender", "attacker", "attacker_hexes"),
    "differential": ("defender", "attacker", "attacker_hexes"),
    "fire": ("target", "firer", ""),
    "modified-roll": ("target", "firer", ""),
    "lookup": ("", "", ""),
}


def _conditions(t):
    for r in t.rules:
        if r.when is not None:
            yield from r.when.walk()


def has_per_unit(t) -> bool:
    """Whether a rule of the table acts on each attacking unit that crosses (attackers =
    'per-unit'): the attack is then given one value per attacking hex."""
    return any(c.attackers == "per-unit" for c in _conditions(t))


def uses_key(t, key: str) -> bool:
    return any(getattr(c, key) not in ("", (), {}, None) for c in _conditions(t))


def roles_used(t) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for c in _conditions(t):
        for role in ("attacker", "defender", "firer", "target"):
            for attr in getattr(c, role):
                out.setdefault(role, set()).add(attr)
    return out


def attribute_values(game, attr: str) -> list[str]:
    if attr == "side":
        return [s.id for s in game.info.sides]
    return sorted({getattr(u, attr) for u in game.units if getattr(u, attr)})


def inputs(game, t, have: list[InputSpec]) -> list[InputSpec]:
    """The inputs the table's rules need that its kind does not already ask for."""
    if not t.rules:
        return []
    ids = {s.id for s in have}
    specs: list[InputSpec] = []
    for r in t.rules:
        if r.when is None:
            if r.max_uses == 1:
                specs.append(InputSpec(r.id, _label(r), "bool", default=False, source=r.source))
            else:
                specs.append(InputSpec(r.id, _label(r) + " - how many", "int", default=0, min=0,
                                       max=r.max_uses, source=r.source))
    if (uses_key(t, "turn") or uses_key(t, "period")) and "turn" not in ids:
        first = game.info.turns.first
        specs.append(InputSpec("turn", "game turn (rules that depend on the turn or its period)",
                               "int", min=first, max=first + game.info.turns.count - 1))
    if uses_key(t, "scenario") and "scenario" not in ids:
        specs.append(InputSpec("scenario", "scenario", "choice",
                               choices=tuple(Choice(s.id, s.name) for s in game.scenarios)))
    for role, attrs in sorted(roles_used(t).items()):
        for attr in sorted(attrs):
            several = role == "attacker"
            specs.append(InputSpec(
                f"{role}_{attr}", f"{role}'s {attr}" + (" (every attacking unit's)" if several else ""),
                "choice", multiple=several,
                choices=tuple(Choice(v, words.attribute_value(game, attr, v))
                              for v in attribute_values(game, attr))))
    for flag in _flags_used(t):
        specs.append(InputSpec(flag, t.flags.get(flag, flag), "bool", default=False))
    att_id = PLACES[t.kind][2]
    if uses_key(t, "across") and att_id and game.is_hex and att_id not in ids:
        specs.append(InputSpec(att_id, "the attacking units' hexes", "hex", multiple=True))
    return specs


def _flags_used(t) -> list[str]:
    out: list[str] = []
    for c in _conditions(t):
        if c.flag and c.flag not in out:
            out.append(c.flag)
    return out


def _label(r) -> str:
    v = r.value
    what = {"shift": lambda: f"{v:+d} column{'s' if abs(v) != 1 else ''}",
            "drm": lambda: f"{v:+d} to the roll"}.get(r.effect, lambda: "")()
    return r.label + (f" ({what})" if what and what not in r.label else "")


# --- facts -----------------------------------------------------------------------------------
@dataclass
class Facts:
    turn: int | None = None
    periods: set[str] | None = None
    scenario: str | None = None
    roles: dict[str, dict[str, set[str] | None]] = field(default_factory=dict)
    terrain: set[str] | None = None
    regions: set[str] | None = None
    hex: object = None
    crossings: list[set[str]] | None = None  # per attacking unit, the hexside types it crosses
    distances: list[int] | None = None  # per firing unit, its distance to the target
    ranges: list[int] | None = None  # per firing unit, its printed range
    flags: dict[str, bool] = field(default_factory=dict)
    numbers: dict[str, int] = field(default_factory=dict)


def facts(game, t, values: dict, place=None) -> Facts:
    """What the rules can test, from the inputs and the place (builder.tables.place.read)."""
    from builder import mapinfo

    f = Facts()
    att_id = PLACES[t.kind][2]
    f.turn = values.get("turn")
    if f.turn is not None:
        detail = next((d for d in game.info.turns.detail if d.number == f.turn), None)
        f.periods = set()
        if detail is not None:
            f.periods |= {detail.period} if detail.period else set()
            f.periods |= {"night"} if detail.night else set()
    f.scenario = values.get("scenario")
    for role in ("attacker", "defender", "firer", "target"):
        f.roles[role] = {}
        for attr in ATTRIBUTES:
            v = values.get(f"{role}_{attr}")
            f.roles[role][attr] = None if v in (None, []) else set(v if isinstance(v, list) else [v])
    f.flags = {k: bool(values.get(k)) for k in t.flags}
    f.numbers = {i.id: values[i.id] for i in getattr(t, "inputs", ()) if values.get(i.id) is not None}
    for c in _conditions(t):
        if c.flag:
            f.flags[c.flag] = bool(values.get(c.flag))
    if place is not None and place.terrain is not None:
        f.terrain = set(place.terrain)
    if place is not None and place.hex is not None:
        f.hex = place.hex
        f.regions = set(place.regions or ())
        attackers = values.get(att_id) if att_id else None
        if attackers:
            f.crossings = [set(mapinfo.hexside_types(game, a, place.hex)) for a in attackers]
    return f


def _all(parts):
    parts = list(parts)
    if any(p is False for p in parts):
        return False
    return None if any(p is None for p in parts) else True


def _any(parts):
    parts = list(parts)
    if any(p is True for p in parts):
        return True
    return None if any(p is None for p in parts) else False


def holds(game, c, f: Facts, unit: int | None = None):
    """True, False or None (unknown) for a condition; unit: the attacking unit tested alone."""
    from builder.model.rolls import RollSpec

    parts = []
    if c.turn:
        parts.append(None if f.turn is None else RollSpec(c.turn).matches(f.turn))
    if c.period:
        parts.append(None if f.periods is None else bool(f.periods & set(c.period)))
    if c.scenario:
        parts.append(None if f.scenario is None else f.scenario in c.scenario)
    for role in ("attacker", "defender", "firer", "target"):
        for attr, want in getattr(c, role).items():
            have = f.roles.get(role, {}).get(attr)
            parts.append(None if have is None else bool(have & set(want)))
    if c.terrain:
        parts.append(None if f.terrain is None else bool(f.terrain & set(c.terrain)))
    if c.region:
        parts.append(None if f.regions is None else bool(f.regions & set(c.region)))
    if c.place:
        parts.append(None if f.hex is None else _near(game, f.hex, c.place, c.within))
    if c.distance:
        parts.append(_distance_holds(c.distance, f, unit))
    if c.across:
        want = set(c.across)
        if f.crossings is None:
            parts.append(None)
        elif c.attackers == "per-unit" and unit is not None:
            parts.append(bool(f.crossings[unit] & want))
        elif c.attackers == "all":
            parts.append(bool(f.crossings) and all(x & want for x in f.crossings))
        else:
            parts.append(any(x & want for x in f.crossings))
    if c.flag:
        parts.append(f.flags.get(c.flag, False))
    for k, spec in c.input.items():
        parts.append(None if k not in f.numbers else RollSpec(spec).matches(f.numbers[k]))
    if c.all:
        parts.append(_all(holds(game, x, f, unit) for x in c.all))
    if c.any:
        parts.append(_any(holds(game, x, f, unit) for x in c.any))
    if c.not_ is not None:
        inner = holds(game, c.not_, f, unit)
        parts.append(None if inner is None else not inner)
    return _all(parts)


def _distance_holds(spec_text: str, f: Facts, unit: int | None):
    """A distance condition for one firing unit, or for any of them (unit None)."""
    from builder.model.tables import RollSpec

    if f.distances is None:
        return None
    spec = RollSpec(spec_text)
    ranged = "range" in spec.names()
    if ranged and f.ranges is None:
        return None

    def one(k: int) -> bool:
        return spec.matches(f.distances[k], {"range": f.ranges[k]} if ranged else {})

    if unit is not None:
        return one(unit)
    return any(one(k) for k in range(len(f.distances)))


def _near(game, h, place: str, within: int) -> bool:
    label = next(lab for lab in game.map.labels if lab.text == place)
    return game.grid.distance(h, game.hex(label.hex)) <= within


def _needs(c, f: Facts, place: str) -> list[str]:
    """What would decide a condition now unknown, as a player names it ('the turn', 'the
    defender's side', 'the defender's hex'); place: the defending role."""
    out = []
    if (c.turn or c.period) and f.turn is None:
        out.append("the turn")
    if c.scenario and f.scenario is None:
        out.append("the scenario")
    for role in ("attacker", "defender", "firer", "target"):
        whose = "the attacking units'" if role == "attacker" else f"the {role}'s"
        out += [f"{whose} {a}" for a in getattr(c, role) if f.roles.get(role, {}).get(a) is None]
    if (c.terrain and f.terrain is None) or ((c.region or c.place) and f.hex is None):
        out.append(f"the {place}'s hex")
    if c.across and f.crossings is None:
        out += ["the attacking units' hexes", f"the {place}'s hex"]
    if c.distance and f.distances is None:
        out.append("each firing unit's distance (distance, or firer_hexes and the hex)")
    elif c.distance and "range" in c.distance and f.ranges is None:
        out.append("each firing unit's range")
    for x in (*c.all, *c.any, *((c.not_,) if c.not_ else ())):
        out += _needs(x, f, place)
    return list(dict.fromkeys(o for o in out if o))


# --- which rules apply, and their combined effect --------------------------------------------
@dataclass
class Applied:
    prohibited: list = field(default_factory=list)
    attack: list = field(default_factory=list)  # (rule, factor, units or None)
    defence: list = field(default_factory=list)  # (rule, factor)
    rows: list = field(default_factory=list)
    column: object = None
    shift: int = 0
    cap: object = None
    drm: int = 0
    replace: list = field(default_factory=list)
    said: dict = field(default_factory=dict)  # rule id -> its sentence (builder.words.rule)

    @property
    def refused(self) -> bool:
        return bool(self.prohibited)


def factor(r) -> Fraction:
    v = Fraction(str(r.value))
    return 1 / v if r.effect.endswith("divisor") else v


def _strength(r) -> Fraction:
    """How strong a rule is, for 'only the strongest in a group'."""
    if r.effect in ("shift", "drm"):
        return Fraction(abs(r.value))
    if r.effect in ("attack_divisor", "attack_multiplier", "defence_divisor", "defence_multiplier"):
        return Fraction(str(r.value))
    return Fraction(0)


def evaluate(game, t, values: dict, f: Facts, calc, n_units: int = 0) -> Applied:
    """Every rule that applies (with its uses), cancellations, groups and the table's combination."""
    out = Applied()
    if not t.rules:
        return out
    out.said = said = {r.id: words.rule(game, t, r) for r in t.rules}
    uses: dict[str, int] = {}
    units: dict[str, list[int]] = {}
    for r in t.rules:
        if r.when is None:
            v = values.get(r.id)
            uses[r.id] = int(v) if v else 0
            if uses[r.id]:
                calc.step(said[r.id] + words.times(uses[r.id]))
            continue
        per_unit = any(c.attackers == "per-unit" for c in r.when.walk())
        ranged = r.effect in ("attack_divisor", "attack_multiplier") and any(
            c.distance for c in r.when.walk())
        if per_unit and f.crossings is not None:
            units[r.id] = [k for k in range(len(f.crossings)) if holds(game, r.when, f, k)]
            ok = bool(units[r.id])
        elif ranged and f.distances is not None:
            each = [holds(game, r.when, f, k) for k in range(len(f.distances))]
            ok = None if any(v is None for v in each) else any(each)
            if ok:
                units[r.id] = [k for k, v in enumerate(each) if v]
        else:
            ok = holds(game, r.when, f)
        if ok is None:
            need = _needs(r.when, f, PLACES[t.kind][0] or "defender")
            calc.note(words.not_decided(said[r.id], need))
            ok = False
        uses[r.id] = 1 if ok else 0
        if ok:
            calc.step(said[r.id])
    by_id = {r.id: r for r in t.rules}
    for r in t.rules:  # cancellations, one for one, never below zero
        if r.effect == "cancels" and uses[r.id]:
            target = by_id[r.cancels]
            k = min(uses[r.id], uses[target.id])
            calc.step(f"{r.label} x{uses[r.id]} cancels {target.label} one for one: "
                      f"{uses[target.id]} - {k} = {uses[target.id] - k}"
                      + (" (never past zero)" if uses[r.id] > k else ""))
            uses[target.id] -= k
            uses[r.id] = 0
    live = [r for r in t.rules if uses[r.id] and r.effect != "cancels"]
    groups: dict[str, list] = {}
    for r in live:
        if r.group:
            groups.setdefault(r.group, []).append(r)
    for g, members in groups.items():
        best = max(members, key=_strength)
        if len(members) > 1:
            calc.step(words.strongest_of(g, [m.label for m in members], best.label))
        live = [r for r in live if not r.group or r.group != g or r is best]
    live = _combine(t, live, uses, calc)
    for r in live:
        n = uses[r.id]
        e = r.effect
        if e == "prohibited":
            out.prohibited.append(r)
        elif e in ("attack_divisor", "attack_multiplier"):
            out.attack.append((r, factor(r) ** n, units.get(r.id)))
        elif e in ("defence_divisor", "defence_multiplier"):
            out.defence.append((r, factor(r) ** n))
        elif e == "row":
            out.rows.append(r)
        elif e == "column":
            out.column = out.column or r
        elif e == "shift":
            out.shift += r.shift * n
        elif e == "cap":
            out.cap = r if out.cap is None else out.cap  # the first stated (combine picks)
        elif e == "drm":
            out.drm += r.drm * n
        elif e == "replace":
            out.replace.append(r)
    return out


def _combine(t, live: list, uses: dict, calc) -> list:
    """The table's rules_combine, per stage: all, the one best for the defender, or the first."""
    mode = t.rules_combine
    if mode == "cumulative":
        return live
    keep = []
    by_stage: dict[str, list] = {}
    for r in live:
        by_stage.setdefault(EFFECTS[r.effect].stage, []).append(r)
    for stage, members in by_stage.items():
        if len(members) == 1 or stage in ("gate", "result", "row"):
            keep += members
            continue
        if mode == "first":
            pick = members[0]
            calc.step(words.combined(mode, stage, pick.label))
        else:
            pick = _best(stage, members, uses)
            calc.step(words.combined(mode, stage, pick.label))
        keep.append(pick)
    return [r for r in live if r in keep]


def _best(stage: str, members: list, uses: dict):
    if stage == "shift":
        return min(members, key=lambda r: r.shift * uses[r.id])
    if stage == "attack":
        return min(members, key=lambda r: factor(r) ** uses[r.id])
    if stage == "defence":
        return max(members, key=lambda r: factor(r) ** uses[r.id])
    return members[0]  # column, cap: the first stated (the loader asks for one)


# --- helpers for the kinds' calculators ------------------------------------------------------
def scale(value: int, fac: Fraction, rounding: str, calc, what: str) -> int:
    """A strength times a factor, rounded as said, in the working."""
    if fac == 1:
        return value
    raw = Fraction(value) * fac
    n = round_to_int(raw, rounding)
    op = f"x {show(fac)}" if fac > 1 else f"/ {show(1 / fac)}"
    calc.step(f"{what}: {value} {op} = {show(raw)}"
              + (f", rounded {WORDS[rounding]} = {n}" if raw.denominator != 1 else ""))
    return n


def attack_factor(applied: Applied) -> tuple[Fraction, str | None]:
    """The factor on the total attack (per-unit rules apart) and the rounding a rule states."""
    fac = Fraction(1)
    rounding = None
    for r, k, units in applied.attack:
        if units is None:
            fac *= k
            rounding = rounding or r.rounding
    return fac, rounding


def per_unit(applied: Applied, values: list[int], n_attackers: int, default_rounding: str,
             calc) -> list[int]:
    """Each attacking unit's strength under the per-unit rules that apply to it."""
    rules = [(r, k, u) for r, k, u in applied.attack if u]
    if not rules:
        return values
    if len(values) != n_attackers:
        raise CalcError(f"{rules[0][0].label} applies to each attacking unit that crosses on its "
                        "own: give attack as one value per attacker hex, in the same order")
    out = list(values)
    for r, k, units in rules:
        for i in units:
            out[i] = scale(out[i], k, r.rounding or default_rounding, calc,
                           f"unit {i + 1}, {r.label}")
    return out


def defence_factor(applied: Applied) -> tuple[Fraction, str | None]:
    fac = Fraction(1)
    rounding = None
    for r, k in applied.defence:
        fac *= k
        rounding = rounding or r.rounding
    return fac, rounding


def move_column(t, calc, index: int, applied: Applied, other_shift: int, last: int, labels,
                column_index, cap_index, beyond: tuple[str, str] | None = None) -> int | None:
    """The column read after a rule's column, every shift, the cap and the table's ends
    (None: beyond an end that is 'not-allowed'); beyond: (low, high) when the table's own
    beyond_low/high speak of rows (fire tables: a shift past an end reads the end column)."""
    beyond_low, beyond_high = beyond or (t.beyond_low, t.beyond_high)
    if applied.column is not None:
        new = column_index(applied.column.column)
        calc.step(f"{applied.column.label}: read on {labels(new)}")
        index = new
    total = applied.shift + other_shift
    target = index + total
    if total:
        calc.step(f"column {labels(index)} shifted {total:+d}")
    if target < 0:
        if beyond_low == "not-allowed":
            calc.step(words.beyond(t, "low", beyond_low))
            return None
        new = 0 if beyond_low == "first-column" else last
        calc.note(words.beyond(t, "low", beyond_low))
    elif target > last:
        if beyond_high == "not-allowed":
            calc.step(words.beyond(t, "high", beyond_high))
            return None
        new = last if beyond_high == "last-column" else 0
        calc.note(words.beyond(t, "high", beyond_high))
    else:
        new = target
    if total:
        calc.step(f"-> {labels(new)}")
    if applied.cap is not None:
        c = cap_index(applied.cap.cap)
        if new > c:
            calc.step(f"{applied.cap.label}: at most {labels(c)}")
            new = c
    return new


def replaced(applied: Applied, result: str) -> str:
    for r in applied.replace:
        result = r.replace.get(result, result)
    return result


def refuse(applied: Applied, calc) -> bool:
    """Say why the calculation is refused; True when a prohibiting rule applies."""
    from builder.tables.result import Outcome

    if not applied.prohibited:
        return False
    r = applied.prohibited[0]
    # the rule's sentence: the working said it as the rule applied; the headline says it again
    calc.outcome = Outcome("not allowed", applied.said[r.id])
    calc.distribution = [(calc.outcome, Fraction(1))]
    return True
