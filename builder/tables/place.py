"""Where a calculation happens, read one way on every table kind.

A table that reads facts of the defender's (target's) place (terrain effects, terrain rows,
modifiers for terrain or regions, rule conditions on terrain, region, place or hexsides crossed)
takes the same inputs whatever its kind: `terrain` (every terrain in the hex or sector, named) or
the place itself (`hex` on a hex map, `sector` on an area map), whose terrain the map gives.
Everything that depends on terrain reads it from `read()`, so naming a hex and naming its
terrain give the same answer; the place alone adds what terrain cannot say (the regions the hex
is in, the places near it, the hexsides attacked across).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from builder.tables.inputs import CalcError, Choice, InputSpec

TERRAIN = "terrain"
HEX = "hex"
SECTOR = "sector"
PLACE_KINDS = ("ratio", "differential", "fire", "modified-roll")
# the kinds' former names for the same inputs, still accepted from players (see inputs._ALIASES)
OLD_NAMES = {"defender_hex": HEX, "target_hex": HEX, "target_sector": SECTOR,
             "defender_terrain": TERRAIN, "target_terrain": TERRAIN, "defence_terrain": TERRAIN}


@dataclass(frozen=True)
class Place:
    """The place facts a calculation was given (None: not given, so unknown)."""

    terrain: tuple[str, ...] | None = None
    hex: object = None
    sector: str | None = None
    regions: tuple[str, ...] | None = None
    where: str = ""  # the hex as printed or the sector's name ('' when only terrain was named)
    # terrain and region ids -> names, for the working (not a fact: left out of comparisons)
    names: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    @property
    def known(self) -> bool:
        return self.terrain is not None


def whose(t) -> str:
    """'the defender's' or 'the target's': whose place the table reads."""
    return "the target's" if t.kind in ("fire", "modified-roll") else "the defender's"


def _effect_names(t) -> list[str]:
    names = [getattr(t, "terrain_effect", ""), getattr(t, "defence_effect", "")]
    if t.kind == "ratio":
        names.append(t.shift_effect)
    return [n for n in names if n]


def reads_place(game, t) -> bool:
    """Whether anything in the table depends on the defender's (target's) place."""
    if t.kind not in PLACE_KINDS:
        return False
    if t.kind in ("ratio", "differential"):
        return True  # an attack is always on a place: its hexsides, sectors and terrain
    if any(x.effects.get(e) is not None for x in game.map.terrain_types for e in _effect_names(t)):
        return True
    if any(m.terrain or m.regions for m in getattr(t, "modifiers", ())):
        return True
    if any(r.terrain or r.hexsides for r in getattr(t, "terrain_rows", ())):
        return True
    for r in t.rules:
        for c in (r.when.walk() if r.when else ()):
            if c.terrain or c.region or c.place or c.across:
                return True
    return bool(t.kind == "ratio" and getattr(t, "fire_first", ""))


def _terrain_label(game, t, x) -> str:
    """A terrain as a choice: its name and what this table does with it (builder.words)."""
    from builder import words

    said = [words.table_effect(game, t, e, x.effects[e]) for e in _effect_names(t)
            if x.effects.get(e) is not None]
    return x.name + (f" ({', '.join(said)})" if said else "")


def specs(game, t) -> list[InputSpec]:
    """The place inputs: every terrain in the place, or the place on the map."""
    if not reads_place(game, t):
        return []
    who = whose(t)
    several = ""
    if any(x.effects.get(e) is not None for x in game.map.terrain_types for e in _effect_names(t)):
        several = (" (several: their effects combine)"
                   if getattr(t, "terrain_choice", "") == "cumulative"
                   else " (several: the one best for the defender)")
    out = [InputSpec(TERRAIN, f"{who} terrain: every terrain in the "
                     + ("hex" if game.is_hex else "sector") + several, "choice", multiple=True,
                     choices=tuple(Choice(x.id, _terrain_label(game, t, x))
                                   for x in game.map.terrain_types),
                     help="or name the " + ("hex" if game.is_hex else "sector")
                     + ": its terrain is read from the map")]
    if game.is_hex:
        out.append(InputSpec(HEX, f"{who} hex (its terrain, regions and hexsides are read from "
                             "the map)", "hex"))
    else:
        out.append(InputSpec(SECTOR, f"{who} sector (its terrain is read from the map)", "choice",
                             choices=tuple(Choice(s.id, s.name) for s in game.map.sectors)))
    return out


def read(game, values: dict, calc=None) -> Place:
    """The place facts from the inputs; the hex or sector's terrain from the map, in the working."""
    from builder import mapinfo

    named = values.get(TERRAIN)
    h = values.get(HEX) if game.is_hex else None
    s = values.get(SECTOR) if not game.is_hex else None
    if named and (h is not None or s is not None):
        raise CalcError(f"give terrain or the {'hex' if game.is_hex else 'sector'}, not both: the "
                        "map gives the terrain of the place named")
    if h is not None:
        terrain = tuple(mapinfo.terrain_of(game, h))
        where = game.grid.label(h)
        if calc is not None:
            calc.echo(f"{where}: " + ", ".join(mapinfo.terrain_name(game, x) for x in terrain))
        return Place(terrain, hex=h, regions=tuple(mapinfo.regions_of(game, h)), where=where,
                     names=_names(game))
    if s is not None:
        sector = game.sector_by_id[s]
        if calc is not None:
            calc.echo(f"{sector.name}: " + (", ".join(mapinfo.terrain_name(game, x)
                                                      for x in sector.terrain)
                                            or "no terrain feature"))
        return Place(tuple(sector.terrain), sector=s, where=sector.name, names=_names(game))
    if named:
        return Place(tuple(named), names=_names(game))
    return Place()


def _names(game) -> dict:
    """Terrain and region ids -> names as the map gives them."""
    return {**{x.id: x.name for x in game.map.terrain_types},
            **{r.id: r.name for r in getattr(game.map, "regions", ())}}
