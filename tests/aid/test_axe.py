"""WCAG 2.2 AA as axe-core checks it, on every aid page and the index: at 390 and 1280 px, in
both themes, as opened (everything unfolded), after a calculation in every calculator and after
an error in every calculator that can give one.

axe-core is evaluated into the page through the debugging protocol (tests/aid/axe_run.py), so
the page's Content Security Policy stays as shipped.
"""

from __future__ import annotations

import pytest

from tests.aid.axe_run import COLOUR_RULES, ISSUE_RULES, run_axe, set_theme, summary, wcag
from tests.aid.conftest import GAMES, game_id
from tests.aid.forms import fill

WIDTHS = (390, 1280)
THEMES = ("dark", "light")
# what a calculation changes: the results, the fields it marks invalid, the dice bar
CALC_PARTS = (".calc-out", "[aria-invalid]", ".dice")


def unfold(page) -> None:
    """Every collapsed part open (not the dice history, a pop-up over the page)."""
    page.evaluate("document.querySelectorAll('details:not(.dice-history)')"
                  ".forEach(d => { d.open = true; })")


def assert_clean(page, where: str, include: tuple[str, ...] = (), only=()) -> None:
    found = run_axe(page, include, only)
    broken = wcag(found) + [v for v in found if v["id"] in ISSUE_RULES]
    assert not broken, f"{where}: {summary(broken)}"


def calculate(page, cases) -> bool:
    """Type the cases into their calculators and roll a die; False when there are none."""
    for calc_id, inputs, roll, _ in cases:
        fill(page, calc_id, inputs, roll)
    if cases:
        page.locator(".die-btn").first.click()
    return bool(cases)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", GAMES, ids=game_id)
def test_aid_page_meets_wcag_22_aa(name, width, pages, typed, open_page):
    """Every rule in the dark theme; in the light one, which changes colours only, the rules
    about colour (all of axe's time goes to contrast: this keeps the test to one page load)."""
    page, _ = open_page(pages[name], width=width, height=900)
    where = f"{game_id(name)} at {width} px"
    set_theme(page, "dark")
    unfold(page)
    assert_clean(page, f"{where}, dark, as opened")
    rolled, errors = typed[name]["rolled"], typed[name]["error"]
    if calculate(page, rolled):  # each state typed once, checked in both themes
        assert_clean(page, f"{where}, dark, after a calculation", CALC_PARTS)
        set_theme(page, "light")
        assert_clean(page, f"{where}, light, after a calculation", CALC_PARTS, COLOUR_RULES)
    set_theme(page, "light")
    calculate(page, errors)
    assert_clean(page, f"{where}, light, as opened" + (", errors shown" if errors else ""),
                 only=COLOUR_RULES)
    if errors:
        set_theme(page, "dark")
        assert_clean(page, f"{where}, dark, after an error", CALC_PARTS)


@pytest.mark.parametrize("width", WIDTHS)
def test_index_meets_wcag_22_aa(width, index_page, open_page):
    for theme in THEMES:
        page, _ = open_page(index_page, width=width, height=900)
        set_theme(page, theme)
        unfold(page)
        assert_clean(page, f"index at {width} px, {theme}")


def test_axe_finds_what_it_should(pages, open_page):
    """The check can fail: a page spoiled on purpose (a nameless button, faint text) is caught."""
    page, _ = open_page(pages["tests/fixtures/mini"], width=390)
    page.evaluate("""() => {
      document.querySelector('.die-btn').textContent = '';
      document.querySelector('.die-btn').removeAttribute('aria-label');
      document.querySelector('h1').style.color = getComputedStyle(document.body).backgroundColor;
      document.querySelector('h1').style.opacity = '0.9';
    }""")
    found = {v["id"] for v in wcag(run_axe(page, only=("button-name", "color-contrast")))}
    assert {"button-name", "color-contrast"} <= found, found
