"""The whole game: what the loader returns and every output reads."""

from __future__ import annotations

from collections import Counter
from functools import cached_property

from pydantic import ConfigDict

from builder.geometry.hexgrid import HexGrid, SheetPlacement
from builder.geometry.hexid import HexId, parse_hex, parse_hex_range, parse_span
from builder.model.base import Model
from builder.model.counters import Marker, Unit
from builder.model.game import GameInfo
from builder.model.maps import AreaMap, HexMap
from builder.model.scenario import Rules, Scenario
from builder.model.tables import Table


class Game(Model):
    """A loaded, validated game. Immutable; derived views are computed once on first use."""

    model_config = ConfigDict(frozen=True, extra="forbid", ignored_types=(cached_property,),
                              defer_build=True)

    slug: str
    folder: str
    info: GameInfo
    map: HexMap | AreaMap
    units: tuple[Unit, ...]
    markers: tuple[Marker, ...] = ()
    tables: tuple[Table, ...] = ()
    scenarios: tuple[Scenario, ...] = ()
    rules: Rules | None = None

    def __getstate__(self) -> dict:
        """Pickled (load.model_cache): the fields, not the lookups below, which are made again
        on first use. So the bytes do not depend on what a build had looked up before the
        model was written (load.later writes it once the formats have started)."""
        state = super().__getstate__()
        fields = type(self).model_fields
        state["__dict__"] = {k: v for k, v in state["__dict__"].items() if k in fields}
        return state

    # --- lookups ---------------------------------------------------------------------------
    @cached_property
    def sides(self) -> dict:
        return {s.id: s for s in self.info.sides}

    @cached_property
    def unit_by_id(self) -> dict[str, Unit]:
        return {u.id: u for u in self.units}

    @cached_property
    def marker_by_id(self) -> dict[str, Marker]:
        return {m.id: m for m in self.markers}

    @cached_property
    def table_by_id(self) -> dict[str, Table]:
        return {t.id: t for t in self.tables}

    @cached_property
    def terrain_types(self) -> dict:
        return {t.id: t for t in self.map.terrain_types}

    @cached_property
    def _counter_types(self) -> tuple[dict, dict]:
        """game.toml's counter types by id, and by the unit type that uses them."""
        by_id = {ct.id: ct for ct in self.info.counter_types}
        by_type: dict = {}
        for ct in self.info.counter_types:
            for unit_type in ct.unit_types:
                by_type.setdefault(unit_type, ct)
        return by_id, by_type

    def counter_type_of(self, u):
        """The counter type whose factors a unit prints (None: game.toml's factor_names)."""
        by_id, by_type = self._counter_types
        return by_id.get(u.counter_type) if u.counter_type else by_type.get(u.type)

    def factor_names_of(self, u, face: str = "front") -> tuple[str, ...]:
        """What the numbers printed on a unit's face mean, in order."""
        ct = self.counter_type_of(u)
        if ct is None:
            return self.info.factor_names
        return ct.back_factor_names or ct.factor_names if face == "back" else ct.factor_names

    @cached_property
    def all_factor_names(self) -> tuple[str, ...]:
        """Every factor name any counter prints: game.toml's, then each counter type's."""
        names = list(self.info.factor_names)
        for ct in self.info.counter_types:
            names += [n for n in (*ct.factor_names, *ct.back_factor_names) if n not in names]
        return tuple(names)

    @cached_property
    def hexside_type_by_id(self) -> dict:
        """Hexside types by id (a hex map's; empty on an area map)."""
        return {t.id: t for t in getattr(self.map, "hexside_types", ())}

    # --- hex maps --------------------------------------------------------------------------
    @property
    def is_hex(self) -> bool:
        return isinstance(self.map, HexMap)

    @cached_property
    def grid(self) -> HexGrid:
        """The one geometry every output uses for hex positions (hex maps only)."""
        return make_grid(self.map)

    def hex(self, text: str) -> HexId:
        hid = self._hex_ids.get(text)
        if hid is None:
            m = self.map
            hid = self._hex_ids[text] = parse_hex(text, m.column_digits, m.row_digits)
        return hid

    def hexes(self, texts) -> list[HexId]:
        m = self.map
        ranges = self._hex_ranges
        out: list[HexId] = []
        for t in texts:
            hexes = ranges.get(t)
            if hexes is None:
                hexes = ranges[t] = tuple(parse_hex_range(t, m.column_digits, m.row_digits))
            out.extend(hexes)
        return out

    @cached_property
    def _hex_ids(self) -> dict[str, HexId]:
        """Hex numbers read once: a campaign's 3,600 set-up hexes are looked up by each format
        several times (a bad number raises every time: it is never kept)."""
        return {}

    @cached_property
    def _hex_ranges(self) -> dict[str, tuple[HexId, ...]]:
        """Hex ranges read once ('0101-0105' -> its hexes): every sheet of a campaign map
        reads all the map's roads and rivers to find its own."""
        return {}

    @cached_property
    def hex_terrain(self) -> dict[HexId, tuple[str, ...]]:
        """Every hex's terrain ids: those assigned, or the default terrain."""
        assigned: dict[HexId, list[str]] = {}
        for terrain, hexes in self._terrain_blocks:
            for h in hexes:
                assigned.setdefault(h, []).append(terrain)
        default = (self.map.default_terrain,)
        return {h: tuple(assigned.get(h, default)) for h in self.grid.all_hexes()}

    @cached_property
    def region_index(self) -> dict[HexId, tuple[str, ...]]:
        """Each hex's region ids, in the map's order of regions (hex maps only): the rules
        assistant asks it of every place it reads, thousands of times in a batch of answers."""
        index: dict[HexId, list[str]] = {}
        if self.is_hex:
            for r in self.map.regions:
                for h in dict.fromkeys(self.hexes(r.hexes)):
                    index.setdefault(h, []).append(r.id)
        return {h: tuple(ids) for h, ids in index.items()}

    @cached_property
    def hex_levels(self) -> dict[HexId, int]:
        """Hexes whose ground level map.toml's [[levels]] gives (line of sight)."""
        return {h: block.level for block in getattr(self.map, "levels", ())
                for h in self.hexes(block.hexes)}

    @cached_property
    def _terrain_blocks(self) -> tuple[tuple[str, tuple[HexId, ...]], ...]:
        """map.toml's terrain blocks as (terrain id, its hexes): their ranges parsed once."""
        return tuple((block.terrain, tuple(self.hexes(block.hexes))) for block in self.map.terrain)

    @cached_property
    def terrain_hex_counts(self) -> Counter:
        """How many hexes have each terrain id (hex_terrain's values counted), found without
        building hex_terrain: a legend and `builder check` ask only this of a campaign map's
        34,000 hexes."""
        grid = self.grid
        counts: Counter = Counter()
        covered: set[HexId] = set()
        for terrain, hexes in self._terrain_blocks:
            inside = [h for h in hexes if grid.contains(h)]
            counts[terrain] += len(inside)
            covered.update(inside)
        if len(covered) < grid.hex_count:
            counts[self.map.default_terrain] += grid.hex_count - len(covered)
        return counts

    @cached_property
    def terrain_used(self) -> frozenset[str]:
        """The terrain ids some hex has."""
        return frozenset(t for t, n in self.terrain_hex_counts.items() if n)

    @cached_property
    def hexside_list(self) -> tuple[tuple[str, HexId, HexId], ...]:
        """Every hexside feature as (hexside type id, hex, neighbour): the one parser of 'A/B'.

        The second hex inherits the first's sheet prefix, so '16A:0827/0727' is 16A's 0727.
        """
        out = []
        for block in self.map.hexsides:
            for text in block.sides:
                left, right = str(text).split("/")
                a = self.hex(left)
                b = self.hex(right if ":" in right else (f"{a.sheet}:{right}" if a.sheet else right))
                out.append((block.type, a, b))
        return tuple(out)

    def hexside_types_between(self, a: HexId, b: HexId) -> tuple[str, ...]:
        """Hexside type ids on the side between two adjacent hexes (empty when none)."""
        return self.hexside_index.get(frozenset((a, b)), ())

    @cached_property
    def hexside_index(self) -> dict:
        """{the two hexes of a side, as a frozenset: its hexside type ids}."""
        index: dict = {}
        for kind, a, b in self.hexside_list:
            index.setdefault(frozenset((a, b)), ())
            index[frozenset((a, b))] += (kind,)
        return index

    # --- area maps -------------------------------------------------------------------------
    @cached_property
    def sector_by_id(self) -> dict:
        return {s.id: s for s in self.map.sectors} if isinstance(self.map, AreaMap) else {}


def make_grid(m: HexMap) -> HexGrid:
    """Build the hex geometry from a validated hex map."""
    if m.sheets:
        placements = []
        for s in m.sheets:
            c0, c1 = parse_span(s.columns)
            r0, r1 = parse_span(s.rows)
            placements.append(SheetPlacement(s.id, c0, c1, r0, r1, s.origin[0], s.origin[1]))
    else:
        c0, c1 = parse_span(m.columns)
        r0, r1 = parse_span(m.rows)
        placements = [SheetPlacement("", c0, c1, r0, r1, 0, 0)]
    return HexGrid(placements, m.hex_size, m.shifted_columns, m.column_digits, m.row_digits)
