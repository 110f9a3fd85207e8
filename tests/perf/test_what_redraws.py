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
