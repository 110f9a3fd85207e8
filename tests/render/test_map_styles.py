"""Every terrain and hexside type a map shows is told apart from every other, in colour and in
greyscale (issue 16, items 1 and 8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from builder.load import find_game, list_games, load_game
from builder.render.map_styles import Look, _alike, delta_e, look_alikes, looks

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
MAPPED = sorted(p.name for p in FIXTURES.iterdir() if (p / "map.toml").is_file()
                and not p.name.startswith("robust"))


@pytest.mark.parametrize("name", list_games())
def test_sample_terrain_types_look_distinct(name):
    assert look_alikes(load_game(find_game(name))) == []


@pytest.mark.parametrize("name", MAPPED)
def test_fixture_terrain_types_look_distinct(name):
    assert look_alikes(load_game(FIXTURES / name)) == []


def test_the_measure_fails_on_the_issue_cases():
    # Scheldt before: sea and inlet the same blue; the river 3.8 away
    assert delta_e("#8fbfe0", "#8fbfe0") == 0
    assert delta_e("#7fb3db", "#8fbfe0") < 8
    sea = Look("terrain", "sea", "Sea", "#8fbfe0", "water")
    river = Look("terrain", "river", "River", "#7fb3db", "water")
    assert "CIEDE2000" in _alike(sea, river)
    # same pattern and colours apart but the same grey: greyscale cannot tell them apart
    a = Look("hexside", "canal", "Canal", "#d05050", "canal/0")
    b = Look("hexside", "suez", "Suez", "#50a050", "canal/0")
    assert "greyscale" in _alike(a, b)
    # a different mark along the line (style variant) separates them
    assert _alike(a, Look("hexside", "suez", "Suez", "#50a050", "canal/1")) == ""


def test_two_hexside_types_of_one_style_get_different_marks():
    g = load_game(find_game("europa-terrain"))
    marks = {lk.id: lk.mark for lk in looks(g)}
    assert len({marks["canal"], marks["suez-canal"], marks["corinth-canal"]}) == 3
    assert len({marks["major-river"], marks["kerch-strait"], marks["shatt-al-arab-tigris"]}) == 3


def test_builder_check_warns_of_two_look_alike_types(tmp_path):
    import shutil

    from click.testing import CliRunner

    from builder.cli import main

    game = tmp_path / "alike"
    shutil.copytree(FIXTURES / "tables-hex", game)
    text = (game / "map.toml").read_text(encoding="utf-8")
    (game / "map.toml").write_text(text.replace('"#1aa3c4"', '"#3a78b5"'), encoding="utf-8")
    res = CliRunner().invoke(main, ["check", str(game)])
    assert "hexsides 'Canal' (canal) and 'River' (river)" in res.output
    assert "another colour or pattern" in res.output
    res = CliRunner().invoke(main, ["check", str(FIXTURES / "tables-hex")])
    assert "another colour or pattern" not in res.output
