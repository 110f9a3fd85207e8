"""Set-up faces, codes and instructions (issue 15): the set-up card, the module's set-up and the
map agree on a counter that starts on its back, and on the codes printed in hexes."""

from __future__ import annotations

import difflib
import io
import re
import zipfile

from repo_paths import MINI

HEADER = "unit,at,also,within,region,note"


def _setup(mini, b1_row: str) -> None:
    path = mini / "scenarios/basic.setup.csv"
    rows = (MINI / "scenarios/basic.setup.csv").read_text(encoding="utf-8").splitlines()
    assert rows[0] == HEADER and rows[1] == "b-1,0102,,,,"
    out = [HEADER + ",face,code,instruction", b1_row] + [r + ",,," for r in rows[2:] if r]
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def _piece_command(vmod, name: str) -> str:
    with zipfile.ZipFile(vmod) as z:
        save = next(n for n in z.namelist() if n.endswith(".vsav"))
        with zipfile.ZipFile(io.BytesIO(z.read(save))) as v:
            text = v.read("savedGame").decode("utf-8")
    return next(c for c in text.split("\x1b") if f"{name}-front.png" in c)


def test_back_face_code_and_instruction_reach_card_module_and_map(mini, tmp_path, run_cli):
    _setup(mini, "b-1,0102,,,,,,,in the woods")
    front = tmp_path / "front"
    assert run_cli("build", mini, "--formats", "svg,vmod", "--out", front).exit_code == 0
    _setup(mini, "b-1,0102,,,,,back,A,in the woods")
    back = tmp_path / "back"
    result = run_cli("build", mini, "--formats", "svg,vmod", "--out", back)
    assert result.exit_code == 0, result.stderr

    aids = "".join(p.read_text() for p in (back / "mini/print").glob("mini-aids-*.svg"))
    # the card's words, its wrapped lines joined (a set-up card in one column wraps long cells)
    words = " ".join(re.findall(r">([^<>]+)</text>", aids))
    assert "depleted side up" in words and "0102 [A]. in the woods" in words
    assert 'id="setup-codes"' in (back / "mini/print/mini-map.svg").read_text()
    assert ">A</text>" in (back / "mini/print/mini-map.svg").read_text()
    assert ">A</text>" not in (front / "mini/print/mini-map.svg").read_text()

    # the module: the same piece, its flip layer on level 2 (the back) instead of 1
    a = _piece_command(front / "mini/mini.vmod", "b-1")
    b = _piece_command(back / "mini/mini.vmod", "b-1")
    changes = [(op, a[i1:i2], b[j1:j2]) for op, i1, i2, j1, j2 in
               difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if op != "equal"]
    # (and its 'Where it starts' chat line, which says it sets up on its back)
    assert changes == [("insert", "", ", on its back (reduced)"), ("replace", "1", "2")], changes


def test_back_face_needs_a_back_and_code_needs_a_hex(mini, run_cli):
    _setup(mini, "b-1,0102,,,,,,,")
    path = mini / "scenarios/basic.setup.csv"
    text = path.read_text().replace("turn,turn:1,,,,,,,", "turn,turn:1,,,,,back,T,")
    path.write_text(text)
    err = run_cli("check", mini).stderr
    assert "basic.setup.csv: line 5, column 'face': 'turn' has no back to set up on" in err
    assert "basic.setup.csv: line 5, column 'code': a map code needs a hex, but 'turn' sets up at " \
           "'turn:1'" in err


def test_unknown_face_is_refused(mini, run_cli):
    _setup(mini, "b-1,0102,,,,,reduced,,")
    err = run_cli("check", mini).stderr
    assert "basic.setup.csv: line 2, column 'face'" in err and "'front' or 'back'" in err
