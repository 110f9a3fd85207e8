"""The validated model kept between commands: reused only for byte-identical sources and code."""

from __future__ import annotations

import pytest

from builder.errors import SourceError
from builder.load import load_game
from builder.load.model_cache import cache_dir, load_game_cached


@pytest.fixture
def counting_load():
    calls = []

    def load(folder):
        calls.append(folder)
        return load_game(folder)

    load.calls = calls
    return load


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("BUILDER_CACHE_DIR", str(tmp_path / "cache"))


def test_second_load_reads_the_stored_model(mini, counting_load):
    first = load_game_cached(mini, counting_load)
    second = load_game_cached(mini, counting_load)
    assert len(counting_load.calls) == 1
    assert second == first and second is not first
    # derived data works on the read-back model
    assert len(list(second.grid.all_hexes())) == len(list(first.grid.all_hexes())) > 0
    assert len(list(cache_dir().glob("model-*.pickle"))) == 1


def test_an_edited_source_is_validated_again(mini, counting_load):
    load_game_cached(mini, counting_load)
    game_toml = mini / "game.toml"
    game_toml.write_text(game_toml.read_text().replace('title = "', 'title = "New '), "utf-8")
    again = load_game_cached(mini, counting_load)
    assert len(counting_load.calls) == 2
    assert again.info.title.startswith("New ")


def test_a_broken_source_is_reported_though_an_earlier_model_is_stored(mini, counting_load):
    load_game_cached(mini, counting_load)
    (mini / "counters.csv").write_text("id,side\nx,nobody\n", "utf-8")
    with pytest.raises(SourceError):
        load_game_cached(mini, counting_load)
    with pytest.raises(SourceError):  # and again: problems are never stored
        load_game_cached(mini, counting_load)


def test_a_damaged_cache_entry_counts_as_a_miss(mini, counting_load):
    load_game_cached(mini, counting_load)
    (entry,) = cache_dir().glob("model-*.pickle")
    entry.write_bytes(b"not a pickle")
    game = load_game_cached(mini, counting_load)
    assert len(counting_load.calls) == 2 and game.info.title


def test_a_source_saved_while_it_was_read_is_not_stored_as_the_old_sources(mini):
    game_toml = mini / "game.toml"
    original = game_toml.read_text("utf-8")

    def load_during_a_save(folder):
        game = load_game(folder)
        game_toml.write_text(original.replace('title = "', 'title = "Saved meanwhile '), "utf-8")
        return game

    load_game_cached(mini, load_during_a_save)
    assert not list(cache_dir().glob("model-*.pickle"))


def test_an_unwritable_cache_is_not_used(mini, counting_load, tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("BUILDER_CACHE_DIR", str(blocker / "cache"))  # under a file: cannot exist
    assert load_game_cached(mini, counting_load).info.title
    assert load_game_cached(mini, counting_load).info.title
    assert len(counting_load.calls) == 2


def test_calc_answers_the_same_from_the_stored_model(run_cli):
    args = ["calc", "scheldt", "crt", "attack=10", "defence=4", "--roll", "3", "--json"]
    fresh, cached = run_cli(*args), run_cli(*args)
    assert fresh.exit_code == cached.exit_code == 0
    assert fresh.output == cached.output


def test_inside_a_build_the_model_is_written_when_flushed(mini, counting_load):
    from builder.load import later

    with later.deferred():
        load_game_cached(mini, counting_load)
        assert not list(cache_dir().glob("model-*.pickle"))  # put off: formats come first
        later.flush()
        assert len(list(cache_dir().glob("model-*.pickle"))) == 1
    assert load_game_cached(mini, counting_load) and len(counting_load.calls) == 1


def test_what_is_left_unflushed_is_written_when_the_build_ends(mini, counting_load):
    from builder.load import later

    with later.deferred():
        load_game_cached(mini, counting_load)
    assert len(list(cache_dir().glob("model-*.pickle"))) == 1
    later.write(lambda: counting_load.calls.append("now"))  # outside: at once
    assert counting_load.calls[-1] == "now"


def test_a_pickled_game_holds_its_fields_not_its_lookups(mini):
    import pickle

    game = load_game(mini)
    before = pickle.dumps(game)
    game.unit_by_id, game.terrain_used, game.grid.all_hexes()  # what a build looks up
    assert pickle.dumps(game) == before
    again = pickle.loads(before)
    assert again == game and again.unit_by_id.keys() == game.unit_by_id.keys()


def test_validating_a_game_completes_every_model_class_once(mini):
    """Workers forked after a load dump models (cache keys) without building any schema."""
    from builder.model.base import Model

    load_game(mini)
    classes, todo = [], [Model]
    while todo:
        below = todo.pop().__subclasses__()
        classes += below
        todo += below
    assert classes and all(c.__pydantic_complete__ for c in classes)
