"""Place facts read the same way everywhere (issue 41, item 2): on every table of every sample and
fixture, naming the defender's (target's) hex or sector gives the same answer as naming the
terrain in it, for every terrain the map combines in one place. Where the place says more than
its terrain (a region, a named place near it, the machine guns in a sector) the answer may
differ, and the terrain-only answer must then say that the place would decide more.
"""

from __future__ import annotations

import pytest

from builder.tables import api
from tests.tables.games import ROOT, fixture, game

SAMPLES = sorted(p.name for p in (ROOT / "sources").iterdir() if (p / "tables.toml").is_file())
FIXTURES = sorted(p.name for p in (ROOT / "tests" / "fixtures").iterdir()
                  if (p / "tables.toml").is_file())
GAMES = [("sources", n) for n in SAMPLES] + [("fixtures", n) for n in FIXTURES]


def _load(where: str, name: str):
    return game(name) if where == "sources" else fixture(name)


def _base(inputs: list) -> dict:
    """Required inputs with a middling value."""
    out = {}
    for s in inputs:
        if not s.required or s.type == "hex":
            continue
        if s.type == "int":
            lo = s.min if s.min is not None else 0
            out[s.id] = [lo + 7] if s.multiple else lo + 7
            if s.max is not None:
                out[s.id] = min(lo + 7, s.max)
        elif s.type == "choice":
            out[s.id] = s.choices[0].value
    return out


def _places(g) -> list:
    """One place for each combination of terrain the map has (hexes: the first in map order)."""
    from builder import mapinfo

    if not g.is_hex:
        return [(s.id, tuple(s.terrain)) for s in g.map.sectors]
    seen: dict[tuple, object] = {}
    for h in sorted(g.grid.all_hexes()):
        seen.setdefault(tuple(sorted(mapinfo.terrain_of(g, h))), h)
    return [(g.grid.label(h), terrain) for terrain, h in seen.items()]


def _place_only(g, t, where: str) -> bool:
    """Whether the place decides something its terrain cannot: a region or named place that a
    rule or modifier tests holds there, or a sector's machine guns fire first."""
    from builder.tables import place, rules

    values = {"hex": g.hex(where)} if g.is_hex else {"sector": where}
    p = place.read(g, values)
    f = rules.facts(g, t, {}, p)
    for r in t.rules:
        for c in (r.when.walk() if r.when else ()):
            if c.region and f.regions and set(c.region) & f.regions:
                return True
            if c.place and rules.holds(g, type(c)(place=c.place, within=c.within), f):
                return True
    if any(set(m.regions) & set(p.regions or ()) for m in getattr(t, "modifiers", ())):
        return True
    sector = None if g.is_hex else g.sector_by_id[where]
    return bool(sector is not None and sector.mg and getattr(t, "fire_first", ""))


def _answer(c) -> tuple:
    d = c.to_dict()
    return (d["result"], d["column"], [(x["result"], x["probability"]) for x in d["distribution"]],
            d["expected"])


@pytest.mark.parametrize("where,name", GAMES, ids=[n for _, n in GAMES])
def test_naming_the_place_or_its_terrain_gives_one_answer(where, name):
    g = _load(where, name)
    key = "hex" if g.is_hex else "sector"
    compared = 0
    for calc in api.list_calculators(g):
        ids = {i["id"] for i in calc["inputs"]}
        if not {"terrain", key} <= ids:
            continue
        t = g.table_by_id[calc["id"]]
        base = _base(api.describe_inputs(g, t.id))
        for label, terrain in _places(g):
            if not terrain:  # a sector without terrain: no terrain can be named for it
                continue
            by_place = api.calculate(g, t.id, {**base, key: label})
            by_terrain = api.calculate(g, t.id, {**base, "terrain": list(terrain)})
            if _place_only(g, t, label):
                if _answer(by_place) != _answer(by_terrain):
                    assert any(w in n for n in by_terrain.notes for w in ("hex", "place", "sector")), (
                        f"{name} {t.id} at {label}: the place decides more than its terrain, "
                        f"but the terrain-only answer does not say so: {by_terrain.notes}")
                continue
            assert _answer(by_place) == _answer(by_terrain), (
                f"{name} {t.id}: {key}={label} and terrain={','.join(terrain)} differ:\n"
                f"  place:   {by_place.steps}\n  terrain: {by_terrain.steps}")
            compared += 1
    if any({"terrain", key} <= {i["id"] for i in c["inputs"]} for c in api.list_calculators(g)):
        assert compared, f"{name}: no place was compared"


def test_a_terrain_modifier_applies_from_the_hex_on_a_combat_table():
    """The issue's case: a terrain modifier on a table that also reads the hex (a combat table)
    applies when the hex is named, exactly as when its terrain is named."""
    g = _load("sources", "vimy-ridge")
    woods = next(lab for lab, terrain in _places(g) if terrain == ("woods",))
    by_hex = api.calculate(g, "bombardment", {"hex": woods, "turn": 2}, roll=3)
    by_terrain = api.calculate(g, "bombardment", {"terrain": "woods", "turn": 2}, roll=3)
    assert by_hex.column == by_terrain.column == "modifier +2"
    assert by_hex.result == by_terrain.result


def test_old_input_names_still_name_the_place():
    g = _load("sources", "vimy-ridge")
    a = api.calculate(g, "crt", {"attack": 9, "defence": 4, "defender_hex": "1220"})
    b = api.calculate(g, "crt", {"attack": 9, "defence": 4, "hex": "1220"})
    assert a.column == b.column
    with pytest.raises(api.CalcError, match="given twice"):
        api.calculate(g, "crt", {"attack": 9, "defence": 4, "hex": "1220", "defender_hex": "1220"})
