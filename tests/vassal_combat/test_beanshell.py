"""The faithful evaluator: Java/BeanShell semantics as VASSAL applies them, checked against the
real engine's interpreter where Java is installed."""

from __future__ import annotations

import pytest

from builder.vassal_combat import beanshell as bs
from tests.vassal_combat.engine import EngineMissing, ExprScript

PROPS = {"S1": "Mi Nord", "S2": "Mi Nord", "L": "0302", "M": "302", "E": "", "F": "1.5",
         "P": "+5", "N": "-", "T": "true", "H": "16A:0827", "Z": "-0", "D": "1.", "O": "007",
         "A": "abc", "N5": "5"}

# (expression, what VASSAL answers; None: VASSAL reports an error)
KNOWN = [
    ("7 / 2", "3"), ("-7 / 2", "-3"), ("-7 % 3", "-1"), ("7 % -3", "1"), ("1 / 2 * 2", "0"),
    ("2147483647 + 1", "-2147483648"), ("10 / 0", None), ("0302", "194"), ("010 + 1", "9"),
    ("L", "302"), ("L == M", "true"), ('"k" + L', "k302"), ('"k" + H', "k16A:0827"),
    ("O", "7"), ("Z", "0"), ("D", "1.0"), ("F * 2", "3.0"), ("P + 1", "6"), ("N", "-"),
    ("N + 1", "-1"), ("E + 1", "1"), ("Q", ""), ('Q == ""', "true"), ("Q == 1", "false"),
    ('E == 0', "true"), ('"" == 0.0', "false"), ('"05" == 5', "false"), ('"5" == 5', "true"),
    ('"10" < "9"', "true"), ('"-1" > -2', "false"), ('"" > -1', "true"), ("1 == true", "false"),
    ('true == "true"', "true"), ("S1 == S2", "true"), ('"Mi" + " Nord" == S1', "true"),
    ('1 + 2 + "a"', "3a"), ('"a" + 1 + 2', "a12"), ('"a" + (1 + 2)', "a3"), ('"x" + -1', "x-1"),
    ("If(1 < 2, 3, 4)", "3"), ("If(1, 2, 3)", None), ("!1", None), ("true & false", None),
    ("5 & 3", "1"), ("5 | 2", "7"), ('1 > 2 ? "x" : 3', "3"), ("Math.min(E, 3)", None),
    ("Math.max(-1, Math.min(5, 9))", "5"), ("Math.abs(-3)", "3"),
    ('Integer.parseInt("+7")', "7"), ('Integer.parseInt("")', None),
    ('Integer.parseInt("0" + GetProperty("Q"))', "0"), ('Integer.parseInt("0" + GetProperty("L"))',
                                                       "302"),
    ('GetProperty("F")', "1.5"), ('GetProperty("P") + 1', "6"), ('GetProperty("O")', "7"),
    ('"a\\"b"', 'a"b'), ('"a" - 1', None), ("true && 1", None), ("true < false", None),
    ("- 3 - -3", "0"), ("-2147483648 / -1", "-2147483648"), ('"" + 3 / 2', "1"),
]


def _mine(expr: str) -> str | None:
    try:
        return bs.evaluate(expr, bs.Source(props=PROPS))
    except bs.EvalError:
        return None


@pytest.mark.parametrize("expr,want", KNOWN, ids=[e for e, _ in KNOWN])
def test_evaluator_answers_as_vassal(expr, want):
    assert _mine(expr) == want


def test_calculated_properties_are_evaluated_on_demand_with_engine_callbacks():
    src = bs.Source(props={"LocationName": "0302", "crt@302": "5"},
                    calcs={"Code": 'Integer.parseInt("0" + GetProperty("crt@" + LocationName))',
                           "Twice": "Code * 2", "Total": 'SumStack("Attack") + Sum("A", "{true}")',
                           "Die": "Random(6)"},
                    sum_stack=lambda p: 7 if p == "Attack" else 0, sum_all=lambda p, f: 3,
                    random=lambda lo, hi: hi)
    assert src.get("Twice") == "10"
    assert src.get("Total") == "10"
    assert src.get("Die") == "6"
    assert src.get("Nothing") is None


def test_variables_are_read_once_in_order():
    assert bs.variables("a + b * a - $c$") == ["a", "b", "$c$"]
    with pytest.raises(bs.EvalError):
        bs.parse("a +")
    # a String's substring and length (each hex's line-of-sight view); nothing else
    assert bs.evaluate('x.length()', bs.Source(props={"x": "abc"})) == "3"
    assert bs.evaluate('x.substring(1, 2) == "b"', bs.Source(props={"x": "abc"})) == "true"
    with pytest.raises(bs.EvalError):
        bs.evaluate('x.trim()', bs.Source(props={"x": "abc"}))
    with pytest.raises(bs.EvalError):  # a numeric property binds as an int: no String methods
        bs.evaluate('x.length()', bs.Source(props={"x": "123"}))
    with pytest.raises(bs.EvalError):
        bs.evaluate('x.substring(2, 9)', bs.Source(props={"x": "abc"}))


@pytest.mark.engine
def test_engine_agrees_on_every_probe():
    try:
        script = ExprScript()
        script.case(PROPS)
        for expr, _ in KNOWN:
            script.ask_expr(expr)
        answers = script.run()
    except EngineMissing as exc:
        pytest.skip(str(exc))
    bad = [(expr, ok, text, want) for (expr, want), (ok, text) in zip(KNOWN, answers)
           if (want is None) == ok or (ok and text != want)]
    assert not bad, bad


def test_a_calculated_property_of_one_name_is_that_property_as_vassal_37_reads_it():
    """VASSAL 3.7 makes a lone name (even 'false') a property lookup and a lone number a number,
    without BeanShell: a marker whose 'no rule forbids it' was 'false' read as '' and every
    expression using it failed in the engine. Traits write a constant truth in parentheses."""
    from builder.vassal.traits import CalculatedProperty, trait_expression

    src = bs.Source(props={"Other": "7"}, calcs={"Banned": "false", "Copy": "Other", "N": "0302",
                                                 "Written": trait_expression("false")})
    assert src.get("Banned") == ""
    assert src.get("Copy") == "7"
    assert src.get("N") == "302"
    assert src.get("Written") == "false"
    assert CalculatedProperty("Banned", "false").fields()[1] == "(false)"
