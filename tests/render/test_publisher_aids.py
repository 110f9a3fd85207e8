"""Aid cards a publisher would accept (issue 39, items 3 and 6), measured on the rendered PDF of
every sample and render fixture: no text outside its card's frame; no note split between pages
or columns; type no smaller than 7.5 pt in tables and 7 pt in notes; set-up lists grouped so a
scenario's set-up takes a card; one terrain effects chart per game. (How full each page is:
test_aid_layout.py.)"""

from __future__ import annotations

import re

import pdfplumber
import pytest

from builder.load import find_game, load_game
from builder.render import aids, style
from builder.render.pages import FOOTER, HEADER, paper_size
from builder.views import player_view
from tests.render.conftest import FIXTURES as FIXTURES_DIR
from tests.render.conftest import SAMPLES
from tests.render.pdfread import PT, glyph_box

FIXTURES = ("mini", "render-sheets", "render-area")


def _hex(colour) -> str:
    """A pdfplumber colour tuple as '#rrggbb' (None for none)."""
    if not isinstance(colour, (tuple, list)) or len(colour) != 3 \
            or not all(isinstance(c, (int, float)) for c in colour):
        return ""
    return "#" + "".join(f"{round(c * 255):02x}" for c in colour)


def _frames(page) -> list[tuple[float, float, float, float]]:
    """Card frames in mm (x0, top, x1, bottom): unfilled rectangles in the card border colour."""
    return [(r["x0"] * PT, r["top"] * PT, r["x1"] * PT, r["bottom"] * PT) for r in page.rects
            if r["stroke"] and not r["fill"] and _hex(r["stroking_color"]) == style.CARD_BORDER]


def _tables(page) -> list[tuple[float, float, float, float]]:
    """Where tables are (mm): from each header band (a full-width rectangle in the header
    colour) down to the last rule under a row of the same width."""
    rules: dict[tuple[float, float], list[float]] = {}
    for ln in page.lines:
        if _hex(ln.get("stroking_color")) == style.TABLE_RULE and abs(ln["top"] - ln["bottom"]) < .1:
            rules.setdefault((round(ln["x0"], 1), round(ln["x1"], 1)), []).append(ln["top"])
    out = []
    heads = [r for r in page.rects if r["fill"] and _hex(r["non_stroking_color"]) == style.TABLE_HEAD]
    for key, ys in rules.items():
        tops = sorted(r["top"] for r in heads
                      if abs(r["x0"] - key[0]) < 0.2 and abs(r["x1"] - key[1]) < 0.2)
        for k, top in enumerate(tops):
            nxt = tops[k + 1] if k + 1 < len(tops) else float("inf")
            below = [y for y in ys if top < y < nxt]
            if below:
                out.append((key[0] * PT, top * PT, key[1] * PT, max(below) * PT))
    return out


def _chars(page):
    """(char, glyph box in mm, size in pt) of each visible character in the page body."""
    h_mm = page.height * PT
    body = (style.PAGE_MARGIN + HEADER, h_mm - style.PAGE_MARGIN - FOOTER)
    for ch in page.chars:
        if ch["text"].isspace():
            continue
        x0, top, x1, bottom = glyph_box(ch, page.height)
        if body[0] <= (top + bottom) / 2 <= body[1]:
            _, _, c, d, *_ = ch["matrix"]
            yield ch, (x0, top, x1, bottom), (c * c + d * d) ** 0.5


def _inside(box, area, slack: float = 0.05) -> bool:
    return (box[0] >= area[0] - slack and box[2] <= area[2] + slack
            and box[1] >= area[1] - slack and box[3] <= area[3] + slack)


def _aid_pdfs(sample_pdfs, built):
    return [(n, sample_pdfs[n]["aids"]) for n in SAMPLES] + [(n, built[n]["aids"])
                                                             for n in FIXTURES]


@pytest.mark.slow
def test_every_line_of_text_lies_inside_its_card_frame(sample_pdfs, built):
    """Each glyph's box, ascent to descent, lies inside a card's frame."""
    outside = []
    for name, pdf in _aid_pdfs(sample_pdfs, built):
        with pdfplumber.open(pdf) as doc:
            for i, page in enumerate(doc.pages, 1):
                frames = _frames(page)
                assert frames, (name, i)
                lost = "".join(ch["text"] for ch, box, _ in _chars(page)
                               if not any(_inside(box, f) for f in frames))
                if lost:
                    outside.append((name, i, lost[:80]))
    assert not outside, outside


