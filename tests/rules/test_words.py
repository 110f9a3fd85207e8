"""The one writer of rules, conditions and table settings (builder.words): each is a sentence a
player reads, with the game's own names, and no key, setting name or raw value."""

from __future__ import annotations

from pathlib import Path

import pytest

from builder import words
from builder.load import find_game, list_games, load_game
from builder.views import designer_words

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "eastern-front"


@pytest.fixture(scope="module")
def front():
    return load_game(FIXTURE)


def _rule(game, table_id: str, rule_id: str) -> str:
    t = game.table_by_id[table_id]
    return words.rule(game, t, next(r for r in t.rules if r.id == rule_id))


@pytest.mark.parametrize("table_id, rule_id, sentence", [
    ("crt", "river", ("Every attacker across a river: one column left when every attacking unit "
     "attacks across a River hexside, except on frost turns (7.3, 8.2)")),
    ("crt", "mud", ("Mud: attack halved — the attack strength is halved, rounded down, on mud "
     "turns (8.1)")),
    ("crt", "canal", ("Across a canal: that unit's attack halved — that unit's attack strength is "
     "halved, rounded down, when an attacking unit attacks across a Canal hexside (7.4)")),
    ("crt", "fortification", ("Fortification, Soviet defender: one column left when the defender "
     "is Soviet and in a Fortification hex (7.5)")),
    ("crt", "stuka", "Stuka support (each): one column right each time, at most two times (9.1)"),
    ("crt", "flak", ("Soviet flak (each) cancels a Stuka: cancels one “Stuka support (each)” each "
     "time, at most two times, down to none (9.1)")),
    ("assault", "kalinin", ("Near Kalinin: the defence doubled — the defense strength is doubled, "
     "rounded down, when the defender is Soviet and within one hex of Kalinin")),
    ("assault", "engineers", ("Engineers against a fortification: one column right when Engineers "
     "with the attack (10.2) and the defender is in a Fortification hex")),
    ("assault", "first-turn", ("Surprise (first turn of the Winter Line scenario): read on column 4 "
     "on turn 1 in the Winter Line scenario")),
    ("assault", "frost-cap", ("Frost: no better than column 3 — no better than column 3 on frost "
     "turns or from turn 6 on")),
    ("assault", "hq", ("Headquarters defending: no retreat — DR becomes DE when the defender is a "
     "headquarters unit")),
    ("assault", "river-crossing", ("Attack across the river: not allowed when an attacking unit "
     "attacks across a River hexside (10.3)")),
    ("barrage", "unobserved", ("Unobserved target: +2 to the roll unless the target is observed "
     "(11.2)")),
    ("barrage", "soviet-guns", ("Soviet guns firing: Suppressed becomes no effect when the firing "
     "unit is Soviet")),
    ("supply", "blizzard", "Blizzard (last turn): not allowed on turn 6 (13.2)"),
])
def test_each_rule_is_one_sentence(front, table_id, rule_id, sentence):
    assert _rule(front, table_id, rule_id) == sentence


def test_turn_and_number_conditions():
    assert words.turns("1") == "on turn 1"
    assert words.turns("3-5") == "on turns 3 to 5"
    assert words.turns(">=7") == "from turn 7 on"
    assert words.turns("<3") == "before turn 3"
    assert words.turns("2,4") == "on turns 2 or 4"
    assert words.roll_spec("<=4") == "4 or less"
    assert words.roll_spec("<turn", {"turn": "The current game turn"}) == \
        "less than the current game turn"


def test_a_combination_other_than_cumulative_is_said(front):
    assert words.rules(front, front.table_by_id["assault"])[-1] == (
        "When several of these rules change the same thing, only the one best for the defender "
        "counts.")
    assert not any("combine" in s.lower() for s in words.rules(front, front.table_by_id["crt"]))


def test_map_rules_are_sentences():
    vimy = load_game(find_game("vimy-ridge"))
    sight = words.settings(vimy, vimy.table_by_id["line-of-sight"])
    assert sight[0] == "A line of sight reaches ten hexes; on a night turn, one hex."
    assert "An Allied aircraft marker observes its own hex and the adjacent ones, whatever the " \
           "terrain." in sight
    scheldt = load_game(find_game("scheldt"))
    assert words.settings(scheldt, scheldt.table_by_id["bombardment-range"]) == [
        "The bombardment target must be at most three hexes from the nearest friendly unit."]


@pytest.mark.parametrize("name", list_games() + [str(FIXTURE)], ids=lambda n: Path(n).name)
def test_no_key_setting_or_raw_value_in_any_line(name):
    """Every line of every table: no snake_case key, no key=value, no kind tag or setting value
    ('best-for-defender', 'not-allowed', 'half-down' ...)."""
    game = load_game(find_game(name))
    raw = ("Rules combine", "best-for-defender", "first-column", "last-column", "not-allowed",
           "half-down", "half-up", "beyond_", "rules_combine", "(when ", "True", "False")
    for t in game.tables:
        for line in words.lines(game, t):
            assert not designer_words(line), (t.id, line)
            bad = [w for w in raw if w in line]
            assert not bad, (t.id, line, bad)
            ids = {x.id for x in game.map.terrain_types} | {s.id for s in game.info.sides}
            assert not [w for w in line.replace(",", " ").split() if w in ids and "-" in w], line


def _vimy():
    return load_game(find_game("vimy-ridge"))


@pytest.mark.parametrize("key, value, line", [
    ("trench_benefit", "none", "No trench benefit"),  # not 'Trench benefit: none'
    ("movement", 0, "Movement: no effect"),           # a hexside that costs nothing extra
    ("prohibited", "yes", "Prohibited"),               # not 'Prohibited: yes'
    ("prohibited", True, "Prohibited"),
    ("movement", "+1", "Movement: +1"),
    ("combat_row", "River", "Combat row: River"),
])
def test_a_terrain_effect_is_a_phrase(key, value, line):
    assert words.effect_line(_vimy(), key, value) == line


def test_vimy_terrain_effects_speak_plainly():
    """The printed chart and the phone aid list Vimy's effects as phrases, never 'none' or 0."""
    from builder.aid.content import terrain_rows
    from builder.render.aids import terrain_card

    game = _vimy()
    lines = [f"{k} {v}".strip() for row in terrain_rows(game) for k, v in row["effects"]]
    assert "No trench benefit" in lines and "Movement no effect" in lines
    assert not [x for x in lines if x.endswith((" none", " 0", " yes"))], lines
    card = repr(terrain_card(game))
    assert "No trench benefit" in card and "Movement: no effect" in card
    assert "Trench benefit: none" not in card and "Movement: 0" not in card
