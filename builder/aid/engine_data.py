"""The data the page's JavaScript table engine computes with: the same definitions `builder calc`
reads (tables, terrain effects, the map), and the calculators' inputs as the Python API
describes them, so the form asks for exactly what the CLI takes.
"""

from __future__ import annotations

import json

from builder.model.game_model import Game


def _map_data(game: Game) -> dict:
    """Terrain by hex (with cube coordinates for distance) or by sector, and hexsides."""
    m = game.map
    data: dict = {
        "kind": "hex" if game.is_hex else "area",
        "terrain": {t.id: {"name": t.name, "effects": dict(t.effects), "source": t.source,
                           "level": t.level, "height": t.height}
                    for t in m.terrain_types},
    }
    if game.is_hex:
        grid = game.grid
        data["digits"] = [m.column_digits, m.row_digits]
        data["radius"] = grid.radius_mm
        data["default_terrain"] = m.default_terrain
        # a list, not an object: JavaScript would reorder keys that look like numbers
        regions: dict = {}
        for r in m.regions:
            for h in game.hexes(r.hexes):
                regions.setdefault(h, []).append(r.id)
        # HexId's own order (sheet, column, row), by a tuple key: the dataclass comparisons
        # sorting a campaign map's 34,000 hexes took a second
        ordered = sorted(grid.all_hexes(), key=_hex_order)
        terrain, default = game.hex_terrain, (m.default_terrain,)
        data["hexes"] = [[grid.label(h), list(grid.cube(h)), list(terrain.get(h, default)),
                          list(grid.center_mm(h)), regions.get(h, [])] for h in ordered]
        data["labels"] = [[lab.text, lab.hex] for lab in m.labels]
        data["region_names"] = {r.id: r.name for r in m.regions}
        data["hexsideTypes"] = {t.id: t.name for t in m.hexside_types}
        data["hexsideSight"] = {t.id: [t.sight, t.height] for t in m.hexside_types if t.sight}
        data["levels"] = [[grid.label(h), v] for h, v in sorted(game.hex_levels.items(),
                                                                key=lambda hv: _hex_order(hv[0]))]
        data["hexsideEffects"] = {t.id: dict(t.effects) for t in m.hexside_types}
        data["hexsides"] = _hexsides(game)
    else:
        data["sectors"] = {s.id: {"name": s.name, "terrain": list(s.terrain), "mg": s.mg,
                                  "fire_arc": list(s.fire_arc)} for s in m.sectors}
        data["adjacent"] = [list(p) for p in m.adjacent]
        data["water_edges"] = [list(p) for p in m.water_edges]
    return data


def _hex_order(h) -> tuple:
    return (h.sheet, h.col, h.row)


def _hexsides(game: Game) -> dict[str, list[str]]:
    """'hex|neighbour' -> the hexside types between them, for each side that has any: in the
    order of walking every hex (sorted) and its neighbours (grid.neighbours' order), found from
    the sides the map lists rather than by asking each of 34,000 hexes for its six."""
    grid = game.grid
    pairs = []
    for key, types in game.hexside_index.items():
        if len(key) != 2:
            continue
        a, b = sorted(key, key=_hex_order)
        if grid.contains(a) and grid.contains(b) and grid.adjacent(a, b):
            pairs.append(((_hex_order(a), grid.map_order(b)), a, b, types))
    pairs.sort(key=lambda pair: pair[0])
    return {f"{grid.label(a)}|{grid.label(b)}": list(types) for _, a, b, types in pairs}


def _map_script_json(game: Game) -> str:
    """_map_data as script_json text, from the build cache when map.toml is unchanged: it reads
    the map alone, and a campaign map's 34,000 hexes and their hexsides take seconds to list
    again after a counter edit (kept as text: parsing it back to write it again took 0.2 s)."""
    from builder import cache, keys

    return cache.cached_text(("aid-map-script-json", keys.slice_digest(game, "map")),
                             lambda: script_json(_map_data(game)))


def _engine_fields(game: Game) -> dict:
    """engine_data without its map."""
    from builder.tables import accounting, api, effects, scenario_lookups, victory

    return {
        "game": game.slug,
        "calculators": api.list_calculators(game),
        "tables": {t.id: t.model_dump(mode="json") for t in game.tables},
        "turns": [{"number": d.number, "name": d.name, "night": d.night, "period": d.period}
                  for d in game.info.turns.detail],
        "effects": effects.description(),  # what each rule effect means (builder.tables.effects)
        "words": {t.id: _said(game, t) for t in game.tables},  # the sentences builder.words writes
        # each rule's condition part by part in a player's words (builder.words), for the lines
        # that say why an input changed nothing (builder.tables.accounting)
        "phrases": {t.id: accounting.phrases(game, t) for t in game.tables if t.rules},
        "victory": victory.engine_data(game),  # the scenarios' victory (builder.tables.victory)
        # the scenario lookups' answers (builder.tables.scenario_lookups), worked out here
        "lookups": scenario_lookups.engine_data(game),
    }


def _said(game: Game, t) -> dict:
    """What the page's working says of a table in words: each rule's sentence, the ends of the
    table and a refusal at these odds, all from builder.words (the same text as calc's)."""
    from builder import words

    out: dict = {"rules": {r.id: words.rule(game, t, r) for r in t.rules}}
    if t.kind == "lookup":
        out["entries"] = [words.entry(t, e.when) for e in t.entries]
    if hasattr(t, "beyond_low") and t.kind in ("ratio", "differential"):
        out["beyond_low"] = words.beyond(t, "low")
        out["beyond_high"] = words.beyond(t, "high")
        out["cannot"] = words.cannot(t, "these odds" if t.kind == "ratio" else "this differential")
    if t.kind == "fire":  # a shift past a fire table's end reads the end column
        out["beyond_low"] = words.beyond(t, "low", "first-column")
        out["beyond_high"] = words.beyond(t, "high", "last-column")
    return out


def engine_data(game: Game) -> dict:
    """Everything the JavaScript engine needs for this game, as plain JSON data."""
    return {**_engine_fields(game), "map": json.loads(_map_script_json(game))}


def engine_script_json(game: Game) -> tuple[dict, str]:
    """(engine_data without the map, script_json of the whole): the map's text is spliced in as
    the cache holds it."""
    fields = _engine_fields(game)
    return fields, script_json(fields)[:-1] + ',"map":' + _map_script_json(game) + "}"


def script_json(data) -> str:
    """JSON safe inside <script type="application/json">: no '<', '>', '&' or line separators
    can end the element or confuse a parser, whatever the sources contain."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
