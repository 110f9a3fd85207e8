"""The map facts the generator reads, through the same queries the rules assistant uses."""

from __future__ import annotations

from builder import mapinfo


def place_terrain(game, place) -> tuple[str, ...]:
    """Terrain ids of a hex (its default terrain when none is assigned) or of a sector."""
    if game.is_hex:
        return tuple(mapinfo.terrain_of(game, place))
    return tuple(game.sector_by_id[place].terrain)


def default_terrain(game) -> tuple[str, ...]:
    """The terrain of a place the module has no data for (off the map: the default terrain)."""
    return (game.map.default_terrain,) if game.is_hex else ()


def regions(game, place) -> tuple[str, ...]:
    """Ids of the map's regions holding a hex (as mapinfo.regions_of)."""
    if not game.is_hex:
        return ()
    return game.region_index.get(place, ())


def hexside_types(game) -> list[tuple[str, str, tuple[str, ...]]]:
    """(hex label, neighbour label, hexside type ids) both ways for every side with a feature."""
    pairs: dict[tuple, set[str]] = {}
    for _kind, a, b in game.hexside_list:
        for p, q in ((a, b), (b, a)):
            pairs.setdefault((p, q), set())
    out = []
    for (p, q) in sorted(pairs, key=lambda pq: (game.grid.label(pq[0]), game.grid.label(pq[1]))):
        types = tuple(sorted(mapinfo.hexside_types(game, p, q)))
        if types:
            out.append((game.grid.label(p), game.grid.label(q), types))
    return out
