"""Victory as data (issue 40, item 3): `builder calc GAME victory` works the standing out from the
scenario's victory counts, each case worked by hand from the seed texts."""

from __future__ import annotations

import pytest

from builder.tables import api
from tests.tables.games import game


def victory(name: str, **inputs):
    return api.calculate(game(name), "victory", {k.replace("_", "-"): v for k, v in inputs.items()})


# --- Operation Veritable 14.0 (004): net = Allied VPs minus German VPs; 1 or less German, 2-4
# draw, 5 or more Allied; 12.1.2's half points, a net with a half read rounded down ------------
@pytest.mark.parametrize("inputs, net, level", [
    # Cleve +1, Goch +1, one German SR committed +1, two Allied SR uncommitted with the road
    # supply line +4, three Allied units eliminated -3, one out of supply -1/2: 3.5 -> 3, draw
    ({"cleve_goch": "1304,1510", "german_reserves_committed": 1, "allied_reserves_uncommitted": 2,
      "road_supply": "yes", "allied_eliminated": 3, "out_of_supply": 1}, "+3.5 VP", "Draw"),
    # the same without the supply line: the +4 is not scored: -0.5 -> -1, German victory
    ({"cleve_goch": "1304,1510", "german_reserves_committed": 1, "allied_reserves_uncommitted": 2,
      "allied_eliminated": 3, "out_of_supply": 1}, "-0.5 VP", "German victory"),
    # 1.5 (Cleve +1, one exit +1 with the supply line, one out of supply -1/2): 1, German victory
    ({"cleve_goch": "1304", "exited": 1, "road_supply": "yes", "out_of_supply": 1}, "+1.5 VP",
     "German victory"),
    # 4.5: Cleve and Goch +2, three exits +3 with the supply line, one out of supply: 4, draw
    ({"cleve_goch": "1304,1510", "exited": 3, "road_supply": "yes", "out_of_supply": 1},
     "+4.5 VP", "Draw"),
    # 5: Cleve, Goch, three German reserves committed: a clear Allied victory
    ({"cleve_goch": "1304,1510", "german_reserves_committed": 3}, "+5 VP", "Clear Allied victory"),
])
def test_veritable_14_0(inputs, net, level):
    c = victory("operation-veritable", **inputs)
    assert c.result.startswith(level)
    assert f"total: {net}" in c.steps


def test_veritable_half_points_are_rounded_down_before_the_levels():
    c = victory("operation-veritable", cleve_goch="1304,1510", german_reserves_committed=1,
                allied_reserves_uncommitted=2, road_supply="yes", allied_eliminated=3,
                out_of_supply=1)
    assert "3.5 VP rounded down: 3" in c.steps


# --- Vimy Ridge 12.1, 12.2 (003) -----------------------------------------------------------
def test_vimy_two_vp_win_and_fewer_lose():
    # every peak (1 VP) and Petit Vimy's supply hex (1 VP): 2 VP, a Canadian victory
    c = victory("vimy-ridge", peaks=13, petit_vimy_supply="yes")
    assert c.result == "Canadian (Allied) victory"
    # twelve of the thirteen peaks score nothing (each and every one, 12.1)
    c = victory("vimy-ridge", peaks=12, petit_vimy_supply="yes")
    assert c.result == "German victory"
    # three Canadian units of one division on the easternmost hexes: 1 VP; two do not score
    assert victory("vimy-ridge", east_edge=3, petit_vimy_supply="yes").result == \
        "Canadian (Allied) victory"
    assert victory("vimy-ridge", east_edge=2, petit_vimy_supply="yes").result == "German victory"


def test_vimy_instant_wins():
    # an Allied unit in Vimy, no German unit in Petit Vimy: instant win whatever the points
    c = victory("vimy-ridge", vimy_entered=1, germans_in_petit_vimy=0)
    assert c.result == "Instant Allied victory: an Allied unit is in Vimy"
    # with a German unit in Petit Vimy it is not (the proviso of 12.1)
    c = victory("vimy-ridge", vimy_entered=1, germans_in_petit_vimy=1)
    assert c.result == "German victory"
    assert any("only when German units in the Petit Vimy town hexes is at most 0" in s
               for s in c.steps)
    # every German unit eliminated
    assert victory("vimy-ridge", germans_on_map=0).result == \
        "Instant Allied victory: every German unit is eliminated"


# --- Eben-Emael (001): 17+ overwhelming, 13-16 major, 9-12 minor, 5-8 tactical, 4 or less defeat;
# 85 German soldiers lost: automatic Belgian victory; 329 Belgian: automatic German victory -------
@pytest.mark.parametrize("sectors, vp, level", [
    ("cupola-120,bloc-1,mi-nord,maastricht-1,maastricht-2,cupola-nord,cupola-sud,mi-sud", 18,
     "German overwhelming victory"),
    ("cupola-120,bloc-1,mi-nord,maastricht-1", 10, "German minor victory"),
    ("bloc-1,bloc-3", 4, "German defeat"),
])
def test_eben_emael_levels(sectors, vp, level):
    c = victory("eben-emael", scenario="the-landing", sectors=sectors)
    assert c.result == level and f"total: +{vp} VP" in c.steps


def test_eben_emael_automatic_victories_and_scenarios():
    for scenario in ("the-landing", "full-combat-readiness"):
        c = victory("eben-emael", scenario=scenario, sectors="cupola-120,bloc-1,mi-nord",
                    german_lost=85)
        assert c.result == "Automatic Belgian victory"
    c = victory("eben-emael", scenario="the-landing", belgian_lost=329)
    assert c.result == "Automatic German victory"
    with pytest.raises(api.CalcError, match="missing input scenario"):
        victory("eben-emael", sectors="bloc-1")


# --- Scheldt 17.0 (000) and the Rhine scenario (assumed) --------------------------------------
def test_scheldt_17_0():
    # every German unit west of the boundary eliminated: Allied victory; any other: German
    assert victory("scheldt", germans_west=0).result.startswith("Allied victory")
    assert victory("scheldt", germans_west=2).result == "German victory"


def test_rhine_three_cities():
    assert victory("europa-terrain", cities=3).result == "Allied victory"
    assert victory("europa-terrain", cities=2).result == "Axis victory"


def test_cli_victory():
    from click.testing import CliRunner

    from builder.cli import main

    out = CliRunner().invoke(main, ["calc", "operation-veritable", "victory",
                                    "cleve-goch=1304,1510", "out-of-supply=1"])
    assert out.exit_code == 0, out.output
    assert "+1.5 VP" in out.output and "German victory" in out.output
