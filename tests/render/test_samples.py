"""The sample games' print files read back: every hex number where the geometry puts it, every
counter and marker at its size with its back mirrored, every sector named. Samples that do not
load yet are skipped."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from builder.errors import SourceError
from builder.load import load_game
from builder.render import map_layout, map_svg
from builder.render.pages import map_pages
from tests.render.pdfread import overlapping_words, words
from tests.render.test_counter_sheets import _cut_shapes, _sheets

SAMPLES = Path(__file__).resolve().parents[2] / "sources"
NAMES = ("scheldt", "vimy-ridge", "eben-emael", "operation-veritable", "europa-terrain")
pytestmark = pytest.mark.slow  # every sample's print files built and read back


def _game(name):
    try:
        return load_game(SAMPLES / name)
    except (SourceError, FileNotFoundError) as exc:  # a sample still being written
        pytest.skip(f"{name} does not load: {exc}")


@pytest.fixture(scope="module")
def sample_pdfs(tmp_path_factory):
    cache = {}

    def get(name):
        if name not in cache:
            from builder.outputs.print import build_pdf

            game = _game(name)
            paths = build_pdf(game, tmp_path_factory.mktemp(name), map_sheet="22x34")
            cache[name] = (game, {p.stem.split("-")[-1]: p for p in paths})
        return cache[name]

    return get


@pytest.mark.parametrize("name", NAMES)
def test_every_counter_and_marker_is_on_the_sheets(sample_pdfs, name):
    game, paths = sample_pdfs(name)
    with pdfplumber.open(paths["counters"]) as pdf:
        pairs = _sheets(pdf)
        shapes = [s for front, _ in pairs for s in _cut_shapes(front)]
    assert len(shapes) == sum(u.copies for u in game.units) + sum(m.copies for m in game.markers)


@pytest.mark.parametrize("name", ("scheldt", "europa-terrain"))
def test_every_hex_number_is_printed_where_the_grid_puts_it(sample_pdfs, name):
    game, paths = sample_pdfs(name)
    layout = map_layout(game)
    targets = (
        [(None, layout)]
        if not layout.sheet_ids
        else [(s, layout.sheet_layout(s)) for s in layout.print_ids]
    )
    with pdfplumber.open(paths["map"]) as pdf:
        for n, (sheet, lay) in enumerate(targets):
            pages = map_pages(game, map_svg(game, sheet), "22x34")
            assert len(pages) == 1
            ox, oy = pages[0].layers[1].x, pages[0].layers[1].y
            found = {}
            for w in words(pdf.pages[n]):
                found.setdefault(w["text"], []).append(w)
            for h in lay.hexes:
                label = f"{h.col:0{game.map.column_digits}d}{h.row:0{game.map.row_digits}d}"
                x, y = lay.hex_center_mm(h)
                x, y = x + ox, y + oy
                assert any(
                    abs(w["cx"] - x) < 0.3 and y - game.grid.hex_mm / 2 - 0.1 <= w["top"] < y
                    for w in found.get(label, [])
                ), (sheet, label)


def test_every_sector_of_eben_emael_is_named_and_no_raw_id_printed(sample_pdfs):
    game, paths = sample_pdfs("eben-emael")
    with pdfplumber.open(paths["map"]) as pdf:
        text = "".join((pdf.pages[0].extract_text(x_tolerance=1) or "").split())
        raw = {w["text"] for w in words(pdf.pages[0])}
    for s in game.map.sectors:
        assert all(part in raw for part in s.name.split()), s.name  # names may wrap
        assert s.id not in raw and s.id.upper() not in raw, f"raw id {s.id} printed"
    assert "Onehex" not in text  # an area map has no hexes


@pytest.mark.parametrize("name", ("scheldt", "vimy-ridge", "operation-veritable", "europa-terrain"))
def test_no_map_name_covers_a_hex_number_in_the_pdf(sample_pdfs, name):
    """Read from the PDF's text layer: no word of a map label overlaps a hex number's box."""
    game, paths = sample_pdfs(name)
    tokens = set()
    for lb in game.map.labels:
        tokens.update((lb.text.upper() if lb.kind == "region" else lb.text).split())
    tokens = {t for t in tokens if not t.isdigit()}

    def inner(w, pad=0.12):  # glyph boxes of neighbouring lines touch: compare inside them
        return w["x0"] + pad, w["top"] + pad, w["x1"] - pad, w["bottom"] - pad

    checked = 0
    with pdfplumber.open(paths["map"]) as pdf:
        for page in pdf.pages:
            ws = words(page)
            numbers = [inner(w) for w in ws if len(w["text"]) == 4 and w["text"].isdigit()]
            for w in ws:
                if w["text"] not in tokens:
                    continue
                checked += 1
                a = inner(w)
                hit = [n for n in numbers
                       if a[0] < n[2] and n[0] < a[2] and a[1] < n[3] and n[1] < a[3]]
                assert not hit, (page.page_number, w["text"])
    assert checked >= len(game.map.labels) // 2  # the labels were found in the text layer


@pytest.mark.parametrize("name", NAMES)
def test_no_two_words_on_a_map_page_overlap(sample_pdfs, name):
    """Title block, north arrow, scale lines, sheet tags, names, hex numbers and the legend read
    from the PDF's text layer: no word's box runs into another's (a halo's copy of a word sits
    exactly on it and is not a clash)."""
    _game_, paths = sample_pdfs(name)
    with pdfplumber.open(paths["map"]) as pdf:
        for page in pdf.pages:
            assert overlapping_words(page) == [], page.page_number
