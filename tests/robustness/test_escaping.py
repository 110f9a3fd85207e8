"""Markup, quotes, backslashes, tabs, VASSAL's separators and non-Latin scripts from the sources
come out intact in every output: SVG, PDF, HTML (where no script from the data runs) and the
VASSAL module (decoded as the engine decodes it, and in the real engine when it is installed).

The game is tests/fixtures/robust-escape; its TOML and set-up CSV files start with a UTF-8
byte-order mark and its counters.csv has Windows line ends, so it also shows those are accepted.
"""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest
from lxml import etree
from robustness import vassal_decode as vd
from robustness.robust_runner import ROOT, run_builder

from builder.load import load_game
from builder.vassal.pieces import marker_name, unit_name
from tests.aid.forms import NEXT_FRAME

GAME = ROOT / "tests" / "fixtures" / "robust-escape"
SAFE_XML = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)

TITLE = "<script>alert(1)</script> & \"Quotes\" 'n' A/B\\C"
BLUE, RED = 'Ελληνικά "Blue"; <b>&amp;</b>', "Красные, 'red' & co"
SCENARIO = "Basic \"one\" <two> & 'three'; four, five \\ six / seven 七"
# Printed somewhere on the map, counter or aid sheets (compared with whitespace runs as one space).
PRINTED = [TITLE, BLUE, RED, '1/1 "A"; <x>, &', "Ω2\\1 <z>", "اللواء\t٣; 711", "+2;<", "Turn <1>",
           "Ход 'игры' / 回合 \\", 'Combat Results "CRT" <&> ; , Таблица', "Woods & <Forest>; row",
           "Weather 天気 <'x'>", "Rain & <hail>", "Town 'Ville' 町, مدينة",
           "Townsville <img src=x onerror=alert(1)> & Co", 'West\tBank; \\ / <"x">', SCENARIO,
           'Blue; Movement, "1" <step>', "Support; fire, draws <x>",
           '• Blue wins <b>by</b> holding "Townsville" & more; ok, فوز']
CJK = ["天気", "回合", "予備", "七"]
# Shown by the HTML aid as text.
SHOWN = [TITLE, BLUE, RED, '1/1 "A"; <x>, &', "Ω2\\1 <z>", "Ход 'игры' / 回合 \\",
         'Combat Results "CRT" <&> ; , Таблица', "Weather 天気 <'x'>", "Rain & <hail>", SCENARIO,
         "Introduction & <b>Εισαγωγή</b>; 序", "A tiny game <script>alert(1)</script> with <code>",
         'Woods & <Forest>; "Лес"', "العربية"]


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """The fixture game built in every format, through the command line."""
    where = tmp_path_factory.mktemp("escape")
    run = run_builder("build", GAME, "--out", where, cwd=where)
    assert run.returncode == 0, run.stderr[-3000:]
    return where / "robust-escape"


def test_fixture_loads_with_boms_and_crlf():
    assert (GAME / "game.toml").read_bytes().startswith(b"\xef\xbb\xbf")
    assert b"\r\n" in (GAME / "counters.csv").read_bytes()
    g = load_game(GAME)
    assert g.info.title == TITLE
    assert g.unit_by_id["r-1"].unit == "اللواء\t٣; 711"
    assert g.marker_by_id["turn"].name.endswith("\\")


def test_json_keeps_every_character(built):
    data = json.loads((built / "robust-escape.json").read_text(encoding="utf-8"))
    assert data["info"]["title"] == TITLE
    assert "Ход 'игры' / 回合 \\" in json.dumps(data, ensure_ascii=False)


def svg_texts(built: Path) -> str:
    out = []
    files = sorted((built / "print").glob("*.svg"))
    assert files
    for path in files:
        tree = etree.parse(str(path), SAFE_XML)  # well-formed XML, or this raises
        assert tree.docinfo.internalDTD is None, f"{path.name} declares a DTD"
        out += ["".join(el.itertext()) for el in tree.iter("{http://www.w3.org/2000/svg}text")]
    # one space between text elements: a name wrapped onto two lines is two elements in a row
    return " ".join(flat(t) for t in out)


def test_svg_is_xml_and_text_is_intact(built):
    text = svg_texts(built)
    missing = [s for s in PRINTED + CJK if flat(s) not in text]
    assert not missing, missing
    assert "<script" not in "".join(p.read_text(encoding="utf-8")
                                    for p in (built / "print").glob("*.svg"))


def pdf_text(built: Path) -> str:
    pdfplumber = pytest.importorskip("pdfplumber")
    out = []
    for path in sorted((built / "print").glob("*.pdf")):
        with pdfplumber.open(path) as pdf:
            # in drawing order, so a name wrapped in a table cell reads on, not interleaved
            # with the next card's line beside it
            out += [page.extract_text(use_text_flow=True) or "" for page in pdf.pages]
    return flat("\n".join(out))


PDF_PRINTED = [TITLE, BLUE, RED, '1/1 "A"; <x>, &', "Ω2\\1 <z>", "اللواء ٣; 711",
               'Combat Results "CRT" <&> ; , Таблица', "Rain & <hail>", "Town 'Ville' 町, مدينة",
               "Townsville <img src=x onerror=alert(1)> & Co", 'West Bank; \\ / <"x">',
               'Woods & <Forest>; "Лес"', 'Blue; Movement, "1" <step>']


def test_pdf_text_layer_is_intact(built):
    text = pdf_text(built)
    missing = [s for s in PDF_PRINTED if flat(s) not in text]
    assert not missing, missing


@pytest.mark.xfail(strict=True, reason="no CJK font in the print renderer: 天気 comes out as "
                   "tofu, and the PDF text layer maps every missing glyph to one character "
                   "(天天, 回回); reported to the lead")
