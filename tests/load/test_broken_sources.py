"""Every way a designer can break the sources gives a clear message, file and place, and exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture changed: {old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# (name, file, old text, new text, expected file in message, expected place, expected words)
BREAKS = [
    ("toml syntax error", "game.toml", 'title = "Mini Game"', 'title = "Mini Game', "game.toml", "line 1", "TOML syntax"),
    ("duplicate toml key", "game.toml", 'paper = "letter"', 'paper = "letter"\npaper = "a4"', "game.toml", "line", "TOML syntax"),
    ("unknown key", "game.toml", 'paper = "letter"', 'paper = "letter"\npaperr = "a4"', "game.toml", "key paperr", "not a known key"),
    ("missing key", "game.toml", 'first_player = "blue"\n', "", "game.toml", "key first_player", "required"),
    ("wrong type", "game.toml", "count = 4", 'count = "four"', "game.toml", "key turns.count", "whole number"),
    ("bad colour", "game.toml", 'color = "#5b7fb5"', 'color = "blue"', "game.toml", "key sides[0].color", "not a colour"),
    ("unknown first player", "game.toml", 'first_player = "blue"', 'first_player = "green"', "game.toml", "key first_player", "side 'green'"),
    ("length without unit", "game.toml", 'size = "5/8in"', "size = 16", "game.toml", "counter_sizes[0].size", "no unit"),
    ("csv wrong column count", "counters.csv", "b-1,blue,1st,1/1,infantry,battalion,5-4-6,2-2-6,,,1,unit,,11.2,",
     "b-1,blue,1st,1/1,infantry,battalion,5-4-6,2-2-6,,,1,unit,,11.2", "counters.csv", "line 2", "fields"),
    ("csv unknown column", "counters.csv", "id,side,", "id,sidee,", "counters.csv", "line 1", "sidee"),
    ("unknown unit type", "counters.csv", "b-1,blue,1st,1/1,infantry", "b-1,blue,1st,1/1,wizard", "counters.csv", "line 2, column 'type'", "wizard"),
    ("unknown side in counters", "counters.csv", "r-1,red,", "r-1,green,", "counters.csv", "line 4, column 'side'", "side 'green'"),
    ("unknown formation", "counters.csv", "b-1,blue,1st,", "b-1,blue,9th,", "counters.csv", "line 2, column 'formation'", "9th"),
    ("factor count", "counters.csv", "5-4-6,2-2-6", "5-4,2-2-6", "counters.csv", "line 2, column 'front'", "factors"),
    ("duplicate counter id", "counters.csv", "b-2,blue", "b-1,blue", "counters.csv", "line 3", "already used"),
    ("copies not a number", "counters.csv", "strategic-reserve,2,", "strategic-reserve,two,", "counters.csv", "line 4, column 'copies'", "whole number"),
    ("unknown terrain", "map.toml", 'terrain = "woods"\nhexes', 'terrain = "jungle"\nhexes', "map.toml", "key terrain[0].terrain", "jungle"),
    ("hex outside the map", "map.toml", '"0404"]', '"0909"]', "map.toml", "terrain[0].hexes[1]", "outside the map"),
    ("malformed hex id", "map.toml", '"0404"]', '"04x4"]', "map.toml", "terrain[0].hexes[1]", "not a hex number"),
    ("duplicate hex", "map.toml", '"0404"]', '"0404", "0203"]', "map.toml", "terrain[0].hexes[2]", "twice"),
    ("exclusive terrains in one hex", "map.toml", 'hexes = ["0601..0605"]',
     'hexes = ["0601..0605"]\n\n[[terrain]]\nterrain = "clear"\nhexes = ["0603"]', "map.toml",
     "terrain[3].hexes[0]", "exclude each other"),
    ("hexside not adjacent", "map.toml", '"0301/0302"', '"0301/0305"', "map.toml", "hexsides[0].sides[0]", "not adjacent"),
    ("line with a gap", "map.toml", '"0101..0103", "0203"', '"0101..0103", "0405"', "map.toml", "lines[0].hexes", "not one step"),
    ("unknown map kind", "map.toml", 'kind = "hex"', 'kind = "hexes"', "map.toml", "line 1", "kind"),
    ("sheetless map extent", "map.toml", 'columns = "01-06"\n', "", "map.toml", "columns", "no extent"),
    ("ragged table", "tables.toml", '"6" = ["Ae", "Ae", "A1", "A1"]', '"6" = ["Ae", "Ae", "A1"]', "tables.toml", "tables[0]", "row 6 has 3 results"),
    ("missing die row", "tables.toml", ', "6" = ["Ae", "Ae", "A1", "A1"]', "", "tables.toml", "tables[0]", "one row per roll"),
    ("bands out of order", "tables.toml", '["-1", "0", "+1..+2", ">=+3"]', '["-1", "+1..+2", "0", ">=+3"]', "tables.toml", "tables[0]", "band"),
    ("lookup gap", "tables.toml", '{ when = "else", result = "Clear" }', '{ when = "3-5", result = "Clear" }', "tables.toml", "tables[1]", "no entry covers roll = 6"),
    ("lookup modifier for terrain", "tables.toml", 'entries = [ { when = "1-2", result = "Rain" }, { when = "else", result = "Clear" } ]',
     'entries = [ { when = "1-2", result = "Rain" }, { when = "else", result = "Clear" } ]\nmodifiers = [{ id = "wet", label = "In woods", value = 1, terrain = ["woods"] }]',
     "tables.toml", "tables[1].modifiers[0].terrain", "a lookup has no place"),
    ("unknown table kind", "tables.toml", 'kind = "lookup"', 'kind = "lookupp"', "tables.toml", "tables[1]", "kind"),
    ("scenario unknown unit", "scenarios/basic.setup.csv", "b-1,0102", "b-7,0102", "basic.setup.csv", "line 2, column 'unit'", "b-7"),
    ("scenario hex outside", "scenarios/basic.setup.csv", "b-1,0102", "b-1,0199", "basic.setup.csv", "line 2, column 'at'", "outside the map"),
    ("scenario unknown box", "scenarios/basic.setup.csv", "box:reserves", "box:reserve", "basic.setup.csv", "line 4, column 'at'", "unknown box"),
    ("too many placements", "scenarios/basic.setup.csv", "turn,turn:1,,,,", "turn,turn:1,,,,\nturn,turn:2,,,,", "basic.setup.csv", "line 6", "copies"),
    ("reinforcement turn out of range", "scenarios/basic.toml", "turn = 2", "turn = 9", "basic.toml", "reinforcements[0].turn", "outside turns"),
    ("track length", "scenarios/basic.toml", "per_turn = [2, 1, 2, 1]", "per_turn = [2, 1]", "basic.toml", "tracks[0].per_turn", "2 values for 4 turns"),
    ("rules duplicate section", "rules.md", "### 2.1 Moving", "### 1.1 Moving", "rules.md", "line", "given twice"),
    ("rules without title", "rules.md", "# Mini Game\n", "", "rules.md", "line 1", "no title"),
]


@pytest.mark.parametrize("name,file,old,new,in_file,place,words", BREAKS, ids=[b[0] for b in BREAKS])
def test_broken_source_is_reported(mini, run_cli, name, file, old, new, in_file, place, words):
    edit(mini / file, old, new)
    result = run_cli("check", mini)
    assert result.exit_code == 2, result.output
    err = result.stderr
    assert "Traceback" not in err
    lines = [ln for ln in err.splitlines() if in_file in ln]
    assert lines, f"no message names {in_file}:\n{err}"
    assert any(place in ln and words in ln for ln in lines), f"expected '{place}' and '{words}' in:\n{err}"


def test_missing_file(mini, run_cli):
    (mini / "counters.csv").unlink()
    result = run_cli("check", mini)
    assert result.exit_code == 2
    assert "counters.csv: is missing" in result.stderr


def test_empty_file(mini, run_cli):
    (mini / "map.toml").write_text("", encoding="utf-8")
    result = run_cli("check", mini)
    assert result.exit_code == 2
    assert "map.toml: is empty" in result.stderr


def test_wrong_encoding(mini, run_cli):
    (mini / "counters.csv").write_bytes("id,side\nx,\xe9t\xe9\n".encode("latin-1"))
    result = run_cli("check", mini)
    assert result.exit_code == 2
    assert "counters.csv: line 2: is not UTF-8" in result.stderr


def test_byte_order_mark_is_accepted(mini, run_cli):
    path = mini / "counters.csv"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert run_cli("check", mini).exit_code == 0


def test_every_problem_reported_at_once(mini, run_cli):
    edit(mini / "map.toml", '"0404"]', '"0909"]')
    edit(mini / "counters.csv", "b-1,blue,1st,1/1,infantry", "b-1,blue,1st,1/1,wizard")
    edit(mini / "scenarios/basic.setup.csv", "r-1,0404", "r-7,0404")
    result = run_cli("check", mini)
    assert result.exit_code == 2
    assert "3 problems" in result.stderr
    for words in ("outside the map", "wizard", "r-7"):
        assert words in result.stderr


def test_unknown_game(run_cli):
    result = run_cli("check", "no-such-game")
    assert result.exit_code == 2
    assert "no game 'no-such-game'" in result.stderr


def test_absurd_map_size_is_refused_quickly(mini, run_cli):
    edit(mini / "map.toml", 'columns = "01-06"\nrows = "01-05"', 'columns = "01-999"\nrows = "01-999"')
    text = (mini / "map.toml").read_text()
    (mini / "map.toml").write_text("column_digits = 3\nrow_digits = 3\n" + text)
    result = run_cli("check", mini)
    assert result.exit_code == 2
    assert "more than the 250,000 allowed" in result.stderr
