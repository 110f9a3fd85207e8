"""What `builder check` prints: counts a designer can compare with the rule documents."""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel

from builder.model.base import Sourced
from builder.model.game_model import Game
from builder.model.maps import AreaMap


def assumed_items(obj, path: str = "") -> list[tuple[str, tuple[str, ...]]]:
    """Every item marked as reconstructed, as (where, fields)."""
    found = []
    if isinstance(obj, Sourced) and obj.assumed_fields():
        label = getattr(obj, "id", "") or getattr(obj, "name", "") or getattr(obj, "unit", "")
        found.append((f"{path} {label}".strip(), obj.assumed_fields()))
    if isinstance(obj, (list, tuple)):
        for i, item in enumerate(obj):
            found.extend(assumed_items(item, path))
    elif isinstance(obj, BaseModel):
        for name in type(obj).model_fields:
            value = getattr(obj, name)
            if isinstance(value, (list, tuple, BaseModel)):
                found.extend(assumed_items(value, name if not path else f"{path}.{name}"))
    return found


def dangling_refs(game: Game) -> list[tuple[str, str]]:
    """(section, cited number) for citations of sections the rules text does not contain."""
    if not game.rules:
        return []
    ids = {s.id for s in game.rules.sections}
    return [(s.id, r) for s in game.rules.sections for r in s.refs if r not in ids]


def summary_lines(game: Game) -> list[str]:
    info = game.info
    lines = [f"{info.title}  [{game.slug}]"]
    lines.append(f"  sides: {', '.join(f'{s.name} ({len(s.formations)} formations)' for s in info.sides)};"
                 f" first player: {game.sides[info.first_player].name}")
    night = sum(1 for t in info.turns.detail if t.night)
    lines.append(f"  turns: {info.turns.count}" + (f" ({night} night)" if night else "")
                 + f"; sequence of play: {len(info.sequence)} phases")
    m = game.map
    if isinstance(m, AreaMap):
        lines.append(f"  map: area, {len(m.sectors)} sectors, {len(m.adjacent)} adjacencies, "
                     f"{len(m.water_edges)} water edges, {sum(s.vp for s in m.sectors)} VP on the map")
    else:
        hexes = game.grid.all_hexes()
        sheets = f"{len(m.sheets)} sheets ({', '.join(s.id for s in m.sheets)}), " if m.sheets else ""
        lines.append(f"  map: hex, {sheets}{len(hexes)} hexes, {len(m.hexsides)} hexside groups "
                     f"({sum(len(h.sides) for h in m.hexsides)} hexsides), {len(m.lines)} lines, "
                     f"{len(m.labels)} labels, {len(m.regions)} regions, {len(m.objectives)} objectives")
    used = Counter(t for ts in (game.hex_terrain.values() if game.is_hex else
                                (s.terrain for s in m.sectors)) for t in ts)
    lines.append("  terrain: " + ", ".join(f"{t.name} {used.get(t.id, 0)}" for t in m.terrain_types))
    by_side = Counter(u.side for u in game.units for _ in range(u.copies))
    lines.append(f"  units: {sum(by_side.values())} counters ("
                 + ", ".join(f"{game.sides[s].name} {n}" for s, n in by_side.items())
                 + f"), {sum(1 for u in game.units if u.two_sided)} designs two-sided")
    kinds = Counter(mk.kind for mk in game.markers for _ in range(mk.copies))
    lines.append(f"  markers: {sum(kinds.values())}" + (" (" + ", ".join(f"{k} {n}" for k, n in kinds.items())
                                                        + ")" if kinds else ""))
    lines.append(f"  tables: {len(game.tables)}" + (" (" + ", ".join(f"{t.id} [{t.kind}]" for t in game.tables)
                                                    + ")" if game.tables else ""))
    for s in game.scenarios:
        lines.append(f"  scenario {s.id}: {len(s.setup)} set-up placements, "
                     f"{len(s.reinforcements)} reinforcements, {len(s.tracks)} track rows")
    if game.rules:
        dangling = dangling_refs(game)
        lines.append(f"  rules: {sum(1 for s in game.rules.sections)} sections"
                     + (f"; cites {len(dangling)} sections not in the text: "
                        + ", ".join(sorted({r for _, r in dangling})) if dangling else ""))
    assumed = assumed_items(game)
    lines.append(f"  assumed (not in the rule documents): {len(assumed)} items")
    return lines
