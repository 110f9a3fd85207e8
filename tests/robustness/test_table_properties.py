"""Random valid tables of every computed kind, random inputs: the engine never crashes, and the
odds it gives are exact fractions summing to 1 (and contain the result a roll gives)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter
from robustness.robust_runner import FIXTURES
from robustness.table_strategies import TABLES

from builder.load import load_game
from builder.model.game_model import Game
from builder.model.tables import Table, dice_range
from builder.tables.api import CalcError, calculate, describe_inputs

EXAMPLES = 100  # per table kind: 500 tables, each with one input set and one roll
TABLE = TypeAdapter(Table)
MINI = load_game(FIXTURES["mini"])


def game_with(table) -> Game:
    """The fixture game with just this table (a fresh Game: its cached lookups start empty)."""
    return Game(slug="mini", folder=MINI.folder, info=MINI.info, map=MINI.map, units=MINI.units,
                markers=MINI.markers, tables=(table,), scenarios=MINI.scenarios, rules=MINI.rules)


def draw_inputs(data, game, specs) -> dict:
    hexes = [game.grid.label(h) for h in game.grid.all_hexes()]
    values = {}
    for s in specs:
        if not s.required and not data.draw(st.booleans()):
            continue
        if s.type == "int":
            lo = s.min if s.min is not None else -5
            one = (st.integers(lo, s.max) if s.max is not None
                   else st.integers(lo, lo + 40) | st.integers(lo, 10**9))  # huge strengths too
        elif s.type == "bool":
            one = st.booleans()
        elif s.type == "hex":
            one = st.sampled_from(hexes)
        else:
            one = st.sampled_from([c.value for c in s.choices])
        values[s.id] = (data.draw(st.lists(one, min_size=1, max_size=3, unique=True)) if s.multiple
                        else data.draw(one))
    return values


def total(pairs) -> Fraction:
    return sum((p for _, p in pairs), Fraction(0))


@pytest.mark.parametrize("kind", list(TABLES))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_table_gives_whole_distributions(kind, data):
    raw = data.draw(TABLES[kind], label="table")
    table = TABLE.validate_python(raw)  # valid by construction: a refusal is a model defect
    game = game_with(table)
    specs = describe_inputs(game, "t")
    inputs = draw_inputs(data, game, specs)
    try:
        odds = calculate(game, "t", inputs)
    except CalcError as exc:  # e.g. odds below the first column when beyond_low = not-allowed
        assert str(exc)
        event("CalcError")
        return
    event("calculated")
    assert odds.distribution or odds.outcome, "neither odds nor a result"
    if odds.distribution:
        assert total(odds.distribution) == 1, odds.to_dict()
        assert all(p > 0 for _, p in odds.distribution)
    if odds.columns:
        assert total(odds.columns) == 1
    if not getattr(table, "dice", ""):
        return
    lo, hi = dice_range(table.dice)
    count = inputs.get("markers", 1) if kind == "modified-roll" else 1
    roll = data.draw(st.lists(st.integers(lo, hi), min_size=count, max_size=count), label="roll")
    rolled = calculate(game, "t", inputs, roll=",".join(map(str, roll)))
    assert rolled.outcome is not None
    if odds.distribution:
        assert rolled.outcome.key() in {o.key() for o, _ in odds.distribution}


@pytest.mark.parametrize("kind", list(TABLES))
@settings(max_examples=EXAMPLES // 3, deadline=None)
@given(data=st.data())
def test_random_typed_inputs_give_clear_errors(kind, data):
    """Whatever a player types (any text, any roll), the answer or a CalcError, never a crash."""
    table = TABLE.validate_python(data.draw(TABLES[kind], label="table"))
    game = game_with(table)
    names = [s.id for s in describe_inputs(game, "t")] + ["bogus"]
    text = st.text(max_size=12) | st.integers(-10**6, 10**6).map(str)
    inputs = data.draw(st.dictionaries(st.sampled_from(names), text, max_size=4), label="inputs")
    roll = data.draw(st.none() | text, label="roll")
    try:
        calculate(game, "t", inputs, roll=roll)
    except (CalcError, ValueError) as exc:
        assert str(exc)
