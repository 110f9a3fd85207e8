"""Every module passes the structural validator, and the validator catches what VASSAL would not."""

from __future__ import annotations

import io
import re
import zipfile
from collections import Counter

import pytest
from lxml import etree
from vmod_cases import GAMES, game_id
from vmod_validator import DEFAULTS_FILE, engine_attributes, parse_piece, split_traits, validate

from builder.vassal.encoding import add_piece_command, decode_sequence, nest
from builder.vassal.pieces import unit_name

P = "VASSAL.build."
# the session's `built` (every sample's module), made once for both on one worker
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("vassal-modules")]


def _build(zbytes: bytes) -> etree._Element:
    return etree.fromstring(zipfile.ZipFile(io.BytesIO(zbytes)).read("buildFile.xml"))


def _rezip(data: bytes, change) -> bytes:
    src = zipfile.ZipFile(io.BytesIO(data))
    entries = {n: src.read(n) for n in src.namelist()}
    change(entries)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for n, d in entries.items():
            z.writestr(n, d)
    return buf.getvalue()


@pytest.mark.parametrize("name", GAMES, ids=game_id)
def test_module_is_structurally_valid(built, name):
    game, b, path = built[game_id(name)]
    rep = validate(path)
    assert rep.problems == []
    # real content was checked, not an empty module
    assert rep.pieces >= len(game.units) + len(game.markers)
    charts = [n for n in zipfile.ZipFile(path).namelist() if n.startswith("images/chart-")]
    assert len(charts) >= len(game.tables)  # every table drawn as printed
    # a reinforcement that returns (issue 15) is the set-up counter coming back: no second piece
    setups = sum(len(sc.setup) + sum(1 for r in sc.reinforcements if not r.returns)
                 for sc in game.scenarios)
    # each scenario also places its 'Victory standing' piece (issue 17: the Victory button)
    assert rep.saved_pieces == setups - sum(b.deck_held.values()) + len(game.scenarios)


def test_validator_knows_the_engine_defaults():
    known = engine_attributes()
    assert "dx" in known[P + "module.map.boardPicker.board.HexGrid"]
    assert "mapName" in known[P + "module.Map"]
    if DEFAULTS_FILE.exists():  # the generated copy in the package matches the engine's file
        from builder.vassal.engine_attributes import DEFAULTS

        for tag, attrs in DEFAULTS.items():
            assert set(attrs) <= known[tag]


def test_validator_catches_broken_modules(built):
    _, _, path = built["mini"]
    good = path.read_bytes()
    assert validate(good).problems == []

    def drop_image(e):
        del e["images/" + next(n[7:] for n in e if n.startswith("images/") and "front" in n)]

    def bad_attribute(e):
        tag = b"<VASSAL.build.module.DiceButton "
        e["buildFile.xml"] = e["buildFile.xml"].replace(tag, tag + b'nSide="6" ')

    def bad_class(e):
        e["buildFile.xml"] = e["buildFile.xml"].replace(b"VASSAL.build.module.NotesWindow",
                                                        b"VASSAL.build.module.NoteWindow")

    def missing_state(e):
        root = etree.fromstring(e["buildFile.xml"])
        slot = next(root.iter(P + "widget.PieceSlot"))
        f = decode_sequence(slot.text, "/")
        slot.text = add_piece_command(f[2], nest(split_traits(f[3])[:-1]))
        e["buildFile.xml"] = etree.tostring(root)

    def off_board(e):
        text = e["buildFile.xml"].decode()
        e["buildFile.xml"] = re.sub(r'(<VASSAL\.build\.module\.map\.DrawPile [^>]*?)x="\d+"',
                                    r'\1x="99999"', text, count=1).encode()

    cases = {drop_image: "is not in images/", bad_attribute: "attribute 'nSide' is unknown",
             bad_class: "not a VASSAL 3.7 component", missing_state: "state entries",
             off_board: "outside board"}
    for change, message in cases.items():
        problems = validate(_rezip(good, change)).problems
        assert any(message in p for p in problems), (change.__name__, problems)


@pytest.mark.parametrize("name", GAMES, ids=game_id)
def test_pieces_carry_properties_and_flip(built, name):
    game, b, _ = built[game_id(name)]
    root = _build(b.vmod())
    slots = {el.get("entryName"): el.text for el in root.iter(P + "widget.PieceSlot")}
    for u in game.units:
        types, states = parse_piece(slots[unit_name(u)])
        assert len(types) == len(states)
        marks = [t for t in types if t.startswith("mark;")]
        keys = ",".join(m[5:] for m in marks)
        assert "UnitId" in keys and "Formation" in keys
        layers = [t for t in types if t.startswith("emb2;")]
        if u.two_sided:
            assert len(layers) == 1 and "70,130" in layers[0]  # Ctrl+F
            assert f"+ ({u.back_name})" in layers[0]
            calcs = [t for t in types if t.startswith("calcProp;")]
            assert {c.split(";")[1] for c in calcs} >= {"Step"}
        else:
            assert not layers


