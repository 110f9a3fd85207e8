"""Scenario consistency and warnings (issue 15): each mistake a designer made that used to pass
silently is now reported with its file, place and fix; warnings never change the exit code
unless --strict; one run reports shape, cross-file and scenario problems together."""

from __future__ import annotations

from pathlib import Path

import pytest


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture changed: {old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def check(run_cli, game, *options):
    result = run_cli("check", game, *options)
    assert "Traceback" not in result.stderr
    return result


def test_fixture_is_clean_but_for_one_warning(mini, run_cli):
    result = check(run_cli, mini)
    assert result.exit_code == 0, result.stderr
    assert "1 warning (legal, but likely wrong)" in result.stderr
    assert "ok, with 1 warning" in result.output


def test_unit_placed_nowhere(mini, run_cli):
    edit(mini / "scenarios/basic.setup.csv", "b-1,0102,,,,\n", "")
    result = check(run_cli, mini)
    assert result.exit_code == 2
    assert ("basic.setup.csv: unit 'b-1' (1/1) is placed nowhere in scenario 'basic': not set up, "
            "not a reinforcement") in result.stderr
    assert "or add 'b-1' to not_in_play in basic.toml" in result.stderr


def test_not_in_play_accounts_for_a_unit(mini, run_cli):
    edit(mini / "scenarios/basic.setup.csv", "b-1,0102,,,,\n", "")
    edit(mini / "scenarios/basic.toml", "turns = [1, 4]", 'turns = [1, 4]\nnot_in_play = ["b-1"]')
    assert check(run_cli, mini).exit_code == 0


def test_not_in_play_but_placed(mini, run_cli):
    edit(mini / "scenarios/basic.toml", "turns = [1, 4]", 'turns = [1, 4]\nnot_in_play = ["b-1", "x-9"]')
    err = check(run_cli, mini).stderr
    assert "basic.toml: line 3, key not_in_play: 'b-1' is declared not in play but is set up " \
           "(basic.setup.csv line 2)" in err
    assert "basic.toml: line 3, key not_in_play[1]: unknown unit 'x-9' in not_in_play" in err


def test_placement_outside_its_region(mini, run_cli):
    edit(mini / "scenarios/basic.setup.csv", "b-1,0102,,,,", "b-1,0402,,,west,")
    result = check(run_cli, mini)
    assert result.exit_code == 2
    assert ("basic.setup.csv: line 2, column 'at': 'b-1' sets up at 0402, outside its region 'west'"
            in result.stderr)
    edit(mini / "scenarios/basic.setup.csv", "b-1,0402,,,west,", "b-1,0205,,,west,")
    assert check(run_cli, mini).exit_code == 0


def test_reinforcement_not_at_an_entry_hex(mini, run_cli):
    edit(mini / "scenarios/basic.toml", 'entry_exception = "Test fixture: enters where the scenario says."\n', "")
    err = check(run_cli, mini).stderr
    assert ("basic.toml: line 8, key reinforcements[0].at[0]: 'b-2' enters at 0101, but map.toml gives "
            "side 'blue' no entry edge") in err
    with open(mini / "map.toml", "a", encoding="utf-8") as fh:
        fh.write('\n[[edges]]\nedge = "west"\nside = "blue"\nkind = "entry"\nhexes = ["0103"]\n')
    err = check(run_cli, mini).stderr
    assert ("'b-2' enters at 0101, which is not an entry hex of side 'blue' (entry hexes: 0103)"
            in err)
    edit(mini / "scenarios/basic.toml", 'at = ["0101"]', 'at = ["0103"]')
    assert check(run_cli, mini).exit_code == 0


def test_whole_edge_entry_counts_the_hexes_along_it(mini, run_cli):
    edit(mini / "scenarios/basic.toml", 'entry_exception = "Test fixture: enters where the scenario says."\n', "")
    with open(mini / "map.toml", "a", encoding="utf-8") as fh:
        fh.write('\n[[edges]]\nedge = "west"\nside = "blue"\nkind = "entry"\n')
    assert check(run_cli, mini).exit_code == 0  # 0101 is on the west edge
    edit(mini / "scenarios/basic.toml", 'at = ["0101"]', 'at = ["0303"]')
    assert "'b-2' enters at 0303, which is not an entry hex" in check(run_cli, mini).stderr


def test_set_up_and_reinforcement_is_placed_twice(mini, run_cli):
    edit(mini / "scenarios/basic.setup.csv", "b-1,0102,,,,", "b-1,0102,,,,\nb-2,box:reserves,,,,")
    err = check(run_cli, mini).stderr
    assert ("basic.toml: line 6, key reinforcements[0].unit: 'b-2' is both set up (basic.setup.csv "
            "line 3, at box:reserves) and a reinforcement (reinforcements[0]): the module would place "
            "it twice") in err


def test_returning_unit_must_be_set_up(mini, run_cli):
    edit(mini / "scenarios/basic.toml", 'unit = "b-2"', 'unit = "b-2"\nreturns = true')
    err = check(run_cli, mini).stderr
    assert "key reinforcements[0].returns: 'b-2' returns, but it is not set up in basic.setup.csv" in err
    edit(mini / "scenarios/basic.setup.csv", "b-1,0102,,,,", "b-1,0102,,,,\nb-2,0103,,,,")
    assert check(run_cli, mini).exit_code == 0


def test_dangling_rules_reference_is_a_warning_with_its_line(mini, run_cli):
    result = check(run_cli, mini)
    assert result.exit_code == 0
    assert ("rules.md: line 5: section 1.0 cites 9.9, which the rules text does not contain"
            in result.stderr)
    assert check(run_cli, mini, "--strict").exit_code == 2


def test_unused_terrain_type_is_a_warning(mini, run_cli):
    edit(mini / "map.toml", '[[terrain]]\nterrain = "town"\nhexes = ["0202"]\n', "")
    err = check(run_cli, mini).stderr
    assert "key terrain_types[2].id: terrain type 'town' is given to no hex" in err


def test_warnings_follow_errors(mini, run_cli):
    edit(mini / "scenarios/basic.setup.csv", "b-1,0102", "b-1,0199")
    err = check(run_cli, mini).stderr
    assert err.index("error: ") < err.index("warning: ") < err.index("cites 9.9")


def test_broken_file_does_not_hide_the_others(mini, run_cli):
    """A TOML file that does not parse, a shape error and cross-file and scenario problems in
    the other files: all in one run."""
    edit(mini / "game.toml", 'title = "Mini Game"', 'title = "Mini Game')  # does not parse
    edit(mini / "map.toml", '"0404"]', '"0909"]')  # cross-file: off the map
    edit(mini / "counters.csv", "b-1,blue,1st,1/1,infantry", "b-1,blue,1st,1/1,wizard")  # shape
    edit(mini / "scenarios/basic.setup.csv", "r-1,0404", "r-7,0404")  # unknown unit
    edit(mini / "tables.toml", 'kind = "lookup"', 'kind = "lookupp"')  # shape, in another file
    err = check(run_cli, mini).stderr
    for words in ("game.toml: line 1", "outside the map", "wizard", "unknown unit or marker 'r-7'",
                  "tables.toml"):
        assert words in err, words


def test_shape_error_and_scenario_problem_together(mini, run_cli):
    """A misspelt key in game.toml used to stop the run before any cross-file check."""
    edit(mini / "game.toml", 'paper = "letter"', 'paper = "letter"\npaperr = "a4"')
    edit(mini / "scenarios/basic.setup.csv", "b-1,0102,,,,\n", "")
    edit(mini / "scenarios/basic.toml", "turn = 2", "turn = 9")
    err = check(run_cli, mini).stderr
    assert "key paperr: is not a known key" in err
    assert "unit 'b-1' (1/1) is placed nowhere" in err
    assert "reinforcements[0].turn: turn 9 is outside turns 1-4" in err


def test_broken_side_is_not_reported_again_as_undefined(mini, run_cli):
    edit(mini / "game.toml", 'color = "#5b7fb5"', 'color = "blue"')
    err = check(run_cli, mini).stderr
    assert "sides[0].color" in err
    assert "side 'blue' is not defined" not in err


@pytest.mark.parametrize("game", ["operation-veritable", "scheldt"])
def test_module_places_each_counter_once(game):
    """The set-up and waiting reinforcements the module places: one piece per counter copy."""
    from collections import Counter

    from builder.load import find_game, load_game
    from builder.vassal.module import scenario_targets

    g = load_game(find_game(game))
    for sc in g.scenarios:
        targets = scenario_targets(g, sc, _AnyBox())
        placed = Counter(uid for uid, _, _ in targets)
        for uid, n in placed.items():
            u = g.unit_by_id.get(uid)
            if u is not None:
                assert n <= u.copies, f"{game} {sc.id}: {uid} placed {n} times, {u.copies} copies"


class _AnyBox(dict):
    """Every box name resolves (the test counts pieces, not where they go)."""

    def __contains__(self, key):
        return True

    def __getitem__(self, key):
        return key


def test_scenario_that_does_not_parse_still_has_its_set_up_checked(mini, run_cli):
    edit(mini / "scenarios/basic.toml", 'name = "Basic"', 'name = "Basic')
    edit(mini / "scenarios/basic.setup.csv", "r-1,0404,0405,1,,", "r-1,0404,0405,one,,")
    err = check(run_cli, mini).stderr
    assert "basic.toml: line 1" in err and "TOML syntax error" in err
    assert "basic.setup.csv: line 3, column 'within'" in err


WITHDRAW = '\n[[withdrawals]]\nunit = "{unit}"\nturn = {turn}\nwhen = "{when}"\nbox = "{box}"\n'


def _withdraw(mini, unit="b-1", turn=3, when="start", box=""):
    with open(mini / "scenarios/basic.toml", "a", encoding="utf-8") as fh:
        fh.write(WITHDRAW.format(unit=unit, turn=turn, when=when, box=box))


def test_withdrawal_of_a_unit_in_play_is_accepted(mini, run_cli):
    _withdraw(mini, "b-2", 3, "end")  # arrives on turn 2, leaves at the end of turn 3
    assert check(run_cli, mini).exit_code == 0


@pytest.mark.parametrize("args, message", [
    (("x-9", 3), "key withdrawals[0].unit: unknown unit 'x-9'"),
    (("b-1", 7), "key withdrawals[0].turn: turn 7 is outside the scenario's turns 1-4"),
    (("b-1", 4, "end"), "key withdrawals[0].when: 'b-1' leaves at the end of the last turn (4)"),
    (("b-1", 2, "start", "nowhere"), "key withdrawals[0].box: unknown box 'nowhere'"),
    (("b-2", 1), "key withdrawals[0].turn: 'b-2' is withdrawn on turn 1 but arrives on turn 2"),
    (("b-2", 2), "key withdrawals[0].when: 'b-2' arrives and is withdrawn as turn 2 begins"),
])
def test_withdrawal_problems(mini, run_cli, args, message):
    _withdraw(mini, *args)
    result = check(run_cli, mini)
    assert result.exit_code == 2
    assert "basic.toml: line " in result.stderr and message in result.stderr, result.stderr


def test_withdrawn_twice(mini, run_cli):
    _withdraw(mini, "b-1", 2)
    _withdraw(mini, "b-1", 3)
    assert "'b-1' is withdrawn twice (withdrawals[0] and [1])" in check(run_cli, mini).stderr


COUNT = '\n[[victory_counts]]\nname = "Towns held"\nside = "{side}"\n{body}\n'


@pytest.mark.parametrize("side, body, message", [
    ("blue", 'held = ["0101", "9999"]', "key victory_counts[0].held[1]: '9999' is no hex of the map"),
    ("blue", 'pieces_in = "box:nowhere"', "key victory_counts[0].pieces_in: 'box:nowhere' is no box "
     "or region"),
    ("green", 'held = ["0101"]', "key victory_counts[0].side: side 'green' is not defined"),
    ("blue", "vp = 1", "key victory_counts[0].held: a victory count needs one of 'held' (places), "
     "'pieces_in'"),
    ("blue", 'pieces_in = "map"\nweigh_by = "size"\nweights = { squad = 1 }',
     "key victory_counts[0].weights: no weight for size"),
    ("blue", 'pieces_in = "map"\nweigh_by = "colour"\nweights = { x = 1 }',
     "key victory_counts[0].weigh_by: 'colour' is not a counter attribute"),
    ("blue", 'pieces_in = "map"\nvp = 1\nonly_if = "road"',
     "key victory_counts[0].only_if: 'road' is no question of victory_questions"),
    ("blue", 'held = ["0101"]\nat_least = 1\nresult = "Blue wins"\n'
     'provided = [{ count = "nothing", at_most = 0 }]',
     "key victory_counts[0].provided[0].count: 'nothing' is not another victory count"),
    ("blue", 'held = ["0101"]\nleft = true', "key victory_counts[0].left: 'left' counts the units "
     "that started in a box"),

    ("blue", 'pieces_in = "map"\nfactor = "speed"', "key victory_counts[0].factor: unknown factor "
     "'speed'"),
    ("blue", 'held = ["0101"]\nat_least = 1', "key victory_counts[0].result: at_least / at_most "
     "and result go together"),
    ("blue", 'pieces_in = "map"\nall = true', "key victory_counts[0].all: 'all' applies to held places"),
])
def test_victory_count_problems(mini, run_cli, side, body, message):
    with open(mini / "scenarios/basic.toml", "a", encoding="utf-8") as fh:
        fh.write(COUNT.format(side=side, body=body))
    result = check(run_cli, mini)
    assert result.exit_code == 2
    assert "basic.toml: line " in result.stderr and message in result.stderr, result.stderr


def test_victory_counts_of_a_side_without_a_box_use_its_eliminated_box(mini, run_cli):
    with open(mini / "scenarios/basic.toml", "a", encoding="utf-8") as fh:
        fh.write(COUNT.format(side="blue", body='pieces_in = "box:blue-eliminated"\nvp = -1'))
    assert check(run_cli, mini).exit_code == 0


def test_victory_default_and_table_do_not_go_together(mini, run_cli):
    edit(mini / "scenarios/basic.toml", 'turns = [1, 4]',
         'turns = [1, 4]\nvictory_default = "Red wins"\nvictory_table = "crt"')
    err = check(run_cli, mini).stderr
    assert "key victory_default: victory_default is the standing when there is no victory_table" in err
