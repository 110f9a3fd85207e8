"""The table engine on its own fixtures: procedures, readings, exact odds, map-aware rows."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from builder.tables.api import CalcError, calculate, describe_inputs, list_calculators
from builder.tables.rounding import round_to_int
from tests.tables import seed_tables as S
from tests.tables.games import fixture


def area():
    return fixture("tables-area")


def hexes():
    return fixture("tables-hex")


# --- rounding ---------------------------------------------------------------------------------
@pytest.mark.parametrize("value,rule,want", [
    (Fraction(7, 2), "half-down", 3), (Fraction(351, 100), "half-down", 4), (Fraction(7, 2), "half-up", 4),
    (Fraction(27, 2), "half-down", 13), (Fraction(27, 2), "half-up", 14), (Fraction(20, 13), "up", 2),
    (Fraction(10, 7), "half-up", 1), (Fraction(10, 7), "up", 2), (Fraction(9, 4), "down", 2),
    (Fraction(-7, 2), "half-down", -4),
])
def test_rounding(value, rule, want):
    assert round_to_int(value, rule) == want


# --- Eben-Emael 4.2: the worked example, both readings -------------------------------------------
def test_example_4_2_reproduced_exactly_with_its_reading():
    c = calculate(area(), "combat", {"attack": 29, "mg": "3", "mg_roll": 6, "defence": 20,
                                     "terrain": "trench", "reading": "example-4-2"}, roll=10)
    text = "\n".join(c.steps)
    assert "attackers lose 2" in text and "29 - 2 = 27" in text
    assert "27 / 2 = 13.5" in text and "= 14" in text
    assert "odds 14:20" in text and c.column == "1:2" and c.result == "3/-"
    assert c.outcome.numbers == {"attacker losses": 3, "defender losses": 0}


def test_example_4_2_under_rule_4_1_and_where_they_differ():
    c = calculate(area(), "combat", {"attack": 29, "mg": "3", "mg_roll": 6, "defence": 20,
                                     "terrain": "trench"}, roll=10)
    text = "\n".join(c.steps)
    assert "rounded to the nearest whole number, an exact half down = 13" in text
    assert c.column == "1:2" and c.result == "3/-"  # the same column and result by another road
    # the explanation: rounded the example's way (14), 4.1's rounding reads 14:20 as 1:1
    assert any("would be 14 and the odds 14:20 would be read on 1:1" in n for n in c.notes)


def test_edge_caps_defence_cap_and_retreat():
    c = calculate(area(), "combat", {"attack": [100, 30], "defence": 90, "retreat": True}, roll=12)
    text = "\n".join(c.steps)
    assert "at most 80 count across one sector edge: 80" in text
    assert "80 + 30 = 110" in text and "defence 90: at most 80" in text
    assert c.column == "1:1"  # 110:80 = 1.375 -> 1:1
    assert c.result == "2/3" and c.outcome.numbers == {"attacker losses": 2, "defender losses": 2}


def test_distribution_with_unknown_fire_roll_is_exact():
    """Every HMG roll x every combat roll enumerated (36 x 36), checked by brute force here."""
    g = area()
    c = calculate(g, "combat", {"attack": 29, "mg": "3", "defence": 20, "terrain": "trench"})
    got = {o.result: p for o, p in c.distribution}
    assert sum(got.values()) == 1
    want: dict[str, Fraction] = {}
    for mg_dice in itertools.product(range(1, 7), repeat=2):
        loss = S.EBEN_MG[sum(mg_dice)][0] or 0
        a = round_to_int(Fraction(29 - loss, 2), "half-down")
        m = round_to_int(Fraction(20, a), "half-up")
        col = f"1:{m}" if m > 1 else "1:1"
        for dice in itertools.product(range(1, 7), repeat=2):
            cell = S.EBEN_COMBAT[sum(dice)][S.EBEN_COMBAT_COLUMNS.index(col)]
            want[cell] = want.get(cell, Fraction(0)) + Fraction(1, 36 * 36)
    assert got == want
    exp = sum(p * int(r.split("/")[0]) for r, p in want.items())
    assert c.expected["attacker losses"] == exp


def test_sector_gives_terrain_and_heavy_machine_guns():
    c = calculate(area(), "combat", {"attack": 60, "defence": 20, "sector": "bunker"}, roll=None)
    text = "\n".join(c.steps)
    assert "Bunker 3, Trenches 2: not cumulative" in text and "[3]" in text
    assert {name for name, _ in c.columns} <= {"1:1", "1:2"}


def test_modifier_and_shift_and_beyond_the_table():
    c = calculate(area(), "combat", {"attack": 200, "defence": 10, "plus-1": True, "surprise": True},
                  roll=12)
    assert c.column == "6:1" and c.result == "1/8"
    assert any("12 +1 = 13" in s for s in c.steps) and any("off the table" in s for s in c.steps)


# --- lookups and charts -----------------------------------------------------------------------
def test_lookup_die_against_turn_and_value_key():
    g = area()
    assert calculate(g, "release", {"turn": 3}, 2).result == "Released"
    c = calculate(g, "release", {"turn": 7}, 6)
    assert c.result == "Released" and any("first listed applies" in n for n in c.notes)
    odds = {o.result: p for o, p in calculate(g, "release", {"turn": 4}).distribution}
    assert odds == {"Released": Fraction(1, 2), "Remains": Fraction(1, 3), "Refused": Fraction(1, 6)}
    assert calculate(g, "victory", {"vp": 17}).result == "Overwhelming"
    with pytest.raises(CalcError, match="from 0 to 30"):
        calculate(g, "victory", {"vp": 31})


def test_chart_cells():
    g = area()
    assert calculate(g, "tec", {"row": "bunker", "column": "divisor"}).result == "3"
    whole = calculate(g, "tec", {"row": "Trenches"})  # the headline names the row picked
    assert (whole.result, whole.outcome.meaning) == ("Trenches", "Divisor: 2; Movement: free")


# --- differential CRT, map-aware ----------------------------------------------------------------
def test_trench_hexside_selects_the_trench_row():
    c = calculate(hexes(), "crt", {"attack": 8, "defence": 4, "defender_hex": "0403",
                                   "attacker_hexes": "0503"}, roll=3)
    assert c.column == "+4..+5 on Trench hexside, Woods"
    assert c.result == "—" and S.VIMY_CRT[3][5] is None  # printed blank: no effect
    assert any("attacks across Trench line hexside" in s for s in c.steps)


def test_no_mans_land_halves_defence_and_ignores_trenches():
    c = calculate(hexes(), "crt", {"attack": 8, "defence": 5, "defender_hex": "0503",
                                   "attacker_hexes": "0402,0603"}, roll=3)
    text = "\n".join(c.steps)
    assert "5 / 2 = 2.5, fractions rounded down = 2" in text
    assert "never applies to a defender in No Man's Land" in text
    assert c.column == "+6..+7 on Clear"


def test_best_row_for_defender_and_canal_and_condition():
    g = hexes()
    c = calculate(g, "crt", {"attack": 10, "defence": 4, "defender_hex": "0303"})
    assert c.column == "+6..+7 on Trench hexside, Woods"  # woods and town: woods is further left
    c = calculate(g, "crt", {"attack": 6, "defence": 4, "defender_hex": "0102",
                             "attacker_hexes": "0101"})
    assert c.column.endswith("on Town, Hill, Across Canal")
    c = calculate(g, "crt", {"attack": 6, "defence": 4, "defender_hex": "0106"})
    assert c.column.endswith("on Clear")  # coastal only in a beach assault
    c = calculate(g, "crt", {"attack": 6, "defence": 4, "defender_hex": "0106", "beach-assault": True})
    assert c.column.endswith("on Beach")


def test_shift_past_a_rows_printed_bands():
    c = calculate(hexes(), "crt", {"attack": 30, "defence": 1, "row": "peak", "support": 2}, roll=6)
    assert c.column.startswith("column 10 of 12") and c.result == S.VIMY_CRT[6][9]


# --- modified roll: one or two markers ------------------------------------------------------------
def test_two_markers_at_most_one_hit():
    g = hexes()
    for drm_inputs, p_one in (({}, Fraction(1, 3)), ({"terrain": "woods"}, Fraction(1, 6)),
                              ({"gas": True}, Fraction(2, 3))):
        one = {o.result: p for o, p in calculate(g, "bombardment", drm_inputs).distribution}
        two = {o.result: p for o, p in calculate(g, "bombardment", {**drm_inputs, "markers": 2}).distribution}
        assert one["Hit"] == p_one
        assert two["Hit"] == 1 - (1 - p_one) ** 2 and sum(two.values()) == 1


def test_natural_one_hits_and_rolls_beyond_the_rows():
    g = hexes()
    c = calculate(g, "bombardment", {"terrain": "town", "night": True}, roll=1)
    assert c.result == "Hit" and any("natural 1" in s for s in c.steps)
    c = calculate(g, "bombardment", {"gas": True, "aircraft": True}, roll=2)
    assert c.result == "Hit" and any("beyond the table: read as 1" in s for s in c.steps)
    c = calculate(g, "bombardment", {"markers": 2, "terrain": "woods"}, roll="2,1")
    assert c.result == "Hit" and c.roll == [2, 1]


def test_target_hex_gives_highest_terrain_modifier_and_region():
    c = calculate(hexes(), "bombardment", {"target_hex": "0303"})
    assert c.column == "modifier +2"
    assert any("only the highest applies" in s for s in c.steps)
    c = calculate(fixture("tables-regions"), "bombardment", {"target_hex": "0203"})  # woods, west
    assert c.column == "modifier +3"
    assert any("0203 is in West Bank" in s for s in c.steps)  # the region by its name


# --- map rules ---------------------------------------------------------------------------------
@pytest.mark.parametrize("observer,target,night,seen", [
    ("0203", "0403", False, False),  # along the side of woods/town 0303 and town 0304
    ("0201", "0806", False, True),   # a peak sees over intervening terrain
    ("0201", "0204", True, False),   # night: adjacent only
    ("0302", "0303", True, True),    # adjacent is always observed
    ("0101", "0801", False, True),
])
def test_line_of_sight(observer, target, night, seen):
    c = calculate(hexes(), "observation", {"observer": observer, "target": target, "night": night})
    assert (c.result == "observed") == seen, c.steps


def test_spotter_and_lines_that_leave_the_map():
    g = hexes()
    c = calculate(g, "observation", {"observer": "0203", "target": "0403", "spotters": "0404"})
    assert c.result == "observed" and "aircraft marker in 0404" in c.steps[-1]
    # along the map's west edge a corner-to-corner line would run outside the map, past the woods
    # in 0103: such lines are not allowed
    c = calculate(g, "observation", {"observer": "0101", "target": "0105"})
    assert c.result == "not observed", c.steps


def test_range_and_distance():
    g = hexes()
    assert calculate(g, "bombardment-range", {"target": "0806", "origins": "0101,0604"}).result == "in range"
    assert calculate(g, "bombardment-range", {"target": "0806", "origins": "0101"}).result == "out of range"
    assert calculate(g, "distance", {"from": "0101", "to": "0806"}).result == "9"


# --- inputs as data ----------------------------------------------------------------------------
def test_inputs_are_plain_data():
    for entry in list_calculators(area()) + list_calculators(hexes()):
        for spec in entry["inputs"]:
            assert {"id", "label", "type", "required", "default", "allowed"} <= set(spec)
            assert spec["type"] in ("int", "choice", "bool", "hex")
    specs = {s.id: s for s in describe_inputs(area(), "combat")}
    assert [c.value for c in specs["mg"].choices] == ["3", "6", "9"]
    assert [c.value for c in specs["reading"].choices] == ["written", "example-4-2"]


@pytest.mark.parametrize("table,given,words", [
    ("nope", {}, "choose from: combat, hmg"),
    ("combat", {"atack": 5}, "this table takes: reading, attack"),
    ("combat", {"attack": "x", "defence": 2}, "must be a whole number"),
    ("combat", {"attack": 5}, "missing input defence"),
    ("combat", {"attack": 5, "defence": 2, "terrain": "lava"}, "one of: open, forest, trench, bunker"),
    ("combat", {"attack": 5, "defence": 2, "mg": "4"}, "one of: 3, 6, 9"),
    ("combat", {"attack": 5, "defence": 2, "reading": "mine"}, "one of: written, example-4-2"),
])
def test_bad_inputs_say_what_is_allowed(table, given, words):
    with pytest.raises(CalcError, match=words):
        calculate(area(), table, given)


def test_bad_roll_and_hex():
    with pytest.raises(ValueError, match="2 to 12"):
        calculate(area(), "combat", {"attack": 5, "defence": 2}, roll=13)
    with pytest.raises(ValueError, match="not on the map"):
        calculate(hexes(), "crt", {"attack": 5, "defence": 2, "defender_hex": "0909"})
