"""The turn track read from the running engine (VASSAL 3.7.26, CombatCheck): on opening every
predefined set-up, on a new game with no set-up and on a saved game loaded again, the global
properties Turn and Phase and the tracker's own text are the game's first turn and first phase;
Next walks the turns and phases in order across the tracker's levels (one per run of turns
playing the same phases: module.turn_tracker) and Back walks home again.

Before the fix every level wrote the one shared 'Turn' property as the tracker was reset or
restored, the last level last: Vimy Ridge opened on Turn '10 (12 April Morning)' and
Eben-Emael on Turn '2' with the tracker showing turn 1.
"""

from __future__ import annotations

import pytest
from vmod_cases import GAMES, game_id

from builder.vassal import turn_events
from tests.vassal_combat.engine import EngineMissing, game_module, run_gui

pytestmark = [pytest.mark.engine, pytest.mark.xdist_group("vassal-modules")]


def _played(game) -> list[tuple[str, str]]:
    """(turn label, phase) in the order the sources play them: each turn's phases from the
    sequence of play less those it skips ('' when the game has no phases)."""
    out = []
    for n in range(game.info.turns.first, game.info.turns.first + game.info.turns.count):
        phases = [p.name for p in game.info.sequence if n not in p.skip_on_turns]
        out += [(turn_events.turn_label(game, n), p) for p in phases or [""]]
    return out


def _boundaries(played: list[tuple[str, str]]) -> list[int]:
    """Indexes in `played` where the next turn plays other phases than the one before (the
    tracker moves to another level there)."""
    runs = [tuple(p for t, p in played if t == label) for label in dict.fromkeys(
        t for t, _ in played)]
    out, i = [], 0
    for k, phases in enumerate(runs):
        i += len(phases)
        if k + 1 < len(runs) and runs[k + 1] != phases:
            out.append(i)
    return out


def _shown(turn: str, phase: str, phases: bool) -> str:
    return f"Turn {turn}" + (f" - {phase}" if phases else "")


@pytest.mark.parametrize("name", GAMES, ids=game_id)
def test_every_game_starts_on_its_first_turn_and_steps_across_levels(name, tmp_path):
    game, _, data = game_module(str(name))
    played = _played(game)
    phases = any(p for _, p in played)
    bounds = _boundaries(played)
    # one step past the first level boundary (a game of one level: into its third turn)
    first_turn = len([1 for t, _ in played if t == played[0][0]])
    steps = min(len(played) - 1, (bounds[0] if bounds else 2 * first_turn) + 1)
    first = played[0]
    script = []
    for sc in game.scenarios:
        script += [f"SETUP\t{sc.name}", "TRACKER", f"NEXT\t{steps}", "TRACKER", "RELOAD",
                   "TRACKER", f"PREV\t{steps}", "TRACKER"]
    script += ["NEWGAME", "TRACKER"]
    vmod = tmp_path / f"{game.slug}.vmod"
    vmod.write_bytes(data)
    spec = tmp_path / "track.txt"
    spec.write_text("\n".join(script) + "\n", encoding="utf-8")
    try:
        out = run_gui("CombatCheck", [str(vmod), str(spec)])
    except EngineMissing as exc:
        pytest.skip(str(exc))
    records = [line.split("\t") for line in out.splitlines()]
    assert [r for r in records if r[0] == "PROBLEM"] == []
    trackers = [tuple(r[1:4]) for r in records if r[0] == "TRACKER"]
    turns = [(r[1], r[2]) for r in records if r[0] == "TURN"]
    at_first = (first[0], first[1], _shown(*first, phases))
    there = played[steps]
    at_there = (there[0], there[1], _shown(*there, phases))
    per_setup = [at_first, at_there, at_there, at_first]
    assert trackers == per_setup * len(game.scenarios) + [at_first], records
    # Next walks the sources' order (the turn one higher at each level boundary), Back returns
    walk = played[1:steps + 1]
    back = list(reversed(played[:steps]))
    assert turns == (walk + back) * len(game.scenarios)
    if bounds and bounds[0] <= steps:
        before, after = played[bounds[0] - 1][0], played[bounds[0]][0]
        labels = [turn_events.turn_label(game, n) for n in range(
            game.info.turns.first, game.info.turns.first + game.info.turns.count)]
        assert labels.index(after) == labels.index(before) + 1


@pytest.mark.vassal_game("eben-emael")
def test_eben_emael_opens_on_the_glider_landing():
    """Eben-Emael's glider landing is played on turn 1 only (its own tracker level): the game
    opens on it, and it is the phase the properties name."""
    game = game_module("eben-emael")[0]
    landing = next(p.name for p in game.info.sequence if p.name.startswith("Glider Landing"))
    assert _played(game)[0] == (turn_events.turn_label(game, 1), landing)
    assert len(_boundaries(_played(game))) >= 1
