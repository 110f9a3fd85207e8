"""Filling each calculator's form as a player does gives what the Python API gives.

For every calculator: a case for the odds, a case with a roll, and one the API refuses, typed
into the form; the page's shown result, column and odds must match `builder calc`.
"""

from __future__ import annotations

import pytest

from tests.aid.cases import python_answer
from tests.aid.conftest import GAMES, game_id
from tests.aid.forms import fill, pick, shown


@pytest.mark.parametrize("name", GAMES, ids=game_id)
def test_forms_match_python(name, games, pages, open_page):
    game = games[name]
    page, _ = open_page(pages[name], width=390, height=900)
    todo = pick(game)
    assert todo
    for calc_id, inputs, roll, py in todo:
        fill(page, calc_id, inputs, roll)
        got = shown(page, calc_id)
        where = f"{name} {calc_id} {inputs} roll={roll}: page shows {got}"
        if "error" in py:
            assert got["state"] in ("error", "incomplete"), where
            continue
        assert got["state"] == "done", where
        assert got["column"] == (py["column"] or ""), where
        if roll is not None or not game_dice(game, calc_id):
            assert got["result"] == (py["result"] or ""), where
            assert py["result"] in got["text"], where
        if len(py["distribution"]) > 1:
            # the bars are the odds without the roll: compare with the API's odds
            odds = python_answer(game, calc_id, inputs, None)["distribution"]
            assert got["odds"] == [[r, p] for r, p, _ in odds], where


def game_dice(game, calc_id: str) -> str:
    t = game.table_by_id.get(calc_id)
    return getattr(t, "dice", "") if t is not None else ""
