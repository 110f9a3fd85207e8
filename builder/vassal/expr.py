"""Small builders of VASSAL (BeanShell) expression text: literals, choices, rounding, clamping.

Every generated expression is made here from ints, strings and property names, so the pieces
the evaluator (beanshell.py) must understand stay few: int and string literals, property names,
?: chains, comparisons, + - * / %, && || !, Math.min/Math.max and the VASSAL functions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from fractions import Fraction

BIG = 9999  # a column no table has: 'no row applies' in a minimum


def ident(text: str) -> str:
    """A property-name part from an id: 'glider-landing' -> 'glider_landing'."""
    out = re.sub(r"[^A-Za-z0-9]", "_", str(text))
    return out if re.match(r"[A-Za-z_]", out) else "_" + out


def lit(value: object) -> str:
    """A Java literal: ints as written, text as a double-quoted string."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if value >= 0 else f"({value})"
    text = str(value)
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ord(ch) < 32 or ord(ch) > 126:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def paren(e: str) -> str:
    """e in parentheses unless it is already one name, literal or parenthesised group."""
    return e if re.fullmatch(r"[A-Za-z0-9_$]+|\(.*\)|\"[^\"]*\"", e) and _balanced(e) else f"({e})"


def _balanced(e: str) -> bool:
    if not e.startswith("("):
        return True
    depth = 0
    for i, ch in enumerate(e):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and i != len(e) - 1:
            return False
    return True


def choose(cases: Sequence[tuple[str, str]], default: str) -> str:
    """'c1 ? v1 : c2 ? v2 : default' (the default alone when there are no cases)."""
    if not cases:
        return default
    return " : ".join(f"{paren(c)} ? {paren(v)}" for c, v in cases) + f" : {paren(default)}"


def index_lookup(var: str, values: Sequence[object], base: int = 0) -> str:
    """Value for var == base + i, merging runs of equal values into ranges (short expressions)."""
    cases: list[tuple[str, str]] = []
    i = 0
    n = len(values)
    while i < n:
        j = i
        while j + 1 < n and values[j + 1] == values[i]:
            j += 1
        if j == n - 1:
            return choose(cases, lit(values[i]))
        cond = f"{var} == {base + i}" if i == j else f"{var} <= {base + j}"
        cases.append((cond, lit(values[i])))
        i = j + 1
    return choose(cases, '""')


def clamp(e: str, lo: int, hi: int) -> str:
    """e held between lo and hi."""
    return f"Math.max({lit(lo)}, Math.min({lit(hi)}, {e}))"


def _nested(function: str, items: Iterable[str]) -> str:
    """f(a, f(b, c)): VASSAL's Math.min/Math.max take two arguments."""
    items = list(items)
    out = items[-1]
    for e in reversed(items[:-1]):
        out = f"{function}({e}, {out})"
    return out


def minimum(items: Iterable[str]) -> str:
    """The smallest of several int expressions (nested Math.min)."""
    return _nested("Math.min", items)


def maximum(items: Iterable[str]) -> str:
    """The largest of several int expressions (nested Math.max)."""
    return _nested("Math.max", items)


def any_of(items: Iterable[str]) -> str:
    """Conditions joined with || (false when there are none)."""
    items = [paren(i) for i in items]
    return " || ".join(items) if items else "false"


def all_of(items: Iterable[str]) -> str:
    """Conditions joined with && (true when there are none)."""
    items = [paren(i) for i in items]
    return " && ".join(items) if items else "true"


def round_div(num: str, den: str, rule: str) -> str:
    """num / den rounded as a table's rule says, for num >= 0 and den > 0 (int arithmetic)."""
    n, d = paren(num), paren(den)
    if rule == "down":
        return f"{n} / {d}"
    if rule == "up":
        return f"({n} + {d} - 1) / {d}"
    if rule in ("half-up", "nearest"):
        return f"(2 * {n} + {d}) / (2 * {d})"
    if rule == "half-down":
        return f"(2 * {n} + {d} - 1) / (2 * {d})"
    raise ValueError(f"unknown rounding rule {rule}")


def divide_by(value: str, divisor: Fraction, rule: str) -> str:
    """value / divisor (a fraction such as 2 or 3/2), rounded by the rule."""
    divisor = Fraction(divisor)
    if divisor == 1:
        return value
    num = value if divisor.denominator == 1 else f"{paren(value)} * {divisor.denominator}"
    return round_div(num, str(divisor.numerator), rule)


def signed(e: str) -> str:
    """'+5', '-2', '+0' as text (the way the rules assistant prints a differential)."""
    return f'({paren(e)} >= 0 ? "+" : "") + {paren(e)}'


def text(*parts: str) -> str:
    """Concatenate expression parts into text ("" first so + always means concatenation)."""
    parts = [p for p in parts if p not in ('""', "")]
    if not parts:
        return '""'
    return " + ".join(['""'] + [paren(p) for p in parts]) if not parts[0].startswith('"') \
        else " + ".join(paren(p) for p in parts)
