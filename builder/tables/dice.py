"""Dice as exact distributions: every face combination enumerated, probabilities as Fractions."""

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from functools import cache

from builder.model.rolls import dice_range


def parse_dice(dice: str) -> tuple[int, int]:
    """'2d6' -> (2, 6)."""
    dice_range(dice)  # raises a clear ValueError for anything that is not a dice spec
    n, sides = re.fullmatch(r"(\d+)d(\d+)", dice).groups()
    return int(n), int(sides)


@cache
def faces(dice: str) -> tuple[tuple[int, ...], ...]:
    """Every equally likely face combination of the dice, in order."""
    n, sides = parse_dice(dice)
    return tuple(itertools.product(range(1, sides + 1), repeat=n))


@cache
def totals(dice: str) -> dict[int, Fraction]:
    """Exact probability of each total of the dice."""
    combos = faces(dice)
    out: dict[int, Fraction] = {}
    for combo in combos:
        out[sum(combo)] = out.get(sum(combo), 0) + Fraction(1, len(combos))
    return dict(sorted(out.items()))


def parse_roll(text, dice: str, count: int = 1, what: str = "roll") -> list[int]:
    """A roll as given ('7', '3,4', 7, (3, 4)) -> one total per roll asked for.

    For one roll of several dice, 'a,b' gives the faces; for several rolls of one die each
    (two bombardment markers), 'a,b' gives one face per roll.
    """
    lo, hi = dice_range(dice)
    n, sides = parse_dice(dice)
    if isinstance(text, int):
        parts = [text]
    elif isinstance(text, (list, tuple)):
        parts = list(text)
    else:
        parts = [p for p in re.split(r"[,\s]+", str(text).strip()) if p]
    try:
        nums = [int(p) for p in parts]
    except (TypeError, ValueError):
        raise ValueError(f"{what} '{text}' is not a number: give e.g. '{lo}' or '{','.join(['1'] * n)}'")
    if count > 1:
        if len(nums) != count:
            raise ValueError(f"{what} '{text}': give {count} rolls of {dice}, one per marker, e.g. "
                             f"'{','.join(str(lo) for _ in range(count))}'")
        for v in nums:
            if not lo <= v <= hi:
                raise ValueError(f"{what} {v} cannot be rolled on {dice}: give {lo} to {hi}")
        return nums
    if len(nums) == 1:
        if not lo <= nums[0] <= hi:
            raise ValueError(f"{what} {nums[0]} cannot be rolled on {dice}: give {lo} to {hi}")
        return nums
    if len(nums) == n and n > 1:
        for v in nums:
            if not 1 <= v <= sides:
                raise ValueError(f"{what} '{text}': a d{sides} shows 1 to {sides}, not {v}")
        return [sum(nums)]
    raise ValueError(f"{what} '{text}': give the total ({lo} to {hi})"
                     + (f" or the {n} dice, e.g. '3,4'" if n > 1 else ""))
