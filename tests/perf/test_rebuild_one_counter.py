"""One changed counter on a game of several counter sheets (benchmarks/synth.py, as workload
(d) edits it): the rebuild makes that counter's sheet pair again and nothing else of the print
files, keeps the aid pages, and every file equals a cold build's byte for byte."""

from __future__ import annotations

import importlib.util
import sys

import pytest
from repo_paths import ROOT

from builder import incremental
from builder.cache import Cache
from builder.load import load_game
from builder.outputs import build_game

ALL = ("json", "html", "svg", "pdf", "png", "vmod")


def _synth():
    spec = importlib.util.spec_from_file_location("bench_synth", ROOT / "benchmarks" / "synth.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


synth = _synth()


def _files(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and ".cache" not in p.parts}


def _build(folder, out, store):
    from builder.outputs import print as print_out

    print_out._CACHE.clear()  # the print set is kept per process: a designer's next run is new
    incremental.produced.clear()
    incremental.kept.clear()
    build_game(load_game(folder), ALL, out, cache=store)
    return set(incremental.produced), {p.name for p in incremental.kept}


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory):
    """(files made by the rebuild, files it kept, its files, a cold build's files, the PNG
    previews it drew)."""
    tmp = tmp_path_factory.mktemp("one-counter")
    game = synth.write_game(tmp / "synth", synth.Shape(columns=8, rows=6, units=260))
    store = Cache(tmp / "cache")
    from builder.render import convert

    previews: list[str] = []  # the PNG previews drawn, by page label
    png = convert.page_to_png  # the PNG builder's and the PDF workers' (previews_with_pdf)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BUILDER_JOBS", "1")  # drawn in this process, where previews records them
        mp.setattr(convert, "page_to_png", lambda page, scale: previews.append(page.label) or
                   png(page, scale))
        _build(game, tmp / "out", store)
        synth.change_one_counter(game)
        previews.clear()
        made, kept = _build(game, tmp / "out", store)
        drawn = list(previews)
        _build(game, tmp / "cold", None)
    return made, kept, _files(tmp / "out" / "synth"), _files(tmp / "cold" / "synth"), drawn


def test_the_rebuild_equals_a_cold_build(rebuilt):
    _, _, files, cold, _ = rebuilt
    assert files.keys() == cold.keys()
    assert [name for name in files if files[name] != cold[name]] == []


def test_only_the_changed_counters_sheet_pair_is_made_again(rebuilt):
    made, kept, files, _, previews = rebuilt
    sheets = {n for n in files if n.startswith("print/synth-counters-") and n.endswith(".svg")}
    assert len(sheets) >= 4, "the game should fill more than one sheet: make it larger"
    # the first unit of counters.csv is on the first sheet: its front is written again; its
    # back, made again (the back's key names the whole row), comes out the same and is kept
    assert {m for m in made if m.startswith(("svg-counters", "png-counters"))} == {
        "svg-counters:synth-counters-1-front.svg", "png-counters:synth-counters-1-front.png"}
    assert {"synth-counters-1-back.svg", "synth-counters-1-back.png"} <= kept
    assert "pdf-counters:synth-counters.pdf" in made
    assert previews == ["counters sheet 1 front"]  # the back is found under what it shows
    assert not {m for m in made if m.split(":")[0].endswith(("-map", "-aids"))}
    assert {"synth-counters-2-front.svg", "synth-counters-2-back.png", "synth-aids.pdf",
            "synth-aids-1.svg", "synth-aids-1.png", "synth-map.pdf"} <= kept


def test_new_credits_make_the_pdfs_again_for_their_author(mini, tmp_path):
    # a page's key names what the page shows; a PDF's record also names its title and author
    import pikepdf

    store = Cache(tmp_path / "cache")
    _build_print(mini, tmp_path / "out", store)
    toml = mini / "game.toml"
    text = toml.read_text()
    assert "\nnames = [" in text, "game.toml no longer lists credits: update this test"
    toml.write_text(text.replace("\nnames = [", '\nnames = ["A. New Author", ', 1))
    made = _build_print(mini, tmp_path / "out", store)
    assert {"pdf-counters:mini-counters.pdf", "pdf-aids:mini-aids.pdf"} <= made
    with pikepdf.open(tmp_path / "out" / "mini" / "print" / "mini-counters.pdf") as pdf:
        assert "A. New Author" in str(pdf.docinfo["/Author"])


def _build_print(folder, out, store):
    from builder.outputs import print as print_out

    print_out._CACHE.clear()
    incremental.produced.clear()
    build_game(load_game(folder), ("pdf",), out, cache=store)
    return set(incremental.produced)
