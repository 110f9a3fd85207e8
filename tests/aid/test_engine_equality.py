"""The page's calculators give the same answers as the Python API (`builder calc`).

Every calculator of every sample and table fixture runs a set of cases (inputs for the odds,
every roll on some, errors too) through the page's engine and through builder.tables.api:
results, columns, exact odds of every outcome and expected losses must agree.
"""

from __future__ import annotations

import pytest

from tests.aid.cases import cases, comparable, python_answer
from tests.aid.conftest import GAMES, game_id

ENGINE = """(cs) => cs.map(([id, inp, roll]) => {
  try { return AidEngine.calculate(id, inp, roll); }
  catch (e) { return {error: String(e.message), kind: e.constructor.name}; }
})"""


@pytest.mark.parametrize("name", GAMES, ids=game_id)
def test_page_engine_matches_python(name, games, pages, open_page):
    game = games[name]
    page, _ = open_page(pages[name])
    todo = cases(game)
    assert len(todo) > 20
    answers = page.evaluate(ENGINE, [[c, i, r] for c, i, r in todo])
    bad = []
    answered = set()
    for (calc_id, inputs, roll), js in zip(todo, answers):
        py = python_answer(game, calc_id, inputs, roll)
        if "error" in js:
            assert js["kind"] == "CalcError", f"{calc_id} {inputs} {roll}: the page crashed: {js}"
            got = {"error": True}
        else:
            got = comparable(js)
            answered.add(calc_id)
        want = {"error": True} if "error" in py else py
        if got != want:
            bad.append(f"{calc_id} {inputs} roll={roll}\n   python: {py}\n   page:   {js}")
    assert not bad, f"{len(bad)} of {len(todo)} cases differ:\n" + "\n".join(bad[:5])
    # every calculator was answered at least once (not only errors)
    from builder.tables import api

    assert answered == {c["id"] for c in api.list_calculators(game)}


def test_cases_exercise_the_tables(games):
    """The cases reach many cells: every result of the Scheldt CRT and the Eben-Emael odds."""
    name = "scheldt" if "scheldt" in games else next(iter(games))
    game = games[name]
    seen = {python_answer(game, c, i, r).get("result") for c, i, r in cases(game) if c == "crt"}
    cells = {cell for row in game.table_by_id["crt"].results.values() for cell in row}
    assert cells <= seen, f"never reached: {cells - seen}"


def test_cases_cover_every_rule_effect_and_condition(games):
    """The games compared hold a rule of every effect and every condition key (issue 13), so the
    equality above covers each meaning the engines share."""
    from builder.tables.effects import CONDITIONS, EFFECTS

    effects, keys = set(), set()
    for g in games.values():
        for t in g.tables:
            for r in t.rules:
                effects.add(r.effect)
                for c in (r.when.walk() if r.when else ()):
                    keys.update(c.keys())
    assert effects == set(EFFECTS), f"no rule with: {set(EFFECTS) - effects}"
    assert keys == set(CONDITIONS), f"no condition with: {set(CONDITIONS) - keys}"
