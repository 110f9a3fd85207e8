"""Map names placed where they cover no hex number, no hexside feature and no other name, on
every sample and fixture hex map, whole and sheet by sheet (issue 16, items 2 and 8); the title
block says each thing once."""

from __future__ import annotations

from pathlib import Path

import pytest

from builder.load import find_game, list_games, load_game
from builder.render import map_layout
from builder.render.map_frame import subtitle
from builder.render.map_hex import HexDrawing
from builder.render.map_labels import Placer, crosses, overlaps, text_box

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
HEX_GAMES = [("sample", n) for n in list_games()] + [
    ("fixture", p.name) for p in sorted(FIXTURES.iterdir()) if (p / "map.toml").is_file()
    and not p.name.startswith("robust")
]


def _load(where, name):
    return load_game(find_game(name) if where == "sample" else FIXTURES / name)


def _layouts(game):
    whole = map_layout(game)
    return [whole] + [whole.sheet_layout(s) for s in whole.sheet_ids]


@pytest.mark.parametrize(("where", "name"), HEX_GAMES)
def test_no_name_covers_a_hex_number_a_hexside_or_another_name(where, name):
    game = _load(where, name)
    if not game.is_hex or game.map.artwork:
        pytest.skip("not a drawn hex map")
    for layout in _layouts(game):
        d = HexDrawing(game, layout)
        numbers, segments = d.keep_out()
        placed = [p for _lb, p in d.place_labels()]
        for i, p in enumerate(placed):
            assert not any(overlaps(p.box, b) for b in numbers), (layout.sheet, p.text, "number")
            assert not any(crosses(p.box, s, 0.0) for s in segments), (layout.sheet, p.text)
            for q in placed[i + 1 :]:
                assert not overlaps(p.box, q.box), (layout.sheet, p.text, q.text)


def test_the_issue_cases_are_off_their_hex_numbers():
    game = load_game(find_game("scheldt"))
    d = HexDrawing(game, map_layout(game))
    numbers = {h: d.number_place(h) for h in d.hexes}
    boxes = {n[0]: text_box(n[1], n[2], n[0], n[3], False, "DejaVu Sans") for n in numbers.values()}
    placed = {p.text: p for _lb, p in d.place_labels()}
    assert not overlaps(placed["BRESKENS POCKET"].box, boxes["2645"])
    assert not overlaps(placed["WALCHEREN ISLAND"].box, boxes["1543"])


def test_the_placer_moves_a_name_off_a_number_and_counts_what_it_cannot_avoid():
    number = text_box(50, 50, "2645", 1.4, False, "DejaVu Sans")
    placer = Placer([number], [((40, 60), (60, 60))], (0, 0, 100, 100))
    p = placer.place("BRESKENS POCKET", 50, 50.5, 2.8, True, "DejaVu Serif", 8.0)
    assert not overlaps(p.box, number) and not crosses(p.box, ((40, 60), (60, 60)), 0.0)
    # a second name is kept off the first
    q = placer.place("OOSTBURG", 50, 50.5, 2.8, True, "DejaVu Serif", 8.0)
    assert not overlaps(q.box, p.box)


@pytest.mark.parametrize("name", list_games())
def test_title_block_says_each_thing_once(name):
    game = load_game(find_game(name))
    title = getattr(game.map, "title", "") or game.info.title
    sub = subtitle(game, title)
    assert "at top)" not in title, "orientation belongs with the north arrow"
    for part in filter(None, [game.info.subtitle]):
        assert not (part.casefold() in title.casefold() and part.casefold() in sub.casefold())
