"""Issue 40 in the module: a flag the player sets on a combat marker that changes nothing in
this combat (its rule's other conditions do not hold) is named in the chat line, with why, in
the sentence builder calc writes (builder.words.unused); a flag a rule forbids here is refused
with its rule number, as calc refuses it. Through the faithful evaluator, and the same lines
through VASSAL 3.7.26's expression code (ExprCheck); a played refusal is in test_engine_game."""

from __future__ import annotations

from functools import cache

import pytest
from repo_paths import ROOT

from builder.load import find_game, load_game
from builder.tables import api
from builder.vassal_combat import calculators
from builder.vassal_combat.simulate import Battle, marker_source, report
from tests.vassal_combat.engine import EngineMissing, ExprScript, compiled

HOLD = str(ROOT / "tests" / "fixtures" / "hold-the-line")
EASTERN = str(ROOT / "tests" / "fixtures" / "eastern-front")


@cache
def _game(where: str):
    return load_game(find_game(where))


def _calc(where: str, table_id: str):
    return next(c for c in calculators(_game(where)) if c.table_id == table_id)


def _stack(*strengths: int) -> dict[str, int]:
    """hold-the-line: an attacking stack of these printed strengths, as the engine counts it."""
    out = {"Attack": sum(strengths)}
    for v in (2, 3, 4, 5, 6):
        out["{Attack==" + str(v) + "}"] = strengths.count(v)
    return out


def _hold(at: str, engineers: int) -> Battle:
    return Battle(at=at, stack={"Defense": 2}, attackers=[("0603", _stack(6))],
                  inputs={"Turn": "2", "CombatFlag_engineers": engineers},
                  dice={"CombatDie": 3})


def _calc_unused(where: str, table_id: str, inputs: dict, name: str) -> list[str]:
    """What calc says of the input name as changing nothing."""
    answer = api.calculate(_game(where), table_id, inputs, roll=3)
    return [u["text"] for u in answer.unused if u["input"] == name]


def test_engineers_against_a_clear_hex_are_named_as_changing_nothing():
    """hold-the-line 3.8: demolition charges count only against a stone building. In the clear
    (0703) the chat says so in calc's sentence; against the Mill (0503) they shift the odds and
    the line names the rule, not an unused flag; unset, nothing is said."""
    c = _calc(HOLD, "crt")
    said = _calc_unused(HOLD, "crt", {"attack": 6, "defence": 2, "hex": "0703", "turn": 2,
                                      "engineers": True}, "engineers")
    assert said == [("Engineers attack with demolition charges: not applied, only when the "
                     "defender is in a Stone building hex (3.8)")]
    line = report(c, _hold("0703", 1))
    assert line == ("Combat Results Table: attack 6 vs 2, odds 6:2 -> column 3:1, die 3: DR "
                    f"(defender retreats); {said[0]}")
    assert report(c, _hold("0703", 0)) == line.split("; ")[0]
    mill = report(c, _hold("0503", 1))
    assert "not applied" not in mill and "Engineers' demolition charges" in mill
    assert _calc_unused(HOLD, "crt", {"attack": 6, "defence": 2, "hex": "0503", "turn": 2,
                                      "engineers": True}, "engineers") == []


def test_a_flag_inside_all_names_what_does_not_hold():
    """eastern-front's assault (10.2): engineers count only against a fortification: the
    sentence comes from the 'all' part of the condition, as calc says it."""
    c = _calc(EASTERN, "assault")
    t = _game(EASTERN).table_by_id["assault"]
    rule = next(r for r in t.rules if r.when and r.when.all)
    assert any(n.flag == "engineers" for n in rule.when.walk())
    at = "0505"  # clear
    b = Battle(at=at, stack={"Defense": 2}, attackers=[("0605", {"Attack": 6})],
               inputs={"Turn": "2", "CombatFlag_engineers": 1}, dice={"CombatDie": 3})
    src = marker_source(c, b)
    unused = src.get("CombatUnused")
    assert unused.startswith("; Engineers with the attack (10.2): "), unused
    assert "Fortification" in unused
    assert report(c, b).endswith(unused)


def test_gas_after_the_first_turn_is_refused_as_calc_refuses_it():
    """vimy-ridge 17.6: gas on turn 2 is not allowed, with the rule number, in calc's words;
    on turn 1 it is the -2 and no unused flag is said."""
    c = _calc("vimy-ridge", "bombardment")
    turns = next(i for i in c.inputs if i.prop == "Turn").choices
    calc = api.calculate(_game("vimy-ridge"), "bombardment", {"gas": True, "turn": 2}).to_dict()
    gas = {"CombatFlag_gas": 1, "CombatMarkers": 1}
    line = report(c, Battle(at="1220", inputs={"Turn": turns[1], **gas},
                            dice={"CombatDie1": 3, "CombatDie2": 3}))
    assert calc["result"] == "not allowed" and "(17.6" in calc["meaning"]
    assert line == f"World War One Bombardment Results Table at 1220: not allowed: {calc['meaning']}"
    first = report(c, Battle(at="1220", inputs={"Turn": turns[0], **gas},
                             dice={"CombatDie1": 3, "CombatDie2": 3}))
    assert "-2 to the roll" in first and "not applied" not in first


def test_the_engine_names_an_unused_flag_as_the_evaluator(request):
    request.applymarker(pytest.mark.engine)
    try:
        compiled()
    except EngineMissing as exc:
        pytest.skip(str(exc))
    c = _calc(HOLD, "crt")
    script = ExprScript()
    for name, e in c.calcs().items():
        script.calc(name, e)
    script.globals(c.data)
    asked = []
    for at, flag in (("0703", 1), ("0703", 0), ("0503", 1)):
        src = marker_source(c, _hold(at, flag))
        script.case({**{k: (v() if callable(v) else v) for k, v in src.props.items()
                        if k not in c.data},
                     **{n: src.get(n) for n in c.engine if n in c.calcs()}})
        asked.append((src, script.ask("CombatUnused"), script.ask(c.line)))
    answers = script.run()
    for src, i, j in asked:
        assert answers[i] == (True, src.get("CombatUnused"))
        assert answers[j] == (True, src.get(c.line))
    assert "not applied, only when the defender is in a Stone building" in answers[asked[0][1]][1]
    assert answers[asked[1][1]][1] == "" and answers[asked[2][1]][1] == ""
