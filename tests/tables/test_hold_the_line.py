"""The hold-the-line fixture, a small game written from the README alone to try issue 40's keys:
each case worked by hand from its own rules (tests/fixtures/hold-the-line/rules.md)."""

from __future__ import annotations

import pytest

from builder.tables import api
from tests.tables.games import fixture


def g():
    return fixture("hold-the-line")


def crt(roll=None, **inputs):
    return api.calculate(g(), "crt", inputs, roll)


def test_each_unit_halved_in_a_stone_building_3_3():
    # 3 and 3 against 1 in the Mill (a stone building): each unit halved and rounded down, 1 + 1
    # = 2, odds 2:1; the stone building adds one to the roll (3.5): 3 + 1 = 4, AR on 2:1.
    # Halving the total (6 / 2 = 3) would have read 3:1, where a 4 is no effect.
    c = crt(3, attack="3,3", defence=1, hex="0503", turn=2)
    assert (c.column, c.result) == ("2:1", "AR")
    assert "3 / 2 = 1.5 -> 1, 3 / 2 = 1.5 -> 1; together 2" in " ".join(c.steps)


def test_odds_past_the_end_count_before_the_shifts_3_4():
    # 12 against 2 in woods: 6:1, two columns past 4:1; woods one left: 5:1, read on 4:1
    # (ends after shifts). Capped first it would have been 4:1 then 3:1.
    assert crt(attack=12, defence=2, hex="0303", turn=2).column == "4:1"
    # 8 against 2 in woods: 4:1, one left: 3:1
    assert crt(attack=8, defence=2, hex="0303", turn=2).column == "3:1"
    # 1 against 3: 1:3 is below 1:2, not allowed (3.4) - unless the surprise on turn 1 brings
    # it back onto the table (3.7)
    assert crt(attack=1, defence=3, hex="0703", turn=2).result == "not allowed"
    assert crt(attack=1, defence=3, hex="0703", turn=1).column == "1:2"


def test_night_surprise_engineers_and_the_required_turn():
    night = crt(attack=6, defence=2, hex="0703", turn=4)  # turn 4 is the night turn
    assert night.result == "not allowed" and "3.6" in night.outcome.meaning
    with pytest.raises(api.CalcError, match="missing input turn"):
        crt(attack=6, defence=2, hex="0703")
    # the surprise never applies into woods (a 'not' condition): 6:2 = 3:1, woods one left
    assert crt(attack=6, defence=2, hex="0303", turn=1).column == "2:1"
    # engineers with charges against the Mill: 8 halved per unit... given as one unit: 4:2 =
    # 2:1, one column right: 3:1; without engineers, 2:1
    assert crt(attack=8, defence=2, hex="0503", turn=2, engineers=True).column == "3:1"
    assert crt(attack=8, defence=2, hex="0503", turn=2).column == "2:1"
    # engineers against a clear hex change nothing, and the answer says so
    c = crt(attack=8, defence=2, hex="0703", turn=2, engineers=True)
    assert "engineers" in [u["input"] for u in c.unused]


def test_the_stone_building_modifier_from_the_hex_or_its_terrain():
    by_hex = crt(3, attack=6, defence=2, hex="0503", turn=2)
    by_terrain = crt(3, attack=6, defence=2, terrain="stone-building", turn=2)
    assert by_hex.result == by_terrain.result and by_hex.column == by_terrain.column


def test_victory_with_half_points_5_0_to_5_4():
    def v(**inputs):
        return api.calculate(g(), "victory", inputs)

    # both objectives (+3), one squad and one team lost (-1.5): 1.5, read as 1: Red victory
    c = v(objectives="0403,0503", **{"blue-losses-squad": 1, "blue-losses-team": 1})
    assert c.result == "Red victory" and "total: +1.5 VP" in c.steps
    # both objectives and a team lost: 2.5, read as 2: a draw
    assert v(objectives="0403,0503", **{"blue-losses-team": 1}).result == "Draw"
    # two Red units off the west edge with the ford blown: +2; not blown: nothing
    assert v(objectives="0403,0503", **{"red-exited": 2, "ford-blown": True}).result == \
        "Blue victory"
    assert v(objectives="0403,0503", **{"red-exited": 2}).result == "Draw"
    # three Red units on the west bank: a breakthrough only if Blue holds neither objective
    assert v(objectives="none", **{"red-west": 3}).result == "Red breakthrough"
    assert v(**{"red-west": 3, "objectives": "0403"}).result == "Red victory"
    # not given, the objectives cannot decide the proviso, and the answer says so
    c = v(**{"red-west": 3})
    assert c.result == "Red victory" and any("(not given)" in s for s in c.steps)


def test_scenario_lookups_and_stacking():
    t2 = api.calculate(g(), "turn", {"turn": 2})
    assert t2.result == "2 arrive" and "Red artillery: 1" in t2.steps
    t4 = api.calculate(g(), "turn", {"turn": 4})
    assert "a night turn" in t4.steps[0] and "Blue replacements: 1" in t4.steps
    t5 = api.calculate(g(), "turn", {"turn": 5})
    assert any("leaves at the end of the turn" in s for s in t5.steps)
    c = api.calculate(g(), "setup", {"hex": "0403"})
    assert c.result == "2 pieces"
    assert api.calculate(g(), "stacking", {"units": 4}).result == "not allowed"
    assert api.calculate(g(), "stacking", {"units": 3}).result == "allowed"
