"""A faithful evaluator of the VASSAL expression subset the combat generator writes.

VASSAL 3.6/3.7 evaluates a trait's expression with BeanShell (Java semantics) after binding each
property the expression names; this module does the same in Python so tests can check every
generated expression against the rules assistant without starting Java. The subset: int, boolean
and string literals; property names (bare or $name$); ?: || && == != < <= > >= + - * / % and
unary - !; parentheses; the functions If, GetProperty, SumStack, CountStack, Sum, Random,
Math.min/max/abs, Integer.parseInt; a String's substring(begin[, end]) and length(). Semantics
follow the engine, checked against it by tests/vassal_combat:

* a bound property: "true"/"false" -> boolean; text of only '+-.0123456789' -> int
  (Integer.parseInt), else float (Float.parseFloat), else the text; a missing property -> "".
  So a location named "0302" is the int 302 inside an expression.
* GetProperty(name): "true"/"false" -> boolean, Integer.valueOf -> int, else the text.
* ints are 32-bit and wrap; / truncates toward zero and % takes the dividend's sign; / by 0 fails.
* + with a string operand concatenates (Java's text of the other operand); == on strings compares
  their text (VASSAL's BeanShell does, unlike plain Java).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache


class EvalError(ValueError):
    """The expression fails in VASSAL too (bad syntax, bad types, division by zero)."""


# --- values as BeanShell holds them ---------------------------------------------------------
@dataclass(frozen=True)
class JFloat:
    """A Java float (only made when a property reads like '1.5'); kept apart from int."""

    value: float


def _i32(n: int) -> int:
    n &= 0xFFFFFFFF
    return n - (1 << 32) if n & 0x80000000 else n


_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)")
_NUMBER_CHARS = set("+-.0123456789")


def parse_int(text: str) -> int:
    """Java Integer.parseInt: optional sign, decimal digits, within 32 bits (EvalError otherwise)."""
    if not _INT.fullmatch(text):
        raise EvalError(f'NumberFormatException: For input string: "{text}"')
    n = int(text)
    if not -(1 << 31) <= n < (1 << 31):
        raise EvalError(f'NumberFormatException: For input string: "{text}"')
    return n


def bind(value: object) -> object:
    """A property's value as the expression sees it when the expression names the property."""
    if value is None:
        return ""
    text = str(value)
    if text == "true":
        return True
    if text == "false":
        return False
    if set(text) <= _NUMBER_CHARS:
        try:
            return parse_int(text)
        except EvalError:
            if text and _FLOAT.fullmatch(text):
                return JFloat(float(text))
    return text


def wrap(value: object) -> object:
    """A value GetProperty returns: booleans, Integer.valueOf numbers, otherwise the text."""
    if value is None:
        return ""
    text = str(value)
    if text == "true":
        return True
    if text == "false":
        return False
    try:
        return parse_int(text)
    except EvalError:
        return text


def java_text(v: object) -> str:
    """Java's String.valueOf for the values an expression can hold."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, JFloat):
        return _float_text(v.value)
    return str(v)


def _float_text(x: float) -> str:
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == int(x) and abs(x) < 1e7:
        return f"{int(x)}.0" if x or math.copysign(1, x) > 0 else "-0.0"
    if 1e-3 <= abs(x) < 1e7:
        return repr(float(f"{x:.7g}"))
    mant, exp = f"{x:.7e}".split("e")
    mant = mant.rstrip("0")
    mant = mant + "0" if mant.endswith(".") else mant
    return f"{mant}E{int(exp)}"


# --- tokens ---------------------------------------------------------------------------------
_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<num>\d+\.\d*|\.\d+|\d+)
  | (?P<str>"(?:[^"\\\n]|\\.)*")
  | (?P<name>[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*)
  | (?P<op>\|\||&&|==|!=|<=|>=|[-+*/%<>!?:(),&|.])
""", re.VERBOSE)

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "\\": "\\", '"': '"', "'": "'"}


def _unescape(body: str) -> str:
    out = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            nxt = body[i + 1]
            if nxt == "u":
                out.append(chr(int(body[i + 2:i + 6], 16)))
                i += 6
                continue
            if nxt not in _ESCAPES:
                raise EvalError(f"bad escape \\{nxt} in a string literal")
            out.append(_ESCAPES[nxt])
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _tokens(text: str) -> list[tuple[str, str]]:
    out = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise EvalError(f"cannot read the expression at {text[pos:pos + 20]!r}")
        pos = m.end()
        kind = m.lastgroup
        if kind != "ws":
            out.append((kind, m.group(kind)))
    out.append(("end", ""))
    return out


# --- syntax tree ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Node:
    op: str
    args: tuple = ()
    value: object = None


