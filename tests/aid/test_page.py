"""The player aid page as a player uses it: rules search and cross-references, dice, roll and
resolve, the sequence checklist that remembers its place, the phone layout, print, themes."""

from __future__ import annotations

import pytest

from builder.tables import api
from tests.aid.conftest import SAMPLES, game_id
from tests.aid.forms import on_page, open_section

RULED = [n for n in SAMPLES if n != "europa-terrain"] or SAMPLES


def test_rules_search_as_you_type(pages, open_page):
    name = "vimy-ridge" if "vimy-ridge" in pages else RULED[0]
    page, _ = open_page(pages[name], clock=True)
    page.locator("nav.sections a[href='#rules']").click()  # the rules open from the sections bar
    total = page.locator("article.rule").count()
    box = page.locator("#rules-search")
    page.evaluate("""() => { window.__counts = []; const c = document.querySelector('#rules-count');
      new MutationObserver(() => window.__counts.push(c.textContent))
        .observe(c, {childList: true, characterData: true, subtree: true}); }""")
    for key in "line of sig":
        box.press(key)
        page.clock.run_for(60)  # a quick typist
    # the count is a live region: said once, when typing stops, not after each key (issue 18)
    assert page.evaluate("window.__counts") == [], "the count changed while the player typed"
    page.clock.run_for(1000)
    assert len(page.evaluate("window.__counts")) == 1, page.evaluate("window.__counts")
    visible = page.locator("article.rule:not([hidden])")
    n = visible.count()
    assert 0 < n < total
    for i in range(n):  # every section shown has every word
        text = visible.nth(i).inner_text().lower()
        assert "line" in text and "sig" in text
    assert page.locator("#rules-body mark").count() >= n
    assert f"{n} section" in page.locator("#rules-count").inner_text()
    if name == "vimy-ridge":
        assert page.locator("article[data-section='17.3']").is_visible()
    box.fill("zzzqqq")
    box.dispatch_event("input")
    assert page.locator("article.rule:not([hidden])").count() == 0
    page.clock.run_for(1000)  # said once typing pauses
    assert "No section" in page.locator("#rules-count").inner_text()
    box.fill("")
    box.dispatch_event("input")
    assert page.locator("article.rule:not([hidden])").count() == total
    assert page.locator("#rules-body mark").count() == 0


@pytest.mark.parametrize("name", RULED, ids=game_id)
def test_follow_a_cross_reference(name, games, pages, open_page):
    rules = games[name].rules
    known = {s.id for s in rules.sections}
    src = next((s for s in rules.sections if any(r in known and r != s.id for r in s.refs)), None)
    if src is None:
        pytest.skip(f"{name}: no section cites another")
    target = next(r for r in src.refs if r in known and r != src.id)
    page, _ = open_page(pages[name], width=360, height=740)
    open_section(page, "rules")
    # hide the target behind a search first: following the link must still show it
    page.locator("#rules-search").fill(src.title.split()[0])
    page.locator("#rules-search").dispatch_event("input")
    link = page.locator(f"article[data-section='{src.id}'] a.xref[href='#r-{target}']").first
    link.click()
    assert page.evaluate("location.hash") == f"#r-{target}"
    section = page.locator(f"article[data-section='{target}']")
    assert section.is_visible()
    box = section.bounding_box()
    assert 0 <= box["y"] < 740, "the target section is scrolled into view"
    assert section.evaluate("e => e.matches(':target')")


def test_dead_references_are_marked(games, pages, open_page):
    """A cited section that is not in the rules is shown as such, not as a broken link."""
    for name in RULED:
        rules = games[name].rules
        known = {s.id for s in rules.sections}
        dead = [(s, r) for s in rules.sections for r in s.refs if r not in known]
        if dead:
            break
    else:
        pytest.skip("no dead references in the samples")
    page, _ = open_page(pages[name])
    s, ref = dead[0]
    art = page.locator(f"article[data-section='{s.id}']")
    assert art.locator(f".xref-missing:text-is('{ref}')").count() >= 1
    assert art.locator(f"a[href='#r-{ref}']").count() == 0


def test_dice_use_the_crypto_source(games, pages, open_page):
    # a game whose tables roll both 1d6 and 2d6, so the page has both buttons
    name = next(n for n in SAMPLES if {"1d6", "2d6"} <= {getattr(t, "dice", "") for t in games[n].tables})
    page, _ = open_page(pages[name])
    page.evaluate("""() => { window.__draws = 0; const g = crypto.getRandomValues.bind(crypto);
        crypto.getRandomValues = (a) => { window.__draws++; return g(a); }; }""")
    seen1, seen2 = set(), set()
    for _ in range(60):
        page.locator("button[data-dice='1d6']").click()
        seen1.add(int(page.locator("#dice-out").get_attribute("data-total")))
    for _ in range(60):
        page.locator("button[data-dice='2d6']").click()
        faces = page.locator("#dice-out").get_attribute("data-faces").split(",")
        total = int(page.locator("#dice-out").get_attribute("data-total"))
        assert len(faces) == 2 and sum(map(int, faces)) == total
        seen2.add(total)
    assert seen1 <= set(range(1, 7)) and len(seen1) >= 4
    assert seen2 <= set(range(2, 13)) and len(seen2) >= 5
    assert page.evaluate("window.__draws") >= 180
    assert page.locator("#dice-history li").count() == 30


