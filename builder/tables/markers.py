"""Several markers on one target (a bombardment's markers, a fire table's): each is rolled in
turn and the target suffers one result at most, the first that is an effect, else the last
roll's (Vimy 17.2: one hit even if both markers hit). Shared by the fire and modified-roll
kinds, which read a roll each in their own way."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction

from builder.tables.common import NO_EFFECT
from builder.tables.result import Calculation, Outcome, Tally


def is_effect(result: str) -> bool:
    """Whether a result does something to the target ('-' and 'no effect' do not)."""
    return result.strip().lower() not in NO_EFFECT


def roll_in_turn(calc: Calculation, rolls: list[int],
                 read: Callable[[int], tuple[Outcome, str]]) -> Outcome:
    """The target's one result from the rolls given, each roll's working a step of calc;
    read(roll) is (its outcome, how it was read)."""
    got = None
    for i, r in enumerate(rolls, 1):
        o, how = read(r)
        label = f"marker {i}: " if len(rolls) > 1 else ""
        if got is not None:
            calc.step(f"{label}roll {how} (the target already suffered its one result)")
            continue
        calc.step(f"{label}roll {how}")
        if is_effect(o.result) or i == len(rolls):
            got = o
    assert got is not None  # rolls is never empty (dice.parse_roll)
    return got


def combined(per: dict[int, Fraction], markers: int,
             read: Callable[[int], Outcome]) -> Tally:
    """The odds of the target's one result over every roll of every marker; per: each dice
    total's chance, read(total): its outcome."""
    out = Tally()
    for combo in itertools.product(per.items(), repeat=markers):
        p = Fraction(1)
        got = None
        for total, q in combo:
            p *= q
            o = read(total)
            if got is None and is_effect(o.result):
                got = o
        out.add(got if got is not None else read(combo[-1][0]), p)
    return out
