"""Hex numbering, neighbours and distance for flat-topped columns, single and multi-sheet."""

from __future__ import annotations

from collections import Counter

import pytest

from builder.geometry.hexgrid import HexGrid, SheetPlacement
from builder.geometry.hexid import HexId, parse_hex, parse_hex_range, parse_span


def grid(shifted="even", sheets=None):
    return HexGrid(sheets or [SheetPlacement("", 1, 40, 1, 50)], 19.05, shifted)


def labels(hexes):
    return sorted(h.label() for h in hexes)


def test_parse_and_label_round_trip():
    h = parse_hex("2717")
    assert (h.col, h.row, h.sheet) == (27, 17, "")
    assert h.label() == "2717"
    s = parse_hex("16A:0827")
    assert (s.sheet, s.col, s.row) == ("16A", 8, 27)
    assert s.label() == "16A:0827"


@pytest.mark.parametrize("bad", ["271", "27170", "27x7", "", ":2717"])
def test_malformed_ids(bad):
    with pytest.raises(ValueError, match="not a hex number"):
        parse_hex(bad)


def test_ranges_follow_the_text():
    assert labels(parse_hex_range("0603..0609")) == [f"06{r:02d}" for r in range(3, 10)]
    assert [h.label() for h in parse_hex_range("0609..0607")] == ["0609", "0608", "0607"]
    assert labels(parse_hex_range("2637..2837")) == ["2637", "2737", "2837"]
    assert len(parse_hex_range("0101..0303")) == 9
    assert parse_hex_range("4A:2929..2931")[0].sheet == "4A"
    with pytest.raises(ValueError, match="two sheets"):
        parse_hex_range("16A:0101..16B:0102")


def test_span():
    assert parse_span("10-34") == (10, 34)
    assert parse_span("07") == (7, 7)
    with pytest.raises(ValueError):
        parse_span("34-10")


def test_even_columns_lowered_scheldt_causeway():
    # Scheldt 15.2: 1838 touches 1739, 1839 and 1939 -> even printed columns sit lower.
    g = grid("even")
    n = labels(g.neighbours(parse_hex("1838")))
    assert n == ["1738", "1739", "1837", "1839", "1938", "1939"]


def test_odd_columns_lowered():
    g = grid("odd")
    assert labels(g.neighbours(parse_hex("0505"))) == ["0405", "0406", "0504", "0506", "0605", "0606"]
    assert labels(g.neighbours(parse_hex("0405"))) == ["0304", "0305", "0404", "0406", "0504", "0505"]


@pytest.mark.parametrize("shifted", ["even", "odd"])
def test_distance_is_a_metric_and_matches_neighbours(shifted):
    g = grid(shifted)
    a = parse_hex("1010")
    for b in g.all_hexes()[:400]:
        d = g.distance(a, b)
        assert d == g.distance(b, a)
        assert (d == 1) == (b in g.neighbours(a))
    assert g.distance(parse_hex("0101"), parse_hex("0110")) == 9
    assert g.distance(parse_hex("0101"), parse_hex("1001")) == 9


def test_centres_are_one_hex_apart():
    g = grid("even")
    a = parse_hex("1838")
    ax, ay = g.center_mm(a)
    for b in g.neighbours(a):
        bx, by = g.center_mm(b)
        assert ((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5 == pytest.approx(19.05)


def test_sheets_join_at_their_edge():
    sheets = [SheetPlacement("16A", 1, 10, 1, 10, 0, 0), SheetPlacement("16B", 1, 10, 1, 10, 10, 0)]
    g = HexGrid(sheets, 12.7, "even")
    edge = HexId("16A", 10, 5)
    across = [h for h in g.neighbours(edge) if h.sheet == "16B"]
    assert labels(across) and all(h.col == 1 for h in across)
    assert g.distance(HexId("16A", 1, 1), HexId("16B", 1, 1)) == 10


@pytest.mark.parametrize("sheets", [
    [SheetPlacement("", 1, 12, 1, 9)],
    # joined side by side and one above the other, an odd origin shifting the columns' parity
    [SheetPlacement("A", 1, 8, 1, 6, 0, 0), SheetPlacement("B", 1, 8, 1, 6, 8, 0),
     SheetPlacement("C", 3, 9, 2, 7, 5, 6)],
])
def test_one_hexs_neighbours_and_the_middle_hex_need_no_index(sheets):
    for shifted in ("even", "odd"):
        g = HexGrid(sheets, 12.7, shifted)
        hexes = sorted(g.all_hexes())
        assert g.middle_hex() == hexes[len(hexes) // 2]
        for h in hexes:
            assert g.neighbours_of_one(h) == g.neighbours(h), h


def test_terrain_used_is_every_terrain_a_hex_has():
    """Game.terrain_used (what the legend shows) equals the terrains of hex_terrain, including
    the default only where some hex has no terrain assigned, without building hex_terrain."""
    from builder.load import find_game, list_games, load_game
    from repo_paths import MINI

    games = [load_game(find_game(name)) for name in list_games()]
    games.append(load_game(find_game(str(MINI))))
    hex_games = [g for g in games if g.is_hex]
    assert len(hex_games) >= 4
    for game in hex_games:
        used = game.terrain_used
        assert "hex_terrain" not in game.__dict__
        assert used == {t for ts in game.hex_terrain.values() for t in ts}, game.slug
        # what `builder check` counts per terrain, from the same blocks
        counted = Counter(t for ts in game.hex_terrain.values() for t in ts)
        assert +game.terrain_hex_counts == counted, game.slug
    # a map whose every hex is assigned has no default in its legend
    game = hex_games[0]
    full = game.model_copy(update={"map": game.map.model_copy(update={"terrain": [
        type(game.map.terrain[0])(terrain=game.map.terrain[0].terrain,
                                  hexes=[h.label(game.grid.col_digits, game.grid.row_digits)
                                         for h in game.grid.all_hexes()])]})})
    # model_copy copies what game has worked out already: the copy works its own out
    for cached in ("_terrain_blocks", "hex_terrain", "terrain_hex_counts", "terrain_used"):
        full.__dict__.pop(cached, None)
    assert full.terrain_used == {game.map.terrain[0].terrain} != {
        game.map.default_terrain} | {game.map.terrain[0].terrain}
