"""What axe cannot see, tested directly: focus is never hidden under the sticky sections bar or
the fixed dice bar, the live region says one short line per calculation, and every calculator
is reached from the top, filled and rolled with the keyboard alone."""

from __future__ import annotations

import pytest

from builder.tables import api
from tests.aid.conftest import GAMES, SAMPLES, game_id
from tests.aid.forms import next_frame, on_page, open_section

# records, as each element gets the keyboard's focus (the browser has scrolled it into view by
# then), whether it is clear of the bars and inside the window
WATCH_FOCUS = """() => {
  window.__focus = [];
  const nav = document.querySelector('nav.sections'), dice = document.querySelector('.dice');
  document.addEventListener('focusin', (e) => {
    const el = e.target, r = el.getBoundingClientRect();
    const bars = [nav, dice].filter(b => b && !b.contains(el));
    // hidden where a bar is what the eye sees there (the bars' stacking order counts)
    const xs = [r.left + 2, (r.left + r.right) / 2, r.right - 2].map(x => Math.min(Math.max(x, 0), innerWidth - 1));
    const ys = [r.top + 2, (r.top + r.bottom) / 2, r.bottom - 2];
    const covered = ys.filter(y => y >= 0 && y < innerHeight).some(y => xs.some(x => {
      const hit = document.elementFromPoint(x, y); return bars.some(b => b.contains(hit)); }));
    // the room between the bars, where a tall element must show its top or fill all of it
    const top = nav && !nav.contains(el) ? Math.max(0, nav.getBoundingClientRect().bottom) : 0;
    const bottom = dice && !dice.contains(el) ? dice.getBoundingClientRect().top : innerHeight;
    const vertical = r.height <= bottom - top
      ? r.top >= -0.5 && r.bottom <= innerHeight + 0.5 && !covered
      : (r.top >= top - 0.5 && r.top < bottom) || (r.top <= top && r.bottom >= bottom);
    const horizontal = r.width > innerWidth || (r.left >= -0.5 && r.right <= innerWidth + 0.5);
    const label = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' "' +
      (el.getAttribute('aria-label') || el.textContent || el.name || '').trim().slice(0, 30) + '"';
    window.__focus.push({el: label, ok: vertical && horizontal,
      rect: [r.left, r.top, r.right, r.bottom].map(Math.round), room: [Math.round(top), Math.round(bottom)]});
  });
}"""

TABBABLE = """() => [...document.querySelectorAll(
  'a[href], button, input, select, textarea, summary, [tabindex]')]
  .filter(e => e.tabIndex >= 0 && !e.disabled && e.getClientRects().length
               && getComputedStyle(e).visibility !== 'hidden').length"""


@pytest.mark.parametrize("width", (390, 1280))
@pytest.mark.parametrize("name", GAMES, ids=game_id)
def test_focus_is_never_under_a_bar(name, width, pages, open_page):
    """Tab through the whole page, everything unfolded: each element focused is in full view."""
    page, _ = open_page(pages[name], width=width, height=700)
    page.evaluate("document.querySelectorAll('details:not(.dice-history)')"
                  ".forEach(d => { d.open = true; })")
    next_frame(page)  # the table regions' tab stops follow the new layout
    page.evaluate(WATCH_FOCUS)
    stops = page.evaluate(TABBABLE)
    for _ in range(stops):
        page.keyboard.press("Tab")
    seen = page.evaluate("window.__focus")
    assert len(seen) >= stops * 0.95, f"{len(seen)} of {stops} elements were reached by Tab"
    hidden = [f for f in seen if not f["ok"]]
    assert not hidden, f"{game_id(name)} at {width} px: {len(hidden)} hidden, e.g. {hidden[:3]}"


def _live_log(page) -> None:
    """Record every change of any live region on the page: [time, region, text]."""
    page.evaluate("""() => {
      window.__said = [];
      for (const r of document.querySelectorAll(
          '[aria-live], [role=status], [role=alert], [role=log], output')) {
        if (r.getAttribute('aria-live') === 'off') continue;
        new MutationObserver(() => window.__said.push([performance.now(), r.id || r.className,
          r.textContent])).observe(r, {childList: true, characterData: true, subtree: true});
      }
    }""")


