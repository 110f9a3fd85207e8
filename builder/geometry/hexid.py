"""Printed hex numbers ("2717", "16A:0827") and ranges of them, parsed into coordinates."""

from __future__ import annotations

import re
from dataclasses import dataclass

_ID = re.compile(r"^(?:(?P<sheet>[0-9A-Za-z]+):)?(?P<digits>\d+)$")


@dataclass(frozen=True, order=True)
class HexId:
    """A hex as printed: optional sheet prefix, column number, row number."""

    sheet: str
    col: int
    row: int

    def label(self, col_digits: int = 2, row_digits: int = 2) -> str:
        """The number as printed on the map, e.g. '2717' or '16A:0827'."""
        core = f"{self.col:0{col_digits}d}{self.row:0{row_digits}d}"
        return f"{self.sheet}:{core}" if self.sheet else core

    def __str__(self) -> str:
        return self.label()


def parse_hex(text: str, col_digits: int = 2, row_digits: int = 2, sheet: str = "") -> HexId:
    """Parse one printed hex number; raise ValueError saying what a valid one looks like."""
    m = _ID.match(str(text).strip())
    width = col_digits + row_digits
    example = "2717" if width == 4 else "0" * width
    if not m or len(m.group("digits")) != width:
        raise ValueError(
            f"'{text}' is not a hex number: expected {width} digits, column then row"
            f" (e.g. '{example}' or with a sheet prefix '16A:{example}')"
        )
    digits = m.group("digits")
    return HexId(m.group("sheet") or sheet, int(digits[:col_digits]), int(digits[col_digits:]))


def parse_hex_range(text: str, col_digits: int = 2, row_digits: int = 2) -> list[HexId]:
    """Expand 'A..B': one column (rows A to B), one row (columns A to B) or the rectangle between.

    The order follows the text, so '0609..0603' runs upwards: lines drawn through ranges keep it.
    """
    text = str(text).strip()
    if ".." not in text:
        return [parse_hex(text, col_digits, row_digits)]
    left, right = (part.strip() for part in text.split("..", 1))
    a = parse_hex(left, col_digits, row_digits)
    b = parse_hex(right, col_digits, row_digits, sheet=a.sheet)
    if a.sheet != b.sheet:
        raise ValueError(f"range '{text}' spans two sheets ({a.sheet} and {b.sheet}): split it")
    cstep = 1 if b.col >= a.col else -1
    rstep = 1 if b.row >= a.row else -1
    return [
        HexId(a.sheet, c, r)
        for c in range(a.col, b.col + cstep, cstep)
        for r in range(a.row, b.row + rstep, rstep)
    ]


def parse_span(text: str) -> tuple[int, int]:
    """Parse an inclusive number span such as '10-34' or '17' into (first, last)."""
    m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", str(text))
    if not m:
        raise ValueError(f"'{text}' is not a span: write 'first-last', e.g. '01-34'")
    first = int(m.group(1))
    last = int(m.group(2) or first)
    if last < first:
        raise ValueError(f"span '{text}' runs backwards: write the smaller number first")
    return first, last
