"""Using a calculator's form as a player does: the cases to type, typing them, what is shown."""

from __future__ import annotations

from tests.aid.cases import cases, python_answer


def on_page(game) -> dict[str, dict]:
    """The calculators the page shows (builder.aid.tools), by id, with the inputs of their forms."""
    from builder.aid.tools import offered
    from builder.tables import api

    return {c["id"]: c for c in offered(game, api.list_calculators(game))}


def pick(game) -> list[tuple[str, dict, object, dict]]:
    """Per calculator on the page: the odds of a case with inputs, a rolled one, and an error if
    any, each typed only into fields the form has."""
    shown = on_page(game)
    chosen: dict[str, dict] = {}
    for calc_id, inputs, roll in cases(game):
        if calc_id not in shown or not {k for k in inputs} <= {i["id"] for i in shown[calc_id]["inputs"]}:
            continue
        slot = chosen.setdefault(calc_id, {})
        py = python_answer(game, calc_id, inputs, roll)
        if "error" in py:
            slot.setdefault("error", (calc_id, inputs, roll, py))
        elif roll is None and (len(inputs) > len(slot.get("odds", ("", {}))[1])):
            slot["odds"] = (calc_id, inputs, roll, py)
        elif roll is not None and "roll" not in slot:
            slot["roll"] = (calc_id, inputs, roll, py)
    return [case for slot in chosen.values() for case in slot.values()]


NEXT_FRAME = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def next_frame(page) -> None:
    """Wait until the browser has drawn the page once more: what a change set off in the page's
    requestAnimationFrame and ResizeObserver callbacks (tab stops of table regions that now
    overflow, the sections bar's current link) has run, with no fixed wait."""
    page.evaluate(NEXT_FRAME)


def open_section(page, section_id: str) -> None:
    """Open a folded section of the page as a player does: its link in the sections bar."""
    if not page.evaluate("(id) => document.getElementById(id).open", section_id):
        page.locator(f"nav.sections a[href='#{section_id}']").click()


def fill(page, calc_id: str, inputs: dict, roll) -> None:
    """Type the inputs into the calculator's form as a player would."""
    open_section(page, "calculators")
    card = page.locator(f"#calc-{calc_id}")
    if not card.evaluate("d => d.open"):
        card.locator("summary").first.click()
    more = card.locator("details.more")
    if more.count() and not more.evaluate("d => d.open"):
        more.locator("summary").click()
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
