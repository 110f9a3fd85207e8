"""The aid on a phone (360 px) and a desktop (1280 px), issue 16 item 6: every table cell read
without sideways hunting and never under a sticky column, a short page as opened, every section
one tap from the sections bar, only the tools the game's tables use, and an index showing each
game's map and counters."""

from __future__ import annotations

import pytest

from tests.aid.conftest import GAMES, SAMPLES, game_id
from tests.aid.forms import next_frame, on_page

WIDTHS = (360, 1280)
# As opened, a page is its title, the sections bar, "About the game" and one heading per section
# (about 56 px each), folded: within one and a half phone screens (1.5 x 800 px), so a long title
# or a wrapped bar still fits. Measured (content height, with the room kept for the dice bar):
# 693-750 px at 360 px, 627 px at 1280; before the sections folded, 29,663-49,921 px at 360 px.
HEIGHT_AS_OPENED = 1200

# Every cell of every table (each column group of a paged one): is it inside its table's box
# (no sideways scrolling needed), and is the cell what the eye sees at its centre (nothing sticky
# over it)? Cells outside the room between the bars are scrolled to first.
CELLS_SEEN = """async () => {
  const nav = document.querySelector('nav.sections'), dice = document.querySelector('.dice');
  const bad = [], seen = {tables: 0, cells: 0, paged: 0};
  const frame = () => new Promise(r => requestAnimationFrame(() => r()));
  for (const box of document.querySelectorAll('.scroll')) {
    const table = box.querySelector('table');
    if (!table || !box.getClientRects().length) continue;
    seen.tables++;
    const pager = box.previousElementSibling && box.previousElementSibling.classList.contains('pager')
      ? [...box.previousElementSibling.querySelectorAll('button')] : [null];
    if (pager[0]) seen.paged++;
    const name = box.getAttribute('aria-label') || table.className;
    const shownCols = new Set();
    for (const button of pager) {
      if (button) { button.click(); await frame(); }
      if (box.scrollWidth > box.clientWidth + 1) bad.push(name + ': wider than its box (' + box.scrollWidth + ' > ' + box.clientWidth + ')');
      const b = box.getBoundingClientRect();
      for (const row of table.rows) for (const cell of row.cells) {
        if (!cell.getClientRects().length) continue;
        shownCols.add(cell.cellIndex);
        seen.cells++;
        if (getComputedStyle(cell).position === 'sticky') bad.push(name + ': a sticky cell');
        const r = cell.getBoundingClientRect();
        if (r.left < b.left - 0.5 || r.right > b.right + 0.5) { bad.push(name + ': "' + cell.textContent.trim() + '" outside its box'); continue; }
        const top = nav ? nav.getBoundingClientRect().bottom : 0;
        const bottom = dice ? dice.getBoundingClientRect().top : innerHeight;
        let y = (r.top + r.bottom) / 2;
        if (y <= top + 2 || y >= bottom - 2) {
          window.scrollBy(0, y - (top + bottom) / 2); await frame();
          const q = cell.getBoundingClientRect(); y = (q.top + q.bottom) / 2;
        }
        const x = (r.left + r.right) / 2;
        const hit = document.elementFromPoint(x, y);
        if (!hit || !(hit === cell || cell.contains(hit)))
          bad.push(name + ': "' + cell.textContent.trim().slice(0, 20) + '" covered by ' + (hit ? hit.tagName + '.' + hit.className : 'nothing'));
      }
    }
    const cols = Math.max(...[...table.rows].map(r => r.cells.length));
    if (shownCols.size < cols) bad.push(name + ': ' + (cols - shownCols.size) + ' columns never shown');
  }
  return {bad, seen};
}"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", GAMES, ids=game_id)
def test_every_table_cell_is_read_in_place(name, width, pages, open_page):
    page, _ = open_page(pages[name], width=width, height=800)
    page.evaluate("document.querySelectorAll('details:not(.dice-history)').forEach(d => { d.open = true; })")
    next_frame(page)  # the table regions follow the new layout
    found = page.evaluate(CELLS_SEEN)
    assert found["seen"]["tables"] >= 2 and found["seen"]["cells"] > 20, found["seen"]
    assert not found["bad"], f"{game_id(name)} at {width} px: {found['bad'][:5]}"
    if width == 360 and name in ("vimy-ridge", "scheldt"):
        assert found["seen"]["paged"] >= 1, "the combat table is paged by column group"


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", SAMPLES, ids=game_id)
def test_page_is_short_as_opened(name, width, pages, open_page):
    page, _ = open_page(pages[name], width=width, height=800)
    # the content's height (the document's is at least the window's)
    height = page.evaluate("Math.ceil(document.body.getBoundingClientRect().height)")
    assert height <= HEIGHT_AS_OPENED, f"{game_id(name)} at {width} px: {height} px as opened"
    folded = page.evaluate("[...document.querySelectorAll('details.section')].filter(d => !d.open).length")
    assert folded == page.locator("nav.sections a").count() >= 4


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", SAMPLES, ids=game_id)
def test_every_section_one_tap_away(name, width, pages, open_page):
    """From deep inside the last section, each link of the sections bar is in view and one tap
    on it opens its section, with its heading in view below the bar and the link marked current."""
    page, _ = open_page(pages[name], width=width, height=800)
    links = page.locator("nav.sections a")
    ids = [a.get_attribute("href")[1:] for a in links.all()]
    # somewhere far down: the last section open and scrolled to its end
    page.evaluate("(id) => { const d = document.getElementById(id); d.open = true; }", ids[-1])
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    for sid in ids:
        link = page.locator(f"nav.sections a[href='#{sid}']")
        box = link.bounding_box()
        assert box and 0 <= box["y"] and box["y"] + box["height"] <= 800 and box["x"] + box["width"] <= width, \
            f"{sid}: its link is off the screen: {box}"
        link.click()
        next_frame(page)  # the bar marks the current section on the next frame
        state = page.evaluate("""(id) => {
          const d = document.getElementById(id), s = d.querySelector('summary').getBoundingClientRect();
          const bar = document.querySelector('nav.sections').getBoundingClientRect();
          return {open: d.open, top: s.top, bar: bar.bottom,
                  current: document.querySelector('nav.sections a[aria-current]')?.getAttribute('href')};
        }""", sid)
        assert state["open"], f"{sid}: one tap did not open it"
        assert state["bar"] - 1 <= state["top"] <= 800 - 100, f"{sid}: not in view after one tap: {state}"
        assert state["current"] == f"#{sid}", f"{sid}: the bar does not show where the reader is: {state}"


def _tools(game) -> dict:
    """What the page should offer, from the model's tables."""
    kinds = {t.kind for t in game.tables}
    return {"sight": "line-of-sight" in kinds,
            "dice": sorted({t.dice for t in game.tables if getattr(t, "dice", "")}),
            # a fire table with firepower columns asks for firepower; one with none
            # (Vimy's bombardment: each marker one roll) asks only for the roll
            "fire": any(t.kind == "fire" and t.bands for t in game.tables)}