def _first_dice_calc(games, name):
    return next((c for c in list(on_page(games[name]).values())
                 if c["dice"] and any(i["type"] == "int" and i["required"] for i in c["inputs"])),
                None)


@pytest.mark.parametrize("name", SAMPLES, ids=game_id)
def test_one_short_line_per_calculation(name, games, pages, open_page):
    calc = _first_dice_calc(games, name)
    if calc is None:
        pytest.skip(f"{game_id(name)}: no calculator with dice and a number to type")
    page, _ = open_page(pages[name], width=390, height=800, clock=True)
    open_section(page, "calculators")
    card = page.locator(f"#calc-{calc['id']}")
    if not card.evaluate("d => d.open"):
        card.locator("summary").first.click()
    for spec in calc["inputs"]:  # everything but the first number given, so typing completes it
        if spec["required"] and spec["type"] == "choice":
            card.locator(f"[name='{spec['id']}']").select_option(spec["choices"][0]["value"])
    numbers = [i for i in calc["inputs"] if i["type"] == "int" and i["required"]]
    for spec in numbers[1:]:
        card.locator(f"[name='{spec['id']}']").fill(str(spec["min"] or 1))
    _live_log(page)
    field = card.locator(f"[name='{numbers[0]['id']}']")
    field.fill("")
    for key in "12" if numbers[0]["max"] is None or numbers[0]["max"] >= 12 else "1":
        field.press(key)
        page.clock.run_for(120)  # a player's pace
    assert page.evaluate("window.__said") == [], "said while the player types"
    page.clock.run_for(1500)
    said = page.evaluate("window.__said")
    assert len(said) == 1, f"typing gave {len(said)} announcements: {said}"
    _, region, text = said[0]
    assert region == "announce" and calc["name"] in text and len(text) <= 160, said
    steps = card.locator(".steps li").all_inner_texts()
    assert not any(s in text for s in steps), "the working is not read out"
    # rolling: one line with the roll and the result, and the dice display says nothing
    page.evaluate("window.__said = []")
    card.locator("[data-action=roll-resolve]").click()
    page.clock.run_for(800)
    said = page.evaluate("window.__said")
    assert [s[1] for s in said] == ["announce"], said
    result = card.locator(".calc-out").get_attribute("data-result")
    assert result in said[0][2] and "roll" in said[0][2], said
    # the dice bar alone: one line for a roll (its last button: the most dice the tables roll)
    page.evaluate("window.__said = []")
    die = page.locator(".die-btn").last
    spec = die.get_attribute("data-dice")
    die.click()
    page.clock.run_for(500)
    said = page.evaluate("window.__said")
    total = page.locator("#dice-out").get_attribute("data-total")
    assert len(said) == 1 and said[0][2].startswith(f"{spec}: {total}"), said


def _press_until(page, test: str, limit: int = 60) -> int:
    """Press Tab until `test` (JS, of document.activeElement) holds; the presses it took."""
    for n in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate(f"(e => {test})(document.activeElement)"):
            return n
    raise AssertionError(f"not reached in {limit} Tab presses: {test}")


def _key_in(page, spec: dict, value) -> None:
    """Give the focused field its value with keys only."""
    kind = page.evaluate("document.activeElement.type")
    if kind == "checkbox":
        if page.evaluate("document.activeElement.checked") != bool(value):
            page.keyboard.press("Space")
    elif kind.startswith("select"):
        page.keyboard.press("Home")
        for _ in range(len(spec.get("choices", ())) + 1):
            if page.evaluate("document.activeElement.value") == value:
                break
            page.keyboard.press("ArrowDown")
        assert page.evaluate("document.activeElement.value") == value
    else:
        page.keyboard.press("Control+A")
        page.keyboard.type(", ".join(value) if isinstance(value, list) else str(value))


