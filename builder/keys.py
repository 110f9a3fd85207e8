"""What each drawn component depends on: the cache key parts (builder.cache) of maps and counters.

A key must name every input that changes the drawing, and should name nothing else, or one
edited counter would draw every map again. tests/perf/test_keys.py pins these readings: it
edits everything outside a component's parts and checks that the drawing stays the same.
"""

from __future__ import annotations

import hashlib

_digests: dict[tuple[int, str], tuple[object, str]] = {}


def _digest(game, part: str) -> str:
    """The sha256 of one part of the game's model, computed once per loaded game."""
    k = (id(game), part)
    hit = _digests.get(k)
    if hit is not None and hit[0] is game:
        return hit[1]
    value = getattr(game, part)
    if value is None:  # an optional part the game does not have (no rules.md)
        text = "none"
    elif isinstance(value, tuple):
        text = "\n".join(x.model_dump_json() for x in value)
    else:
        text = value.model_dump_json()
    d = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if len(_digests) > 64:
        _digests.clear()
    _digests[k] = (game, d)
    return d


def slice_digest(game, part: str) -> str:
    """The digest of one part of the model (info, map, units, markers, tables, scenarios, rules):
    what builder.incremental records each output file was made from."""
    return _digest(game, part)


def map_parts(game, sheet: str | None = None) -> tuple:
    """A map (or one sheet of it): drawn from game.toml, map.toml and the scenarios' tracks."""
    return ("map-svg", _digest(game, "info"), _digest(game, "map"), _digest(game, "scenarios"),
            sheet or "")


_items: dict[int, tuple[object, dict[int, tuple[object, str]]]] = {}


def item_digest(game, item) -> str:
    """The sha256 of one unit's or marker's row, computed once per loaded game (the print
    files and the module key 8,000 faces of a campaign game by it, several times each)."""
    hit = _items.get(id(game))
    if hit is None or hit[0] is not game:
        if len(_items) > 8:
            _items.clear()
        hit = _items[id(game)] = (game, {})
    known = hit[1].get(id(item))
    if known is not None and known[0] is item:
        return known[1]
    d = hashlib.sha256(item.model_dump_json().encode("utf-8")).hexdigest()
    hit[1][id(item)] = (item, d)
    return d


def counter_parts(game, item, face: str) -> tuple:
    """One counter face: the unit or marker row and game.toml (sides, colours, sizes, factors)."""
    return ("counter-face", type(item).__name__, item_digest(game, item), _digest(game, "info"),
            face)
