"""The benchmark anchor (benchmarks/anchor.py): the LaTeX it writes for a game, and, where TeX
and pywargame are installed, that the pipeline makes a PDF and a module from it."""

from __future__ import annotations

import importlib.util
import re
import sys
import zipfile

import pytest
from repo_paths import ROOT


def _load(name: str):
    path = ROOT / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"bench_{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


anchor = _load("anchor")
synth = _load("synth")


def _tiny():
    """3 x 3 hexes (a wood, a marsh with a town, the rest clear), two units, one marker."""
    game = anchor.Game(title="Tiny", columns=3, rows=3, hex_in=0.6,
                       colours={"axis": "#8fa0a8", "axis-1": "#8fa030", "allies": "#c8a96e",
                                "clear": "#efe9cf",
                                "woods": "#9cbf7a", "marsh": "#b9cfae"})
    game.terrain = {(2, 1): "woods", (3, 3): "marsh"}
    game.towns = {(3, 3): "Town 1"}
    game.rivers = [((1, 1), (1, 2))]
    game.lines = [("road", [(1, 3), (2, 3), (3, 2)])]
    game.units = [anchor.Unit("ax-1", "axis", "axis-1", "1/1", "infantry", "division",
                              ("4", "2", "6"), ("2", "1", "6")),
                  anchor.Unit("al-2", "allies", "allies-1", "2/2", "armour", "corps",
                              ("9", "7", "10"), ("5", "3", "10"))]
    game.markers = [anchor.Marker("marker-oos", "OoS", "Isolated", 3)]
    game.crt = [["1", "A1", "D1"]]
    game.terrain_names = {"clear": ("Clear", "1"), "woods": ("Woods", "2")}
    return game


def test_the_board_has_every_hex_with_its_terrain():
    sty = anchor.game_sty(_tiny())
    hexes = re.findall(r"\\hex\[([^\n]*)\]\(c=(\d),r=(\d)\);", sty)
    assert sorted((int(c), int(r)) for _, c, r in hexes) == [
        (c, r) for c in (1, 2, 3) for r in (1, 2, 3)]
    opts = {(int(c), int(r)): o for o, c, r in hexes}
    assert "terrain=woods" in opts[(2, 1)] and "fill=wgwoods" in opts[(2, 1)]
    assert "terrain=swamp" in opts[(3, 3)] and "town={name={Town 1}}" in opts[(3, 3)]
    assert opts[(1, 1)] == "fill=wgclear"
    assert r"\boardframe(c=1,r=1)(c=3,r=3)" in sty
    # the river on the side 0101 and 0102 share, the road through its hexes' centres
    assert (r"\draw[river] ($(hex cs:c=1,r=1)!.5!(hex cs:c=1,r=2)!.57735!90:(hex cs:c=1,r=2)$)"
            r" -- ($(hex cs:c=1,r=1)!.5!(hex cs:c=1,r=2)!.57735!-90:(hex cs:c=1,r=2)$);") in sty
    assert r"\draw[road] (hex cs:c=1,r=3) -- (hex cs:c=2,r=3) -- (hex cs:c=3,r=2);" in sty
    # 0.6 in across the flats = 0.88 cm to the corner; the package's hexes are 1 cm
    assert r"\newcommand\boardscale{0.8799}" in sty


def test_both_faces_of_each_unit_carry_its_factors():
    sty = anchor.game_sty(_tiny())
    front = re.search(r"^\\tikzset\{ax-1/\.style=\{(.*)\},$", sty, re.M).group(1)
    assert "fill=wgaxisb" in front  # the formation's colour (axis-1)
    assert "main=infantry" in front and "echelon=division" in front
    assert "chit/identifier=1/1" in front and "chit/3 factors={4,2,6}" in front
    back = re.search(r"^  ax-1 flipped/\.style=\{(.*)\}\}$", sty, re.M).group(1)
    assert "chit/3 factors={2,1,6}" in back and "fill=wgaxisb!50!white" in back
    assert re.search(r"al-2/\.style=\{fill=wgallies,.*main=armoured.*3 factors=\{9,7,10\}", sty)
    assert r"\def\allaxis{{ax-1}}" in sty and r"\def\allallies{{al-2}}" in sty


def test_sheets_print_every_copy_and_the_module_gets_each_counter_once():
    game = _tiny()
    tex = anchor.print_tex(game)
    assert r"\doublechits{{{al-2}}}{7}{1.24}" in tex
    assert r"\doublechits{{{marker-oos,marker-oos,marker-oos}}}{7}{1.24}" in tex
    export = anchor.export_tex(game)
    assert r"\documentclass[11pt]{wgexport}" in export
    assert r"\doublechitimages[Axis]{\allaxis}" in export
    assert r"\doublechitimages[Markers]{\allmarkers}" in anchor.export_tex(game)
    assert r"\def\allmarkers{{marker-oos}}" in anchor.game_sty(game)
    assert r"\begin{boardimage}{Board}{}" in export


def test_read_game_takes_the_synthetic_game_as_written(tmp_path):
    folder = synth.write_game(tmp_path / "g", synth.Shape(columns=6, rows=6, units=4))
    game = anchor.read_game(folder)
    assert (game.columns, game.rows, game.hex_in) == (6, 6, 0.6)
    assert [u.id for u in game.units] == ["ax-00001", "al-00002", "ax-00003", "al-00004"]
    assert game.units[0].front == tuple(
        (folder / "counters.csv").read_text().splitlines()[1].split(",")[6].split("-"))
    assert {m.id: m.copies for m in game.markers} == {"marker-turn": 1, "marker-oos": 40}
    assert all(name for name in game.towns.values())  # every town has its label
    assert len(game.crt) == 6
    assert len(game.rivers) > 10 and all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
                                         for a, b in game.rivers)  # neighbours, in this game
    # a road is a chain of neighbouring hexes, runs read either way along a column
    road = next(cells for kind, cells in game.lines if kind == "road")
    assert all(abs(a[0] - b[0]) <= 1 for a, b in zip(road, road[1:]))
    assert [c for c, _ in road] == sorted(c for c, _ in road)


def test_the_pipeline_makes_a_pdf_and_a_module(tmp_path):
    lacks = anchor.missing()  # asked here, not at collection: it starts interpreters to ask
    if lacks:
        pytest.skip(f"TeX wargame / pywargame not installed: {lacks}")
    folder = synth.write_game(tmp_path / "g", synth.Shape(columns=6, rows=6, units=4))
    anchor.write(folder, tmp_path / "tex")
    anchor.run(tmp_path / "tex")
    assert (tmp_path / "tex" / "folio.pdf").read_bytes().startswith(b"%PDF")
    with zipfile.ZipFile(tmp_path / "tex" / "folio.vmod") as z:
        names = z.namelist()
    assert "buildFile.xml" in names
    assert {"images/ax-00001.png", "images/ax-00001_flipped.png", "images/Board.png"} <= set(names)