_BINARY = [("||",), ("&&",), ("|",), ("&",), ("==", "!="), ("<", "<=", ">", ">="), ("+", "-"),
           ("*", "/", "%")]


class _Parser:
    def __init__(self, text: str):
        self.toks = _tokens(text)
        self.i = 0

    def peek(self) -> tuple[str, str]:
        return self.toks[self.i]

    def take(self, value: str | None = None) -> tuple[str, str]:
        tok = self.toks[self.i]
        if value is not None and tok[1] != value:
            raise EvalError(f"expected '{value}', found '{tok[1] or 'the end'}'")
        self.i += 1
        return tok

    def parse(self) -> Node:
        node = self.ternary()
        if self.peek()[0] != "end":
            raise EvalError(f"unexpected '{self.peek()[1]}' after a complete expression")
        return node

    def ternary(self) -> Node:
        cond = self.binary(0)
        if self.peek() == ("op", "?"):
            self.take("?")
            a = self.ternary()
            self.take(":")
            b = self.ternary()
            return Node("?:", (cond, a, b))
        return cond

    def binary(self, level: int) -> Node:
        if level == len(_BINARY):
            return self.unary()
        node = self.binary(level + 1)
        while self.peek()[0] == "op" and self.peek()[1] in _BINARY[level]:
            op = self.take()[1]
            node = Node(op, (node, self.binary(level + 1)))
        return node

    def unary(self) -> Node:
        kind, val = self.peek()
        if kind == "op" and val in ("-", "!", "+"):
            self.take()
            arg = self.unary()
            if val == "-" and arg.op == "lit" and isinstance(arg.value, int) and not isinstance(
                    arg.value, bool):
                return Node("lit", value=_i32(-arg.value))
            return Node("u" + val, (arg,))
        return self.primary()

    def primary(self) -> Node:
        node = self.atom()
        while self.peek() == ("op", "."):  # a String method: "abc".substring(1, 2)
            self.take(".")
            kind, name = self.take()
            if kind != "name" or "." in name or name not in _METHODS:
                raise EvalError(f"method '{name}' is not in the supported subset")
            node = Node("method", (node, *self.arguments()), name)
        return node

    def arguments(self) -> list[Node]:
        """A call's arguments, parentheses included: '(a, b + 1)'."""
        self.take("(")
        args = []
        if self.peek() != ("op", ")"):
            args.append(self.ternary())
            while self.peek() == ("op", ","):
                self.take(",")
                args.append(self.ternary())
        self.take(")")
        return args

    def atom(self) -> Node:
        kind, val = self.take()
        if kind == "num":
            if "." in val:
                return Node("lit", value=JFloat(float(val)))
            if len(val) > 1 and val.startswith("0"):
                return Node("lit", value=_i32(int(val, 8)))  # Java: a leading 0 means octal
            n = int(val)
            if n > 2**31:
                raise EvalError(f"integer literal {val} is too large")
            return Node("lit", value=n if n < 2**31 else -(2**31))
        if kind == "str":
            return Node("lit", value=_unescape(val[1:-1]))
        if kind == "op" and val == "(":
            node = self.ternary()
            self.take(")")
            return node
        if kind == "name":
            if val in ("true", "false"):
                return Node("lit", value=val == "true")
            if self.peek() == ("op", "("):
                args = self.arguments()
                owner, _, method = val.rpartition(".")
                if owner and method in _METHODS and owner.split(".")[0] not in ("Math", "Integer"):
                    return Node("method", (Node("var", value=owner), *args), method)
                return Node("call", tuple(args), val)
            if "." in val:
                raise EvalError(f"'{val}': field access is not in the supported subset")
            return Node("var", value=val)
        raise EvalError(f"unexpected '{val or 'end of expression'}'")


@lru_cache(maxsize=4096)
def parse(text: str) -> Node:
    """The syntax tree of an expression (cached: the generator reuses expressions a lot)."""
    return _Parser(text).parse()


def variables(text: str) -> list[str]:
    """The property names an expression reads (as VASSAL binds them), in order of appearance."""
    out: list[str] = []

    def walk(n: Node) -> None:
        if n.op == "var" and n.value not in out:
            out.append(n.value)
        for a in n.args:
            walk(a)

    walk(parse(text))
    return out


