"""The aid's markup for assistive technology, read from the built pages: tables keep real header
cells (rules-text tables too), regions have one name each, decoration is not spoken."""

from __future__ import annotations

import pytest
from lxml import html as lxml_html

from tests.aid.conftest import GAMES, SAMPLES, game_id


def _tree(path):
    return lxml_html.fromstring(path.read_bytes())


@pytest.mark.parametrize("name", GAMES, ids=game_id)
def test_tables_have_real_header_cells(name, pages):
    doc = _tree(pages[name])
    for th in doc.iter("th"):
        where = lxml_html.tostring(th, encoding="unicode")[:120]
        assert th.text_content().strip(), f"empty header cell: {where}"
        assert th.get("scope") in ("col", "row", "colgroup", "rowgroup"), f"no scope: {where}"
    for table in doc.iter("table"):
        rows = table.xpath("./tbody/tr")
        assert rows, "a table with no rows: " + (table.getparent().get("aria-label") or "")
        wrap = table.getparent()
        assert wrap.get("role") == "region" and wrap.get("aria-label") and "scroll" in wrap.get("class"), \
            "every table sits in a named region that scrolls sideways"
    for table in doc.xpath("//div[@class='rule-text']//table"):
        for tr in table.xpath("./tbody/tr"):
            first = tr[0]
            if first.text_content().strip():
                assert first.tag == "th", f"rules table row without its header: {tr.text_content()[:60]}"


def test_a_printed_chart_in_the_rules_reads_as_one(pages):
    """The CRT copied from the printed rules: the differential heading spans its 12 columns,
    'DIE ROLL' heads the die column, each die roll heads its row."""
    name = next((n for n in ("scheldt", "vimy-ridge") if n in SAMPLES), None)
    if name is None:
        pytest.skip("no sample with the folio CRT in its rules")
    doc = _tree(pages[name])
    crt = next(t for t in doc.xpath("//div[@class='rule-text']//table")
               if "COMBAT DIFFERENTIAL" in t.text_content())
    head = crt.xpath("./thead/tr/th")
    assert [(h.text_content()[:13], h.get("colspan"), h.get("scope")) for h in head] == [
        ("TERRAIN TYPE", None, "col"), ("COMBAT DIFFER", "12", "colgroup")]
    label = crt.xpath(".//tr[th[normalize-space()='DIE ROLL']]/th")[0]
    assert label.get("scope") == "col"
    die_rows = [tr for tr in crt.xpath("./tbody/tr") if tr[0].text_content().strip() in "123456"]
    assert len(die_rows) == 6 and all(tr[0].tag == "th" and tr[0].get("scope") == "row"
                                      for tr in die_rows)


@pytest.mark.parametrize("name", GAMES, ids=game_id)
def test_region_names_are_unique(name, pages):
    doc = _tree(pages[name])
    names = [e.get("aria-label").casefold() for e in doc.xpath("//*[@role='region'][@aria-label]")]
    names += [doc.get_element_by_id(e.get("aria-labelledby")).text_content().strip().casefold()
              for e in doc.xpath("//section[@aria-labelledby]")]
    names += [e.get("aria-label").casefold() for e in doc.xpath("//section[@aria-label]")]
    dup = {n for n in names if names.count(n) > 1}
    assert not dup, dup


def test_disclosure_marks_are_not_spoken(pages, open_page):
    """The ▸/▾ before a summary is drawn by CSS with empty alternative text."""
    page, _ = open_page(pages[SAMPLES[0]])
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    spoken = page.locator("body").aria_snapshot()
    assert "▸" not in spoken and "▾" not in spoken
    assert page.locator("summary").count() > 0
