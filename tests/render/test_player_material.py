"""Player material is not designer material (issue 16, item 4): notes, provenance, 'assumed',
readings, editor's notes and raw keys never reach a player's PDF, the HTML aid or a
calculator's working; the designer's proof (`builder build --proof`) has all of them."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import lxml.html
import pytest

from builder.load import find_game, list_games, load_game
from builder.views import designer_text, designer_words, player_view, strip_editor_notes

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = [str(ROOT / "tests" / "fixtures" / f) for f in ("mini", "tables-hex", "tables-area")]
SAMPLES = list_games()

def _game(name: str):
    return load_game(find_game(name))


def _pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                          text=True, check=True).stdout


def _aid_text(html: str) -> str:
    doc = lxml.html.fromstring(html)
    for el in doc.xpath("//script|//style"):
        el.drop_tree()
    return doc.text_content()


def test_the_detector_finds_designer_words_and_spares_rules_wording():
    for text in ("Odds rounded down (assumed).", "Rule: assumed", "defense_divisor 2",
                 "reading=example-4-2", "massive-flood upkeep (see 'flooding-summary')",
                 "Results reconstructed: the extraction gives the codes",
                 "Exchange (see the F&M standard rules)", "Reading: a hexside row applies"):
        assert designer_words(text), text
    for text in ("Any unused rebuilds are lost (it is assumed that those forces are diverted)",
                 "they are assumed to be using their Tarrapins", "No Man's Land: defense halved",
                 "Defender retreats 2 hexes (stiff resistance, standard rule 7.8, may let it stand)",
                 "16A:0827", "5-7-5", "Hit (depletion)"):
        assert not designer_words(text), text


def test_editor_notes_leave_the_rules_text():
    text = "First line.\n\n> **Editor's note:** rebuilt from an extraction.\n> Second line.\n\nLast."
    assert strip_editor_notes(text) == "First line.\n\nLast."


@pytest.mark.parametrize("name", SAMPLES + FIXTURES, ids=lambda n: Path(n).name)
def test_the_player_view_has_no_designer_material(name):
    game = _game(name)
    view = player_view(game)
    assert player_view(view) is view and player_view(game) is view
    bad = designer_text(game)
    assert not bad, f"player text with designer words (move them to the item's `note`): {bad[:8]}"
    # the designer's model keeps all of it; the view's lookups point at the view's items
    assert all(t.readings == () and t.note == "" and not t.assumed for t in view.tables)
    assert [t.id for t in view.table_by_id.values()] == [t.id for t in game.tables]
    assert all(view.table_by_id[t.id] is t for t in view.tables)


@pytest.mark.parametrize("name", SAMPLES)
def test_no_player_pdf_or_aid_page_carries_designer_words(sample_outputs, name):
    folder = sample_outputs / name  # `builder build GAME --proof`, every format
    for kind in ("map", "counters", "aids"):
        text = _pdf_text(folder / "print" / f"{name}-{kind}.pdf")
        assert text.strip(), kind
        assert not designer_words(text), (kind, sorted(set(designer_words(text)))[:10])
    html = (folder / f"{name}-aid.html").read_text(encoding="utf-8")
    assert not designer_words(_aid_text(html)), sorted(set(designer_words(_aid_text(html))))[:10]
    # the calculators' data carries no notes, assumed marks or readings for the page to show
    doc = lxml.html.fromstring(html)
    data = json.loads(doc.get_element_by_id("aid-data").text)
    for t in data["tables"].values():
        assert not t.get("note") and not t.get("assumed") and not t.get("readings"), t["id"]
    # the proof sits beside print/, never in it, and holds what the player files leave out
    assert not list((folder / "print").glob("*proof*"))
    proof = _pdf_text(folder / f"{name}-proof.pdf")
    assert "ASSUMED" in proof and "Provenance" in proof
    assert len(designer_words(proof)) > 50


@pytest.mark.parametrize("name", SAMPLES)
def test_calculator_working_has_no_designer_words(name):
    from tests.aid.cases import cases

    from builder.tables import api

    view = player_view(_game(name))
    seen = 0
    for calc_id, inputs, roll in cases(view, limit_per_calc=25):
        try:
            answer = api.calculate(view, calc_id, inputs, roll).to_dict()
        except ValueError:
            continue
        words = [w for line in answer.get("steps", []) + answer.get("notes", [])
                 for w in designer_words(line)]
        assert not words, (calc_id, inputs, words)
        seen += 1
    assert seen


def test_the_proof_lists_notes_readings_and_editor_notes():
    from builder.outputs.proof import proof_cards, provenance

    game = _game("eben-emael")
    lines = [x for area in provenance(game).values() for x in area]
    assert any("reading 'rule-4-1'" in x for x in lines)
    assert any("ASSUMED" in x for x in lines)
    titles = [c.title for c in proof_cards(game)]
    assert "Editor's notes in the rules" in titles and titles[0].startswith("Provenance")


def test_check_warns_of_designer_words_in_player_text(mini, run_cli):
    scenario = mini / "scenarios" / "basic.toml"
    text = scenario.read_text(encoding="utf-8")
    scenario.write_text(text.replace('name = "Basic"\n',
                                     'name = "Basic"\nsetup_note = "Units start in place '
                                     '(assumed: see \'flood-rules\')."\n', 1), encoding="utf-8")
    result = run_cli("check", mini)
    assert result.exit_code == 0, result.output
    assert "  scenarios[basic].setup_note is printed for players but says 'assumed', " \
           "\"'flood-rules'\"" in result.output
    clean = run_cli("check", "scheldt")
    assert "printed for players" not in clean.output


def test_calc_and_tables_on_the_command_line_show_no_designer_notes(run_cli):
    """`builder calc` and `builder tables` print what a player reads at the table; the
    reconstruction notes come back with --designer."""
    from builder.load import find_game

    folder = find_game("scheldt")
    args = ("calc", str(folder), "crt", "attack=12", "defence=4", "--roll", "4")
    player = run_cli(*args)
    assert player.exit_code == 0, player.output
    assert "RESULT: D2" in player.output
    working = player.output.split("\n", 2)[2]  # under the title and the inputs as typed
    assert not designer_words(working), designer_words(working)
    designer = run_cli(*args, "--designer")
    assert "reconstructed" in designer.output.lower()
    listing = run_cli("tables", str(folder), "crt")
    assert listing.exit_code == 0 and "reconstructed" not in listing.output.lower()