@pytest.mark.parametrize("name", SAMPLES, ids=game_id)
def test_roll_and_resolve(name, games, pages, open_page):
    """The button rolls the table's dice and shows the API's result for that roll."""
    game = games[name]
    calcs = [c for c in on_page(game).values() if c["dice"]]
    if not calcs:
        pytest.skip(f"{name}: no calculator with dice")
    page, _ = open_page(pages[name])
    open_section(page, "calculators")
    for calc in calcs:
        card = page.locator(f"#calc-{calc['id']}")
        if not card.evaluate("d => d.open"):
            card.locator("summary").first.click()
        given = {}
        for spec in calc["inputs"]:
            if spec["required"] and spec["type"] == "int":
                value = str(max(spec["min"] or 0, 6) if spec["max"] is None else spec["max"])
                card.locator(f"[name='{spec['id']}']").fill(value)
                given[spec["id"]] = value
            elif spec["required"] and spec["type"] == "choice":
                card.locator(f"[name='{spec['id']}']").select_option(spec["choices"][0]["value"])
                given[spec["id"]] = spec["choices"][0]["value"]
        card.locator("[data-action=roll-resolve]").click()
        roll = card.locator("[data-type=roll]").input_value()
        assert roll, "the roll is filled in"
        want = api.calculate(game, calc["id"], given, roll).to_dict()
        out = card.locator(".calc-out")
        assert out.get_attribute("data-result") == want["result"], (calc["id"], given, roll)
        assert out.locator(".calc-result").inner_text() == want["result"]
        if len(want["distribution"]) > 1:
            assert out.locator(".odds li.hit").count() == 1


def test_sequence_checklist_remembers_its_place(games, pages, open_page, browser):
    name = "scheldt" if "scheldt" in SAMPLES else next(
        n for n in SAMPLES if len(games[n].info.sequence) >= 3)
    page, _ = open_page(pages[name])
    open_section(page, "sequence")
    boxes = page.locator("#seq-list input[data-check^='p']")
    phases = page.locator("#seq-list li.phase")
    first = phases.nth(0).locator("input").first
    first.check()
    assert "done" in phases.nth(0).get_attribute("class")
    assert phases.nth(1).get_attribute("aria-current") == "step"
    page.locator("#seq-next-turn").click()
    page.locator("#seq-next-turn").click()
    phases.nth(1).locator("input").first.check()
    page.reload()
    open_section(page, "sequence")
    assert page.locator("#seq-turn").inner_text() == str(games[name].info.turns.first + 2)
    assert phases.nth(1).locator("input").first.is_checked()
    assert not phases.nth(0).locator("input").first.is_checked()
    assert phases.nth(0).get_attribute("aria-current") == "step"
    page.locator("#seq-reset").click()
    assert page.locator("#seq-turn").inner_text() == str(games[name].info.turns.first)
    assert boxes.evaluate_all("bs => bs.filter(b => b.checked).length") == 0


@pytest.mark.parametrize("name", SAMPLES, ids=game_id)
def test_phone_layout(name, pages, open_page):
    """At 360 px: nothing wider than the screen, big touch targets, every control labelled."""
    page, _ = open_page(pages[name], width=360, height=740)
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    small = page.evaluate("""() => [...document.querySelectorAll(
        'button, nav a, input[type=number], input[type=text], input[type=search], select')]
        .filter(e => e.offsetParent !== null)
        .map(e => [e.textContent.trim() || e.name || e.id, e.getBoundingClientRect().height])
        .filter(([, h]) => h < 36)""")
    assert not small, f"touch targets under 36 px: {small[:5]}"
    unlabelled = page.evaluate("""() => [...document.querySelectorAll('input, select, button')]
        .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')
                     && !e.textContent.trim())
        .map(e => e.outerHTML.slice(0, 80))""")
    assert not unlabelled, unlabelled[:5]
    checks = page.evaluate("""() => [...document.querySelectorAll('input[type=checkbox]')]
        .filter(e => e.offsetParent !== null)
        .map(e => e.labels[0].getBoundingClientRect().height).filter(h => h < 36)""")
    assert not checks, f"checkbox labels under 36 px: {checks[:5]}"


def test_themes_and_print(pages, open_page):
    page, _ = open_page(pages[RULED[0]])
    bg = "getComputedStyle(document.body).backgroundColor"
    dark = page.evaluate(bg)
    page.locator("#theme-toggle").click()
    light = page.evaluate(bg)
    assert dark != light
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    page.reload()
    assert page.evaluate("document.documentElement.dataset.theme") == "light", "the choice is kept"
    page.emulate_media(media="print")
    assert page.locator("#calculators").is_hidden()
    assert page.locator(".dice").is_hidden()
    assert page.evaluate(bg) in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)")
    assert page.locator("#tables").is_visible()


def test_phases_skipped_this_turn_are_marked(games, pages, open_page):
    """A phase the rules skip on some turns says so on those turns and is never 'current'."""
    found = [(n, i, ph) for n in SAMPLES for i, ph in enumerate(games[n].info.sequence)
             if ph.skip_on_turns]
    if not found:
        pytest.skip("no sample skips a phase")
    name, index, phase = found[0]
    page, _ = open_page(pages[name])
    open_section(page, "sequence")
    turn = games[name].info.turns.first
    while turn not in phase.skip_on_turns:
        page.locator("#seq-next-turn").click()
        turn += 1
    li = page.locator("#seq-list li.phase").nth(index)
    assert page.locator("#seq-turn").inner_text() == str(turn)
    assert "not-now" in li.get_attribute("class")
    assert li.locator(".skipped").is_visible()
    assert li.get_attribute("aria-current") is None
    box = li.bounding_box()
    assert box["x"] >= 0 and box["width"] > 200, "laid out in the list, not pushed off screen"