def test_first_calculator_in_a_handful_of_keys(games, pages, open_page):
    """From the top: Tab to the jump link, Enter, and the first calculator's first field has the
    keyboard; its roll button follows its fields."""
    for name in SAMPLES:
        calcs = list(on_page(games[name]).values())
        if not calcs:
            continue
        page, _ = open_page(pages[name], width=390, height=800)
        n = _press_until(page, "e.dataset.jump === 'calc'", limit=3)
        page.keyboard.press("Enter")  # the first field gets the keyboard once the link is followed
        page.wait_for_function("() => document.activeElement.closest('details.calc')")
        first = page.evaluate("document.activeElement.closest('details.calc')?.id")
        assert first == f"calc-{calcs[0]['id']}", (name, first)
        if calcs[0]["dice"]:
            form = page.locator(f"#calc-{calcs[0]['id']} form")
            stops = form.evaluate("f => [...f.querySelectorAll('input, select, button')]"
                                  ".findIndex(e => e.dataset.action === 'roll-resolve')")
            more = _press_until(page, "e.dataset.action === 'roll-resolve'", limit=stops)
            assert form.evaluate("(f) => f.contains(document.activeElement)")
            print(f"{game_id(name)}: {n} + 1 presses to the first field, {n + 1 + more} to "
                  f"'Roll and resolve'")


@pytest.mark.parametrize("name", GAMES, ids=game_id)
def test_every_calculator_by_keyboard_alone(name, games, pages, open_page, typed):
    """Each calculator: Tab from the top to its link, Enter, key in a case, roll with Enter."""
    game = games[name]
    specs = {c["id"]: c for c in on_page(game).values()}
    cases = {c[0]: c for c in typed[name]["rolled"]}
    if not cases:
        pytest.skip(f"{game_id(name)}: no calculator")
    page, _ = open_page(pages[name], width=390, height=800)
    for calc_id, (_, inputs, roll, _py) in cases.items():
        spec = specs[calc_id]
        page.evaluate("window.scrollTo(0, 0)")
        page.mouse.click(3, 3)  # on the page's top edge: Tab goes on from there
        # the Calculators link of the sections bar, Enter, then the calculator's link
        presses = _press_until(page, "e.getAttribute('href') === '#calculators'", 12)
        page.keyboard.press("Enter")
        next_frame(page)
        presses += 1 + _press_until(page, f"e.getAttribute('href') === '#calc-{calc_id}'", 40)
        assert presses <= 12 + len(specs), f"{calc_id}: {presses} presses to its link"
        page.keyboard.press("Enter")
        form = f"#calc-{calc_id} form"
        page.wait_for_function(f"() => document.querySelector('{form}').contains(document.activeElement)")
        page.evaluate(f"document.querySelector('{form}').reset()")
        by_name = {i["id"]: i for i in spec["inputs"]}
        for _ in range(40):  # walk the form's fields in tab order
            here = page.evaluate("[document.activeElement.name, document.activeElement.value, "
                                 "document.activeElement.dataset.action || '']")
            if here[2] == "roll-resolve":
                page.keyboard.press("Enter")
                break
            # the optional inputs folded away: open them (Enter on their summary)
            if page.evaluate("document.activeElement.tagName === 'SUMMARY' && "
                             "!document.activeElement.parentElement.open"):
                page.keyboard.press("Enter")
            roving = page.evaluate("!!document.activeElement.closest('fieldset[data-roving]')")
            if roving:  # one tab stop: arrows to each choice, Space to tick
                page.keyboard.press("Home")
                for _ in range(page.evaluate("document.activeElement.closest('fieldset')"
                                             ".querySelectorAll('input').length")):
                    value = page.evaluate("document.activeElement.value")
                    _key_in(page, {}, value in inputs.get(here[0], ()))
                    page.keyboard.press("ArrowDown")
            elif here[0] in inputs and by_name.get(here[0], {}).get("multiple") and \
                    by_name[here[0]]["type"] == "choice":
                _key_in(page, {}, here[1] in inputs[here[0]])
            elif here[0] in inputs:
                _key_in(page, by_name[here[0]], inputs[here[0]])
            page.keyboard.press("Tab")
            if not page.evaluate(f"document.querySelector('{form}').contains(document.activeElement)"):
                break
        out = page.locator(f"#calc-{calc_id} .calc-out")
        rolled = page.locator(f"#calc-{calc_id} [data-type=roll]")
        given_roll = rolled.input_value() if rolled.count() else None
        want = api.calculate(game, calc_id, inputs, given_roll or None).to_dict()
        assert out.get_attribute("data-state") == "done", (calc_id, inputs, out.inner_text())
        assert out.get_attribute("data-result") == (want["result"] or ""), (calc_id, inputs)
