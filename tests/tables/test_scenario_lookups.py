"""Scenario lookups (issue 40, item 2): where a unit starts, what starts in a place, what a turn
brings, answered from the scenario data and checked against the seed texts by hand."""

from __future__ import annotations

from builder.tables import api
from tests.tables.games import game


def ask(name: str, calc_id: str, **inputs):
    return api.calculate(game(name), calc_id, inputs)


def said(c) -> str:
    return "\n".join(c.steps)


# --- Battle of the Scheldt (000) -------------------------------------------------------------
def test_scheldt_reinforcements_by_turn_11_2():
    # 11.2: turn three 8-9-5 (59), 6-6-7 (2 AG), 6-6-7 (1 AG) via hex 1517
    c = ask("scheldt", "turn", turn=3)
    text = said(c)
    for unit in ("59 infantry division (8-9-5, German) enters at 1517",
                 "2 AG assault gun brigade (6-6-7, German) enters at 1517",
                 "1 AG assault gun brigade (6-6-7, German) enters at 1517"):
        assert unit in text
    assert c.result == "3 arrive"
    # turn six: the three FJ regiments, 1 HG and 3, 4 AG at 1117, 1217 ... 1617
    c = ask("scheldt", "turn", turn=6)
    assert c.result == "6 arrive"
    assert "1/1 FJ paratroop regiment (3-6-4, German) enters at 1117 or 1217 or 1317 or 1417 " \
           "or 1517 or 1617" in said(c)
    # turn seven, Allied: the US 104th Division's regiments at an Antwerp hex
    assert "413/104 infantry regiment (5-6-6, Allied) enters" in said(ask("scheldt", "turn", turn=7))


def test_scheldt_rebuilds_and_support_fire_draws():
    # 11.0: German 1 rebuild on turns 1-5; Allied 2 on turns 1-10 and 1 on turns 11-20.
    # 14.0: on turn 1 the Allied player draws 11 support fire markers, the German player six.
    t1 = said(ask("scheldt", "turn", turn=1))
    assert "German rebuilds: 1" in t1 and "Allied rebuilds: 2" in t1
    assert "Allied support fire pool: draw 11" in t1 and "German support fire pool: draw 6" in t1
    t6 = said(ask("scheldt", "turn", turn=6))
    assert "German rebuilds" not in t6 and "Allied rebuilds: 2" in t6
    assert "Allied rebuilds: 1" in said(ask("scheldt", "turn", turn=11))


def test_scheldt_155th_withdrawn_13_1():
    # 13.1: the 155th regiment starts on the map (3142, 18.0) and is withdrawn at the end of
    # Turn 8 (or earlier when depleted); it returns with the Beveland Flank Assault (16.1)
    c = ask("scheldt", "start", unit="al-155-52")
    assert c.result == "3142"
    text = said(c)
    assert "leaves at the end of turn 8" in text and "may come back" in text
    assert "155/52 infantry regiment (6-5-6, Allied) leaves at the end of the turn" in \
        said(ask("scheldt", "turn", turn=8))


def test_scheldt_52nd_division_listed_from_turn_12_16_1():
    # 16.1: the South Beveland Flank Assault (52nd Division) comes "Turn 12 or later"; the
    # Walcheren assault (16.2) has no earliest turn, so it is listed on every turn
    t3, t12 = said(ask("scheldt", "turn", turn=3)), said(ask("scheldt", "turn", turn=12))
    assert "156/52" not in t3 and "155/52 infantry regiment (6-5-6, Allied) may enter" not in t3
    assert "156/52 infantry regiment (5-4-6, Allied), 157/52 infantry regiment (5-4-6, Allied) " \
           "may enter: South Beveland Flank Assault (16.1)" in t12
    assert "155/52 infantry regiment (6-5-6, Allied) may enter" in t12
    assert "146/49 infantry brigade (5-4-6, Allied) may enter" in t3


def test_earliest_is_for_conditional_arrivals_only():
    import pytest
    from pydantic import ValidationError

    from builder.model.scenario import Reinforcement

    with pytest.raises(ValidationError, match="'earliest' is for a conditional arrival"):
        Reinforcement(unit="x", turn=3, earliest=12)


def test_scheldt_setup_18_0():
    # 18.0 German set-up: 3-4-5 (1020) in Goes (1832), 3-4-5 (1019) in Flushing (2042)
    c = ask("scheldt", "setup", hex="1832")
    assert c.result == "1 piece" and "1020 infantry regiment (3-4-5, German): 1832 (Goes)" in said(c)
    assert "1019 infantry regiment" in said(ask("scheldt", "setup", hex="2042"))
    # the Allied units 'on or adjacent to 3320 or 3321' are named for 3320 with their choice
    c = ask("scheldt", "setup", hex="3320")
    assert "3/1 infantry brigade (5-4-6, Allied): 3320 (Antwerp) or 3321, or within 1 hex of " \
           "them" in said(c)
    assert ask("scheldt", "setup", hex="1020").result == "nothing"
    # 11.2: the 711th division enters on turn one via 2717
    c = ask("scheldt", "start", unit="de-711")
    assert c.result == "turn 1" and "enters on turn 1 at 2717" in said(c)


# --- Vimy Ridge (003) ------------------------------------------------------------------------
def test_vimy_artillery_track_and_night_replacements():
    # 17.1: on the second game turn the Artillery Track reads 8/5
    t2 = said(ask("vimy-ridge", "turn", turn=2))
    assert "Allied bombardment markers: 8" in t2 and "German bombardment markers: 5" in t2
    # 11.3, 11.6: two replacements each side on each night (moon) turn, none by day
    night = next(d.number for d in game("vimy-ridge").info.turns.detail if d.night)
    text = said(ask("vimy-ridge", "turn", turn=night))
    assert "a night turn" in text
    assert "replacements: 2" in text and text.count("replacements: 2") == 2
    assert "replacements" not in t2
    # 11.1: neither side receives any reinforcements
    assert all(ask("vimy-ridge", "turn", turn=n).result == "no arrivals" for n in range(1, 12))


# --- Eben-Emael (001) and Operation Veritable (004) -----------------------------------------
def test_eben_emael_one_special_action_a_turn():
    # the scenarios' footnotes: draw one Special Action counter per turn
    c = ask("eben-emael", "turn", scenario="the-landing", turn=5)
    assert "Special Action counters: draw 1" in said(c)


def test_veritable_reserves_wait_in_their_box_13_1():
    # 13.1: SR units set up in their Reserve Units box and enter from Game Turn 2
    c = ask("operation-veritable", "start", unit="al-1wx")
    assert "waiting in the Allied Reserves box" in said(c) and c.result == "reinforcement"
    c = ask("operation-veritable", "setup", box="allied-reserves")
    assert "1Wx infantry brigade (5-5-5, Allied) waits here to enter" in said(c)


def test_the_whole_setup_when_no_place_is_named():
    c = ask("scheldt", "setup")
    assert c.result.endswith("pieces") and len(c.steps) == len(game("scheldt").scenarios[0].setup)
