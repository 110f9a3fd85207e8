"""A game in progress survives a module update (issue 42), in VASSAL 3.7.26 itself: a game of
version 1 is played and saved, the sources get errata (a unit inserted before the others, a
factor raised, a marker renamed, a unit removed), and VASSAL's Refresh Counters, run as a player
runs it on the old save in version 2, keeps every piece's identity, place and face, gives each
its new definition, and names the removed unit instead of swapping it for another. A game set
up, saved and reopened in version 2 refreshes without a word of warning. (refresh_play.py)"""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest
from refresh_play import build_here, play, renamed
from vmod_cases import GAMES, game_id

from builder.load import find_game
from builder.vassal.module import BOX_MAP
from tests.vassal_combat.engine import EngineMissing

pytestmark = [pytest.mark.engine, pytest.mark.slow]
WARNINGS = ("Slot not found", "could not", "Unable", "not refreshed", "Bad Data")


def _mini_with_more_units(tmp_path: Path) -> Path:
    """The mini fixture with three more units on the map (it sets up one unit alone)."""
    folder = tmp_path / "fixture" / "mini"
    shutil.copytree(find_game(GAMES[-1]), folder)
    with (folder / "counters.csv").open("a", encoding="utf-8") as f:
        for i, hx in ((3, "0201"), (4, "0301"), (5, "0501")):
            f.write(f"b-{i},blue,1st,{i}/1,infantry,battalion,4-3-6,2-1-6,,,1,unit,,,\n")
    with (folder / "scenarios" / "basic.setup.csv").open("a", encoding="utf-8") as f:
        for i, hx in ((3, "0201"), (4, "0301"), (5, "0501")):
            f.write(f"b-{i},{hx},,,,\n")
    return folder


def _pieces(records) -> list[dict]:
    out = []
    for r in records:
        if r[0] == "PIECE":
            out.append({"map": r[1], "x": r[2], "y": r[3], "at": r[4], "name": r[5],
                        **dict(zip(PROPS, r[6:], strict=True))})
    return out


PROPS: list[str] = []


def _kept(p: dict) -> tuple:
    """What a refresh must keep: identity, place and face."""
    return (p["PieceId"], p["UnitId"], p["MarkerId"], p["map"], p["x"], p["y"], p["at"],
            p["Step_Level"], p["Face_Level"])


@pytest.mark.parametrize("name", GAMES, ids=game_id)
def test_an_old_save_refreshes_in_the_next_version(name, tmp_path):
    folder = _mini_with_more_units(tmp_path) if game_id(name) == "mini" else find_game(name)
    try:
        got = play(folder, tmp_path, build_here)
    except EngineMissing as exc:
        pytest.skip(str(exc))
    p, first, second = got["plan"], got["first"], got["second"]
    PROPS[:] = p.props
    saved = _pieces(first["saved"])
    opened = _pieces(second["opened"])
    refreshed = _pieces(second["refreshed"])
    assert saved and Counter(map(_kept, opened)) == Counter(map(_kept, saved))

    # every piece kept its slot id, place and face
    assert Counter(map(_kept, refreshed)) == Counter(map(_kept, saved))
    by_unit = {q["UnitId"]: q for q in refreshed if q["UnitId"]}
    was = {q["UnitId"]: q for q in saved if q["UnitId"]}
    # ... took its new definition: the raised factor; the marker's new name
    assert was[p.moved][p.factor] != p.raised and by_unit[p.moved][p.factor] == p.raised
    marker_was = next(q for q in saved if q["MarkerId"] == p.marker and q["x"] == str(p.to[0]))
    marker_now = next(q for q in refreshed if _kept(q) == _kept(marker_was))
    base = next(q for q in saved if q["MarkerId"] == p.marker)["name"]
    assert marker_now["name"].startswith(renamed(base.split(" (")[0])), marker_now
    # ... and nothing else changed: no piece took another's definition
    for q in refreshed:
        if q["UnitId"] not in (p.moved,) and q["MarkerId"] != p.marker:
            twin = next(s for s in saved if _kept(s) == _kept(q))
            assert (q["name"], *[q[k] for k in PROPS]) == (twin["name"], *[twin[k] for k in PROPS])
    if p.flipped:  # (Eben-Emael's counters and markers have one face)
        flipped = by_unit.get(p.flipped) or marker_now
        assert "2" in (flipped["Step_Level"], flipped["Face_Level"])
    assert by_unit[p.eliminated]["map"] == BOX_MAP and by_unit[p.eliminated]["at"] == p.box[0]

    # the removed unit is named by the refresher, and kept as it was
    chat = [r[1] for r in second["refresh"] if r[0] == "CHAT"]
    removed = was[p.removed]
    said = (f'- Slot not found for Piece "{removed["name"]}" (GPID {removed["PieceId"]}); '
            "consider refresh option Use counter names...")
    assert [c for c in chat if any(w in c for w in WARNINGS)] == [said]
    assert by_unit[p.removed] == removed
    n = len(saved) + sum(int(r[2]) for r in first["saved"] if r[0] == "DECK")  # and the cards
    assert f"- - {n} Counters collected" in chat and f"- - {n} Counters refreshed" in chat
    options = {r[1]: r[2] for r in second["refresh"] if r[0] == "OPTION"}
    assert options["Use counter names to identify unknown counters"] == "false"  # as it opens

    # a game of version 2, saved and opened again: refreshed without a warning
    chat_new = [r[1] for r in second["refresh-new"] if r[0] == "CHAT"]
    assert any("Counters refreshed" in c for c in chat_new)
    assert [c for c in chat_new if any(w in c for w in WARNINGS)] == []
    # no complaint from the engine: the removed unit's pictures stay in version 2, marked
    # removed (VASSAL said 'Bad Data in Module: Image not found' when they went with it)
    problems = [r for part in (*first.values(), *second.values()) for r in part
                if r[0] == "PROBLEM"]
    assert problems == [], problems
