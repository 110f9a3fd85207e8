"""Two turns of each hex game's first scenario played in the real engine (CombatCheck): set up,
advance the turn tracker two turns, the reinforcements stand on their entry hexes and the chat
says what each turn brings; stepping back and forward moves nothing twice; one combat resolved.
"""

from __future__ import annotations

import re

import pytest
from vmod_cases import GAMES, game_id

from builder.load import find_game, load_game
from builder.vassal import turn_events
from builder.vassal.geometry import BoardGeometry
from tests.vassal_combat.engine import EngineMissing, run_gui

CTRL_R = "82\t130"
HEX_GAMES = [g for g in GAMES if game_id(g) != "mini" and load_game(find_game(g)).is_hex]


def _entering(game, sc, turns: set[int]) -> dict[str, str]:
    """unit id -> the hex it must stand on once turns `turns` have begun."""
    out = {}
    for r in sc.reinforcements:
        if r.turn in turns:
            hx = turn_events._entry(game, r)
            if hx:
                out[r.unit] = hx
    return out


def _battle(game, sc) -> tuple[list[str], str]:
    """Script lines resolving one combat (an attacker moved next to a defender when needed),
    and the name of the table that resolves it."""
    from builder import vassal_combat

    calc = vassal_combat.calculators(game)[0]
    on_hex = [(p.unit, game.grid.label(game.hex(p.at))) for p in sc.setup
              if p.unit in game.unit_by_id and _is_hex(game, p.at)]
    taken = {at for _, at in on_hex}
    d_unit, d_at = on_hex[0]
    side = game.unit_by_id[d_unit].side
    lines = [f"DROP\tR\t{calc.marker}\t{d_unit}\t{d_at}"]
    if calc.attacker_name:
        mover, m_at = next((u, at) for u, at in on_hex if game.unit_by_id[u].side != side)
        free = next(game.grid.label(n) for n in game.grid.neighbours(game.hex(d_at))
                    if game.grid.label(n) not in taken)
        x, y = BoardGeometry(game).hex_point(free)
        lines += [f"MOVE\t{mover}\t{m_at}\t{x}\t{y}",
                  f"DROP\tA\t{calc.attacker_name}\t{mover}\t{free}"]
    return lines + [f"KEY\tR\t{CTRL_R}"], calc.name


def _is_hex(game, text: str) -> bool:
    try:
        return game.grid.contains(game.hex(text))
    except ValueError:
        return False


def _play(game, tmp_path, script: list[str]) -> list[list[str]]:
    from builder.vassal.module import build_module

    vmod = tmp_path / f"{game.slug}.vmod"
    vmod.write_bytes(build_module(game).vmod())
    spec = tmp_path / "play.txt"
    spec.write_text("\n".join(script) + "\n", encoding="utf-8")
    try:
        out = run_gui("CombatCheck", [str(vmod), str(spec)])
    except EngineMissing as exc:
        pytest.skip(str(exc))
    return [line.split("\t") for line in out.splitlines()]


@pytest.mark.parametrize("name", HEX_GAMES, ids=game_id)
def test_two_turns_of_the_first_scenario_in_the_engine(name, tmp_path):
    game = load_game(find_game(name))
    sc = game.scenarios[0]
    first = sc.turns[0] if sc.turns else game.info.turns.first
    phases = max(1, len(game.info.sequence))
    arriving = _entering(game, sc, {first + 1, first + 2})
    ids = ",".join(arriving) or "none"
    battle, table = _battle(game, sc)
    moved = next(iter(arriving), None)
    script = ["SHOW", f"SETUP\t{sc.name}", f"WHERE\t{ids}", f"NEXT\t{2 * phases}",
              f"WHERE\t{ids}"]
    if moved:  # a unit the player moved on is not brought back by stepping back and forward
        x, y = BoardGeometry(game).hex_point(game.hex(arriving[moved]))
        script += [f"MOVE\t{moved}\t{arriving[moved]}\t{x + 200}\t{y}", f"PREV\t{phases}",
                   f"NEXT\t{phases}", f"WHERE\t{moved}"]
    records = _play(game, tmp_path, script + battle)
    kinds = [r[0] for r in records]
    assert "DONE" in kinds, records[-5:]
    problems = [r for r in records if r[0] == "PROBLEM"]
    assert problems == []

    # the turn tracker reached the third turn's first phase
    turns = [r for r in records if r[0] == "TURN"]
    label = turn_events.turn_label(game, first + 2)
    assert turns[2 * phases - 1][1] == label
    # before: every arriving unit waits in the boxes window; after: on its entry hex
    where = [r for r in records if r[0] == "AT"]
    before, after = where[:len(arriving)], where[len(arriving):2 * len(arriving)]
    assert all(r[2] == "Off-map Boxes" for r in before)
    assert {r[1]: (r[2], r[3]) for r in after} == {u: ("Main Map", hx) for u, hx in arriving.items()}
    # the chat: one line per turn with events, as turn_events writes it
    events = turn_events.scenario_events(game, sc)
    chat, seen = [], 0
    for r in records:
        seen += r[0] == "TURN"
        if r[0] == "CHAT" and 0 < seen <= 2 * phases:
            chat.append(r[1])
        if seen == 2 * phases and r[0] not in ("TURN", "CHAT"):
            break
    want = ["* " + turn_events._safe(events[n].line(game)) for n in (first + 1, first + 2)
            if n in events]
    assert chat == want
    if moved:
        moved_to = [r for r in where if r[1] == moved][-1]
        assert moved_to[3] != arriving[moved], "stepping back and forward moved a unit again"
    # one combat: the resolve marker writes one line, its table's, with the die it rolled
    start = records.index(next(r for r in records if r[0] == "DROPPED"))
    resolved = [r[1] for r in records[start:] if r[0] == "CHAT"]
    assert len(resolved) == 1 and resolved[0].startswith(f"* {table}"), resolved
    assert re.search(r"\bdie \d+", resolved[0]) or re.search(r"\broll \d+", resolved[0])


def test_the_line_of_sight_thread_reports_the_hexes_it_crosses(tmp_path):
    """Vimy's observation rules (17.3) count hexes and blocking terrain along a line of sight:
    the thread dragged from one hex to another reports every hex it crossed."""
    name = next(g for g in HEX_GAMES if game_id(g) == "vimy-ridge")
    game = load_game(find_game(name))
    geom = BoardGeometry(game)
    col = game.hex("0510")
    line = [game.grid.label(game.hex(f"05{r:02d}")) for r in range(col.row, col.row + 5)]
    (x1, y1), (x2, y2) = geom.hex_point(line[0]), geom.hex_point(line[-1])
    records = _play(game, tmp_path, ["SHOW", f"SETUP\t{game.scenarios[0].name}",
                                     f"LOS\t{x1}\t{y1}\t{x2}\t{y2}"])
    chat = [r[1] for r in records if r[0] == "CHAT"]
    assert len(chat) == 1, chat
    assert f"from {line[0]} to {line[-1]}" in chat[0]
    assert chat[0].endswith("crossing " + ", ".join(line[1:]))
