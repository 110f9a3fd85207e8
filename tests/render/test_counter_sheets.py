"""Counter sheets read back from the PDF: sizes, mirrored backs, text inside, every counter."""

from __future__ import annotations

import math

import pdfplumber
import pytest

from builder.render import style
from builder.render.counters import counter_size
from tests.render.pdfread import PT, glyph_box

SIZE_TOL = 0.1


def _cut_shapes(page):
    """The cut lines on a front page: (x, y, w, h, shape) in mm."""
    out = []
    for obj in page.rects + page.curves:
        if obj.get("fill") or not obj.get("stroke"):
            continue
        if abs(obj["linewidth"] * PT - 0.1) > 0.01:
            continue
        shape = "square" if obj["object_type"] == "rect" else "round"
        out.append((obj["x0"] * PT, obj["top"] * PT, obj["width"] * PT, obj["height"] * PT, shape))
    return out


def _sheets(pdf):
    """[(front page, back page)] from the counters PDF (calibration pages aside)."""
    pages = pdf.pages
    pairs = []
    for i, p in enumerate(pages):
        text = p.extract_text() or ""
        if "fronts" in text and i + 1 < len(pages):
            pairs.append((p, pages[i + 1]))
    return pairs


@pytest.mark.parametrize("name", ["mini", "render-sheets", "render-area"])
def test_counters_measure_their_size_and_all_appear(built, games, name):
    game = games[name]
    sizes = {counter_size(game, x)[0] for x in list(game.units) + list(game.markers)}
    with pdfplumber.open(built[name]["counters"]) as pdf:
        shapes = [s for front, _ in _sheets(pdf) for s in _cut_shapes(front)]
    total = sum(u.copies for u in game.units) + sum(m.copies for m in game.markers)
    assert len(shapes) == total
    for x, y, w, h, _ in shapes:
        assert any(abs(w - s) <= SIZE_TOL and abs(h - s) <= SIZE_TOL for s in sizes), (w, h)
    rounds = sum(m.copies for m in game.markers if counter_size(game, m)[1] == "round")
    assert sum(1 for s in shapes if s[4] == "round") == rounds


@pytest.mark.parametrize("name", ["mini", "render-sheets", "render-area"])
def test_backs_sit_at_the_mirror_position(built, name):
    b = style.BLEED
    with pdfplumber.open(built[name]["counters"]) as pdf:
        for front, back in _sheets(pdf):
            width = float(front.width) * PT
            fronts = _cut_shapes(front)
            want = sorted((width - x - w - b, y - b) for x, y, w, h, _ in fronts)
            sizes = {round(w + 2 * b, 1) for _, _, w, _, _ in fronts}
            found = []
            for obj in back.rects + back.curves:
                ow, oh = obj["width"] * PT, obj["height"] * PT
                if obj.get("fill") and round(ow, 1) in sizes and abs(ow - oh) < 0.05:
                    found.append((obj["x0"] * PT, obj["top"] * PT))
            assert len(found) == len(want)
            for wx, wy in want:
                assert any(abs(fx - wx) < 0.02 and abs(fy - wy) < 0.02 for fx, fy in found), (
                    wx,
                    wy,
                )


def _inside(box, shape, tol=0.06):
    x0, y0, x1, y1 = box
    sx, sy, sw, sh, kind = shape
    if kind == "square":
        return x0 >= sx - tol and y0 >= sy - tol and x1 <= sx + sw + tol and y1 <= sy + sh + tol
    cx, cy, r = sx + sw / 2, sy + sh / 2, sw / 2
    return all(
        math.hypot(px - cx, py - cy) <= r + tol
        for px, py in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))
    )


@pytest.mark.parametrize("name", ["mini", "render-sheets", "render-area"])
def test_no_counter_text_runs_outside_its_counter(built, name):
    with pdfplumber.open(built[name]["counters"]) as pdf:
        for front, back in _sheets(pdf):
            width = float(front.width) * PT
            fronts = _cut_shapes(front)
            backs = [(width - x - w, y, w, h, k) for x, y, w, h, k in fronts]
            for page, shapes in ((front, fronts), (back, backs)):
                height = float(page.height)
                checked = 0
                for ch in page.chars:
                    box = glyph_box(ch, height)
                    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
                    owner = [
                        s for s in shapes if s[0] <= cx <= s[0] + s[2] and s[1] <= cy <= s[1] + s[3]
                    ]
                    if not owner:
                        continue
                    checked += 1
                    assert _inside(box, owner[0]), (ch["text"], box, owner[0])
                if page is front:
                    assert checked > 0


def _counter_text(page, shape) -> str:
    height = float(page.height)
    chars = []
    for ch in page.chars:
        box = glyph_box(ch, height)
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if (
            shape[0] <= cx <= shape[0] + shape[2]
            and shape[1] <= cy <= shape[1] + shape[3]
            and ch["upright"]
        ):
            chars.append((round(-ch["matrix"][5], 1), ch["matrix"][4], ch["text"]))
    return "".join(t for *_, t in sorted(chars)).replace(" ", "")


def test_every_unit_and_marker_is_printed_with_its_copies(built, games):
    game = games["render-sheets"]
    with pdfplumber.open(built["render-sheets"]["counters"]) as pdf:
        texts = [_counter_text(front, s) for front, _ in _sheets(pdf) for s in _cut_shapes(front)]
    for u in game.units:
        want = u.unit.replace(" ", "")
        factors = u.front.replace(" ", "")
        hits = [t for t in texts if want in t and factors in t]
        assert len(hits) == u.copies, (u.id, texts)
    for m in game.markers:
        hits = [t for t in texts if m.front.replace(" ", "") in t]
        assert len(hits) >= m.copies, (m.id, texts)
