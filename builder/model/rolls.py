"""Dice and roll conditions ('1d6', '5-10', '<=2', '<turn'): what tables and rules both read.

Kept below builder.model.tables and builder.model.rules, which both need RollSpec (a rule's
`turn` condition is one), so neither imports the other for it.
"""

from __future__ import annotations

import re


def dice_range(dice: str) -> tuple[int, int]:
    """Smallest and largest total of '1d6', '2d6' (ValueError for anything else)."""
    m = re.fullmatch(r"(\d+)d(\d+)", dice)
    sides = (2, 3, 4, 6, 8, 10, 12, 20)
    if not m or not (1 <= int(m.group(1)) <= 4) or int(m.group(2)) not in sides:
        raise ValueError(f"'{dice}' is not a dice spec: write e.g. '1d6' or '2d6'")
    n, sides = int(m.group(1)), int(m.group(2))
    return n, n * sides


_SPEC = re.compile(
    r"^\s*(?:(?P<op><=|>=|<|>)\s*(?:(?P<times>\d+)\s*\*\s*)?(?P<opval>-?\d+|[a-z][a-z0-9_-]*)"
    r"|(?P<lo>-?\d+)\s*(?:-|\.\.)\s*(?P<hi>-?\d+)|(?P<one>-?\d+)|(?P<else>else))\s*$"
)


class RollSpec:
    """A condition on a number: '5', '5-10', '2,3,12', '<=2', '>=17', '<turn', '>2*range', 'else'."""

    def __init__(self, text: str):
        self.text = str(text).strip()
        self.parts = []
        for chunk in self.text.split(","):
            m = _SPEC.match(chunk)
            if not m:
                raise ValueError(
                    f"'{text}' is not a roll condition: write '5', '5-10', '2,3,12', '<=2', '>=17',"
                    " '<turn', '>2*range' or 'else'"
                )
            self.parts.append(m.groupdict())

    @property
    def is_else(self) -> bool:
        return any(p["else"] for p in self.parts)

    def names(self) -> set[str]:
        """Input names the condition compares against ('<turn' -> {'turn'})."""
        return {p["opval"] for p in self.parts if p["op"] and not is_int(p["opval"])}

    def matches(self, value: int, inputs: dict[str, int] | None = None) -> bool:
        for p in self.parts:
            if p["else"]:
                return True
            if p["one"] is not None and value == int(p["one"]):
                return True
            if p["lo"] is not None and int(p["lo"]) <= value <= int(p["hi"]):
                return True
            if p["op"]:
                ref = p["opval"]
                other = int(ref) if is_int(ref) else (inputs or {}).get(ref)
                if other is None:
                    continue
                other *= int(p["times"] or 1)
                if {"<": value < other, "<=": value <= other, ">": value > other,
                        ">=": value >= other}[p["op"]]:
                    return True
        return False


def is_int(text: str) -> bool:
    """Whether the text is a whole number, such as '-3' (not 'turn')."""
    return bool(re.fullmatch(r"-?\d+", text or ""))
