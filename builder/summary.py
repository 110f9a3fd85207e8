"""What `builder check` prints: counts a designer can compare with the rule documents."""

from __future__ import annotations

import functools
import typing
from collections import Counter

from pydantic import BaseModel

from builder.model.base import Sourced
from builder.model.game_model import Game
from builder.model.maps import AreaMap
from builder.model.scenario import Section


def assumed_items(obj, path: str = "") -> list[tuple[str, tuple[str, ...]]]:
    """Every item marked as reconstructed, as (where, fields): where names the item by its id,
    or, for an item without one, by its place in the list and what tells it apart
    ('map.terrain[4] woods: 1203, 1204..1208'; 'scenarios[arras].setup line 12 ca-1bn at 0114')."""
    found = []
    if isinstance(obj, Sourced) and obj.assumed_fields():
        found.append((f"{path} {item_label(obj)}".strip(), obj.assumed_fields()))
    if isinstance(obj, BaseModel):
        for name in _may_hold_models(type(obj)):
            value = getattr(obj, name)
            here = name if not path else f"{path}.{name}"
            if isinstance(value, BaseModel):
                found.extend(assumed_items(value, here))
            elif isinstance(value, (list, tuple)):
                for i, item in enumerate(value):
                    if isinstance(item, BaseModel):
                        found.extend(assumed_items(item, _list_place(here, i, item)))
    return found


@functools.cache
def _may_hold_models(cls) -> tuple[str, ...]:
    """The fields of a model class whose annotation lets them hold models: the rest (a hex
    list's 34,000 strings, a factor) need not be looked through."""
    return tuple(name for name, field in cls.model_fields.items() if _holds_models(field.annotation))


def _holds_models(annotation) -> bool:
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Literal:
        return False
    if origin is typing.Annotated:
        return _holds_models(args[0])
    if args:
        return any(_holds_models(a) for a in args if a is not Ellipsis)
    if isinstance(annotation, type):
        return issubclass(annotation, BaseModel) or annotation in (object, list, tuple, dict)
    return True  # Any, or a form not known here: looked through


def _list_place(path: str, i: int, item) -> str:
    """'scenarios[arras]', 'units' (an id names it), or 'map.terrain[4]' (nothing else does)."""
    if path == "scenarios":
        return f"scenarios[{item.id}]"
    if getattr(item, "id", "") or getattr(item, "line", 0) or getattr(item, "number", 0):
        return path
    return f"{path}[{i}]"


def _short(values, n: int = 3) -> str:
    values = [str(v) for v in values]
    return ", ".join(values[:n]) + (f" (+{len(values) - n} more)" if len(values) > n else "")


def item_label(item) -> str:
    """What tells an item apart from the others in its list, for a designer's message."""
    parts = []
    line = getattr(item, "line", 0)
    if line and hasattr(item, "unit"):
        parts.append(f"line {line}")
    for key in ("id", "unit", "number", "name", "text", "terrain", "type", "deck", "edge", "side", "kind"):
        value = getattr(item, key, None)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and value != "":
            parts.append(f"turn {value}" if key == "number" else str(value))
            if key in ("id", "unit", "number"):
                break
    for key in ("hex", "at", "hexes", "sides"):
        value = getattr(item, key, None)
        if isinstance(value, tuple) and not all(isinstance(v, str) for v in value):
            continue
        if value:
            parts.append(("at " if key == "at" else "") + (_short(value) if isinstance(value, tuple)
                                                           else str(value)))
            break
    if isinstance(item, Section):
        parts = [item.id, item.title]
    text = " ".join(parts[:1]) + (": " + " ".join(parts[1:]) if len(parts) > 1 and
                                  not any(k in parts[0] for k in ("line",)) else
                                  (" " + " ".join(parts[1:]) if len(parts) > 1 else ""))
    return text


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
    used = (game.terrain_hex_counts if game.is_hex else
            Counter(t for s in m.sectors for t in s.terrain))
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
