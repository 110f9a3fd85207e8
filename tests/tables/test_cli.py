"""`builder calc` and `builder tables`: the working, JSON, odds, clear errors with exit 2, speed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
AREA = ROOT / "tests" / "fixtures" / "tables-area"
HEX = ROOT / "tests" / "fixtures" / "tables-hex"


def test_calc_shows_the_working_and_the_result(run_cli):
    r = run_cli("calc", AREA, "combat", "attack=29", "mg=3", "mg_roll=6", "defence=20",
                "terrain=trench", "reading=example-4-2", "--roll", "10")
    assert r.exit_code == 0, r.output
    out = r.output
    for words in ("29 - 2 = 27", "27 / 2 = 13.5", "= 14", "odds 14:20", "column: 1:2",
                  "RESULT: 3/-  (attacker loses 3, defender loses 0)"):
        assert words in out, words


def test_calc_without_a_roll_draws_the_odds(run_cli):
    r = run_cli("calc", HEX, "bombardment", "markers=2", "terrain=woods")
    assert r.exit_code == 0
    lines = [ln for ln in r.output.splitlines() if ln.strip().startswith(("Hit", "—"))]
    assert any("30.6%" in ln and "11/36" in ln and "#" in ln for ln in lines), r.output


def test_calc_json_has_the_agreed_keys(run_cli):
    r = run_cli("calc", AREA, "combat", "attack=30", "defence=10", "--roll", "3,4", "--json")
    d = json.loads(r.output)
    assert {"result", "column", "steps", "distribution", "notes", "expected", "inputs"} <= set(d)
    assert d["result"] == "2/-" and d["column"] == "3:1" and d["roll"] == [7]
    assert sum(__import__("fractions").Fraction(x["probability"]) for x in d["distribution"]) == 1


def test_tables_lists_inputs_types_and_allowed_values(run_cli):
    r = run_cli("tables", AREA)
    assert r.exit_code == 0
    assert "combat  [ratio, 2d6]" in r.output and "one of: 3, 6, 9" in r.output
    r = run_cli("tables", AREA, "--json")
    data = json.loads(r.output)
    combat = next(e for e in data if e["id"] == "combat")
    mg = next(i for i in combat["inputs"] if i["id"] == "mg")
    assert mg["type"] == "choice" and [c["value"] for c in mg["choices"]] == ["3", "6", "9"]


@pytest.mark.parametrize("args,words", [
    (("calc", "no-such-game", "crt"), "no game 'no-such-game'"),
    (("calc", AREA, "crt"), "choose from: combat, hmg, victory, release, tec"),
    (("calc", AREA, "combat", "atack=5"), "unknown input atack"),
    (("calc", AREA, "combat", "attack=5", "defence=0"), "at least 1"),
    (("calc", AREA, "combat", "attack=5", "defence=2", "terrain=lava"), "one of: open, forest"),
    (("calc", AREA, "combat", "attack=5", "defence=2", "--roll", "13"), "give 2 to 12"),
    (("calc", AREA, "combat", "attack", "defence=2"), "is not NAME=VALUE"),
    (("calc", HEX, "crt", "attack=5", "defence=2", "defender_hex=0909"), "not on the map"),
    (("tables", AREA, "nope"), "tables: combat"),
])
def test_errors_exit_2_with_the_allowed_values(run_cli, args, words):
    r = run_cli(*args)
    assert r.exit_code == 2
    assert words in r.stderr and "Traceback" not in r.stderr


def test_every_sample_table_through_the_cli(run_cli):
    """Each sample table answers `builder calc` (required inputs filled in) with JSON odds."""
    from builder.load import list_games
    from builder.tables.api import list_calculators
    from tests.tables.games import _load

    names = list_games(ROOT / "sources")
    if not names:
        pytest.skip("no sample sources yet")
    for name in names:
        g = _load(str(ROOT / "sources" / name))
        for entry in list_calculators(g):
            args = []
            for spec in entry["inputs"]:
                if spec["required"]:
                    value = (spec["choices"][0]["value"] if spec["type"] == "choice" else
                             max(spec["min"] or 0, 1) if spec["type"] == "int" else
                             g.grid.label(g.grid.all_hexes()[0]))
                    args.append(f"{spec['id']}={value}")
            r = run_cli("calc", ROOT / "sources" / name, entry["id"], *args, "--json")
            assert r.exit_code == 0, (name, entry["id"], r.stderr)
            assert json.loads(r.output)["distribution"], (name, entry["id"])
