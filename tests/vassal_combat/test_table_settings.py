"""Table settings in the module (issue 38 with issue 40's keys), worked by hand from
tests/fixtures/hold-the-line/rules.md: its odds CRT halves each attacking unit in a stone
building (divide = per-unit, 3.3), counts odds past its ends before the shifts (ends =
after-shifts, 3.4) and adds one to the roll against a stone building, read from the hex (3.5).
Each battle is resolved by the module's expressions (the faithful evaluator) on the pieces a
player would stack, and by the rules assistant."""

from __future__ import annotations

import pytest
from repo_paths import ROOT

from builder.load import load_game
from builder.tables import api
from builder.vassal_combat import by_hand, calculators
from builder.vassal_combat.simulate import Battle, answer

FOLDER = ROOT / "tests" / "fixtures" / "hold-the-line"


@pytest.fixture(scope="module")
def crt():
    game = load_game(FOLDER)
    return game, next(c for c in calculators(game) if c.table_id == "crt")


def _stack(*strengths: int) -> dict[str, int]:
    """An attacking stack of units of these printed attack strengths, as the engine counts it."""
    out = {"Attack": sum(strengths)}
    for v in (2, 3, 4, 5, 6):
        out["{Attack==" + str(v) + "}"] = strengths.count(v)
    return out


def _module(c, at: str, defence: int, attackers: list, die: int, turn: int = 2) -> dict:
    b = Battle(at=at, stack={"Defense": defence}, attackers=attackers,
               inputs={"Turn": str(turn)}, dice={"CombatDie": die})
    return answer(c, b, ["CombatColumnLabel", "CombatResult", "CombatDivided", "CombatDrm",
                         "CombatLine"])


def test_nothing_of_the_table_is_left_to_the_player(crt):
    game, c = crt
    assert by_hand(game) == [] and c.by_hand == [] and "by hand" not in c.marker


def test_each_unit_in_a_stack_halved_on_its_own(crt):
    game, c = crt
    # two machine-gun teams of 3 stacked in 0603 attack the Mill (0503, a stone building) held
    # by 1: each halved and rounded down, 1 + 1 = 2 (not 6 / 2 = 3), odds 2:1; the stone
    # building adds one (3.5): die 3 + 1 = 4, AR on 2:1 (3:1 would have read no effect)
    got = _module(c, "0503", 1, [("0603", _stack(3, 3))], die=3)
    assert (got["CombatColumnLabel"], got["CombatResult"]) == ("2:1", "AR")
    assert (got["CombatDivided"], got["CombatDrm"]) == ("2", "1")
    assert "each unit / 2 (Stone building) = 2" in got["CombatLine"]
    assert "Defender in a stone building +1" in got["CombatLine"]
    calc = api.calculate(game, "crt", {"attack": "3,3", "defence": 1, "hex": "0503", "turn": 2},
                         roll=3)
    assert (calc.column, calc.result) == ("2:1", "AR")
    # a squad of 4 and a team of 3 in two hexes: 2 + 1 = 3 against 1, 3:1, die 2 + 1 = 3: DR
    got = _module(c, "0503", 1, [("0603", _stack(4)), ("0602", _stack(3))], die=2)
    assert (got["CombatColumnLabel"], got["CombatResult"]) == ("3:1", "DR")
    calc = api.calculate(game, "crt", {"attack": "4,3", "defence": 1, "hex": "0503", "turn": 2,
                                       "attacker_hexes": "0603,0602"}, roll=2)
    assert (calc.column, calc.result) == ("3:1", "DR")


def test_odds_past_the_ends_count_before_the_shifts(crt):
    game, c = crt
    # two armour platoons of 6 in 0203 against 2 in the woods of 0303: 12:2 = 6:1, two columns
    # past 4:1; woods one left: 5:1, read on the last column 4:1 (capped first: 3:1)
    got = _module(c, "0303", 2, [("0203", _stack(6, 6))], die=1)
    assert got["CombatColumnLabel"] == "4:1"
    assert api.calculate(game, "crt", {"attack": 12, "defence": 2, "hex": "0303", "turn": 2},
                         roll=1).column == "4:1"
    # a depleted squad of 2 against 6 in the clear (0703): 1:3, below 1:2, not allowed (3.4);
    # on turn 1 the surprise shifts it one right onto 1:2 (3.7)
    assert _module(c, "0703", 6, [("0603", _stack(2))], die=1)["CombatResult"] == "not allowed"
    first = _module(c, "0703", 6, [("0603", _stack(2))], die=1, turn=1)
    assert (first["CombatColumnLabel"], first["CombatResult"]) == ("1:2", "—")