def test_same_sources_same_bytes(built):
    from builder.load import find_game, load_game
    from builder.vassal.module import build_module

    for name in ("mini", "eben-emael"):
        game, _b, path = built[name]
        again = build_module(load_game(find_game(str(game.folder)))).vmod()
        assert again == path.read_bytes()
        info = zipfile.ZipFile(io.BytesIO(again)).infolist()
        assert [i.filename for i in info] == sorted(i.filename for i in info)
        assert {i.date_time for i in info} == {(2000, 1, 1, 0, 0, 0)}


@pytest.mark.parametrize("name", GAMES, ids=game_id)
def test_every_file_in_the_archive_is_referred_to(built, name):
    """No file a player downloads for nothing: each image and chart is named by the buildFile,
    a piece definition or a set-up's saved pieces (the Victory standing piece's picture)."""
    _game, b, _path = built[game_id(name)]
    texts = [b.entries["buildFile.xml"].decode("utf-8")]
    for n, data in b.entries.items():
        if n.endswith(".vsav"):
            texts.append(zipfile.ZipFile(io.BytesIO(data)).read("savedGame").decode("utf-8"))
    every = "\n".join(texts)
    wanted = ("buildFile.xml", "moduledata")
    unused = [n for n in b.entries if n not in wanted and not n.endswith(".vsav")
              and n.split("/")[-1] not in every]
    assert unused == []


def test_module_identity_is_the_games(built):
    """Name, version and description as VASSAL's module library shows them: the game's own
    (Europa's module named itself after its rule document's heading and version stamp, which a
    player browsing the module library does not read as a game)."""
    for gid, (game, b, _) in built.items():
        root = etree.fromstring(b.entries["buildFile.xml"])
        data = etree.fromstring(b.entries["moduledata"])
        assert root.get("name") == data.findtext("name")
        assert root.get("version") == data.findtext("version") == game.info.version
        assert root.get("description") == data.findtext("description")
        assert root.get("name") == game.info.title
    europa = etree.fromstring(built["europa-terrain"][1].entries["buildFile.xml"])
    assert europa.get("name") == "Europa: The Rhine, Winter 1945"
    assert europa.get("version") == "1.0"
    assert europa.get("description").startswith("Rule 41 of a Europa-style rulebook")


def test_area_map_stacks_leave_every_sector_name_visible(built):
    """A stack stands in its sector (the engine names it so: test_vmod_engine) and covers no
    sector's printed name; pieces are drawn smaller than printed when that is what it takes."""
    from builder.render.map_area import sector_name_box
    from builder.vassal.geometry import STACK_SPREAD_MM, BoardGeometry

    game, _b, _ = built["eben-emael"]
    geom = BoardGeometry(game)
    assert geom.piece_scale < 1.0 and geom.counter_px("unit") == 64
    half = geom.counter_px("unit") / geom.px_per_mm / 2 + STACK_SPREAD_MM
    boxes = {s.id: sector_name_box(geom.layout, s) for s in game.map.sectors}
    for s in game.map.sectors:
        x, y = geom.stack_points_mm[s.id]
        for other, (x0, y0, x1, y1) in boxes.items():
            clear = x + half <= x0 or x - half >= x1 or y + half <= y0 or y - half >= y1
            assert clear, f"a stack in {s.id} covers the name of {other}"


