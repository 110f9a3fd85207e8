"""A rebuild draws again only what an edit touches: the map's PDF pages, the counter sheets'
pages, the counter faces and the module's pictures each depend on their own sources."""

from __future__ import annotations

import pytest

from builder import cache, pdfpages
from builder.cache import Cache
from builder.load import load_game
from builder.outputs import build_game
from builder.render import counters
from builder.vassal import images


def _edit(path, old, new):
    text = path.read_text()
    assert old in text, f"{path.name} no longer holds {old!r}: update this test"
    path.write_text(text.replace(old, new))


@pytest.fixture
def drawn(monkeypatch):
    """Records what is drawn: PDF page groups by document, counter faces, module pictures."""
    monkeypatch.setenv("BUILDER_JOBS", "1")  # drawn in this process, where the records are
    log = {"pdf": [], "faces": [], "module": []}
    group, face, picture = pdfpages._draw_group, counters.counter_svg, images.counter_png

    def draw_group(context, g):
        log["pdf"].append(context[2].rsplit(": ", 1)[-1])
        return group(context, g)

    def counter_svg(game, cid, f="front", **kw):
        log["faces"].append((cid, f))
        return face(game, cid, f, **kw)

    def counter_png(game, cid, f, px):
        log["module"].append((cid, f))
        return picture(game, cid, f, px)

    monkeypatch.setattr(pdfpages, "_draw_group", draw_group)
    monkeypatch.setattr("builder.render.pages.counter_svg", counter_svg)
    monkeypatch.setattr(images, "counter_png", counter_png)
    return log


def _build(folder, out, store):
    from builder.outputs import print as print_out

    print_out._CACHE.clear()  # the print set is kept per process: a designer's next run is new
    build_game(load_game(folder), ("pdf", "vmod"), out, cache=store)


def test_a_changed_map_draws_no_counter_sheet_face_or_piece(mini, tmp_path, drawn):
    store = Cache(tmp_path / "cache")
    _build(mini, tmp_path / "out", store)
    assert {"map", "counters", "aids"} <= set(drawn["pdf"]) and drawn["faces"] and drawn["module"]
    for log in drawn.values():
        log.clear()
    _edit(mini / "map.toml", 'text = "Townsville"', 'text = "Villeville"')
    with cache.using(store):
        _build(mini, tmp_path / "out", store)
    assert "map" in drawn["pdf"]
    assert "counters" not in drawn["pdf"]
    assert drawn["faces"] == [] and drawn["module"] == []


def test_one_changed_counter_draws_only_its_faces_and_sheet(mini, tmp_path, drawn):
    store = Cache(tmp_path / "cache")
    _build(mini, tmp_path / "out", store)
    for log in drawn.values():
        log.clear()
    _edit(mini / "counters.csv", "6-3-8,3-1-8", "7-3-8,3-1-8")
    _build(mini, tmp_path / "out", store)
    assert "map" not in drawn["pdf"]
    assert sorted(drawn["faces"]) == [("b-2", "back"), ("b-2", "front")]
    assert sorted(drawn["module"]) == [("b-2", "back"), ("b-2", "front")]


# --- per-file records (builder.incremental): which files a rebuild makes, and that they are the
# files a cold build makes -----------------------------------------------------------------------
ALL = ("json", "html", "svg", "pdf", "png", "vmod")


@pytest.fixture
def pages_drawn(monkeypatch):
    """The labels of the PDF pages drawn, by document ("map", "counters", "aids")."""
    monkeypatch.setenv("BUILDER_JOBS", "1")
    log: dict[str, list[str]] = {}
    group = pdfpages._draw_group

    def draw_group(context, g):
        pages, grouped, title, _ = context
        log.setdefault(title.rsplit(": ", 1)[-1], []).extend(pages[i].label for i in grouped[g])
        return group(context, g)

    monkeypatch.setattr(pdfpages, "_draw_group", draw_group)
    return log


def _files(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and ".cache" not in p.parts}


