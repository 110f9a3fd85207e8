"""Source files read before are taken from the cache while their bytes stay the same; an edited
file alone is read again; a file with a problem is never kept."""

from __future__ import annotations

import pytest

from builder.errors import SourceError
from builder.load import files, game, load_game
from builder.load.model_cache import cache_dir
from builder.load.source_cache import FOLDER


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("BUILDER_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def reads(monkeypatch):
    """The files actually parsed: TOML files and CSV files, by name."""
    seen: list[str] = []
    parse_toml, parse_csv = files._read_toml, game.read_csv

    def toml(path, errors):
        seen.append(path.name)
        return parse_toml(path, errors)

    def csv(path, columns, errors):
        seen.append(path.name)
        return parse_csv(path, columns, errors)

    monkeypatch.setattr(files, "_read_toml", toml)
    monkeypatch.setattr(game, "read_csv", csv)
    return seen


def test_a_second_read_takes_every_file_from_the_cache(mini, reads):
    first = load_game(mini)
    assert {"game.toml", "map.toml", "counters.csv"} <= set(reads)
    reads.clear()
    again = load_game(mini)
    assert reads == []
    assert again == first and again is not first


def test_an_edited_file_alone_is_read_again(mini, reads):
    load_game(mini)
    counters = mini / "counters.csv"
    lines = counters.read_text("utf-8").splitlines(keepends=True)
    header, first_row = lines[0].split(","), lines[1].split(",")
    at = header.index("unit")
    first_row[at] = "Renamed " + first_row[at]
    counters.write_text("".join([lines[0], ",".join(first_row), *lines[2:]]), "utf-8")
    reads.clear()
    again = load_game(mini)
    assert reads == ["counters.csv"]
    assert again.units[0].unit.startswith("Renamed ")


def test_a_file_with_a_problem_is_reported_every_time_and_never_kept(mini, reads):
    load_game(mini)
    kept = set((cache_dir() / FOLDER).glob("*.pickle"))
    map_toml = mini / "map.toml"
    map_toml.write_text(map_toml.read_text("utf-8") + "\n[[broken\n", "utf-8")
    for _ in range(2):
        with pytest.raises(SourceError) as raised:
            load_game(mini)
        assert "map.toml" in str(raised.value)
    assert set((cache_dir() / FOLDER).glob("*.pickle")) == kept


def test_the_same_bytes_in_another_folder_are_read_for_that_folder(mini, tmp_path, reads):
    import shutil

    load_game(mini)
    twin = tmp_path / "twin"
    shutil.copytree(mini, twin)
    reads.clear()
    again = load_game(twin)
    assert "map.toml" in reads  # its problems would name twin/map.toml, not mini/map.toml
    assert again.slug == "twin"


def test_a_damaged_entry_is_read_from_its_file_again(mini, reads):
    first = load_game(mini)
    for entry in (cache_dir() / FOLDER).glob("*.pickle"):
        entry.write_bytes(b"not a pickle")
    reads.clear()
    assert load_game(mini) == first
    assert "map.toml" in reads


def test_a_file_saved_while_it_was_read_is_not_kept_under_its_old_bytes(mini, monkeypatch):
    map_toml = mini / "map.toml"
    original = map_toml.read_text("utf-8")
    parse_toml = files._read_toml

    def saved_meanwhile(path, errors):
        if path.name == "map.toml":
            path.write_text(original + "\n# edited\n", "utf-8")
        return parse_toml(path, errors)

    monkeypatch.setattr(files, "_read_toml", saved_meanwhile)
    load_game(mini)
    map_toml.write_text(original, "utf-8")
    seen = []
    monkeypatch.setattr(files, "_read_toml", lambda path, errors: seen.append(path.name)
                        or parse_toml(path, errors))
    load_game(mini)
    assert "map.toml" in seen  # the original bytes were never kept with the edited reading
