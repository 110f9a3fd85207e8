"""A result a rule replaces ('Suppressed becomes no effect') is said in the chat where the
result is read, in builder.words' sentence, never among the roll modifiers or shifts; a roll the
rule does not change says nothing of it. Through the faithful evaluator on every kind of table
with such a rule, and the same lines through VASSAL 3.7.26's own expression code."""

from __future__ import annotations

from functools import cache

import pytest
from repo_paths import ROOT

from builder import words
from builder.load import find_game, load_game
from builder.tables import api
from builder.vassal_combat import calculators
from builder.vassal_combat.calculator import factor_property
from builder.vassal_combat.simulate import Battle, marker_source, report
from tests.vassal_combat.engine import EngineMissing, ExprScript, compiled


@cache
def _game(where: str):
    return load_game(find_game(where))


def _calc(where: str, table_id: str):
    return next(c for c in calculators(_game(where)) if c.table_id == table_id)


def _said(where: str, table_id: str, rule_id: str, read: str, given: str) -> str:
    rule = next(r for r in _game(where).table_by_id[table_id].rules if r.id == rule_id)
    return words.replacement(rule, read, given)


EASTERN = str(ROOT / "tests" / "fixtures" / "eastern-front")
SOVIET = {"CombatFirer_side": "soviet", "CombatFlag_observed": 1}


def _landed(die: int, landed: int) -> Battle:
    """scheldt: an Allied 2 against a German 4 in the clear, turn 5."""
    g = _game("scheldt")
    return Battle(at="2030", stack={factor_property(g, "defence"): 4},
                  attackers=[("2130", {factor_property(g, "attack"): 2})],
                  inputs={"Turn": "5", "CombatFlag_landed": landed}, dice={"CombatDie": die})


def _air(surges: int, die: int) -> Battle:
    return Battle(at="", inputs={"CombatIn_surges": surges, "Turn": "3"}, dice={"CombatDie": die})


def test_modified_roll_says_the_replacement_at_the_roll():
    """eastern-front's barrage (11.1): Soviet guns turn a Suppressed (die 3) into no effect."""
    c = _calc(EASTERN, "barrage")
    said = _said(EASTERN, "barrage", "soviet-guns", "Suppressed", "-")
    assert said == "Soviet guns firing: Suppressed becomes no effect"
    line = report(c, Battle(at="0505", inputs=SOVIET, dice={"CombatDie1": 3}))
    assert line == f"Barrage at 0505: modifier +0; die 3: - ({said}) -> - (no effect)"
    line = report(c, Battle(at="0505", inputs=SOVIET, dice={"CombatDie1": 1}))
    assert line == "Barrage at 0505: modifier +0; die 1: Hit -> Hit"
    assert api.calculate(_game(EASTERN), "barrage", {"firer_side": "soviet", "observed": True,
                                                     "hex": "0505"}, roll=3).result == "-"


def test_differential_says_the_replacement_at_the_result_not_among_the_shifts():
    """scheldt's CRT (16.3): a unit landed in the defender's hex is lost with any result
    against the attacker; die 5 on column 4 reads (A)."""
    c = _calc("scheldt", "crt")
    said = _said("scheldt", "crt", "landed-unit-lost", "(A)", "(A), landed unit eliminated")
    assert said.endswith("(A) becomes “(A), landed unit eliminated” (16.3)")
    line = report(c, _landed(5, 1))
    head = "Integrated Combat Results Table: attack 2 vs 4, Clear row, -2 -> column 4 (-2 on Clear)"
    assert line.startswith(f"{head}, die 5: (A), landed unit eliminated ({said}) (Attacker")
    assert line.count("landed in the defender") == 1  # not also listed before the column
    assert report(c, _landed(5, 0)).startswith(f"{head}, die 5: (A) (Attacker depleted")
    # die 1 reads no effect: the rule holds but changes nothing, and the line says nothing of it
    assert report(c, _landed(1, 1)) == f"{head}, die 1: — (No effect)"
    calc = api.calculate(_game("scheldt"), "crt", {"attack": 2, "defence": 4, "hex": "2030",
                                                   "turn": 5, "landed": True}, roll=5)
    assert calc.result == "(A), landed unit eliminated"


def test_lookup_says_the_replacement_at_the_result():
    """operation-veritable's Air Support (5.1): after two Luftwaffe markers a 5 is no support."""
    c = _calc("operation-veritable", "air-support")
    said = _said("operation-veritable", "air-support", "surges-spent",
                 "2 RAF + Luftwaffe surge", "0")
    assert said.endswith("“2 RAF + Luftwaffe surge” becomes 0 (5.1)")
    assert report(c, _air(2, 5)).endswith(f" 2: 0 ({said})")
    assert "becomes" not in report(c, _air(0, 5))


def test_the_engine_says_a_replaced_result_as_the_evaluator(request):
    """The three lines above, evaluated by VASSAL 3.7.26's expression code (ExprCheck)."""
    request.applymarker(pytest.mark.engine)
    try:
        compiled()
    except EngineMissing as exc:
        pytest.skip(str(exc))
    cases = [(_calc(EASTERN, "barrage"), Battle(at="0505", inputs=SOVIET,
                                                dice={"CombatDie1": 3})),
             (_calc("scheldt", "crt"), _landed(5, 1)),
             (_calc("operation-veritable", "air-support"), _air(2, 5))]
    script, asked = ExprScript(), []
    for c, battle in cases:
        script.reset()
        for name, e in c.calcs().items():
            script.calc(name, e)
        script.globals(c.data)
        src = marker_source(c, battle)
        script.case({**{k: (v() if callable(v) else v) for k, v in src.props.items()
                        if k not in c.data},
                     **{n: src.get(n) for n in c.engine if n in c.calcs()}})
        asked.append((c, battle, script.ask(c.line)))
    answers = script.run()
    for c, battle, i in asked:
        ok, line = answers[i]
        want = marker_source(c, battle).get(c.line)
        assert ok and line == want and "becomes" in line, (c.table_id, line, want)
