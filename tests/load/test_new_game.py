"""`builder new` (issue 15): a new game checks clean, builds in every format, and can be edited
into a different game (map size, counters, another table) that builds in every format too."""

from __future__ import annotations

import json
import zipfile

from builder.cli import FORMATS


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, f"template changed: {old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _built(out, slug):
    game_out = out / slug
    model = json.loads((game_out / f"{slug}.json").read_text())
    assert (game_out / f"{slug}-aid.html").stat().st_size > 10_000
    for part in ("map", "counters", "aids"):
        assert (game_out / "print" / f"{slug}-{part}.pdf").read_bytes().startswith(b"%PDF")
    assert list((game_out / "print").glob("*.png")) and list((game_out / "print").glob("*.svg"))
    with zipfile.ZipFile(game_out / f"{slug}.vmod") as z:
        assert "buildFile.xml" in z.namelist()
    return model


def test_new_game_checks_and_builds_then_becomes_another_game(tmp_path, run_cli):
    game = tmp_path / "river-crossing"
    made = run_cli("new", game)
    assert made.exit_code == 0, made.stderr
    text = (game / "game.toml").read_text()
    assert text.startswith("#:schema ") and 'title = "River Crossing"' in text
    schema_line = text.splitlines()[0].split(" ", 1)[1]
    assert (game / schema_line).resolve().is_file()  # the editor finds the schema
    check = run_cli("check", game)
    assert check.exit_code == 0 and check.output.rstrip().endswith("ok"), check.output + check.stderr
    out = tmp_path / "out"
    assert run_cli("build", game, "--out", out).exit_code == 0
    model = _built(out, "river-crossing")
    assert len(model["units"]) == 2 and [t["kind"] for t in model["tables"]] == ["ratio"]

    # a different game: a 12 x 9 map with a river, six counters, and a second table
    _edit(game / "map.toml", 'columns = "01-08"', 'columns = "01-12"')
    _edit(game / "map.toml", 'rows = "01-06"', 'rows = "01-09"')
    _edit(game / "map.toml", "[[line_types]]", '[[hexside_types]]\nid = "river"\nname = "River"\n'
          'color = "#3a78b5"\nstyle = "river"\n\n[[hexsides]]\ntype = "river"\n'
          'sides = ["0605/0705", "0606/0706"]\n\n[[line_types]]')
    _edit(game / "map.toml", 'hexes = ["0803"]', 'hexes = ["1203", "1207"]')
    with open(game / "counters.csv", "a", encoding="utf-8") as fh:
        fh.write("b-2,blue,1st,2/1,infantry,brigade,4-4-6,2-2-6,depleted,,,1,unit,,,\n"
                 "b-3,blue,,3 Art,artillery,battalion,5-2-4,,,,,2,unit,,,\n"
                 "r-2,red,,102,infantry,division,5-5-5,2-2-5,depleted,,,1,unit,,,\n"
                 "r-3,red,,103,infantry,division,5-5-5,2-2-5,depleted,,,1,unit,,,\n")
    with open(game / "scenarios/first-battle.setup.csv", "a", encoding="utf-8") as fh:
        fh.write("b-2,0204,,,blue-setup,,,\nb-3,0105,,,blue-setup,,,\nb-3,0106,,,blue-setup,,,\n"
                 "r-2,1105,,,,,,\n")
    _edit(game / "scenarios/first-battle.toml", "not_in_play = []", 'not_in_play = ["r-3"]')
    _edit(game / "scenarios/first-battle.toml", 'at = ["0803"]', 'at = ["1203", "1207"]')
    with open(game / "tables.toml", "a", encoding="utf-8") as fh:
        fh.write('\n[[tables]]\nid = "weather"\nname = "Weather Table"\nkind = "lookup"\ndice = "1d6"\n'
                 'entries = [ { when = "1-2", result = "Rain: movement halved" }, '
                 '{ when = "else", result = "Clear" } ]\n')
    check = run_cli("check", game)
    assert check.exit_code == 0, check.output + check.stderr
    assert "map: hex, 108 hexes" in check.output
    build = run_cli("build", game, "--out", out, "--formats", ",".join(FORMATS))
    assert build.exit_code == 0, build.stderr
    model = _built(out, "river-crossing")
    assert len(model["units"]) == 6 and [t["id"] for t in model["tables"]] == ["crt", "weather"]
    calc = run_cli("calc", game, "weather", "--roll", "2")
    assert calc.exit_code == 0 and "Rain: movement halved" in calc.output


def test_new_refuses_an_existing_folder_and_a_bad_name(tmp_path, run_cli):
    (tmp_path / "taken").mkdir()
    result = run_cli("new", tmp_path / "taken")
    assert result.exit_code == 2 and "already exists" in result.stderr
    result = run_cli("new", tmp_path / "Bad Name")
    assert result.exit_code == 2 and "cannot name a game" in result.stderr
    assert not (tmp_path / "Bad Name").exists()
