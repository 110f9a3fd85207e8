"""Scenario lookups in the module's chat: a unit's 'Where it starts' command writes where it
starts (or when and where it enters, and when it leaves), in the words of `builder calc GAME
start` (builder.tables.scenario_lookups)."""

from __future__ import annotations

import weakref

from builder.model.game_model import Game
from builder.tables.scenario_lookups import start_lines
from builder.vassal import traits as t

MENU = "Where it starts"
MENU_KEY = t.named("WhereItStartsMenu")
REPORT_KEY = t.named("WhereItStarts")

# every unit's lines, worked out once per game (the module asks unit by unit): by the game's
# identity, dropped when the game is (a model is not hashable by value cheaply)
_LINES: dict[int, dict[str, list[str]]] = {}


def start_traits(game: Game, unit_id: str) -> tuple[t.Trait, ...]:
    """The menu command and the chat line (nothing for a unit no scenario uses)."""
    lines = _LINES.get(id(game))
    if lines is None:
        lines = _LINES[id(game)] = start_lines(game)
        weakref.finalize(game, _LINES.pop, id(game), None)
    found = lines.get(unit_id)
    if not found:
        return ()
    text = " / ".join(found).replace("$", "").replace("{", "(").replace("}", ")")
    return (t.TriggerAction(MENU, MENU_KEY, (REPORT_KEY,), MENU),
            t.ReportState((REPORT_KEY,), text, description=MENU))