@pytest.mark.parametrize("name", GAMES, ids=game_id)
def test_only_the_tools_the_tables_use(name, games, pages, open_page):
    game = games[name]
    want = _tools(game)
    page, _ = open_page(pages[name], width=360)
    got = page.evaluate("""() => ({
      calcs: [...document.querySelectorAll('details.calc')].map(d => d.dataset.calc),
      dice: [...document.querySelectorAll('.die-btn')].map(b => b.dataset.dice).sort(),
      fireInputs: document.querySelectorAll('[name=attack_loss], [name=mg], [name=mg_roll], [name=firepower]').length,
      sightInputs: document.querySelectorAll('[name=observer], [name=spotters], [name=max_range]').length})""")
    assert got["dice"] == want["dice"], (game_id(name), got["dice"], want)
    assert ("los" in got["calcs"] or "line-of-sight" in got["calcs"]
            or got["sightInputs"] > 0) == want["sight"], (game_id(name), got)
    assert (got["fireInputs"] > 0) == want["fire"], (game_id(name), got)
    # every calculator of a table is there: the page drops tools, never tables
    assert {t.id for t in game.tables} <= set(got["calcs"])
    assert set(got["calcs"]) == set(on_page(game))


def test_tools_differ_between_the_samples(games):
    """The samples cover both sides of each choice, so the test above can fail either way."""
    tools = [_tools(games[n]) for n in SAMPLES]
    assert {t["sight"] for t in tools} == {True, False}
    assert {t["fire"] for t in tools} == {True, False}
    assert {"2d6" in t["dice"] for t in tools} == {True, False}


