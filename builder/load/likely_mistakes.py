"""Warnings: what is legal but likely wrong. Listed after the problems; they change the exit
code only with `builder check --strict`."""

from __future__ import annotations

from pathlib import Path

from builder.load.checks import Checker


def check(c: Checker, rules_text: str | None) -> None:
    """Add a warning for every likely mistake found in the game's sources."""
    if c.g.rules is not None and rules_text is not None:
        _dangling_refs(c, rules_text)
    if c.g.map is not None and c.complete:
        _unused_terrain(c)


def _dangling_refs(c: Checker, text: str) -> None:
    """A rules cross-reference to a section the text does not contain, with its line."""
    rules = c.g.rules
    path = Path(c.g.folder) / "rules.md"
    ids = {s.id for s in rules.sections}
    lines = text.splitlines()
    ends = [s.line for s in rules.sections[1:]] + [len(lines) + 1]
    for s, end in zip(rules.sections, ends, strict=True):
        for ref in s.refs:
            if ref in ids:
                continue
            at = next((n for n in range(s.line + 1, end) if ref in lines[n - 1]), s.line)
            near = sorted(i for i in ids if i.split(".")[0] == ref.split(".")[0])[:6]
            c.e.warn(path, f"line {at}", f"section {s.id} cites {ref}, which the rules text does "
                     "not contain", f"correct the number (sections nearby: {', '.join(near)})" if near
                     else "correct the number, or add the section")


def _unused_terrain(c: Checker) -> None:
    """A terrain type no hex or sector has: a typo in a terrain block, or a leftover."""
    g = c.g
    if g.is_hex:
        used = {block.terrain for block in g.map.terrain} | {g.map.default_terrain}
    else:
        used = {t for s in g.map.sectors for t in s.terrain}
        if g.map.water:  # the water polygons are drawn as the water terrain
            used |= {t.id for t in g.map.terrain_types if "water" in (t.id, t.pattern)}
    for i, t in enumerate(g.map.terrain_types):
        if t.id not in used:
            c.e.warn(*c.at(c.map_src, ("terrain_types", i, "id")),
                     f"terrain type '{t.id}' is given to no {'hex' if g.is_hex else 'sector'}",
                     ("assign it in [[terrain]]" if g.is_hex else "add it to a sector's terrain")
                     + ", or remove it if the map has none")
