"""Versions players can trust (issue 42): the version from game.toml, a warning when the module
changed and the version did not, and a 'What changed' chart in player words."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

from builder.load import load_game
from builder.vassal import changes
from builder.vassal.module import build_module


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _page(vmod: Path) -> str:
    with zipfile.ZipFile(vmod) as z:
        build_file = z.read("buildFile.xml").decode()
        assert 'chartName="What changed" fileName="what-changed.html"' in build_file
        return z.read(changes.PAGE).decode()


def _text(html: str) -> str:
    html = html.split("<body>", 1)[1]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def test_a_version_warning_and_what_changed(mini, tmp_path, run_cli):
    out = tmp_path / "out"
    first = run_cli("build", mini, "--formats", "vmod", "--out", out)
    assert first.exit_code == 0, first.output
    vmod = out / "mini" / "mini.vmod"
    record = json.loads(changes.record_path(vmod).read_text())
    assert record["version"] == "1.0"
    assert "The first version of this module." in _text(_page(vmod))
    with zipfile.ZipFile(vmod) as z:
        assert "<version>1.0</version>" in z.read("moduledata").decode()

    # built again without a change: skipped, no warning
    again = run_cli("build", mini, "--formats", "vmod", "--out", out)
    assert "unchanged" in again.output and "warning" not in again.stderr

    # a printed note is not module content; a factor is: the same version is a warning
    _edit(mini / "counters.csv", "b-1,blue,1st,1/1,infantry,battalion,5-4-6,2-2-6",
          "b-1,blue,1st,1/1,infantry,battalion,6-4-6,2-2-6")
    edited = run_cli("build", mini, "--formats", "vmod", "--out", out)
    assert edited.exit_code == 0
    assert "the module changed since its last build but game.toml still gives version 1.0" \
        in edited.stderr

    # a new version: no warning; its page compares with 1.0's last build, notes first
    _edit(mini / "game.toml", 'title = "Mini Game"', 'title = "Mini Game"\nversion = "1.1"')
    with (mini / "game.toml").open("a", encoding="utf-8") as f:
        f.write('\n[changes]\n"1.1" = ["Errata: the 1/1 infantry attacks at 7."]\n'
                '"1.0" = ["The first printing."]\n')
    _edit(mini / "counters.csv", "6-4-6,2-2-6", "7-4-6,2-2-6")
    _edit(mini / "counters.csv", "b-2,blue,1st,2/1,armour", "b-2,blue,1st,2/1 Pz,armour")
    _edit(mini / "markers.csv", "turn,Game Turn,", "turn,Turn,")
    with (mini / "counters.csv").open("a", encoding="utf-8") as f:
        f.write("b-9,blue,1st,9/1,infantry,battalion,1-1-1,,,,1,unit,,,\n")
    with (mini / "scenarios" / "basic.setup.csv").open("a", encoding="utf-8") as f:
        f.write("b-9,0101,,,,\n")
    bumped = run_cli("build", mini, "--formats", "vmod", "--out", out)
    assert bumped.exit_code == 0 and "warning: mini: the module changed" not in bumped.stderr
    text = _text(_page(vmod))
    assert text.startswith("Mini Game: version 1.1 Changes since version 1.0.")
    assert "From the designer Errata: the 1/1 infantry attacks at 7." in text
    assert "New: 9/1 infantry (Blue, 1st Division), 1-1-1." in text
    assert "1/1 infantry (Blue, 1st Division): attack 7, was 6." in text
    assert "2/1 armour (Blue, 1st Division): now 2/1 Pz armour." in text
    assert "Game Turn: renamed Turn." in text
    assert "Basic: set-up changed." in text
    assert "Earlier versions Version 1.0 The first printing." in text
    for raw in ("b-1", "b-2", "b-9", "turn,", "sf-2", "basic"):  # no ids or keys for players
        assert raw not in text
    with zipfile.ZipFile(vmod) as z:
        assert "<version>1.1</version>" in z.read("moduledata").decode()

    # rebuilt as 1.1 after another edit: still compared with 1.0, and warned about
    _edit(mini / "counters.csv", "9/1,infantry,battalion,1-1-1", "9/1,infantry,battalion,2-1-1")
    again = run_cli("build", mini, "--formats", "vmod", "--out", out)
    assert "still gives version 1.1" in again.stderr
    assert "New: 9/1 infantry (Blue, 1st Division), 2-1-1." in _text(_page(vmod))


def test_a_removed_unit_in_player_words(mini):
    before = build_module(load_game(mini)).snapshot
    counters = mini / "counters.csv"
    counters.write_text("\n".join(line for line in counters.read_text().splitlines()
                                  if not line.startswith("r-1,")) + "\n")
    setup = mini / "scenarios" / "basic.setup.csv"
    setup.write_text("\n".join(line for line in setup.read_text().splitlines()
                               if not line.startswith("r-1,")) + "\n")
    after = changes.snapshot(load_game(mini))
    found = dict(changes.differences(before, after))
    assert found["Counters"][0] == "Removed: 711 infantry (Red)."
    assert "Refresh Counters names it in the chat" in found["Counters"][1]
    assert changes.differences(after, after) == []


def test_the_digest_is_blind_to_the_version_alone(mini):
    one = build_module(load_game(mini))
    _edit(mini / "game.toml", 'title = "Mini Game"', 'title = "Mini Game"\nversion = "2.0"')
    two = build_module(load_game(mini))
    assert one.content_digest == two.content_digest
    assert one.entries["moduledata"] != two.entries["moduledata"]


def test_an_unquoted_version_in_changes_is_explained(mini):
    import pytest

    from builder.errors import SourceError

    with (mini / "game.toml").open("a", encoding="utf-8") as f:
        f.write('\n[changes]\n1.1 = ["Errata."]\n')
    with pytest.raises(SourceError, match=r'write the version in quotes: "1.1" = \["..."\]'):
        load_game(mini)
    text = (mini / "game.toml").read_text().replace('1.1 = ["Errata."]', '"1.1" = "Errata."')
    (mini / "game.toml").write_text(text)
    assert load_game(mini).info.changes == {"1.1": ("Errata.",)}  # one sentence: a list of one


def test_a_removed_units_pictures_stay_for_old_saves(mini, tmp_path, run_cli):
    """A game saved in 1.0 holds the 711's pieces: version 1.1, which drops the unit, keeps
    their pictures (marked removed), and 1.2 still does, so an old save opens without VASSAL's
    'Image not found'; a unit that is still in the game keeps its own picture."""
    out = tmp_path / "out"
    assert run_cli("build", mini, "--formats", "vmod", "--out", out).exit_code == 0
    counters = mini / "counters.csv"
    counters.write_text("\n".join(line for line in counters.read_text().splitlines()
                                  if not line.startswith("r-1,")) + "\n")
    setup = mini / "scenarios" / "basic.setup.csv"
    setup.write_text("\n".join(line for line in setup.read_text().splitlines()
                               if not line.startswith("r-1,")) + "\n")
    vmod = out / "mini" / "mini.vmod"
    for version in ("1.1", "1.2"):
        text = (mini / "game.toml").read_text()
        text = re.sub(r'\nversion = "[^"]*"', "", text).replace(
            'title = "Mini Game"', f'title = "Mini Game"\nversion = "{version}"')
        (mini / "game.toml").write_text(text)
        built = run_cli("build", mini, "--formats", "vmod", "--out", out)
        assert built.exit_code == 0, built.output
        with zipfile.ZipFile(vmod) as z:
            names = set(z.namelist())
            assert {"images/r-1-front.png", "images/r-1-back.png"} <= names, version
            assert z.read("images/r-1-front.png") == z.read("images/r-1-back.png")
            assert z.read("images/b-1-front.png") != z.read("images/r-1-front.png")
    record = json.loads(changes.record_path(vmod).read_text())
    assert record["baseline"]["gone"]["r-1"] == ["711 infantry", "1.0"]
    svg = changes.removed_counter_svg("711 infantry", "1.0")
    assert "711 infantry" in svg and "removed after" in svg and "version 1.0" in svg
