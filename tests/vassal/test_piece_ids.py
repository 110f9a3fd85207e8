"""Piece slot ids derived from what each slot holds (issue 42): the same in every build, kept by
every unit when a counter is inserted before it, never shared, all below nextPieceSlotId."""

from __future__ import annotations

import io
import re
import shutil
import zipfile
from pathlib import Path

import pytest

from builder import cache
from builder.load import find_game, load_game
from builder.vassal import piece_ids
from builder.vassal.module import SourceProblem, build_module
from tests.repo_paths import MINI


def _slot_ids(build) -> list[str]:
    """Every gpid attribute of the buildFile (palette, decks, set-up and combat slots)."""
    return re.findall(r' gpid="([^"]*)"', build.entries["buildFile.xml"].decode())


def _placed_ids(build) -> list[str]:
    """The slot id every piece of every set-up carries (its BasicPiece state)."""
    out = []
    for name, data in sorted(build.entries.items()):
        if name.endswith(".vsav"):
            text = zipfile.ZipFile(io.BytesIO(data)).read("savedGame").decode()
            for command in text.split("\x1b"):
                if command.startswith("+/") and "/stack/" not in command:
                    out.append(re.search(r"null;-?\d+;-?\d+;(\d*);0", command).group(1))
    return out


def _copy(src: Path, tmp_path: Path) -> Path:
    dst = tmp_path / src.name
    shutil.copytree(src, dst)
    return dst


def test_ids_are_vassal_integers_below_next_slot_id():
    # VASSAL 3.7.26's GpIdChecker reads each id with Integer.parseInt and refuses duplicates;
    # the editor numbers new slots from nextPieceSlotId up to 2**31 - 1
    for key in ("unit:b-1", "marker:turn", "card:support:sf-2#3", "combat:crt", "x" * 500, ""):
        n = piece_ids.derived(key)
        assert piece_ids.FIRST <= n < piece_ids.NEXT < 2**31 - 1
    # pinned: a change of the hash would send every saved game's pieces to other slots
    assert piece_ids.derived("unit:b-1") == piece_ids.derived("unit:b-1") == 622_165_760


def test_a_clash_names_both_slots(monkeypatch):
    monkeypatch.setattr(piece_ids, "derived", lambda key: 5_000_000)
    ids = piece_ids.PieceIds()
    ids.slot("unit:a", "the unit 1/1 infantry (counters.csv id 'a')")
    with pytest.raises(piece_ids.PieceIdClash) as err:
        ids.slot("marker:b", "the marker Disrupted (markers.csv id 'b')")
    text = str(err.value)
    assert "1/1 infantry (counters.csv id 'a')" in text and "Disrupted (markers.csv id 'b')" in text
    assert "5000000" in text
    with pytest.raises(piece_ids.PieceIdClash):
        ids.slot("unit:a", "again")  # one key, one slot


def test_a_clash_stops_the_build_with_the_message(monkeypatch):
    monkeypatch.setattr(piece_ids, "derived", lambda key: 5_000_000)
    with pytest.raises(SourceProblem, match=r"counters.csv id 'b-1'.*would share"):
        build_module(load_game(MINI))


@pytest.mark.parametrize("name", [str(MINI), "vimy-ridge"], ids=lambda n: Path(n).name)
def test_inserting_a_counter_keeps_every_other_id(name, tmp_path):
    folder = _copy(find_game(name) if name != str(MINI) else MINI, tmp_path)
    # the three builds share a picture cache, as builds into one output folder do: the ids and
    # the buildFile are made afresh by each
    with cache.using(cache.Cache(tmp_path / "cache")):
        _inserting_keeps_ids(folder)


def _inserting_keeps_ids(folder: Path) -> None:
    before = build_module(load_game(folder))
    again = build_module(load_game(folder))
    # built twice without a change: every id, and the module, the same
    assert again.slot_ids == before.slot_ids
    assert again.entries["buildFile.xml"] == before.entries["buildFile.xml"]
    ids = _slot_ids(before)
    assert len(ids) == len(set(ids)) == len(before.slot_ids)
    assert all(piece_ids.FIRST <= int(i) < piece_ids.NEXT for i in ids)
    assert re.search(r'nextPieceSlotId="2000000000"', before.entries["buildFile.xml"].decode())
    # every piece a set-up places carries the id of a slot (the refresher finds it)
    assert set(_placed_ids(before)) <= set(ids)

    # a new counter inserted as the first row of counters.csv, before every other unit
    csv = folder / "counters.csv"
    head, *rows = csv.read_text(encoding="utf-8").splitlines()
    first = rows[0].split(",")
    new = ["zz-new"] + first[1:]
    csv.write_text("\n".join([head, ",".join(new), *rows]) + "\n", encoding="utf-8")
    for setup in (folder / "scenarios").glob("*.setup.csv"):  # set up beside its model
        text = setup.read_text(encoding="utf-8")
        row = text.splitlines()[1].split(",")
        setup.write_text(text.rstrip("\n") + "\n" + ",".join(["zz-new"] + row[1:]) + "\n",
                         encoding="utf-8")
    after = build_module(load_game(folder))
    added = {k: v for k, v in after.slot_ids.items() if k not in before.slot_ids}
    assert "unit:zz-new" in added
    assert all(":zz-new" in k for k in added)
    assert {k: v for k, v in after.slot_ids.items() if k not in added} == before.slot_ids
    placed = _placed_ids(after)
    for new_id in added.values():
        placed = [i for i in placed if i != str(new_id)]
    assert placed == _placed_ids(before)

