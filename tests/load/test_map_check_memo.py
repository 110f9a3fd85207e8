"""A hex map that passed its checks is not checked again for the same inputs, and never
skipped when anything it reads changed (load.map_check_memo)."""

from __future__ import annotations

import pytest

from builder.errors import SourceError
from builder.load import checks, load_game
from builder.load.game import inspect_game


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("BUILDER_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def full_checks(monkeypatch):
    """Counts the times the map is really checked."""
    calls = []
    real = checks.Checker._check_hex_map

    def counted(self, m):
        calls.append(m)
        return real(self, m)

    monkeypatch.setattr(checks.Checker, "_check_hex_map", counted)
    return calls


def test_a_passed_map_is_not_checked_again_and_the_model_is_the_same(mini, full_checks):
    first = load_game(mini)
    (mini / "counters.csv").write_text((mini / "counters.csv").read_text() + "\n", "utf-8")
    second = load_game(mini)
    assert len(full_checks) == 1
    assert second == first


def test_an_edited_map_is_checked_again(mini, full_checks):
    load_game(mini)
    map_toml = mini / "map.toml"
    map_toml.write_text(map_toml.read_text().replace('hexes = ["0202"]', 'hexes = ["0909"]'))
    with pytest.raises(SourceError) as err:
        load_game(mini)
    assert "0909 is outside the map" in str(err.value)
    assert len(full_checks) == 2


def test_a_side_removed_from_game_toml_is_checked_against_the_map(mini, full_checks):
    """The map names sides (objectives, edges): game.toml is one of its inputs."""
    load_game(mini)
    game_toml = mini / "game.toml"
    game_toml.write_text(game_toml.read_text().replace('title = "', 'title = "New '), "utf-8")
    load_game(mini)
    assert len(full_checks) == 2


def test_a_map_with_a_problem_is_checked_every_time(mini, full_checks):
    map_toml = mini / "map.toml"
    map_toml.write_text(map_toml.read_text() + '\n[[labels]]\nhex = "0303..0304"\ntext = "x"\n')
    first = inspect_game(mini)[1]
    second = inspect_game(mini)[1]
    assert [p.message for p in first.problems] == [p.message for p in second.problems] != []
    assert len(full_checks) == 2
