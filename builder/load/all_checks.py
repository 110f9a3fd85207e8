"""Every check on a loaded game, in order: references and consistency (checks.Checker), then the
scenario checks and the likely mistakes, which build on the Checker and so sit above it."""

from __future__ import annotations

from builder.errors import Collector
from builder.load import likely_mistakes, scenario_checks
from builder.load.checks import Checker, RawIds
from builder.model.game_model import Game
from builder.model.maps import AreaMap, HexMap


def check_game(game: Game, errors: Collector, game_src, map_src, tables_src, units, markers,
               scenarios, counter_ids: set[str] = frozenset(), raw: RawIds | None = None,
               complete: bool = True, rules_text: str | None = None) -> None:
    """Run every cross-reference and consistency check; problems and warnings go to the collector.

    complete False: game.toml has problems and game.info is a stand-in (stand_in_info); a None
    map: map.toml has problems. The other files are still checked as far as they can be."""
    c = Checker(game, errors, game_src, map_src, tables_src)
    c.counter_ids = set(counter_ids)
    c.raw = raw or RawIds()
    c.complete = complete
    if complete:
        c.check_info()
    if isinstance(game.map, HexMap):
        grid_ok = c.check_hex_map(game.map)
    elif isinstance(game.map, AreaMap):
        c.check_area_map(game.map)
        grid_ok = True
    else:
        grid_ok = False
    c.check_counters(units, markers)
    c.check_tables()
    c.check_scenarios(scenarios, map_ok=grid_ok)
    if complete and grid_ok:
        scenario_checks.check(c, scenarios)
    likely_mistakes.check(c, rules_text)
