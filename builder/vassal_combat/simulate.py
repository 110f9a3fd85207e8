"""What the module answers for a battle set up on the map, computed with the faithful evaluator.

A Battle says where the resolution marker stands, what its stack totals, where each attack
marker stands and what its stack totals, the player's inputs and the dice. `answer` evaluates
the calculator's properties exactly as the engine would (SumStack and Sum answered from the
battle's pieces), so tests can compare the module with the rules assistant without Java.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from builder.vassal_combat.beanshell import Source
from builder.vassal_combat.calculator import Calculator


@dataclass
class Battle:
    at: str  # the resolution marker's location name
    # unit property -> total under the marker; a CountStack filter -> the pieces it selects there
    stack: dict[str, int] = field(default_factory=dict)
    # each attack marker: its location and what its stack totals, or the units in its stack
    # (each unit's own properties, e.g. {'Firepower': 6, 'Range': 4}: the calculator's unit
    # properties are evaluated on each, as the engine does, and summed)
    attackers: list[tuple[str, dict[str, int] | list[dict]]] = field(default_factory=list)
    inputs: dict[str, object] = field(default_factory=dict)
    dice: dict[str, int] = field(default_factory=dict)


def _stack(totals: dict[str, int]):
    return lambda prop: int(totals.get(prop, 0))


def _base(c: Calculator, b: Battle) -> dict[str, object]:
    props: dict[str, object] = {**c.data, "LocationName": b.at}
    for i in c.inputs:
        props[i.prop] = i.default
    props.update(b.inputs)
    props.update(b.dice)
    return props


def attacker_sources(c: Calculator, b: Battle, marker=None) -> list[Source]:
    """One Source per attack marker (its location, its stack, the global properties; those the
    resolution marker sets from its calculated properties read from `marker`, a callable giving
    its Source, as the engine sets them on Resolve)."""
    base = _base(c, b)
    calcs = c.calcs()
    published = {g: (lambda p=p: marker().get(p)) if p in calcs and marker else base.get(p)
                 for g, p in c.published.items()}
    out = []
    for where, totals in b.attackers:
        props = {**c.data, **published, "LocationName": where, **dict(c.attacker_marks)}
        stack = _units(c, where, totals, {**c.data, **published}) if isinstance(totals, list) \
            else _stack(totals)
        out.append(Source(props=props, calcs=c.attacker_calcs(), sum_stack=stack,
                          count_stack=stack if isinstance(totals, list) else _stack(totals)))
    return out


def _units(c: Calculator, where: str, units: list[dict], glob: dict):
    """SumStack over the units of a stack: each unit's property evaluated on that unit."""
    def total(prop: str) -> int:
        out = 0
        for u in units:
            src = Source(props={**glob, "LocationName": where, **u}, calcs=dict(c.unit_props))
            v = src.get(prop)
            try:
                out += int(v) if v not in (None, "") else 0
            except ValueError:
                pass  # the engine skips a value that is not a whole number
        return out
    return total


def marker_source(c: Calculator, b: Battle) -> Source:
    """The resolution marker as the engine evaluates it."""
    holder: dict = {}
    attackers = attacker_sources(c, b, lambda: holder["marker"])

    def sum_all(prop: str, _filter: str) -> int:
        total = 0
        for s in attackers:
            v = s.get(prop)
            try:
                total += int(v) if v is not None else 0
            except ValueError:
                pass  # the engine skips a value that is not a whole number
        return total

    props = _base(c, b)
    props.update({g: props.get(p) for g, p in c.published.items() if p in props})
    holder["marker"] = Source(props=props, calcs=c.calcs(), sum_stack=_stack(b.stack),
                              count_stack=_stack(b.stack), sum_all=sum_all)
    return holder["marker"]


def answer(c: Calculator, b: Battle, names: list[str] | None = None) -> dict[str, str]:
    """The values of the named properties (all the marker's calculated properties by default)."""
    src = marker_source(c, b)
    return {n: src.get(n) for n in (names or [n for n, _ in c.props])}


def report(c: Calculator, b: Battle) -> str:
    """The chat line: the report format with each $property$ replaced by its text."""
    import re

    src = marker_source(c, b)
    raw = {"LocationName": b.at}
    return re.sub(r"\$([A-Za-z0-9_]+)\$",
                  lambda m: raw.get(m.group(1)) or src.get(m.group(1)) or "", c.report)
