"""One sentence per rule, everywhere (issue 39): builder.words writes each rule of a table once,
and that same sentence reaches `builder calc`'s working, the printed aid cards (the PDF's text),
the phone aid (its table notes and its engine's working, in Chromium) and the module's chat line.
"""

from __future__ import annotations

import subprocess
from dataclasses import replace

import lxml.html
import pytest

from builder import words
from builder.tables import api
from tests.aid.cases import _hexes, _variants
from tests.aid.conftest import game_id

# the games whose tables have rules: every sample with one, and the fixture with every effect
WITH_RULES = ["vimy-ridge", "operation-veritable", "tests/fixtures/eastern-front"]

WORKING = """(cs) => cs.map(([id, inp]) => {
  try { const r = AidEngine.calculate(id, inp, null); return r.steps.concat(r.notes); }
  catch (e) { return null; }
})"""


def _said(game) -> dict[tuple[str, str], str]:
    return {(t.id, r.id): words.rule(game, t, r) for t in game.tables for r in t.rules}


def _cases(game) -> list[tuple[str, dict]]:
    """Every calculator with rules, over the aid's sweep of inputs (every flag, player rule,
    choice and number in turn): enough to bring each rule into the working."""
    hexes = _hexes(game)
    ruled = {t.id for t in game.tables if t.rules}
    out = []
    for c in api.list_calculators(game):
        if c["id"] in ruled:
            every_flag = {i["id"]: True for i in c["inputs"] if i["type"] == "bool"}
            for inputs in _variants(game, c, hexes):  # each as swept, and with every yes/no on
                out += [(c["id"], inputs), (c["id"], {**inputs, **every_flag})]
    return out


def _python_working(game, calc_id: str, inputs: dict) -> list[str] | None:
    try:
        c = api.calculate(game, calc_id, inputs, None)
    except ValueError:
        return None
    return c.steps + c.notes


@pytest.mark.parametrize("name", WITH_RULES, ids=game_id)
def test_calc_and_the_phone_aid_say_each_rule_with_its_sentence(name, games, pages, open_page):
    game = games[name]
    said = _said(game)
    assert said
    todo = _cases(game)
    page, _ = open_page(pages[name])
    js = page.evaluate(WORKING, [[c, i] for c, i in todo])
    seen: set[tuple[str, str]] = set()
    bad = []
    for (calc_id, inputs), js_lines in zip(todo, js):
        py_lines = _python_working(game, calc_id, inputs)
        if py_lines is None:
            assert js_lines is None, (calc_id, inputs)
            continue
        mine = {k: s for k, s in said.items() if k[0] == calc_id}
        py = [ln for ln in py_lines if any(s in ln for s in mine.values())]
        page_lines = [ln for ln in js_lines if any(s in ln for s in mine.values())]
        if py != page_lines:
            bad.append(f"{calc_id} {inputs}\n  calc: {py}\n  page: {page_lines}")
        seen |= {k for k, s in mine.items() if any(s in ln for ln in py)}
    assert not bad, f"{len(bad)} cases word their rules differently:\n" + "\n".join(bad[:4])
    assert seen == set(said), f"rules never in the working: {sorted(set(said) - seen)}"


@pytest.mark.parametrize("name", WITH_RULES, ids=game_id)
def test_the_cards_and_the_aid_page_print_each_rule_with_its_sentence(name, games, pages,
                                                                    tmp_path):
    from builder.render.aids import aid_pages, all_cards
    from builder.render.convert import pdf_document

    game = games[name]
    said = _said(game)
    lines = [text for card in all_cards(game) for part in card.parts
             for text, _ in getattr(part, "lines", ())]
    assert not [s for s in said.values() if s not in lines], "a rule missing from the cards"
    pdf = tmp_path / "aids.pdf"
    pdf.write_bytes(pdf_document(aid_pages(game, game.info.paper or "letter")))
    printed = " ".join(subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True,
                                      text=True, check=True).stdout.split())
    assert not [s for s in said.values() if s not in printed], "a rule not printed whole"
    doc = lxml.html.fromstring(pages[name].read_text(encoding="utf-8"))
    notes = [" ".join(p.text_content().split()) for p in doc.xpath("//div[@class='table-notes']/p")]
    assert not [s for s in said.values() if s not in notes], "a rule missing from the aid page"


@pytest.mark.slow  # the module's battles of two samples, each answered by the rules assistant
@pytest.mark.parametrize("slug", ["vimy-ridge", "operation-veritable"])
def test_the_module_chat_says_each_rule_it_applies_with_its_sentence(slug):
    """Every rule the module's calculator applies and reports (shift, roll modifier, result
    replaced, refusal) is named in the chat by its sentence, in some battle of the module's
    test cases."""
    from builder.vassal_combat.rules import EFFECTS, by_hand
    from builder.vassal_combat.simulate import report
    from tests.vassal_combat.support import calculators, checked_cases, covered, game

    g = game(slug)
    done = 0
    for s, table_id in covered():
        t = g.table_by_id[table_id] if s == slug else None
        if t is None or not t.rules:
            continue
        hand = by_hand(g, t)  # those the marker leaves to the player (and says so)
        c = calculators(slug)[table_id]
        battles = [case.battle for case, _ in checked_cases(slug, table_id)]
        turn = next((i for i in c.inputs if i.api == "turn"), None)
        if turn is not None:  # the cases are on the track's first turn (the module starts
            # there): every battle on the second turn too, and a few battles on every turn
            on_track = list(turn.choices or range(turn.min, turn.max + 1))  # the track's labels
            battles += [replace(b, inputs={**b.inputs, turn.prop: n})
                        for i, b in enumerate(battles) for n in on_track
                        if i < 4 or n == on_track[1]]
        chat = [report(c, b) for b in battles]
        for r in t.rules:
            if r.id not in hand and r.effect in EFFECTS[t.kind] - {"cancels"}:
                if r.effect == "replace":  # said where the result is: what became what
                    said = [words.replacement(r, a, b) for a, b in r.replace.items()]
                    assert any(x in line for line in chat for x in said), (table_id, said)
                else:
                    sentence = words.rule(g, t, r)
                    assert any(sentence in line for line in chat), (table_id, sentence)
                done += 1
    assert done