def _rebuild_after(edit, folder, tmp_path, drawn, pages_drawn):
    """Build every format, edit the sources, build again with the cache: (the groups of files the
    second build made, the files kept); its files must equal a cold build's byte for byte."""
    from builder import incremental
    from builder.outputs import print as print_out

    store = Cache(tmp_path / "cache")
    out = tmp_path / "out"
    print_out._CACHE.clear()
    build_game(load_game(folder), ALL, out, cache=store)
    before = {p: p.stat().st_mtime_ns for p in (out / folder.name).rglob("*") if p.is_file()}
    edit()
    for log in (*drawn.values(), incremental.produced, incremental.kept):
        log.clear()
    pages_drawn.clear()
    print_out._CACHE.clear()
    build_game(load_game(folder), ALL, out, cache=store)
    made = {entry.split(":", 1)[0] for entry in incremental.produced}
    untouched = {p.name for p, t in before.items() if p.exists() and p.stat().st_mtime_ns == t}
    seen = {k: list(v) for k, v in drawn.items()}, {k: list(v) for k, v in pages_drawn.items()}
    print_out._CACHE.clear()
    build_game(load_game(folder), ALL, tmp_path / "cold", cache=None)
    assert _files(out / folder.name) == _files(tmp_path / "cold" / folder.name)
    for log, kept in zip((drawn, pages_drawn), seen):  # what the rebuild drew, not the cold build
        log.clear()
        log.update(kept)
    return made, untouched


def test_a_changed_counter_row_keeps_the_map_files_and_redraws_one_sheet_pair(
        mini, tmp_path, drawn, pages_drawn, monkeypatch):
    from builder.aid import engine_data

    listed = []  # the aid's map data (every hex and hexside) listed again
    map_data = engine_data._map_data
    monkeypatch.setattr(engine_data, "_map_data", lambda g: listed.append(1) or map_data(g))

    def edit():
        _edit(mini / "counters.csv", "6-3-8,3-1-8", "7-3-8,3-1-8")
        listed.clear()

    made, untouched = _rebuild_after(
        edit, mini, tmp_path, drawn, pages_drawn)
    assert listed == [1]  # by the cold build that compares: the rebuild's aid reused it
    assert not {"svg-map", "pdf-map", "png-map"} & made  # the map files are not made again
    assert {"mini-map.svg", "mini-map.pdf", "mini-map.png"} <= untouched
    assert {"svg-counters", "pdf-counters", "png-counters"} <= made
    assert "map" not in pages_drawn
    # its sheet's pages, no other: the front (the factors changed are on the front; a back page
    # whose drawing is the same text as before is not drawn again either)
    assert pages_drawn["counters"] == ["counters sheet 1 front"]
    assert sorted(drawn["faces"]) == [("b-2", "back"), ("b-2", "front")]
    assert sorted(drawn["module"]) == [("b-2", "back"), ("b-2", "front")]


def test_a_changed_map_keeps_the_counter_files_and_draws_no_counter(mini, tmp_path, drawn,
                                                                    pages_drawn):
    made, untouched = _rebuild_after(
        lambda: _edit(mini / "map.toml", 'text = "Townsville"', 'text = "Villeville"'), mini,
        tmp_path, drawn, pages_drawn)
    assert not {"svg-counters", "pdf-counters", "png-counters"} & made
    assert "mini-counters.pdf" in untouched
    assert {n for n in untouched if n.startswith("mini-counters-")}
    assert {"svg-map", "pdf-map", "png-map"} <= made
    assert "counters" not in pages_drawn and pages_drawn["map"]
    assert drawn["faces"] == [] and drawn["module"] == []


def test_a_kept_file_edited_by_hand_is_made_again(mini, tmp_path):
    from builder import incremental
    from builder.outputs import print as print_out

    store = Cache(tmp_path / "cache")
    print_out._CACHE.clear()
    build_game(load_game(mini), ("svg",), tmp_path / "out", cache=store)
    target = tmp_path / "out" / "mini" / "print" / "mini-map.svg"
    drawing = target.read_bytes()
    target.write_text("edited by hand")
    incremental.produced.clear()
    print_out._CACHE.clear()
    build_game(load_game(mini), ("svg",), tmp_path / "out", cache=store)
    assert "svg-map:mini-map.svg" in incremental.produced
    assert target.read_bytes() == drawing
