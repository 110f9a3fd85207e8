"""Results a condition of the attack changes, and limits players check (issue 40, item 4), worked
by hand from the seeds."""

from __future__ import annotations

from builder.tables import api
from tests.tables.games import game


def test_scheldt_16_3_a_landed_unit_is_lost_on_any_result_against_the_attacker():
    # 6 against 4 in a coastal hex during a beach assault: +2 is read on the Coastal row's
    # '+2, +3' band, its fourth column; a roll of 3 gives A3 there, a 6 gives (A). With a unit
    # landed in the German unit's hex, either also eliminates that landed unit (16.3).
    g = game("scheldt")
    base = {"attack": 6, "defence": 4, "terrain": "coastal", "beach-assault-16-0": True}
    assert api.calculate(g, "crt", base, roll=3).result == "A3"
    c = api.calculate(g, "crt", {**base, "landed": True}, roll=3)
    assert c.result == "A3, landed unit eliminated" and "16.3" in c.outcome.meaning
    assert api.calculate(g, "crt", {**base, "landed": True}, roll=6).result == \
        "(A), landed unit eliminated"
    # a result against the defender is not changed: +16 reads the Coastal row's last band
    # ('+10', column 8), where a 1 gives D2
    c = api.calculate(g, "crt", {**base, "attack": 20, "landed": True}, roll=1)
    assert c.result == "D2"


def test_eben_emael_3_6_eighty_strength_points_in_a_sector():
    g = game("eben-emael")
    c = api.calculate(g, "stacking", {"strengths": "20,20,15,30"})
    assert c.result == "not allowed" and "5 over the limit" in c.outcome.meaning
    assert "3.6" in c.outcome.meaning
    assert api.calculate(g, "stacking", {"strengths": "20,20,40"}).result == "allowed"


def test_scheldt_13_0_breskens_pocket_frozen_on_turns_1_to_3():
    # 13.0: units in the Breskens Pocket are frozen in place during the first three turns (no
    # movement or combat); from turn 4 they fight normally
    g = game("scheldt")
    inside = "2842"
    for turn in (1, 2, 3):
        c = api.calculate(g, "crt", {"attack": 6, "defence": 3, "hex": inside, "turn": turn})
        assert c.result == "not allowed" and "13.0" in c.outcome.meaning
    assert api.calculate(g, "crt", {"attack": 6, "defence": 3, "hex": inside,
                                    "turn": 4}).result != "not allowed"


def test_veritable_stacking_two_units():
    g = game("operation-veritable")
    assert api.calculate(g, "stacking", {"units": 2}).result == "allowed"
    assert api.calculate(g, "stacking", {"units": 3}).result == "not allowed"
