"""Filling each calculator's form as a player does gives what the Python API gives.

For every calculator: a case for the odds, a case with a roll, and one the API refuses, typed
into the form; the page's shown result, column and odds must match `builder calc`.
"""

from __future__ import annotations

import pytest

from tests.aid.cases import cases, python_answer
from tests.aid.conftest import GAMES, game_id


def pick(game) -> list[tuple[str, dict, object, dict]]:
    """Per calculator: the odds of a case with inputs, a rolled one, and an error if any."""
    chosen: dict[str, dict] = {}
    for calc_id, inputs, roll in cases(game):
        slot = chosen.setdefault(calc_id, {})
        py = python_answer(game, calc_id, inputs, roll)
        if "error" in py:
            slot.setdefault("error", (calc_id, inputs, roll, py))
        elif roll is None and (len(inputs) > len(slot.get("odds", ("", {}))[1])):
            slot["odds"] = (calc_id, inputs, roll, py)
        elif roll is not None and "roll" not in slot:
            slot["roll"] = (calc_id, inputs, roll, py)
    return [case for slot in chosen.values() for case in slot.values()]


def fill(page, calc_id: str, inputs: dict, roll) -> None:
    """Type the inputs into the calculator's form as a player would."""
    card = page.locator(f"#calc-{calc_id}")
    if not card.evaluate("d => d.open"):
        card.locator("summary").click()
    card.locator("form").evaluate("f => f.reset()")
    for name, value in inputs.items():
        multi = card.locator(f"fieldset[data-name='{name}']")
        if multi.count():
            for v in value:
                multi.locator(f"input[value='{v}']").check()
            continue
        field = card.locator(f"[name='{name}']")
        kind = field.get_attribute("data-type")
        if kind == "bool":
            field.set_checked(bool(value))
        elif field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(", ".join(value) if isinstance(value, list) else str(value))
    if roll is not None:
        card.locator("[data-type=roll]").fill(str(roll))
    else:
        odds = card.locator("[data-action=odds]")
        if odds.count():
            odds.click()
    card.locator("form").dispatch_event("change")


def shown(page, calc_id: str) -> dict:
    """What the page shows: state, result, column and the odds bars."""
    return page.evaluate("""(id) => {
      const out = document.querySelector('#calc-' + CSS.escape(id) + ' .calc-out');
      return {state: out.dataset.state, result: out.dataset.result, column: out.dataset.column,
              text: out.textContent,
              odds: [...out.querySelectorAll('.odds li')].map(li => [li.dataset.result, li.dataset.probability])};
    }""", calc_id)


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
