"""The five sample games load, and what the rule documents state is in their sources.

The expectations below are typed from ../shared/seeds/*.txt, independently of sources/.
"""

from __future__ import annotations

from collections import Counter

import pytest
from repo_paths import ROOT

from builder.load import list_games, load_game

SAMPLES = ["scheldt", "vimy-ridge", "eben-emael", "europa-terrain", "operation-veritable"]


def game(name):
    return load_game(ROOT / "sources" / name)


def labels_at(g):
    return {lab.text: lab.hex for lab in g.map.labels}


def unit(g, printed, front=None):
    found = [u for u in g.units if u.unit == printed and (front is None or u.front == front)]
    assert found, f"no unit printed '{printed}' {front or ''}"
    return found[0]


def setup_of(g, unit_id):
    return [p for s in g.scenarios for p in s.setup if p.unit == unit_id]


def test_all_samples_present():
    assert sorted(SAMPLES) == sorted(n for n in list_games(ROOT / "sources") if n in SAMPLES)


@pytest.mark.parametrize("name", SAMPLES)
def test_sample_checks_clean(name, run_cli):
    result = run_cli("check", ROOT / "sources" / name)
    assert result.exit_code == 0, result.output + result.stderr
    last = result.output.rstrip().splitlines()[-1]  # warnings (issue 15) leave it valid
    assert last == "  ok" or last.startswith("  ok, with "), last


@pytest.mark.parametrize("name", SAMPLES)
def test_sample_has_every_part(name):
    g = game(name)
    assert g.units and g.markers and g.tables and g.scenarios and g.rules
    assert all(s.setup for s in g.scenarios)


# --- Battle of the Scheldt -------------------------------------------------------------------
SCHELDT_TOWNS = {"Goes": "1832", "Flushing": "2042", "Esschen": "1917", "Kapellen": "2819",
                 "Brasschaet": "3018", "Schoondike": "2642", "Terneuzen": "2736", "Woensdrecht": "2021"}
SCHELDT_SETUP = [  # 18.0: printed factors, unit, hex
    ("3-4-5", "1020", "1832"), ("3-4-5", "1019", "2042"), ("8-9-5", "245", "1917"),
    ("5-7-5", "346", "2819"), ("5-7-5", "712", "3018"), ("5-7-5", "64", "2642"),
    ("3-4-5", "1037", "3043"), ("3-4-5", "1039", "3044"), ("3-4-5", "1038", "3045"),
    ("5-4-6", "9/3", "2637"), ("6-2-6", "3", "2737"), ("5-4-6", "8/3", "2837"),
    ("5-4-6", "10/4", "3038"), ("6-5-6", "155/52", "3142"), ("5-4-6", "7/3", "3147"),
    ("5-4-6", "44/15", "3317"), ("5-4-6", "46/15", "3318"), ("5-4-6", "247/15", "3319"),
]
SCHELDT_NEAR_ANTWERP = [("5-4-6", "3/1"), ("6-3-6", "10/1"), ("5-4-6", "4/2"), ("5-4-6", "5/2"),
                        ("5-4-6", "6/2"), ("6-2-6", "2"), ("6-3-6", "4/4")]
SCHELDT_REINFORCEMENTS = [  # 11.2: factors, unit, turn, an entry hex
    ("5-7-5", "711", 1, "2717"), ("5-7-5", "719", 2, "2717"), ("8-9-5", "59", 3, "1517"),
    ("6-6-7", "2 AG", 3, "1517"), ("6-6-7", "1 AG", 3, "1517"), ("3-6-4", "1/1 FJ", 6, "1117"),
    ("3-6-4", "1/2 FJ", 6, "1617"), ("3-6-4", "1/3 FJ", 6, "1317"), ("3-6-4", "1 HG", 6, "1417"),
    ("6-6-7", "3 AG", 6, "1217"), ("6-6-7", "4 AG", 6, "1517"),
]


def test_scheldt_places_and_setup():
    g = game("scheldt")
    at = labels_at(g)
    for town, hexid in SCHELDT_TOWNS.items():
        assert at.get(town) == hexid, town
    for front, printed, hexid in SCHELDT_SETUP:
        placements = setup_of(g, unit(g, printed, front).id)
        assert [p.at for p in placements] == [hexid], printed
    for front, printed in SCHELDT_NEAR_ANTWERP:
        (p,) = setup_of(g, unit(g, printed, front).id)
        assert {p.at, *p.also} == {"3320", "3321"} and p.within == 1, printed


def test_scheldt_reinforcements_and_features():
    g = game("scheldt")
    (s,) = g.scenarios
    by_unit = {r.unit: r for r in s.reinforcements}
    for front, printed, turn, hexid in SCHELDT_REINFORCEMENTS:
        r = by_unit[unit(g, printed, front).id]
        assert r.turn == turn and hexid in r.at, printed
    for printed in ("413/104", "414/104", "415/104"):
        assert by_unit[unit(g, printed).id].turn == 7
    sides = {frozenset(side.split("/")) for h in g.map.hexsides for side in h.sides}
    assert frozenset({"1739", "1838"}) in sides or frozenset({"1838", "1739"}) in sides
    assert frozenset({"2737", "2738"}) in sides
    for inlet in ("3523", "1536", "1623"):
        assert any("inlet" in t for t in g.hex_terrain[g.hex(inlet)]), inlet
    crt = next(t for t in g.tables if t.kind == "differential")
    assert [r.differentials[0] for r in crt.terrain_rows][:5] == ["-1", "-2", "-3", "-4", "-5"]


