"""Hill 112's hand-worked cases typed into the player aid's forms in headless Chromium, as a
player does (tests/tables/hill_112.py): the fire group unit by unit, morale checks, anti-tank fire,
lines of sight both ways. The page shows the result, the column and the working in fire terms."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.aid.forms import fill, shown
from tests.tables.hill_112 import CHECKS, FIRES, SIGHTS, VICTORY

pytestmark = pytest.mark.browser
NAME = "tests/fixtures/hill-112"


def test_hand_worked_cases_in_the_aid(games, pages, open_page):
    assert NAME in games, "the aid tests' fixtures include hill-112"
    page, _ = open_page(pages[NAME], width=390, height=900)
    for case in FIRES:
        fill(page, case.table, case.inputs(), case.roll)
        got = shown(page, case.table)
        where = f"{case.name}: {got}"
        assert got["state"] == "done", where
        if case.result:
            assert got["result"] == case.result, where
        if case.column and case.result != "not allowed":
            assert got["column"] == case.column, where
        for words in case.working:
            assert words in got["text"], (words, where)
        text = got["text"].lower()
        assert "attacking strength" not in text and "differential" not in text, where
        if case.odds:
            assert {r: Fraction(p) for r, p in got["odds"]} == case.odds, where
    for case in CHECKS:
        fill(page, "morale", case.inputs, case.roll)
        got = shown(page, "morale")
        assert got["state"] == "done", (case.name, got)
        if case.result:
            assert got["result"] == case.result, (case.name, got)
        if case.odds:
            assert {r: Fraction(p) for r, p in got["odds"]} == case.odds, (case.name, got)
    for case in SIGHTS:
        for obs, tgt in ((case.a, case.b), (case.b, case.a)):
            fill(page, "sight", {"observer": obs, "target": tgt,
                                 **({"night": True} if case.night else {})}, None)
            got = shown(page, "sight")
            want = "observed" if case.seen else "not observed"
            assert got["result"] == want, (case.name, obs, tgt, got)
            assert case.why in got["text"], (case.name, case.why, got["text"])
    for inputs, result in VICTORY:
        fill(page, "victory", inputs, None)
        got = shown(page, "victory")
        assert got["result"] == result, (inputs, got)
