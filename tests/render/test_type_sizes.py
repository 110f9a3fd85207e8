"""Type sizes of a published game, read from the PDF text layer of every sample and render
fixture (issue 39, item 6): hex numbers at least 5 pt, place names at least 6 pt, counter
text at least 4 pt. (Aid cards: test_publisher_aids.py.)"""

from __future__ import annotations

import re

import pdfplumber
import pytest

from builder.load import find_game, load_game
from tests.render.conftest import FIXTURES as FIXTURES_DIR
from tests.render.conftest import SAMPLES

FIXTURES = ("mini", "render-sheets", "render-area")


def _pdfs(sample_pdfs, built, kind: str):
    return [(n, sample_pdfs[n][kind]) for n in SAMPLES] + [(n, built[n][kind]) for n in FIXTURES]


def _game(name):
    return load_game(find_game(name) if name in SAMPLES else FIXTURES_DIR / name)


def _size(ch) -> float:
    """A glyph's size in points however it is narrowed or turned: the length of the text
    matrix's up vector."""
    _, _, c, d, *_ = ch["matrix"]
    return (c * c + d * d) ** 0.5


_DRAWN = re.compile(rb"([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+) [-\d.]+ [-\d.]+ cm\s*"
                    rb"(?:/\w+ gs )?(/\w+) Do")


def _distinct_pages(pdf) -> list[int]:
    """The page indexes to read: a map's tiles draw one shared drawing (a form XObject) at the
    same scale, moved, so their glyphs are the same glyphs; one page of each drawing and scale
    is read (pdfminer takes about 1.5 s a map page), every other page whole."""
    import pikepdf

    seen, out = set(), []
    with pikepdf.open(pdf) as doc:
        for i, page in enumerate(doc.pages):
            keys = []
            for form in page.Resources.get("/XObject", {}).values():
                inner = form.get("/Resources", {}).get("/XObject", {})
                for scale, name in ((m.groups()[:4], m.group(5).decode())
                                    for m in _DRAWN.finditer(form.read_bytes())):
                    if name in inner:
                        keys.append((inner[name].objgen, scale))
            key = tuple(keys)
            if not keys or key not in seen:
                out.append(i)
            seen.add(key)
    return out


def _words(page):
    """(text, smallest glyph size) of each word, read from the glyphs in reading order."""
    words = page.extract_words(x_tolerance=0.6, keep_blank_chars=False, return_chars=True)
    return [(w["text"], min(_size(c) for c in w["chars"])) for w in words]


@pytest.mark.slow
def test_hex_numbers_and_place_names_are_large_enough(sample_pdfs, built):
    small = []
    for name, pdf in _pdfs(sample_pdfs, built, "map"):
        game = _game(name)
        if not game.is_hex:
            names = {w for s in game.map.sectors for w in s.name.split()}
        else:
            names = {w for lb in game.map.labels
                     for w in (lb.text.upper() if lb.kind == "region" else lb.text).split()}
        names = {w for w in names if len(w) > 2 and not w.isdigit()}
        number = re.compile(r"^\d{4}$")
        found = {"numbers": 0, "names": 0}
        with pdfplumber.open(pdf) as doc:
            for page in (doc.pages[i] for i in _distinct_pages(pdf)):
                if "assembly" in (page.extract_text(x_tolerance=1) or "")[:200]:
                    continue  # the assembly page's small map is a picture of the tiles
                for text, size in _words(page):
                    if game.is_hex and number.match(text):
                        found["numbers"] += 1
                        if size < 5.0 - 0.02:
                            small.append((name, page.page_number, text, round(size, 2)))
                    elif text in names:
                        found["names"] += 1
                        if size < 6.0 - 0.02:
                            small.append((name, page.page_number, text, round(size, 2)))
        assert found["names"], (name, "no place name found on the map")
        if game.is_hex:
            assert found["numbers"], (name, "no hex number found on the map")
    assert not small, small[:20]


@pytest.mark.slow
def test_counter_text_is_at_least_4_pt(sample_pdfs, built):
    small = []
    for name, pdf in _pdfs(sample_pdfs, built, "counters"):
        with pdfplumber.open(pdf) as doc:
            for page in doc.pages:
                for ch in page.chars:
                    if not ch["text"].isspace() and _size(ch) < 4.0 - 0.02:
                        small.append((name, page.page_number, ch["text"], round(_size(ch), 2)))
    assert not small, small[:20]