# --- Vimy Ridge ------------------------------------------------------------------------------
def test_vimy_counts():
    g = game("vimy-ridge")
    terrain = Counter(t for ts in g.hex_terrain.values() for t in ts)
    assert terrain["peak"] == 13  # 12.1: 13 peak hexes
    assert sum(1 for o in g.map.objectives if o.kind == "peak") == 13
    assert g.info.turns.count == 11  # 20.1
    assert any(o.hex == "1534" for o in g.map.objectives)  # German supply hex in Petit Vimy
    bombard = sum(m.copies for m in g.markers if m.kind == "bombardment")
    assert bombard == 13  # 11.1
    track = {t.side: t.per_turn for s in g.scenarios for t in s.tracks}
    assert track["allied"][1] == 8 and track["german"][1] == 5  # 17.1 "8/5" on turn 2
    night = [t.number for t in g.info.turns.detail if t.night]
    assert night and all(
        a.count == 2 for s in g.scenarios for a in s.allowances if a.kind == "replacement"
    )


# --- Eben-Emael ------------------------------------------------------------------------------
def test_eben_emael_counts():
    g = game("eben-emael")
    assert g.map.kind == "area" and g.map.stacking_cap == 80
    assert g.info.turns.count == 15
    names = {s.name for s in g.map.sectors}
    for bunker in ("Bloc 1", "Bloc 2", "Bloc 3", "Bloc 4", "Bloc 5", "Mi Nord", "Mi Sud"):
        assert any(bunker in n for n in names), bunker
    gliders = [m for m in g.markers if m.kind == "glider"]
    assert sum(m.copies for m in gliders) == 12  # 11 gliders and glider 12
    specials = [m for m in g.markers if m.kind == "special-action"]
    assert len({m.deck for m in specials}) == 1 and sum(m.copies for m in specials) >= 20
    ratio = next(t for t in g.tables if t.kind == "ratio")
    assert list(ratio.columns) == ["1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"]


# --- Europa terrain --------------------------------------------------------------------------
def test_europa_sheets_and_features():
    g = game("europa-terrain")
    ids = {s.id for s in g.map.sheets}
    assert {"16A", "4A"} <= ids and len(ids) >= 2
    kinds = {t.id: t.style for t in g.map.hexside_types}
    sides = {(kinds[h.type], side) for h in g.map.hexsides for side in h.sides}
    assert any(style == "causeway" and set(s.split("/")) in ({"16A:0827", "0727"}, {"16A:0727", "0827"},
                                                            {"16A:0827", "16A:0727"})
               for style, s in sides)
    assert any({"3525", "3526"} <= set(s.replace("4A:", "").split("/")) for _, s in sides)
    assert any(t.style == "ferry" for t in g.map.line_types)
    assert any("lake" in t.id for t in g.map.terrain_types)
    for h in ("16A:0623", "16A:0922", "16A:1122", "16A:0417"):
        assert g.grid.contains(g.hex(h)), h


def test_europa_is_a_campaign_map_of_joined_sheets():
    """Issue 16 item 7: at least four sheets meet at their edges in one region, hexsides and
    railways cross the joins, and a scenario is played across them."""
    g = game("europa-terrain")
    grid = g.grid
    touching: dict[str, set[str]] = {s.id: set() for s in g.map.sheets}
    for h in grid.all_hexes():
        for n in grid.neighbours(h):
            if n.sheet != h.sheet:
                touching[h.sheet].add(n.sheet)
    region, todo = set(), ["16A"]
    while todo:
        s = todo.pop()
        if s not in region:
            region.add(s)
            todo.extend(touching[s])
    assert region == {"16A", "16B", "17A", "17B"}
    corner = [g.hex(x) for x in ("16A:1630", "16B:0130", "17A:1601", "17B:0101")]
    for a in corner:  # the four sheets meet at one point: each corner hex touches the others
        assert sum(b in grid.neighbours(a) for b in corner if b != a) >= 2, grid.label(a)
    crossing = [(k, a, b) for k, a, b in g.hexside_list if a.sheet != b.sheet]
    assert {frozenset((a.sheet, b.sheet)) for _, a, b in crossing} >= {
        frozenset(("16A", "16B")), frozenset(("16A", "17A")), frozenset(("16B", "17B"))}
    rail_joins = set()
    for line in g.map.lines:
        hexes = g.hexes(line.hexes)
        rail_joins |= {frozenset((x.sheet, y.sheet)) for x, y in zip(hexes, hexes[1:])
                       if x.sheet != y.sheet}
    assert len(rail_joins) >= 4
    rhine = next(s for s in g.scenarios if s.id == "rhine")
    used = {g.hex(p.at).sheet for p in rhine.setup if p.at[:1].isdigit()}
    assert used >= {"16A", "17A", "17B"}
    # the rule-41 features stay where the rules put them
    for h in ("16A:0827", "16A:0922", "16B:1107", "4A:3525", "15B:0813", "19A:3413", "22A:3219"):
        assert g.grid.contains(g.hex(h)), h


# --- Operation Veritable ---------------------------------------------------------------------
def test_veritable_counts():
    g = game("operation-veritable")
    assert sum(u.copies for u in g.units) == 48  # 2.0: 48 5/8" square pieces
    at = labels_at(g)
    assert at.get("Cleve") == "1304" and at.get("Goch") == "1510"
    assert g.info.turns.count >= 7
    assert sum(1 for u in g.units if "stacking-bonus" in u.marks) >= 3  # 79th Armoured
