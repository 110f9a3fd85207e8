"""The module's range and line-of-sight check markers answer as `builder calc` does, from the
hex data compiled into the module (issue 17 item 4; issue 41 item 3: every pair, by each hex's
view)."""

from __future__ import annotations

import functools
import itertools

import pytest

from builder.load import find_game, load_game
from builder.tables import api
from builder.vassal_combat import sight
from builder.vassal_combat.simulate import Battle, answer, report


@functools.cache  # the game is frozen and its view takes seconds: once per game per process
def _calc(slug: str):
    game = load_game(find_game(slug))
    return game, {c.table_id: c for c in sight.calculators(game)}


def _module(c, target: str, origin: str, **inputs) -> str:
    return answer(c, Battle(at=target, inputs={"CombatFrom": origin, **inputs}),
                  ["CombatResult"])["CombatResult"]


def test_range_matches_calc_for_every_hex():
    game, calcs = _calc("scheldt")
    c = calcs["bombardment-range"]
    labels = [game.grid.label(h) for h in game.grid.all_hexes()]
    origins = labels[::97]
    for target, origin in itertools.product(labels[::7], origins):
        want = api.calculate(game, "bombardment-range", {"target": target, "origins": [origin]},
                             account=False)
        got = _module(c, target, origin)
        assert got.startswith(want.outcome.result + ": "), (target, origin, got, want.outcome)
        assert got.split(": ")[1].startswith(f"{want.column.split()[0]} hex"), (got, want.column)


@pytest.mark.parametrize("slug", ["vimy-ridge", "tests/fixtures/hill-112"])
def test_line_of_sight_matches_calc(slug):
    """Every pair answered as builder calc answers it: by the distance, and within range by day
    from each hex's view compiled into the module (levels, heights, crests, walls, blind hexes)."""
    game, calcs = _calc(slug)
    t = next(t for t in game.tables if t.kind == "line-of-sight")
    c = calcs[t.id]
    hexes = list(game.grid.all_hexes())
    step = max(1, len(hexes) // 30)
    checked = {"observed": 0, "not observed": 0}
    for a, b in itertools.product(hexes[::step], hexes[1::step // 2 or 1]):
        obs, tgt = game.grid.label(a), game.grid.label(b)
        for night in (False, True) if t.night_range is not None else (False,):
            got = _module(c, tgt, obs, **({"CombatNight": int(night)} if t.night_range is not None
                                          else {}))
            want = api.calculate(game, t.id, {"observer": obs, "target": tgt,
                                              **({"night": night} if t.night_range is not None
                                                 else {})},
                                 account=False).outcome.result  # (unused inputs: not asked)
            assert got.split(":")[0] == want, (obs, tgt, night, got, want)
            checked[want] += 1
    assert min(checked.values()) > 20, checked
    if not t.spotter:
        return
    # a spotter next to the target observes it whatever the distance
    far = next(b for b in hexes if game.grid.distance(hexes[0], b) > t.max_range)
    got = _module(c, game.grid.label(far), game.grid.label(hexes[0]), CombatSpotter=1)
    want = api.calculate(game, t.id, {"observer": game.grid.label(hexes[0]),
                                      "target": game.grid.label(far),
                                      "spotters": [game.grid.label(far)]})
    assert got.startswith(want.outcome.result + ":")


@pytest.mark.parametrize("typed, says", [("9999", "no such hex"), ("0", "no such hex")])
def test_a_hex_the_map_lacks_is_refused(typed, says):
    _, calcs = _calc("vimy-ridge")
    assert _module(calcs["line-of-sight"], "0822", typed).startswith(says)


def test_the_chat_line_names_both_hexes_as_typed():
    _, calcs = _calc("vimy-ridge")
    line = report(calcs["line-of-sight"], Battle(at="0822", inputs={"CombatFrom": "0823"}))
    assert line == ("Observation and Line of Sight: from 0823 to 0822 -> observed: adjacent, "
                    "always observed (17.3)")