@pytest.mark.slow
def test_type_sizes_of_a_published_aid(sample_pdfs, built):
    """Table text at least 7.5 pt, everything else on a card (notes, titles) at least 7 pt, and
    no text narrowed by more than 8 % to fit (a squeezed line is small type by another name)."""
    small = []
    for name, pdf in _aid_pdfs(sample_pdfs, built):
        found = 0
        with pdfplumber.open(pdf) as doc:
            for i, page in enumerate(doc.pages, 1):
                tables = _tables(page)
                found += len(tables)
                for ch, box, size in _chars(page):
                    a, b, *_ = ch["matrix"]
                    in_table = any(_inside(box, t, 0.3) for t in tables)
                    floor = 7.5 if in_table else 7.0
                    if size < floor - 0.02 or (a * a + b * b) ** 0.5 < 0.92 * size:
                        small.append((name, i, ch["text"], round(size, 2), in_table))
        assert found, (name, "no table found on its aid cards")
    assert not small, small[:20]


def _note_texts(game) -> list[str]:
    """Every note a card prints (one bullet, one key line, one paragraph)."""
    out = []
    for card in aids.all_cards(game):
        for part in card.parts:
            if isinstance(part, aids.Para):
                out += [text for text, bold in part.lines if not bold and len(text) > 30]
    return out


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.slow
@pytest.mark.parametrize("name", SAMPLES + FIXTURES)
def test_no_note_is_split_between_columns_or_pages(sample_pdfs, built, name):
    """Each note is read whole inside one card frame: none runs from one page or column on to
    the next."""
    pdf = sample_pdfs[name]["aids"] if name in SAMPLES else built[name]["aids"]
    folder = find_game(name) if name in SAMPLES else FIXTURES_DIR / name
    game = player_view(load_game(folder))
    texts = []
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages:
            for x0, top, x1, bottom in _frames(page):
                crop = page.crop((x0 / PT, top / PT, x1 / PT, bottom / PT), strict=False)
                texts.append(_squash(crop.extract_text(x_tolerance=1) or ""))
    split = [n for n in _note_texts(game) if not any(_squash(n) in t for t in texts)]
    assert not split, split


@pytest.mark.parametrize("name", SAMPLES)
def test_set_up_lists_are_grouped_and_each_takes_a_card(name):
    """One row per side and place (units counted), places holding the same units in one row;
    each scenario's set-up and reinforcement list fits on one page (a card one column wide in
    that page's two columns)."""
    game = player_view(load_game(find_game(name)))
    w, h = paper_size(game.info.paper)
    height = h - 2 * style.PAGE_MARGIN - HEADER - FOOTER
    f = aids._Flow(w - 2 * style.PAGE_MARGIN, height)
    for sc in game.scenarios:
        if sc.setup:
            grid = aids.setup_grid(game, sc.setup)
            places = {(aids._unit_name(game, p.unit)[1], p.at, p.region) for p in sc.setup}
            assert len(grid.rows) <= len(places), (sc.id, len(grid.rows), len(places))
        for card in aids.setup_cards(game):
            if card.title.startswith(("Set-up", "Reinforcements")):
                narrow, _, _, total, _ = f._measure(card)
                room = 2 * height if narrow else height
                assert total <= room, (card.title, round(total), round(room))


def test_grouped_set_up_counts_units_and_shares_rows():
    game = player_view(load_game(find_game("eben-emael")))
    sc = next(s for s in game.scenarios if s.id == "full-combat-readiness")
    rows = {r[1].text: r[2].text for r in aids.setup_grid(game, sc.setup).rows}
    barracks = next(v for k, v in rows.items() if k == "Barracks")
    assert barracks.startswith("3 × Squad")
    shared = next(k for k, v in rows.items() if v.endswith(" in each"))
    assert "Bloc" in shared and "," in shared
    assert len(sc.setup) > 100 and len(rows) < 30  # 105 placements in under 30 rows


@pytest.mark.parametrize("name", SAMPLES + FIXTURES)
def test_one_terrain_effects_chart_per_game(name):
    """A chart of tables.toml marked as the terrain chart is printed instead of the chart made
    from map.toml, never beside it; every card picturing terrain is that one card."""
    folder = find_game(name) if name in SAMPLES else FIXTURES_DIR / name
    game = player_view(load_game(folder))
    cards = aids.all_cards(game)
    pictured = [c.title for c in cards for part in c.parts if isinstance(part, aids.Grid)
                if any(cell.draw for row in part.rows for cell in row)]
    assert len(pictured) == 1, pictured
    marked = [t for t in game.tables if getattr(t, "terrain", ())]
    if marked:
        assert pictured == [marked[0].name]
        assert sum(c.title == marked[0].name for c in cards) == 1