@pytest.mark.parametrize("width", WIDTHS)
def test_index_shows_each_games_map_and_counters(width, index_page, games, open_page):
    page, _ = open_page(index_page, width=width, height=900)
    page.wait_for_load_state("load")
    entries = page.evaluate("""() => [...document.querySelectorAll('.games > li')].map(li => ({
      id: li.id, imgs: [...li.querySelectorAll('.previews img')].map(i => ({
        cls: i.className, ok: i.complete && i.naturalWidth > 0, w: i.getBoundingClientRect().width,
        alt: i.alt, data: i.src.startsWith('data:image/png')}))}))""")
    assert len(entries) == len(games)
    for e in entries:
        kinds = {i["cls"] for i in e["imgs"]}
        assert kinds == {"preview-map", "preview-counters"}, e
        for i in e["imgs"]:
            assert i["ok"] and i["data"] and i["alt"] and 50 < i["w"] <= width, e


def test_roll_in_a_few_key_presses(games, pages, open_page):
    """From the top of the page: the dice bar's first die in at most 4 Tab presses; the first
    calculator's roll button in at most 8 (the jump link, then its required fields)."""
    from tests.aid.test_keyboard import _press_until

    for name in SAMPLES:
        page, _ = open_page(pages[name], width=390, height=800)
        n = _press_until(page, "e.classList.contains('die-btn')", limit=4)
        page, _ = open_page(pages[name], width=390, height=800)  # from the top again
        calcs = [c for c in on_page(games[name]).values()]
        if not calcs or not calcs[0]["dice"]:
            continue
        k = _press_until(page, "e.dataset.jump === 'calc'", limit=3)
        page.keyboard.press("Enter")  # the first field gets the keyboard once the link is followed
        page.wait_for_function("() => document.activeElement.closest('details.calc')")
        more = _press_until(page, "e.dataset.action === 'roll-resolve'", limit=8 - k - 1)
        print(f"{game_id(name)}: die button {n} presses, roll button {k + 1 + more}")


def test_the_cell_check_can_fail(pages, open_page):
    """The page as it was (every column at once, the row headings sticky) is caught: tables wider
    than their box and cells under the sticky column."""
    name = "vimy-ridge" if "vimy-ridge" in pages else SAMPLES[0]
    page, _ = open_page(pages[name], width=360, height=800)
    page.evaluate("document.querySelectorAll('details:not(.dice-history)').forEach(d => { d.open = true; })")
    next_frame(page)  # the table regions follow the new layout
    page.evaluate("""() => {
      document.querySelectorAll('.pager').forEach(p => p.remove());
      const s = document.createElement('style');
      s.textContent = 'table .off { display: table-cell !important } .scroll { overflow-x: auto }' +
        ' table.grid tbody th { position: sticky; left: 0; z-index: 1 }';
      document.head.append(s);
      document.querySelectorAll('.scroll').forEach(b => { b.scrollLeft = 200; });
    }""")
    bad = page.evaluate(CELLS_SEEN)["bad"]
    assert any("wider than its box" in b for b in bad), bad[:3]
    assert any("sticky" in b for b in bad), bad[:3]