# --- evaluation -----------------------------------------------------------------------------
@dataclass
class Source:
    """What an expression runs against: a piece's properties and the engine's callbacks.

    props: property name -> text (base values, global properties);
    calcs: calculated property name -> expression (evaluated on demand, as VASSAL does);
    sum_stack / sum_all / random: what the engine would compute from the pieces on the map.
    """

    props: Mapping[str, object] = field(default_factory=dict)
    calcs: Mapping[str, str] = field(default_factory=dict)
    sum_stack: Callable[[str], int] | None = None
    count_stack: Callable[[str], int] | None = None  # pieces of the stack a filter selects
    sum_all: Callable[[str, str], int] | None = None
    random: Callable[[int, int], int] | None = None
    _cache: dict = field(default_factory=dict, repr=False)

    def get(self, name: str) -> str | None:
        """The text of a property (a calculated one is evaluated), None when the piece lacks it."""
        if name in self.props:
            v = self.props[name]
            if callable(v):  # a global the resolution marker sets from its own properties
                v = v()
            return None if v is None else java_text(v)
        if name in self.calcs:
            if name not in self._cache:
                self._cache[name] = None  # a loop reads as empty, as the engine's limiter stops it
                self._cache[name] = trait_value(self.calcs[name], self)
            return self._cache[name]
        return None


_JAVA_NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def trait_value(text: str, source: Source) -> str:
    """A calculated property's value as VASSAL 3.7 makes it (BeanShellExpression.createExpression):
    blank -> "", a lone int -> its text, a lone name (even 'true' or 'false') -> that property's
    text, anything else evaluated by BeanShell."""
    e = text.strip()
    if not e:
        return ""
    if _INT.fullmatch(e):
        try:
            return str(parse_int(e))
        except EvalError:
            pass
    if _JAVA_NAME.fullmatch(e):
        return source.get(e) or ""
    return evaluate(text, source)


def evaluate(text: str, source: Source | None = None) -> str:
    """The text VASSAL gets from an expression (EvalError where VASSAL reports an error)."""
    source = source or Source()
    node = parse(text)
    env = {name: bind(source.get(name[1:-1] if len(name) > 2 and name[0] == name[-1] == "$"
                                 else name)) for name in variables(text)}
    return java_text(_eval(node, env, source))


def _num(v: object) -> bool:
    return isinstance(v, (int, JFloat)) and not isinstance(v, bool)


def _fl(v: object) -> float:
    return v.value if isinstance(v, JFloat) else float(v)


def _kind(v: object) -> str:
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "int"
    if isinstance(v, JFloat):
        return "float"
    return "String"


def _eval(n: Node, env: dict, src: Source) -> object:
    op = n.op
    if op == "lit":
        return n.value
    if op == "var":
        return env[n.value]
    if op == "?:":
        c = _eval(n.args[0], env, src)
        if not isinstance(c, bool):
            raise EvalError(f"the condition of ?: is a {_kind(c)}, not a boolean")
        return _eval(n.args[1] if c else n.args[2], env, src)
    if op in ("&&", "||"):
        a = _eval(n.args[0], env, src)
        if not isinstance(a, bool):
            raise EvalError(f"operator {op} on a {_kind(a)}")
        if (op == "&&" and not a) or (op == "||" and a):
            return a
        b = _eval(n.args[1], env, src)
        if not isinstance(b, bool):
            raise EvalError(f"operator {op} on a {_kind(b)}")
        return b
    if op == "u!":
        a = _eval(n.args[0], env, src)
        if not isinstance(a, bool):
            raise EvalError(f"operator ! on a {_kind(a)}")
        return not a
    if op in ("u-", "u+"):
        a = _eval(n.args[0], env, src)
        if not _num(a):
            raise EvalError(f"unary {op[1]} on a {_kind(a)}")
        if isinstance(a, JFloat):
            return JFloat(-a.value if op == "u-" else a.value)
        return _i32(-a) if op == "u-" else a
    if op == "call":
        return _call(n.value, [_eval(a, env, src) for a in n.args], src)
    if op == "method":
        return _method(n.value, _eval(n.args[0], env, src), [_eval(a, env, src) for a in n.args[1:]])
    a = _eval(n.args[0], env, src)
    b = _eval(n.args[1], env, src)
    return _binary(op, a, b)


def _binary(op: str, a: object, b: object) -> object:
    if op == "+" and (isinstance(a, str) or isinstance(b, str)):
        return java_text(a) + java_text(b)
    if op in ("&", "|"):
        if _kind(a) == _kind(b) == "int":
            return _i32(a & b) if op == "&" else _i32(a | b)
        raise EvalError(f"operator {op} on a {_kind(a)} and a {_kind(b)}")
    if op in _COMPARE:
        return _compare(op, a, b)
    if not (_num(a) and _num(b)):
        raise EvalError(f"operator {op} on a {_kind(a)} and a {_kind(b)}")
    return _arith(op, a, b)


_COMPARE = ("==", "!=", "<", "<=", ">", ">=")


