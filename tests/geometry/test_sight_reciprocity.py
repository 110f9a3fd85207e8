"""Line of sight is reciprocal: A sees B exactly when B sees A, on every pair of hexes of every
sample and fixture map (its own line-of-sight table, or the built-in rule for a map without one),
and the per-pair answer `builder calc` gives equals the whole-map view the module reads.

The whole-map view (builder.sightmap) works each pair out from the first hex's side with the
lines from it; the per-pair answer (builder.mapinfo.line_of_sight) from the pair in cube order.
So the view's symmetry checks the rule itself, not just the ordering.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path

import numpy as np
import pytest

from builder import mapinfo, sightmap
from builder.geometry import sight
from builder.load import find_game, list_games, load_game
from builder.model.tables import LineOfSightTable

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted(p.name for p in (ROOT / "tests" / "fixtures").iterdir()
                  if (p / "map.toml").is_file() and "kind = \"hex\"" in (p / "map.toml").read_text())
GAMES = list_games() + [f"tests/fixtures/{f}" for f in FIXTURES]


@functools.cache
def _loaded(name: str):
    """(game, its rule, the rule's whole-map view), once per game for both tests."""
    game = load_game(find_game(str(ROOT / name) if "/" in name else name))
    if not game.is_hex:
        return game, None, None
    rule = _rule(game)
    return game, rule, sightmap.view(game, rule)


def _rule(game):
    declared = [t for t in game.tables if t.kind == "line-of-sight"]
    if declared:
        return declared[0]
    return LineOfSightTable(id="los", name="built-in", kind="line-of-sight", max_range=8,
                            blind_hexes=1)


def _moved(arr, d, fill=False):
    """arr read at each cell + d."""
    out = np.full_like(arr, fill)
    nq, nr = arr.shape
    dq, dr = d
    out[max(0, -dq):nq + min(0, -dq), max(0, -dr):nr + min(0, -dr)] = \
        arr[max(0, dq):nq + min(0, dq), max(0, dr):nr + min(0, dr)]
    return out


@pytest.mark.parametrize("name", GAMES, ids=lambda n: Path(n).name)
def test_every_pair_sees_both_ways(name):
    _, _, view = _loaded(name)
    if view is None:
        pytest.skip("an area map has no lines of sight")
    pairs = 0
    for d, arr in view.seen.items():
        cells = view.on_map & _moved(view.on_map, d)  # both hexes on the map
        back = _moved(view.seen[(-d[0], -d[1])], d)  # does the hex d away see this one?
        differ = cells & (arr != back)
        pairs += int(cells.sum())
        assert not differ.any(), (
            f"{name}: {int(differ.sum())} hexes see the hex {d} away without being seen back, "
            "e.g. " + ", ".join(view.labels[(int(i) + view.q0, int(j) + view.r0)]
                               for i, j in np.argwhere(differ)[:3]))
    assert pairs > 0


@pytest.mark.parametrize("name", GAMES, ids=lambda n: Path(n).name)
def test_calc_answers_as_the_view_both_ways(name):
    game, rule, view = _loaded(name)
    if view is None:
        pytest.skip("an area map has no lines of sight")
    hexes = list(game.grid.all_hexes())
    rng = random.Random(11)
    cube = {h: game.grid.cube(h)[:2] for h in hexes}
    checked = 0
    while checked < 120:
        a, b = rng.choice(hexes), rng.choice(hexes)
        if not 2 <= game.grid.distance(a, b) <= rule.max_range:
            continue
        checked += 1
        one = mapinfo.line_of_sight(game, rule, a, b)["seen"]
        other = mapinfo.line_of_sight(game, rule, b, a)["seen"]
        assert one == other == view.sees(cube[a], cube[b]) == view.sees(cube[b], cube[a]), \
            (game.grid.label(a), game.grid.label(b), one, other)


def test_lines_are_the_same_from_either_end():
    """The geometry alone: the hexes the lines from A to B cross are those the lines from B to A
    cross."""
    for d in sightmap.steps(8):
        there = {frozenset(line.crossed) for line in sight.lines(*d, True)}
        back = {frozenset((o[0] + d[0], o[1] + d[1]) for o in line.crossed)
                for line in sight.lines(-d[0], -d[1], True)}
        assert there == back, d
