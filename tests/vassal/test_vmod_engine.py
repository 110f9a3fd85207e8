"""Every module in a real VASSAL engine: no warning, every piece built, every set-up in place,
every toolbar button reading as intended.

The engine is VASSAL 3.7.26, the version players run (scripts/vassal/engine.py). With the 3.6
snapshot (VENGINE=3.6, opt-in) what its age alone explains is allowed and listed: its "module
created with a newer version" notice, and attributes 3.7.26 knows (engine-defaults.txt) that it
does not.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest
from vmod_cases import GAMES, game_id
from vmod_engine import PROBLEM_KINDS, engine_origin, missing_engine, run
from vmod_validator import engine_attributes

from builder.model.counters import factor_value, split_factors
from builder.vassal import victory
from builder.vassal.boxes import box_keys
from builder.vassal.geometry import MARGIN_ZONE
from builder.vassal.module import BOX_MAP, MAIN_MAP, sector_label
from builder.vassal.pieces import prop_name

WHY = missing_engine()
if WHY and os.environ.get("CI"):
    raise RuntimeError(f"the VASSAL engine test cannot run: {WHY}")
pytestmark = [pytest.mark.engine, pytest.mark.xdist_group("vassal-modules"),  # shares `built`
              pytest.mark.skipif(bool(WHY), reason=WHY or "engine present")]


@pytest.fixture(scope="session")
def engine_runs(built, tmp_path_factory):
    """game id -> what the checker saw, run on first use in the game's engine (the tests of
    one game run in a row, with the other engine tests of that game: tests/conftest.py)."""
    tmp = tmp_path_factory.mktemp("engine")

    class Runs(dict):
        def __missing__(self, gid: str):
            _, b, path = built[gid]
            self[gid] = run(path, b.probes, tmp)
            return self[gid]

    return Runs()


def _listing(name: str, runs) -> str:
    lines = []
    for setup, pieces in runs.pieces.items():
        lines.append(f"{name}: set-up '{setup}': {len(pieces)} pieces")
        for p in pieces:
            ident = p["props"].get("UnitId") or p["props"].get("MarkerId") or "?"
            lines.append(f"    {ident:24} {p['name']:34} {p['map']:14} {p['location']}")
    return "\n".join(lines)


@pytest.mark.parametrize("name", GAMES, ids=game_id)
def test_engine_loads_module_without_warnings(built, engine_runs, name):
    game, _b, _ = built[game_id(name)]
    r = engine_runs[game_id(name)]
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.kind("DONE"), "the engine run did not finish:\n" + r.stderr[-2000:]
    loaded = r.kind("LOADED")
    assert loaded == [[game.info.title, game.info.version]]
    if not os.environ.get("VENGINE_JAR") and os.environ.get("VENGINE") != "3.6":
        assert r.kind("ENGINE") == [["3.7.26"]], engine_origin()  # the engine players run
    known37 = engine_attributes()
    newer, problems = [], []
    for rec in r.records:
        kind = rec[0]
        if kind == "UNKNOWNATTR":
            (newer if rec[2] in known37.get(rec[1], set()) else problems).append(rec)
        elif (kind in ("DIALOG", "ANSWERED") and "Version Mismatch" in " ".join(rec[1:])
              and "3.7.26" in " ".join(rec[1:])):
            newer.append(rec)  # only because the test engine predates 3.7.26 (closed if modal)
        elif kind == "WIZARD":
            if rec[2] != "0":  # a new game must not stop to ask (boards, sides chosen for it)
                problems.append(rec)
        elif kind == "ANSWERED" and "Start new Logfile?" in rec[3] and rec[2] == "No":
            pass  # VASSAL 3.7 asks every player whether to log a new session: a player says No
        elif kind == "ANSWERED":
            # a modal question the checker answered: VASSAL 3.7 asks for a side when a game
            # starts; any other question would stop every player's new game
            if rec[2] not in {s.name for s in game.info.sides}:
                problems.append(rec)
        elif kind in PROBLEM_KINDS:
            problems.append(rec)
    assert problems == []
    print(f"{game.slug}: allowed because the engine ({r.engine_version}) is older than 3.7.26: "
          f"{sorted({tuple(x[1:3]) for x in newer if x[0] == 'UNKNOWNATTR'})}")


@pytest.mark.parametrize("name", GAMES, ids=game_id)
def test_engine_builds_and_flips_every_piece(built, engine_runs, name):
    game, b, _ = built[game_id(name)]
    r = engine_runs[game_id(name)]
    slots = r.kind("SLOT")
    text = b.entries["buildFile.xml"].decode()
    assert len(slots) == text.count("<VASSAL.build.widget.PieceSlot ") + \
        text.count("<VASSAL.build.widget.CardSlot ")
    for entry, shown, _flipped, size, _props in slots:
        w, h = map(int, size.split("x"))
        assert w > 20 and h > 20, f"{entry} drew as {size}"
    charts = r.kind("CHART")
    assert len(charts) == text.count("<VASSAL.build.widget.Chart ") >= len(game.tables)
    assert all(int(size.split("x")[0]) > 500 for _, _, size in charts)  # images the engine loaded
    assert [h[0] for h in r.kind("HTMLCHART")] == (["Rules"] if game.rules else []) + [
        "What changed"]  # the module version's page for players (issue 42)
    # Ctrl+F on the map: the back's name, Step 2 and the back's printed factors
    flips = {}
    for setup, fname, props in r.kind("FLIP"):
        pm = dict(kv.split("=", 1) for kv in props.split("\x1f") if "=" in kv)
        flips[pm["UnitId"]] = (fname, pm)
    two_sided = [u for u in game.units if u.two_sided and u.id in flips]
    assert two_sided or not any(u.two_sided for u in game.units) or not game.scenarios
    for u in two_sided:
        fname, pm = flips[u.id]
        assert fname.endswith(f"({u.back_name})")
        assert pm["Step"] == "2"
        for factor, part in zip(game.info.factor_names, split_factors(u.back)):
            value = factor_value(part)
            assert pm.get(prop_name(factor), "") == ("" if value is None else str(value))


@pytest.mark.parametrize("name", GAMES, ids=game_id)
def test_engine_names_every_hex_and_sector(built, engine_runs, name):
    """The engine's own location lookup: each hex or sector its name, any point of the main
    board off them the margin (never a hex name), each box of the boxes window its name."""
    game, b, _ = built[game_id(name)]
    r = engine_runs[game_id(name)]
    probes = r.kind("PROBE")
    assert len(probes) == len(b.probes)
    wrong = []
    for (m, x, y, expected), (pm, px, py, got, sx, sy) in zip(b.probes, probes):
        assert (pm, int(px), int(py)) == (m, x, y)
        if got != expected or abs(int(sx) - x) > 2 or abs(int(sy) - y) > 2:
            wrong.append((expected, got, (x, y), (sx, sy)))
    assert wrong == []
    # what was probed: every hex (or sector), the margin around them, every box of the window
    places = {p[3] for p in b.probes if p[0] == MAIN_MAP and p[3] != MARGIN_ZONE}
    if game.is_hex:
        assert places == {game.grid.label(h) for h in game.grid.all_hexes()}
    else:
        assert places == {sector_label(game, s.id) for s in game.map.sectors}
    assert sum(p[3] == MARGIN_ZONE for p in b.probes) >= 20
    assert {p[3] for p in b.probes if p[0] == BOX_MAP} == {n for _, n in box_keys(game)}


@pytest.mark.parametrize("name", GAMES, ids=game_id)
def test_engine_setups_place_pieces_as_the_sources_say(built, engine_runs, name):
    game, b, _ = built[game_id(name)]
    r = engine_runs[game_id(name)]
    print(_listing(game.slug, r))
    new_game = r.pieces.get("(new game)", [])
    assert all(p["holder"] == "Deck" for p in new_game)  # a new game holds only the decks
    for sc in game.scenarios:
        got = r.pieces.get(sc.name, [])
        on = Counter((p["props"].get("UnitId") or p["props"].get("MarkerId"), p["map"],
                      p["location"]) for p in got if p["holder"] != "Deck"
                     and p["name"] != victory.PIECE)
        want = Counter(e for e in b.setups[sc.name] if e[2] not in b.decks)
        assert on == want
        # and the Victory button's piece (issue 17), once, in the off-map box
        assert [(p["map"], p["location"]) for p in got if p["name"] == victory.PIECE] == [
            ("Off-map Boxes", "Off-map")]
        in_decks = Counter(p["location"] for p in got if p["holder"] == "Deck")
        assert in_decks == Counter({k: v for k, v in b.decks.items() if v})
        # every hex placement stands on the hex printed in the set-up file
        by_unit = Counter((p.unit, p.at) for p in sc.setup if game.is_hex and game.grid.contains(
            _hex(game, p.at)))
        for (unit, at), n in by_unit.items():
            assert on[(unit, "Main Map", at)] >= n


def _hex(game, text):
    try:
        return game.hex(text)
    except ValueError:
        from builder.geometry.hexid import HexId

        return HexId("?", 0, 0)


CTRL, SHIFT_CTRL = 130, 195  # the modifiers Swing reports for Ctrl and Ctrl+Shift


def _intended_toolbar(game, b) -> dict[str, tuple[str, str]]:
    """Each button the module adds to the main toolbar: label -> (tooltip, hotkey), as a player
    should read them (the engine adds ' [Ctrl+K]' to a tooltip)."""
    from builder.vassal.module import dice_used
    from builder.vassal_combat import calculators

    out = {"Boxes": ("Turn track, holding boxes and decks", f"66,{CTRL}"),
           "Counters": ("Show or hide the counter palette", f"75,{CTRL}"),
           # VASSAL's own (3.7.26 reads no button tooltip for the turn tracker from a module)
           "Turn": ("Turn Tracker", f"84,{CTRL}"),
           "Charts": ("Rules, tables and charts", f"72,{CTRL}"),
           "Notes": ("Notes", "")}
    for i, (n, sides) in enumerate(dice_used(game)):
        out[f"{n}d{sides}"] = (f"Roll {n}d{sides}", f"{112 + i},{CTRL}")
    if calculators(game):
        out["Combat"] = ("Combat resolution markers (drop, set options, Resolve)",
                         f"67,{SHIFT_CTRL}")
    build = b.entries["buildFile.xml"].decode("utf-8")
    if 'text="Turn events"' in build:
        leave = any(w for sc in game.scenarios for w in sc.withdrawals)
        out["Turn events"] = ("Bring on reinforcements" + (", withdraw units" if leave else ""), "")
    if game.scenarios:
        out["Victory"] = ("Count what the board shows and write the victory standing to the chat",
                          "named")  # a named key: no keyboard key, a code the engine assigns
    return out


@pytest.mark.engine
@pytest.mark.parametrize("name", GAMES, ids=game_id)
def test_every_toolbar_button_reads_as_intended_in_the_running_engine(built, engine_runs, name):
    """Read back from the engine's own toolbars, not the buildFile: the 1d6 button said '2d6',
    both palettes 'Pieces' and the charts 'Chart Window Menu' while the buildFile looked right."""
    game, b, _ = built[game_id(name)]
    r = engine_runs[game_id(name)]
    intended = _intended_toolbar(game, b)
    engine_own = {"null", "", "Retire"}  # undo, log step, server controls, retire
    shown = {rec[1]: (rec[2], rec[3]) for rec in r.kind("TOOLBAR")
             if rec[0] == "Module" and rec[1] not in engine_own}
    assert sorted(shown) == sorted(intended)
    for label, (tooltip, hotkey) in intended.items():
        got_tip, got_key = shown[label]
        assert got_tip.strip() == tooltip or got_tip.startswith(tooltip + " ["), (label, got_tip)
        if hotkey == "named":
            code, mods = map(int, got_key.split(","))
            assert code >= 0xE000 and mods == 0, (label, got_key)
        else:
            assert got_key == hotkey, (label, got_key)
    labels = [rec[1] for rec in r.kind("TOOLBAR") if rec[0] == "Module" and rec[1] not in engine_own]
    assert len(labels) == len(set(labels)), labels
    windows = [tuple(w) for w in r.kind("WINDOW")]
    assert sorted(windows) == sorted({("palette", "Counters"), ("charts", "Charts"),
                                      ("map", "Main Map"), ("map", "Off-map Boxes")}
                                     | ({("palette", "Combat")} if "Combat" in intended else set())
                                     # hidden (no button): the set-up pieces the refresher finds
                                     | ({("palette", "Set-up pieces")} if game.scenarios
                                        else set()))
    for m in ("Main Map", "Off-map Boxes"):
        tips = [rec[2] for rec in r.kind("TOOLBAR") if rec[0] == m]
        assert any(t.startswith("Zoom in") for t in tips), tips


@pytest.mark.vassal_game("mini")
def test_the_checker_answers_a_side_question_as_vassal_37_asks_it(built, tmp_path):
    """VASSAL 3.7 opens a modal 'choose side' dialog on a new game; the checkers hung on it.
    Here the checker itself asks the same question modally (the test engine has no wizard):
    it must be answered with a side, and the run must finish."""
    game, _b, path = built["mini"]
    r = run(path, None, tmp_path, ask_side=[s.name for s in game.info.sides])
    assert r.kind("DONE"), r.stderr[-2000:]
    first = game.info.sides[0].name
    assert r.kind("ASKED") == [[first]]
    assert ["Choose side", first] in [w[:2] for w in r.kind("ANSWERED")]