def test_module_contents_follow_the_sources(built):
    vimy, vb, _ = built["vimy-ridge"]
    root = etree.fromstring(vb.entries["buildFile.xml"])
    assert root.get("name") == vimy.info.title and root.get("version") == vimy.info.version
    tracker = next(root.iter(P + "module.turn.TurnTracker"))
    levels = tracker.findall(P + "module.turn.ListTurnLevel")  # one per run of equal phases
    items, phases_of = [], {}
    # each level a property of its own (a shared one reads the last level's turn on load);
    # Turn and Phase are global properties that follow the tracker (test_engine_turn_track)
    assert len({level.get("property") for level in levels}) == len(levels)
    props = {p.get("name"): p for p in root.iter(P + "module.properties.GlobalProperty")}
    assert props["Turn"].get("initialValue") == "1 (9 April Morning)"
    assert props["Phase"].get("initialValue") == vimy.info.sequence[0].name
    assert len(list(root.iter(P + "module.properties.GlobalProperties"))) == 1
    for level in levels:
        turns = decode_sequence(level.get("list"), ",")
        phases = decode_sequence(level.find(P + "module.turn.ListTurnLevel").get("list"), ",")
        items += turns
        phases_of.update({len(items) - len(turns) + i + 1: phases for i in range(len(turns))})
    assert len(items) == vimy.info.turns.count
    nights = [d.number for d in vimy.info.turns.detail if d.night]
    assert nights and all("night" in items[n - 1].lower() for n in nights)
    for n in range(1, vimy.info.turns.count + 1):  # a phase skipped on a turn is not offered
        assert phases_of[n] == [p.name for p in vimy.info.sequence if n not in p.skip_on_turns]
    assert len(levels) == 8  # 1, 2, 3, 4-5, 6, 7-8, 9, 10-11: phases skipped on 1 and on 3, 6, 9
    assert len(list(root.iter(P + "module.map.LOS_Thread"))) == 1
    roster = [e.text for e in root.iter("entry")]
    assert roster == [s.name for s in vimy.info.sides]

    scheldt_root = etree.fromstring(built["scheldt"][1].entries["buildFile.xml"])
    assert not list(scheldt_root.iter(P + "module.map.LOS_Thread"))
    piles = {p.get("name"): len(list(p)) for p in scheldt_root.iter(P + "module.map.DrawPile")}
    scheldt = built["scheldt"][0]
    for d in scheldt.info.decks:  # Scheldt's set-up draws nothing out: every copy is in its pool
        assert piles[d.name] == sum(m.copies for m in scheldt.markers if m.deck == d.id) > 0

    eben_root = etree.fromstring(built["eben-emael"][1].entries["buildFile.xml"])
    dice = sorted(d.get("name") for d in eben_root.iter(P + "module.DiceButton"))
    assert dice == ["1d6", "2d6"]
    assert all(p.get("shuffle") == "Always" for p in eben_root.iter(P + "module.map.DrawPile"))


@pytest.mark.parametrize("name", GAMES, ids=game_id)
def test_setups_place_every_counter_from_the_sources(built, name):
    game, b, _ = built[game_id(name)]
    for sc in game.scenarios:
        expected = b.setups[sc.name]
        assert len(expected) == len(sc.setup) + sum(1 for r in sc.reinforcements if not r.returns)
        for p, (cid, _map, location) in zip(sc.setup, expected):
            assert cid == p.unit
            if game.is_hex and re.fullmatch(r"(\w+:)?\d{4,6}", p.at):
                assert location == p.at  # the printed hex id is VASSAL's location name
            elif not game.is_hex and p.at in game.sector_by_id:
                assert location.startswith(game.sector_by_id[p.at].name)


def test_grid_numbering_matches_every_hex(built):
    """The HexGrid settings reproduce every printed id at its centre (VASSAL's own arithmetic)."""
    from builder.vassal.geometry import BoardGeometry

    for name in ("scheldt", "europa-terrain", "mini"):
        game = built[name][0]
        geom = BoardGeometry(game)
        checked = Counter()
        for sheet in geom.sheets:
            spec = geom.grid_spec(sheet)
            for h in game.grid.all_hexes():
                if h.sheet != sheet:
                    continue
                x, y = geom.hex_center_px(h)
                col = round((x - spec.x0) / spec.dx)
                shift = spec.dy / 2 if col % 2 else 0.0  # VASSAL lowers odd raw columns
                row = round((y - spec.y0 - shift) / spec.dy)
                label = (f"{col + spec.h_off:0{spec.h_leading + 1}d}"
                         f"{row + spec.v_off:0{spec.v_leading + 1}d}")
                assert (f"{sheet}:" if sheet else "") + label == game.grid.label(h)
                checked[sheet] += 1
        assert sum(checked.values()) == len(game.grid.all_hexes())


def test_rules_links_resolve(built):
    for name in ("vimy-ridge", "operation-veritable"):
        html = built[name][1].entries["rules.html"].decode()
        anchors = set(re.findall(r'<a name="([^"]+)"', html))
        links = re.findall(r'<a href="#([^"]+)"', html)
        assert len(anchors) == len(built[name][0].rules.sections)
        assert links and set(links) <= anchors


def test_cli_writes_the_module(built, run_cli, tmp_path):
    game, _b, path = built["mini"]
    result = run_cli("build", game.folder, "--formats", "vmod", "--out", tmp_path, "--no-cache")
    assert result.exit_code == 0, result.output
    written = tmp_path / game.slug / f"{game.slug}.vmod"
    assert written.read_bytes() == path.read_bytes()
    assert validate(written).problems == []


def test_unknown_location_is_a_clear_error(built):
    from builder.vassal import boxes
    from builder.vassal.module import SourceProblem, resolve

    game = built["mini"][0]
    names = dict(boxes.box_keys(game))
    assert resolve(game, "0102", "b-1", names).location == "0102"
    assert resolve(game, "turn:2", "b-1", names).location == "Turn 2"
    with pytest.raises(SourceProblem, match="'box:nowhere'.*boxes: "):
        resolve(game, "box:nowhere", "b-1", names)
