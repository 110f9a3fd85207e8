"""The game's one terrain effects chart: which chart of tables.toml it is (the chart with a
'terrain' key), which map features each of its rows describes, the map features it leaves out,
and where what it prints contradicts map.toml's effects (what the calculators use)."""

from __future__ import annotations

import re

from builder.model.game_model import Game
from builder.model.tables import ChartTable

# an effect's name and the words a chart's column heading uses for it
_HEADINGS = {
    "movement": ("move", "mp"),
    "divisor": ("divid", "divisor", "halv"),
    "shift": ("shift", "column"),
    "drm": ("drm", "modifier"),
}
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")


def map_features(game: Game) -> list:
    """Every terrain type, hexside type and line type of the map, in map.toml's order."""
    m = game.map
    return (list(m.terrain_types) + list(getattr(m, "hexside_types", ()))
            + list(getattr(m, "line_types", ())))


def chart_of(game: Game) -> ChartTable | None:
    """The chart of tables.toml marked as the terrain effects chart, if any."""
    return next((t for t in game.tables if isinstance(t, ChartTable) and t.terrain), None)


def unnamed(game: Game, chart: ChartTable) -> list:
    """The map features with effects that no row of the chart names."""
    named = {k for j in range(len(chart.rows)) for k in chart.terrain_ids(j)}
    return [it for it in map_features(game) if it.effects and it.id not in named]


def _columns_for(chart: ChartTable, effect: str) -> list[int]:
    words = _HEADINGS.get(effect, (effect.replace("_", " "),))
    return [c for c, head in enumerate(chart.columns)
            if c and any(w in head.casefold() for w in words)]


def contradictions(game: Game, chart: ChartTable) -> list[tuple[int, object, str, object, str]]:
    """(row, feature, effect, map.toml's value, the chart's cell) wherever the chart prints
    numbers for a numeric effect of a feature its row names and none of them is map.toml's."""
    by_id = {it.id: it for it in map_features(game)}
    out = []
    for j, row in enumerate(chart.rows):
        for k in chart.terrain_ids(j):
            it = by_id.get(k)
            if it is None:
                continue
            for effect, value in it.effects.items():
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    continue
                for c in _columns_for(chart, effect):
                    numbers = {abs(float(n)) for n in _NUMBER.findall(row[c])}
                    if numbers and abs(float(value)) not in numbers:
                        out.append((j, it, effect, value, row[c]))
    return out


def summary(game: Game) -> list[str]:
    """What `builder check --assumed` says of the terrain effects chart: which one is printed,
    and whether what it prints agrees with map.toml's effects (and the chart's note, where the
    designer says how a disagreement was resolved from the rules)."""
    chart = chart_of(game)
    if chart is None:
        return [("terrain chart: made from map.toml's effects (no chart of tables.toml has "
                 "'terrain')")]
    bad = contradictions(game, chart)
    left = unnamed(game, chart)
    lines = [f"terrain chart: '{chart.name}' (tables.toml '{chart.id}') is the one printed, "
             "each row with the map's drawing of what it names; "
             + (f"{len(bad)} numbers disagree with map.toml's effects (see the warnings)" if bad
                else "its numbers agree with map.toml's effects")
             + (f"; {len(left)} terrain types with effects added in rows of their own" if left
                else "")]
    if chart.note:
        lines.append(f"terrain chart note: {chart.note}")
    return lines
