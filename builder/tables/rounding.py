"""Rounding a fraction the way a table's rule says, and saying how in words."""

from __future__ import annotations

import math
from fractions import Fraction

RULES = ("half-down", "half-up", "down", "up", "nearest")

WORDS = {
    "half-down": "to the nearest whole number, an exact half down",
    "half-up": "to the nearest whole number, an exact half up",
    "down": "down",
    "up": "up",
    "nearest": "to the nearest whole number (an exact half up, as no rule says otherwise)",
}

# The rounding that favours the other side: used to round a ratio below 1:1 (defence / attack)
MIRROR = {"half-down": "half-up", "half-up": "half-down", "down": "up", "up": "down",
          "nearest": "nearest"}


def round_to_int(value: Fraction, rule: str) -> int:
    """Round exactly: 'half-down' gives 3.5 -> 3 and 3.51 -> 4; 'half-up' 3.5 -> 4."""
    value = Fraction(value)
    floor = math.floor(value)
    rest = value - floor
    if rule == "down":
        return floor
    if rule == "up":
        return math.ceil(value)
    if rest == Fraction(1, 2):
        return floor if rule == "half-down" else floor + 1
    return floor + 1 if rest > Fraction(1, 2) else floor


def show(value: Fraction) -> str:
    """A fraction for people: '4', '13.5', '0.65', '1.538...' (not a terminating decimal)."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    d = value.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d == 1:
        return f"{float(value):.6f}".rstrip("0").rstrip(".")
    return f"{float(value):.3f}..."


def is_half(value: Fraction) -> bool:
    """True for an exact half (x.5), where the rounding rules disagree."""
    return Fraction(value) - math.floor(value) == Fraction(1, 2)