def test_pdf_text_layer_keeps_cjk(built):
    text = pdf_text(built)
    assert all(s in text for s in CJK), [s for s in CJK if s not in text]


# --- the HTML aid in a real browser ------------------------------------------------------------
def test_html_aid_shows_data_as_text_and_runs_none_of_it(built, browser):
    page_path = built / "robust-escape-aid.html"
    url = page_path.resolve().as_uri()
    # the session's browser (tests/conftest.py): two Playwright sync APIs cannot nest
    context = browser.new_context()
    try:
        page = context.new_page()
        dialogs, requests, errors = [], [], []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.route("**/*", lambda r: r.continue_() if r.request.url.split("#")[0] == url
                   else (requests.append(r.request.url), r.abort()))
        page.goto(url)
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        page.evaluate(NEXT_FRAME)  # drawn once more, everything unfolded
        assert TITLE in page.title()
        text = flat(page.evaluate("document.body.innerText"))
        missing = [s for s in SHOWN if flat(s) not in text]
        assert not missing, missing
        code = page.evaluate("[...document.scripts].filter(s => !s.type || /javascript|module/"
                             ".test(s.type)).map(s => s.textContent)")
        assert code and not any("alert(1)" in c for c in code), "a script from the data"
        data = page.evaluate("[...document.scripts].filter(s => s.type === 'application/json')"
                             ".map(s => JSON.parse(s.textContent))")
        assert "Night <\\t> ليل" in json.dumps(data, ensure_ascii=False)  # data stays whole
        handlers = page.evaluate("[...document.querySelectorAll('*')].filter(e => "
                                 "[...e.attributes].some(a => a.name.startsWith('on'))).length")
        assert handlers == 0
        assert page.locator("img, iframe, a[href^='javascript']").count() == 0
        assert not dialogs and not requests and not errors, (dialogs, requests, errors)
    finally:
        context.close()


# --- the VASSAL module -------------------------------------------------------------------------
def module_xml(built: Path):
    with zipfile.ZipFile(built / "robust-escape.vmod") as z:
        return etree.fromstring(z.read("buildFile.xml"), SAFE_XML)


def expected_names() -> dict[str, str]:
    g = load_game(GAME)
    names = {u.id: unit_name(u) for u in g.units} | {m.id: marker_name(m) for m in g.markers}
    return {k: v.replace("\t", " ") for k, v in names.items()}  # a TAB cannot be in a piece name


def test_vassal_pieces_decode_to_the_same_names(built):
    root = module_xml(built)
    want = expected_names()
    seen, others = {}, []
    for slot in root.iter("VASSAL.build.widget.PieceSlot"):
        type_text, state = vd.add_piece(slot.text)
        props = vd.properties(type_text, state)
        name = vd.piece_name(type_text)
        assert slot.get("entryName").replace("\t", " ") == name
        key = props.get("UnitId") or props.get("MarkerId")
        if key:
            seen[key] = name
        else:
            others.append(name)  # the calculators' pieces, named after their tables
    assert seen == want
    assert any(n.endswith(': Combat Results "CRT" <&> ; , Таблица') for n in others), others
    unit = vd.properties(*vd.add_piece(next(
        s.text for s in root.iter("VASSAL.build.widget.PieceSlot") if "b-1" in s.text)))
    assert unit["Unit"] == '1/1 "A"; <x>, &' and unit["Formation"] == "第1師団 /\\ ;,"


def test_vassal_prototype_references_resolve(built):
    root = module_xml(built)
    defined = {p.get("name") for p in root.iter("VASSAL.build.module.PrototypeDefinition")}
    assert f"Side {BLUE}" in defined and f"Side {RED}" in defined
    for slot in root.iter("VASSAL.build.widget.PieceSlot"):
        for ref in vd.prototype_refs(vd.add_piece(slot.text)[0]):
            assert ref in defined, ref


@pytest.mark.engine
def test_real_engine_reads_the_same_names(built, tmp_path):
    from vassal.vmod_engine import missing_engine

    why = missing_engine()
    if why:
        pytest.skip(why)
    run = run_vassal_check(built / "robust-escape.vmod", tmp_path)
    problems = [r for r in run if r[0] in ("WARN", "ERROR", "LOADFAIL", "PIECEFAIL", "BUG")]
    assert not problems, problems[:5]
    slots = {r[2] for r in run if r[0] == "SLOT"}  # the engine writes a TAB as a space here
    assert set(expected_names().values()) <= slots, set(expected_names().values()) - slots
    assert 'Resolve: Combat Results "CRT" <&> ; , Таблица' in slots


def run_vassal_check(vmod: Path, tmp: Path) -> list[list[str]]:
    import os
    import subprocess

    env = dict(os.environ, XDG_CACHE_HOME=str(tmp / "cache"))
    shutil.copy(vmod, tmp / vmod.name)
    proc = subprocess.run([str(ROOT / "scripts" / "vassal-check"), str(tmp / vmod.name)],
                          capture_output=True, text=True, timeout=300, env=env, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [line.split("\t") for line in proc.stdout.splitlines()]


def module_rules(built: Path) -> str:
    with zipfile.ZipFile(built / "robust-escape.vmod") as z:
        return z.read("rules.html").decode("utf-8")


def test_module_rules_keep_markup_as_text(built):
    html = module_rules(built)
    assert "A tiny game &lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script" not in html and "<iframe" not in html
    assert 'href="javascript:' not in html and 'href="file:' not in html
    assert 'src="file:' not in html


def test_module_rules_fetch_nothing(built):
    assert "<img" not in module_rules(built)