def _compare(op: str, a: object, b: object) -> bool:
    """Comparisons as VASSAL's BeanShell makes them (probed against the engine).

    Numbers compare as numbers and booleans with == and !=; two strings, or a string and a
    value of another type, compare as text (String.compareTo), except that an empty string
    compared with an int counts as 0.
    """
    if _num(a) and _num(b):
        x, y = _fl(a), _fl(b)
    elif isinstance(a, bool) and isinstance(b, bool):
        if op not in ("==", "!="):
            raise EvalError(f"operator {op} on booleans")
        x, y = int(a), int(b)
    elif a == "" and _kind(b) == "int":
        x, y = 0, b
    elif b == "" and _kind(a) == "int":
        x, y = a, 0
    elif isinstance(a, str) or isinstance(b, str) or _kind(a) != _kind(b):
        x, y = java_text(a).encode("utf-16-be"), java_text(b).encode("utf-16-be")
    else:
        raise EvalError(f"cannot compare a {_kind(a)} with a {_kind(b)} using {op}")
    return {"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op]


def _arith(op: str, a: object, b: object) -> object:
    if isinstance(a, JFloat) or isinstance(b, JFloat):
        x, y = _fl(a), _fl(b)
        if op == "/":
            return JFloat(x / y if y else math.copysign(math.inf, x) if x else math.nan)
        if op == "%":
            return JFloat(math.fmod(x, y) if y else math.nan)
        return JFloat({"+": x + y, "-": x - y, "*": x * y}[op])
    if op == "+":
        return _i32(a + b)
    if op == "-":
        return _i32(a - b)
    if op == "*":
        return _i32(a * b)
    if b == 0:
        raise EvalError("ArithmeticException: / by zero")
    q = abs(a) // abs(b)
    q = q if (a >= 0) == (b >= 0) else -q
    return _i32(q) if op == "/" else _i32(a - q * b)


def _ints(name: str, args: list, count: int) -> list[int]:
    if len(args) != count or not all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        raise EvalError(f"{name}({', '.join(_kind(a) for a in args)}): not in the supported subset")
    return args


_METHODS = ("substring", "length")


def _method(name: str, target: object, args: list) -> object:
    """java.lang.String's substring(begin[, end]) and length() (a String only: an int bound from
    a numeric property has neither in Java)."""
    if not isinstance(target, str):
        raise EvalError(f"{name}() on a {_kind(target)}: not a String")
    if name == "length":
        if args:
            raise EvalError("length() takes no arguments")
        return len(target)
    ints = _ints(name, args, len(args)) if args and len(args) <= 2 else None
    if ints is None:
        raise EvalError("substring(begin) or substring(begin, end)")
    begin, end = ints[0], ints[1] if len(ints) == 2 else len(target)
    if not 0 <= begin <= end <= len(target):
        raise EvalError(f"StringIndexOutOfBoundsException: begin {begin}, end {end}, length "
                        f"{len(target)}")
    return target[begin:end]


def _call(name: str, args: list, src: Source) -> object:
    if name == "If":
        if len(args) != 3 or not isinstance(args[0], bool):
            raise EvalError("If(condition, a, b) needs a boolean condition")
        return args[1] if args[0] else args[2]
    if name in ("Math.min", "Math.max"):
        if len(args) != 2 or not all(_num(a) for a in args):
            raise EvalError(f"{name} needs two numbers")
        if any(isinstance(a, JFloat) for a in args):
            f = min if name == "Math.min" else max
            return JFloat(f(_fl(args[0]), _fl(args[1])))
        return min(args) if name == "Math.min" else max(args)
    if name == "Math.abs":
        (a,) = _ints(name, args, 1)
        return _i32(abs(a))
    if name == "Integer.parseInt":
        if len(args) != 1 or not isinstance(args[0], str):
            raise EvalError("Integer.parseInt needs one string")
        return parse_int(args[0])
    if name == "GetProperty":
        if len(args) != 1:
            raise EvalError("GetProperty needs one name")
        return wrap(src.get(java_text(args[0])))
    if name == "SumStack":
        if len(args) != 1 or src.sum_stack is None:
            raise EvalError("SumStack(property) needs a piece in a stack")
        return int(src.sum_stack(java_text(args[0])))
    if name == "CountStack":
        if len(args) != 1 or src.count_stack is None:
            raise EvalError("CountStack(filter) needs a piece in a stack")
        return int(src.count_stack(java_text(args[0])))
    if name == "Sum":
        if len(args) != 2 or src.sum_all is None:
            raise EvalError("Sum(property, filter) needs the pieces of a map")
        return int(src.sum_all(java_text(args[0]), java_text(args[1])))
    if name == "Random":
        lo, hi = (1, _ints(name, args, 1)[0]) if len(args) == 1 else _ints(name, args, 2)
        if src.random is None:
            raise EvalError("Random needs a random source")
        return int(src.random(lo, hi))
    raise EvalError(f"function {name} is not in the supported subset")
