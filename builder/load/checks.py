"""Cross-file checks: every reference resolves, no duplicates, hexes on the map, sizes sane."""

from __future__ import annotations

import stat
from collections import Counter
from fractions import Fraction
from itertools import pairwise
from pathlib import Path

from builder.errors import Collector
from builder.geometry.hexid import HexId, parse_hex, parse_hex_range, parse_span
from builder.model.counters import UNIT_TYPES, split_factors
from builder.model.game import Box, CounterSize, Deck, Formation, GameInfo, Side, Turns
from builder.model.game_model import Game
from builder.model.maps import AreaMap, HexMap
from builder.model.tables import ChartTable, LookupTable
from builder.tables import rule_checks

MAX_HEXES = 250_000  # 20 Europa sheets are ~35,000; anything near this is a typo
MAX_COUNTERS = 50_000
MAX_HEX_REFS = 500_000  # hexes named in all of map.toml's lists, ranges expanded
MAX_IMAGE_BYTES = 64 << 20  # a 600 dpi scan of a 22 x 34 in map, as PNG, is about this
MAX_IMAGE_PIXELS = 89_478_485  # Pillow's own decompression-bomb limit: 22 x 34 in at 300 dpi fits
UNREADABLE = "*"  # in counter_ids: a counter file could not be read, so its ids are unknown


def _dupes(ids) -> list[str]:
    return sorted(k for k, n in Counter(ids).items() if n > 1)


def _raw_items(data, key) -> list[dict]:
    """The tables of an array of tables in raw TOML data that carry a text id."""
    items = data.get(key) if isinstance(data, dict) else None
    return [x for x in items if isinstance(x, dict) and isinstance(x.get("id"), str)] \
        if isinstance(items, list) else []


class RawIds:
    """Ids written in game.toml and tables.toml, valid or not: a reference to an item that has
    a problem of its own is not reported a second time as a reference to nothing."""

    def __init__(self, sides=(), boxes=(), decks=(), tables=()):
        self.sides, self.boxes, self.decks, self.tables = (
            x if isinstance(x, Everything) else set(x) for x in (sides, boxes, decks, tables))

    @classmethod
    def of(cls, game_src, tables_src, tables_present: bool = False) -> RawIds:
        """Ids in the files as written; a file that could not be read at all knows every id
        (its own problem is reported; guessing which references it would satisfy is noise)."""
        g = game_src.data if game_src else {}
        t = tables_src.data if tables_src else {}
        game_ids = [Everything() if game_src is None else {x["id"] for x in _raw_items(g, k)}
                    for k in ("sides", "boxes", "decks")]
        tables = Everything() if tables_present and tables_src is None else \
            {x["id"] for x in _raw_items(t, "tables")}
        return cls(*game_ids, tables)


class Everything(frozenset):
    """The ids of a file that could not be read: any id may be among them."""

    def __contains__(self, item) -> bool:
        return True

    def __or__(self, other):
        return self

    __ror__ = __or__


UNKNOWN_TURNS = (-10**6, 2 * 10**6)  # (first, count) of a game.toml that could not be read


def stand_in_info(game_src) -> GameInfo:
    """What can be read of a game.toml with problems, unvalidated, for checking other files."""
    raw = game_src.data if game_src else {}
    factors = raw.get("factor_names")
    return GameInfo.model_construct(
        title=str(raw.get("title", "")),
        sides=tuple(Side.model_construct(id=s["id"], name=str(s.get("name", s["id"])), color="#999999",
                                         formations=tuple(Formation.model_construct(id=f["id"])
                                                          for f in _raw_items(s, "formations")))
                    for s in _raw_items(raw, "sides")),
        first_player="",
        turns=Turns.model_construct(first=UNKNOWN_TURNS[0], count=UNKNOWN_TURNS[1], detail=()),
        sequence=(),
        counter_sizes=tuple(CounterSize.model_construct(id=c["id"]) for c in _raw_items(raw, "counter_sizes")),
        factor_names=tuple(factors) if isinstance(factors, list) and all(isinstance(f, str) for f in factors)
        else (),
        decks=tuple(Deck.model_construct(id=d["id"]) for d in _raw_items(raw, "decks")),
        boxes=tuple(Box.model_construct(id=b["id"]) for b in _raw_items(raw, "boxes")),
    )


class Checker:
    def __init__(self, game: Game, errors: Collector, game_src, map_src, tables_src):
        self.g = game
        self.e = errors
        self.game_src = game_src
        self.map_src = map_src
        self.tables_src = tables_src
        self.side_ids = {s.id for s in game.info.sides}
        self.raw = RawIds()
        self.complete = True  # False: game.toml has problems, game.info is a stand-in

    # helpers --------------------------------------------------------------------------------
    def at(self, src, loc) -> tuple:
        return (src.path, src.where(loc)) if src else ("", "")

    def game_err(self, loc, msg, fix=""):
        self.e.add(*self.at(self.game_src, loc), msg, fix)

    def map_err(self, loc, msg, fix=""):
        if self.e.full:  # finding the line of a 100,000th repeat costs more than it tells
            self.e.dropped += 1
            return
        self.e.add(*self.at(self.map_src, loc), msg, fix)

    def side(self, value, report) -> None:
        if value and value not in self.side_ids and value not in self.raw.sides:
            report(f"side '{value}' is not defined", f"use one of: {', '.join(sorted(self.side_ids))}")

    # game.toml ------------------------------------------------------------------------------
    def check_info(self) -> None:
        info = self.g.info
        for name, items in (("sides", info.sides), ("counter_sizes", info.counter_sizes),
                            ("decks", info.decks), ("boxes", info.boxes)):
            for d in _dupes(i.id for i in items):
                self.game_err((name,), f"id '{d}' is used twice in {name}", "give each a unique id")
        for d in _dupes(ct.id for ct in info.counter_types):
            self.game_err(("counter_types",), f"counter type id '{d}' is used twice",
                          "give each a unique id")
        claimed: dict[str, str] = {}
        for i, ct in enumerate(info.counter_types):
            for unit_type in ct.unit_types:
                if unit_type not in UNIT_TYPES:
                    self.game_err(("counter_types", i, "unit_types"), f"'{unit_type}' is not a unit "
                                  "type", f"use one of: {', '.join(UNIT_TYPES)}")
                elif unit_type in claimed:
                    self.game_err(("counter_types", i, "unit_types"), f"unit type '{unit_type}' "
                                  f"already uses counter type '{claimed[unit_type]}'",
                                  "list each unit type in one counter type; name another for a "
                                  "single counter with counters.csv's counter_type column")
                claimed.setdefault(unit_type, ct.id)
            for names, key in ((ct.factor_names, "factor_names"),
                               (ct.back_factor_names, "back_factor_names")):
                for d in _dupes(names):
                    self.game_err(("counter_types", i, key), f"factor name '{d}' is used twice "
                                  f"in counter type '{ct.id}'", "give each number its own name")
        formations = [f.id for s in info.sides for f in s.formations]
        for d in _dupes(formations):
            self.game_err(("sides",), f"formation id '{d}' is used twice", "give each a unique id")
        self.side(info.first_player, lambda m, f: self.game_err(("first_player",), m, f))
        last = info.turns.first + info.turns.count - 1
        for i, t in enumerate(info.turns.detail):
            if not info.turns.first <= t.number <= last:
                self.game_err(("turns", "detail", i, "number"),
                              f"turn {t.number} is outside turns {info.turns.first}-{last}",
                              "raise turns.count or correct the number")
        for d in _dupes(t.number for t in info.turns.detail):
            self.game_err(("turns", "detail"), f"turn {d} is described twice", "keep one entry")
        for i, p in enumerate(info.sequence):
            self.side(p.side, lambda m, f, i=i: self.game_err(("sequence", i, "side"), m, f))
        for key, items in (("decks", info.decks), ("boxes", info.boxes)):
            for i, item in enumerate(items):
                self.side(item.side, lambda m, f, i=i, key=key: self.game_err((key, i, "side"), m, f))

    # map.toml -------------------------------------------------------------------------------
    def check_hex_map(self, m: HexMap) -> bool:
        """Check the hex map; False when its extent is too broken to place any hex. A map that
        passed with the same inputs before is not checked again (load.map_check_memo)."""
        from builder.load import map_check_memo as memo

        key = memo.memo_key(self.game_src, self.map_src, self.raw.boxes,
                            bool(m.artwork)) if self.complete else None
        passed = memo.recalled(key) if key else None
        if passed:
            self.grid = self.g.grid
            self.map_hexes, self.hex_refs = passed
            self.terrain_ids = {t.id for t in m.terrain_types}
            return True
        before = (len(self.e.problems), len(self.e.warnings), self.e.dropped)
        ok = self._check_hex_map(m)
        if key and ok and before == (len(self.e.problems), len(self.e.warnings), self.e.dropped):
            memo.remember(key, self.map_hexes, self.hex_refs)
        return ok

    def _check_hex_map(self, m: HexMap) -> bool:
        if m.sheets and (m.columns or m.rows):
            self.map_err(("columns",), "a map with sheets takes its extent from each sheet",
                         "remove columns/rows or remove the sheets")
            return False
        if not m.sheets and not (m.columns and m.rows):
            self.map_err(("columns",), "the map has no extent",
                         "give columns = \"01-34\" and rows = \"01-50\", or [[sheets]]")
            return False
        spans = []
        sheets = m.sheets or [None]
        for i, s in enumerate(sheets):
            loc = ("sheets", i) if s else ()
            try:
                cols = parse_span(s.columns if s else m.columns)
                rows = parse_span(s.rows if s else m.rows)
            except ValueError as exc:
                self.map_err(loc + ("columns",), str(exc))
                return False
            spans.append((s, cols, rows))
        for d in _dupes(s.id for s in m.sheets):
            self.map_err(("sheets",), f"sheet '{d}' is given twice", "give each sheet a unique id")
        if m.sheets:
            for i, s in enumerate(m.sheets):
                if not s.id:
                    self.map_err(("sheets", i, "id"), "a sheet needs its printed prefix as id", "e.g. id = \"16A\"")
        total = sum((c[1] - c[0] + 1) * (r[1] - r[0] + 1) for _, c, r in spans)
        if total > MAX_HEXES:
            self.map_err(("sheets" if m.sheets else "columns",),
                         f"the map has {total:,} hexes, more than the {MAX_HEXES:,} allowed",
                         "check the columns and rows spans")
            return False
        if len(m.sheets) > 1:
            parities = {(s.origin[0] - c[0]) % 2 for s, c, _ in spans}
            if len(parities) > 1:
                self.map_err(("sheets",), "sheet origins put the columns of one sheet half a hex out "
                             "of step with another", "move a sheet's origin column by one")
            cells: dict = {}
            for s, c, r in spans:
                for gc in range(s.origin[0], s.origin[0] + c[1] - c[0] + 1):
                    for gr in range(s.origin[1], s.origin[1] + r[1] - r[0] + 1):
                        if (gc, gr) in cells:
                            self.map_err(("sheets",), f"sheets {cells[(gc, gr)]} and {s.id} overlap",
                                          "move one sheet's origin so they only touch")
                            return False
                        cells[(gc, gr)] = s.id
        self.grid = self.g.grid
        self.map_hexes, self.hex_refs = total, 0
        self._terrain_types(m)
        self.hex_terrain_checks(m)
        self.level_checks(m)
        self.hexside_checks(m)
        self.line_checks(m)
        for i, lab in enumerate(m.labels):
            self.one_hex(lab.hex, ("labels", i, "hex"))
        for d in _dupes(r.id for r in m.regions):
            self.map_err(("regions",), f"region id '{d}' is used twice", "give each a unique id")
        for i, r in enumerate(m.regions):
            for j, text in enumerate(r.hexes):
                self.hex_list(text, ("regions", i, "hexes", j))
        for i, o in enumerate(m.objectives):
            self.one_hex(o.hex, ("objectives", i, "hex"))
            self.side(o.side, lambda msg, f, i=i: self.map_err(("objectives", i, "side"), msg, f))
        for i, edge in enumerate(m.edges):
            self.side(edge.side, lambda msg, f, i=i: self.map_err(("edges", i, "side"), msg, f))
            for j, text in enumerate(edge.hexes):
                self.hex_list(text, ("edges", i, "hexes", j))
        self._tracks(m)
        if m.artwork:
            self.check_artwork(m)
        return True

    def check_artwork(self, m: HexMap) -> None:
        """The map image: a real PNG or JPEG inside the game folder, of a size a printer can take."""
        for i, (text, px, py) in enumerate(m.artwork.calibration):
            self.one_hex(text, ("artwork", "calibration", i))
        loc = ("artwork", "image")
        folder = Path(self.g.folder)
        path = folder / m.artwork.image
        if not path.resolve().is_relative_to(folder.resolve()):
            self.map_err(loc, f"'{m.artwork.image}' is outside the game folder",
                         "put the image in the game folder and give its path from there")
            return
        problem, size = image_problem(path)
        if problem:
            self.map_err(loc, f"'{m.artwork.image}' {problem}",
                         "give the path of a PNG or JPEG map image in the game folder")
            return
        for i, (text, px, py) in enumerate(m.artwork.calibration):
            if not (0 <= px <= size[0] and 0 <= py <= size[1]):
                self.map_err(("artwork", "calibration", i), f"({px}, {py}) is outside the "
                             f"{size[0]} x {size[1]} pixel image", "measure it on the image")

    def _terrain_types(self, m) -> None:
        for d in _dupes(t.id for t in m.terrain_types):
            self.map_err(("terrain_types",), f"terrain id '{d}' is used twice", "give each a unique id")
        self.terrain_ids = {t.id for t in m.terrain_types}

    def _tracks(self, m) -> None:
        boxes = self.raw.boxes | {b.id for b in self.g.info.boxes}
        for d in _dupes(t.id for t in m.tracks):
            self.map_err(("tracks",), f"track id '{d}' is used twice", "give each a unique id")
        for i, t in enumerate(m.tracks):
            if t.box and t.box not in boxes:
                self.map_err(("tracks", i, "box"), f"box '{t.box}' is not defined in game.toml",
                             f"use one of: {', '.join(sorted(boxes)) or '(none defined)'}")

    def hex_list(self, text: str, loc) -> list[HexId]:
        m = self.g.map
        try:
            size = _range_size(text, m.column_digits, m.row_digits)
            if size > self.map_hexes:  # expanding '001001..999999' would take a second on its own
                self.map_err(loc, f"range '{text}' covers {size:,} hexes, more than the map's "
                             f"{self.map_hexes:,}", "correct the range's first or last hex")
                return []
            self.hex_refs += size
            if self.hex_refs > MAX_HEX_REFS:
                if self.hex_refs - size <= MAX_HEX_REFS:
                    self.map_err(loc, f"map.toml names more than {MAX_HEX_REFS:,} hexes in all "
                                 "(ranges counted hex by hex)", "list each hex's terrain once")
                return []
            hexes = parse_hex_range(text, m.column_digits, m.row_digits)
        except ValueError as exc:
            self.map_err(loc, str(exc))
            return []
        if m.sheets:
            for h in hexes:
                if not h.sheet:
                    self.map_err(loc, f"'{text}' has no sheet prefix on a multi-sheet map",
                                 f"write it as e.g. '{m.sheets[0].id}:{h.label()}'")
                    return []
        off = [h for h in hexes if not self.grid.contains(h)]
        if off:
            self.map_err(loc, f"hex {off[0].label(m.column_digits, m.row_digits)} is outside the map "
                         f"({self.extent()})", "correct the number or enlarge the map")
            return [h for h in hexes if self.grid.contains(h)]
        return hexes

    def one_hex(self, text: str, loc) -> HexId | None:
        if ".." in str(text):
            self.map_err(loc, f"'{text}' is a range where one hex is expected", "give one hex number")
            return None
        hexes = self.hex_list(text, loc)
        return hexes[0] if hexes else None

    def extent(self) -> str:
        m = self.g.map
        if m.sheets:
            return "; ".join(f"sheet {s.id}: columns {s.columns}, rows {s.rows}" for s in m.sheets)
        return f"columns {m.columns}, rows {m.rows}"

    def hex_terrain_checks(self, m: HexMap) -> None:
        if m.default_terrain not in self.terrain_ids:
            self.map_err(("default_terrain",), f"default terrain '{m.default_terrain}' is not a terrain type",
                         f"use one of: {', '.join(sorted(self.terrain_ids))}")
        groups = {t.id: t.group for t in m.terrain_types}
        seen: dict[tuple, tuple] = {}
        group_of_hex: dict[tuple, tuple] = {}
        for i, block in enumerate(m.terrain):
            if block.terrain not in self.terrain_ids:
                self.map_err(("terrain", i, "terrain"), f"unknown terrain '{block.terrain}'",
                             f"use one of: {', '.join(sorted(self.terrain_ids))}, or add it to terrain_types")
                continue
            for j, text in enumerate(block.hexes):
                for h in self.hex_list(text, ("terrain", i, "hexes", j)):
                    key = (h, block.terrain)
                    if key in seen:
                        self.map_err(("terrain", i, "hexes", j),
                                     f"hex {self.grid.label(h)} is given terrain '{block.terrain}' twice "
                                     f"(also at {seen[key]})", "remove the duplicate")
                        continue
                    seen[key] = f"terrain[{i}]"
                    group = groups.get(block.terrain)
                    if group:
                        gk = (h, group)
                        if gk in group_of_hex:
                            other = group_of_hex[gk]
                            self.map_err(("terrain", i, "hexes", j),
                                         f"hex {self.grid.label(h)} is both '{other}' and '{block.terrain}', "
                                         f"which exclude each other (group '{group}')",
                                         "keep one of them for this hex")
                        else:
                            group_of_hex[gk] = block.terrain

    def level_checks(self, m: HexMap) -> None:
        """[[levels]]: every hex exists and is given one level only."""
        seen: dict = {}
        for i, block in enumerate(m.levels):
            for j, text in enumerate(block.hexes):
                for h in self.hex_list(text, ("levels", i, "hexes", j)):
                    if h in seen:
                        self.map_err(("levels", i, "hexes", j),
                                     f"hex {self.grid.label(h)} is given a level twice (also at "
                                     f"levels[{seen[h]}])", "give each hex one level")
                    seen[h] = i

    def hexside_checks(self, m: HexMap) -> None:
        types = {t.id for t in m.hexside_types}
        for d in _dupes(t.id for t in m.hexside_types):
            self.map_err(("hexside_types",), f"hexside type '{d}' is used twice", "give each a unique id")
        seen: dict = {}
        for i, block in enumerate(m.hexsides):
            if block.type not in types:
                self.map_err(("hexsides", i, "type"), f"unknown hexside type '{block.type}'",
                             f"use one of: {', '.join(sorted(types)) or '(none defined)'}")
                continue
            for j, text in enumerate(block.sides):
                loc = ("hexsides", i, "sides", j)
                parts = str(text).split("/")
                if len(parts) != 2:
                    self.map_err(loc, f"'{text}' is not a hexside", "write the two hexes it separates: '2737/2738'")
                    continue
                a = self.one_hex(parts[0], loc)
                if a is None:
                    continue
                right = parts[1] if ":" in parts[1] or not a.sheet else f"{a.sheet}:{parts[1]}"
                b = self.one_hex(right, loc)
                if b is None:
                    continue
                if not self.grid.adjacent(a, b):
                    self.map_err(loc, f"hexes {self.grid.label(a)} and {self.grid.label(b)} are not adjacent, "
                                 "so they share no side", "name two neighbouring hexes")
                    continue
                key = (block.type, frozenset((a, b)))
                if key in seen:
                    self.map_err(loc, f"hexside '{text}' is given twice as '{block.type}'", "remove the duplicate")
                seen[key] = True

    def line_checks(self, m: HexMap) -> None:
        types = {t.id for t in m.line_types}
        for i, line in enumerate(m.lines):
            if line.type not in types:
                self.map_err(("lines", i, "type"), f"unknown line type '{line.type}'",
                             f"use one of: {', '.join(sorted(types)) or '(none defined)'}")
                continue
            path: list[HexId] = []
            for j, text in enumerate(line.hexes):
                path.extend(self.hex_list(text, ("lines", i, "hexes", j)))
            if len(path) < 2:
                self.map_err(("lines", i, "hexes"), "a line needs at least two hexes", "add the next hex")
                continue
            for a, b in pairwise(path):
                if not self.grid.adjacent(a, b):
                    self.map_err(("lines", i, "hexes"),
                                 f"{self.grid.label(a)} to {self.grid.label(b)} is not one step: a line runs "
                                 "through adjacent hexes", "add the hexes between them")
                    break

    def check_area_map(self, m: AreaMap) -> None:
        self._terrain_types(m)
        ids = [s.id for s in m.sectors]
        for d in _dupes(ids):
            self.map_err(("sectors",), f"sector id '{d}' is used twice", "give each a unique id")
        known = set(ids)
        for i, s in enumerate(m.sectors):
            for t in s.terrain:
                if t not in self.terrain_ids:
                    self.map_err(("sectors", i, "terrain"), f"unknown terrain '{t}' in sector '{s.id}'",
                                 f"use one of: {', '.join(sorted(self.terrain_ids))}")
            for t in s.fire_arc:
                if t not in known:
                    self.map_err(("sectors", i, "fire_arc"), f"sector '{s.id}' fires on unknown sector '{t}'",
                                 "use sector ids")
            for x, y in s.outline:
                if not (0 <= x <= m.width and 0 <= y <= m.height):
                    self.map_err(("sectors", i, "outline"),
                                 f"sector '{s.id}' has corner ({x}, {y}) outside the {m.width:.0f} x "
                                 f"{m.height:.0f} mm map", "use millimetres from the map's top-left")
                    break
        pairs: Counter = Counter()
        for key in ("adjacent", "water_edges"):
            for i, (a, b) in enumerate(getattr(m, key)):
                for s in (a, b):
                    if s not in known:
                        self.map_err((key, i), f"unknown sector '{s}'", "use sector ids from [[sectors]]")
                if a == b:
                    self.map_err((key, i), f"sector '{a}' is paired with itself", "name two sectors")
                pairs[frozenset((a, b))] += 1
        for pair, n in pairs.items():
            if n > 1:
                self.map_err(("adjacent",), f"sectors {' and '.join(sorted(pair))} are paired more than once",
                             "list each pair once (water_edges pairs are not also listed in adjacent)")
        linked = {s for p in pairs for s in p}
        for i, s in enumerate(m.sectors):
            if s.id not in linked:
                self.map_err(("sectors", i), f"sector '{s.id}' touches no other sector",
                             "add it to adjacent")
        self._tracks(m)

    # counters -------------------------------------------------------------------------------
    def check_counters(self, units, markers) -> None:
        info = self.g.info
        sizes = {c.id for c in info.counter_sizes}
        formations = {s.id: {f.id for f in s.formations} for s in info.sides}
        decks = {d.id for d in info.decks}
        n_factors = len(info.factor_names)
        seen: dict[str, tuple] = {}
        total = 0
        for path_name, rows in (("counters.csv", units), ("markers.csv", markers)):
            path = f"{self.g.folder}/{path_name}"
            for line, item in rows:
                where = f"line {line}"
                total += item.copies
                if item.id in seen:
                    self.e.add(path, where, f"id '{item.id}' is already used at {seen[item.id][0]} line "
                               f"{seen[item.id][1]}", "give each counter a unique id")
                seen[item.id] = (path_name, line)
                if item.side:
                    self.side(item.side, lambda m, f, w=where, p=path: self.e.add(p, w + ", column 'side'", m, f))
                if item.counter not in sizes and (self.complete is True or sizes):
                    self.e.add(path, where + ", column 'counter'", f"counter size '{item.counter}' is not "
                               "defined in game.toml", f"use one of: {', '.join(sorted(sizes))}")
                if path_name == "counters.csv":
                    self._unit(path, where, item, formations, n_factors)
                elif item.deck and item.deck not in self.raw.decks | decks:
                    self.e.add(path, where + ", column 'deck'", f"deck '{item.deck}' is not defined in "
                               "game.toml", f"use one of: {', '.join(sorted(decks)) or '(none defined)'}")
        if total > MAX_COUNTERS:
            self.e.add(f"{self.g.folder}/counters.csv", "", f"{total:,} counters in all, more than the "
                       f"{MAX_COUNTERS:,} allowed", "check the copies column")

    def _unit(self, path, where, u, formations, n_factors) -> None:
        if u.formation and u.side in formations and u.formation not in formations[u.side]:
            self.e.add(path, where + ", column 'formation'",
                       f"formation '{u.formation}' is not one of side '{u.side}''s formations",
                       f"use one of: {', '.join(sorted(formations[u.side])) or '(none defined)'}")
        types = {ct.id: ct for ct in self.g.info.counter_types}
        if u.counter_type and u.counter_type not in types:
            if self.complete is True:
                self.e.add(path, where + ", column 'counter_type'", f"counter type "
                           f"'{u.counter_type}' is not defined in game.toml",
                           f"use one of: {', '.join(sorted(types)) or '(none: add [[counter_types]])'}")
            return
        ct = types.get(u.counter_type) or next(
            (t for t in self.g.info.counter_types if u.type in t.unit_types), None)
        names_of = {"front": ct.factor_names, "back": ct.back_factor_names or ct.factor_names} \
            if ct is not None else {}
        for face in ("front", "back"):
            text = getattr(u, face)
            n = len(split_factors(text))  # counted, not read (0.13 s of 4,000 units)
            if ct is not None:
                names = names_of[face]
                if text and n != len(names):
                    which = "back_factor_names" if face == "back" and ct.back_factor_names \
                        else "factor_names"
                    self.e.add(path, where + f", column '{face}'",
                               f"'{text}' has {n} factor{'s' if n != 1 else ''} but counter type "
                               f"'{ct.id}' prints {len(names)} on this side ({which}: "
                               f"{', '.join(names)})",
                               f"write {len(names)} numbers joined by '-' ({'-'.join(names)}), or "
                               "give the row another counter_type")
            elif text and n_factors and n not in (n_factors, 1):
                self.e.add(path, where + f", column '{face}'",
                           f"'{text}' has {n} factors but the game's factor_names has {n_factors}",
                           f"write {n_factors} numbers joined by '-' ({'-'.join(self.g.info.factor_names)}),"
                           " or give this counter's type factor names of its own in game.toml "
                           "[[counter_types]]")
        allowed = (list(dict.fromkeys(names_of["front"] + names_of["back"])) if ct is not None
                   else list(self.g.info.factor_names))
        for r in u.red:
            if r not in allowed:
                self.e.add(path, where + ", column 'red'", f"'{r}' is not a factor name of this "
                           "counter", f"use one of: {', '.join(allowed)}")

    # tables ---------------------------------------------------------------------------------
    def check_tables(self) -> None:
        src = self.tables_src
        for d in _dupes(t.id for t in self.g.tables):
            self.e.add(*self.at(src, ("tables",)), f"table id '{d}' is used twice", "give each a unique id")
        for i, t in enumerate(self.g.tables):
            factor = getattr(t, "factor", "")
            if factor and factor not in self.g.all_factor_names and self.complete is True:
                self.e.add(*self.at(src, ("tables", i, "factor")), f"table '{t.id}' reads the "
                           f"factor '{factor}', which no counter prints",
                           "use a factor name of game.toml (factor_names or counter_types): "
                           + ", ".join(self.g.all_factor_names))
        if self.g.map is None:
            return  # map.toml has problems of its own: terrain names cannot be checked
        terrain_ids = {t.id for t in self.g.map.terrain_types}
        hexside_ids = {t.id for t in getattr(self.g.map, "hexside_types", ())}
        effects = {k for t in self.g.map.terrain_types for k in t.effects}
        for i, t in enumerate(self.g.tables):
            for j, row in enumerate(getattr(t, "terrain_rows", ())):
                for k in row.terrain:
                    if k not in terrain_ids:
                        self.e.add(*self.at(src, ("tables", i, "terrain_rows", j, "terrain")),
                                   f"unknown terrain '{k}' in table '{t.id}'",
                                   f"use one of: {', '.join(sorted(terrain_ids))}")
                for k in row.hexsides:
                    if k not in hexside_ids:
                        self.e.add(*self.at(src, ("tables", i, "terrain_rows", j, "hexsides")),
                                   f"unknown hexside type '{k}' in table '{t.id}'",
                                   f"use one of: {', '.join(sorted(hexside_ids)) or '(none defined)'}")
            for j, mod in enumerate(getattr(t, "modifiers", ())):
                if t.kind == "lookup" and (mod.terrain or mod.regions):
                    key = "terrain" if mod.terrain else "regions"
                    self.e.add(*self.at(src, ("tables", i, "modifiers", j, key)),
                               f"modifier '{mod.id}' of lookup table '{t.id}' is for {key} "
                               f"({', '.join(getattr(mod, key))}), but a lookup has no place "
                               "to read it from, so it would never apply",
                               "make the table a modified-roll table (it reads the target's "
                               "hex), or give the modifier no terrain or regions (the player "
                               "sets it)")
                for k in mod.terrain:
                    if k not in terrain_ids:
                        self.e.add(*self.at(src, ("tables", i, "modifiers", j, "terrain")),
                                   f"unknown terrain '{k}' in modifier '{mod.id}'",
                                   f"use one of: {', '.join(sorted(terrain_ids))}")
            effect = getattr(t, "terrain_effect", "")
            if effect and effect not in effects:
                self.e.add(*self.at(src, ("tables", i, "terrain_effect")),
                           f"no terrain type has the effect '{effect}'",
                           "add it to the terrain types' effects, e.g. effects = { divisor = 2 }")
            for key, msg, fix in rule_checks.problems(self.g, t):
                self.e.add(*self.at(src, ("tables", i) + key), f"table '{t.id}': {msg}", fix)
            if isinstance(t, ChartTable) and t.terrain:
                self._check_terrain_chart(i, t)
            if isinstance(t, (LookupTable, ChartTable)):
                continue
        charts = [t.id for t in self.g.tables if isinstance(t, ChartTable) and t.terrain]
        if len(charts) > 1:
            self.e.add(*self.at(src, ("tables",)),
                       f"tables {', '.join(charts)} are each marked as the terrain effects chart "
                       "(their 'terrain' key)", "keep 'terrain' on one chart: a game prints one")

    def _check_terrain_chart(self, i: int, t: ChartTable) -> None:
        """The terrain effects chart's rows name map features that exist; a map feature with
        effects that no row names is printed in a row of its own (warned: the chart may have
        missed it); a number the chart prints for an effect that map.toml gives another number
        for is a contradiction (warned: the calculators follow map.toml)."""
        from builder.terrain_chart import contradictions, map_features, unnamed

        src = self.tables_src
        known = {it.id for it in map_features(self.g)}
        for j, ids in enumerate(t.terrain):
            for k in ids.split():
                if k not in known:
                    self.e.add(*self.at(src, ("tables", i, "terrain", j)),
                               f"unknown terrain, hexside or line type '{k}' in the terrain "
                               f"chart '{t.id}' (row {j + 1})",
                               f"use ids from map.toml: {', '.join(sorted(known))}")
        if self.e.problems:
            return
        for it in unnamed(self.g, t):
            self.e.warn(*self.at(src, ("tables", i, "terrain")),
                        f"the terrain chart '{t.id}' names no row for {it.name} ('{it.id}'), "
                        "which has effects in map.toml: it is printed in a row of its own",
                        f"add '{it.id}' to the 'terrain' entry of the row that describes it")
        for row, it, effect, value, cell in contradictions(self.g, t):
            self.e.warn(*self.at(src, ("tables", i, "rows", row)),
                        f"the terrain chart '{t.id}' prints '{cell}' for {it.name} but map.toml "
                        f"gives its {effect} as {value} (the calculators use map.toml)",
                        "make the two agree, reading the rules")

    # scenarios ------------------------------------------------------------------------------
    def check_scenarios(self, scenarios, map_ok: bool = True) -> None:
        """References of every scenario; map_ok False: the map is broken, so hexes and sectors
        are not checked (each would be reported again as noise)."""
        g = self.g
        counters = {i: 10**6 for i in self.counter_ids}  # rows that failed still count as known
        counters |= {u.id: u.copies for u in g.units} | {m.id: m.copies for m in g.markers}
        boxes = self.raw.boxes | {b.id for b in g.info.boxes}
        regions = {r.id for r in getattr(g.map, "regions", ())}
        decks = self.raw.decks | {d.id for d in g.info.decks}
        tables = self.raw.tables | {t.id for t in g.tables}
        first, last = g.info.turns.first, g.info.turns.first + g.info.turns.count - 1
        for scenario, (src, setup_path, _) in scenarios:
            def err(loc, msg, fix="", src=src):
                self.e.add(src.path, src.where(loc), msg, fix)
            used: Counter = Counter()
            for p in scenario.setup:
                where = f"line {p.line}"

                def serr(msg, fix="", where=where, col="unit", setup_path=setup_path):
                    self.e.add(setup_path, f"{where}, column '{col}'", msg, fix)
                if p.unit not in counters:
                    if UNREADABLE in counters:
                        continue
                    serr(f"unknown unit or marker '{p.unit}'", "use an id from counters.csv or markers.csv")
                    continue
                used[p.unit] += 1
                if used[p.unit] == counters[p.unit] + 1:
                    serr(f"'{p.unit}' is placed {used[p.unit]} times but has {counters[p.unit]} "
                         "copies", "raise its copies or remove a placement")
                for col, loc in [("at", p.at)] + [("also", a) for a in p.also]:
                    problem = self.location_problem(loc, boxes, first, last, map_ok)
                    if problem:
                        serr(problem[0], problem[1], col=col)
                if p.region and p.region not in regions and map_ok:
                    serr(f"unknown region '{p.region}'", f"use one of: {', '.join(sorted(regions)) or '(none)'}",
                         col="region")
                if p.within and not g.is_hex and map_ok:
                    serr("'within' counts hexes, but this map has sectors", "leave it empty", col="within")
            for i, r in enumerate(scenario.reinforcements):
                if r.unit not in counters and UNREADABLE not in counters:
                    err(("reinforcements", i, "unit"), f"unknown unit '{r.unit}'", "use an id from counters.csv")
                if r.turn is not None and not first <= r.turn <= last:
                    err(("reinforcements", i, "turn"), f"turn {r.turn} is outside turns {first}-{last}",
                        "correct the turn")
                for loc in r.at:
                    problem = self.location_problem(loc, boxes, first, last, map_ok)
                    if problem:
                        err(("reinforcements", i, "at"), *problem)
                if r.box and r.box not in boxes:
                    err(("reinforcements", i, "box"), f"unknown box '{r.box}'",
                        f"use one of: {', '.join(sorted(boxes)) or '(none)'}")
            lo, hi = scenario.turns if scenario.turns else (first, last)
            for i, w in enumerate(scenario.withdrawals):
                if w.unit not in g.unit_by_id and UNREADABLE not in counters:
                    err(("withdrawals", i, "unit"), f"unknown unit '{w.unit}'",
                        "use a unit id from counters.csv (markers are not withdrawn)")
                if not lo <= w.turn <= hi:
                    err(("withdrawals", i, "turn"), f"turn {w.turn} is outside the scenario's turns "
                        f"{lo}-{hi}", "correct the turn")
                elif w.turn == hi and w.when == "end":
                    err(("withdrawals", i, "when"), f"'{w.unit}' leaves at the end of the last turn "
                        f"({hi}), when the game is over", "give the turn it leaves play, or remove it")
                if w.box and w.box not in boxes:
                    err(("withdrawals", i, "box"), f"unknown box '{w.box}'",
                        f"use one of: {', '.join(sorted(boxes)) or '(none)'}, or leave it empty for "
                        "the module's 'Withdrawn' box")
            for i, a in enumerate(scenario.allowances):
                self.side(a.side, lambda m, f, i=i: err(("allowances", i, "side"), m, f))
            for i, row in enumerate(scenario.tracks):
                self.side(row.side, lambda m, f, i=i: err(("tracks", i, "side"), m, f))
                played = (scenario.turns[1] - scenario.turns[0] + 1) if scenario.turns else g.info.turns.count
                if len(row.per_turn) != played and (scenario.turns or self.complete):
                    err(("tracks", i, "per_turn"), f"track '{row.id}' has {len(row.per_turn)} values for "
                        f"{played} turns", "give one value per turn")
            for i, d in enumerate(scenario.draws):
                if d.deck not in decks:
                    err(("draws", i, "deck"), f"unknown deck '{d.deck}'", f"use one of: {', '.join(sorted(decks))}")
            for i, v in enumerate(scenario.victory_counts):
                self._victory_count(scenario, v,
                                    lambda k, m, f, i=i: err(("victory_counts", i, *k), m, f),
                                    boxes, regions, map_ok)
            ids = [v.id for v in scenario.victory_counts]
            for i, v in enumerate(scenario.victory_counts):
                if ids.count(v.id) > 1:
                    err(("victory_counts", i, "id"), f"victory count id '{v.id}' is used twice",
                        "give each count its own id (or name)")
            asked = {v.only_if for v in scenario.victory_counts}
            for q in scenario.victory_questions:
                if q not in asked:
                    err(("victory_questions", q), f"question '{q}' is asked by no victory count",
                        f"remove it, or give a count only_if = '{q}'")
            if scenario.victory_table and scenario.victory_table not in tables:
                err(("victory_table",), f"unknown table '{scenario.victory_table}'", "use a table id from tables.toml")
            vt = next((tb for tb in g.tables if tb.id == scenario.victory_table), None)
            dice = getattr(vt, "dice", "")
            if scenario.victory_counts and vt is not None and (vt.kind != "lookup" or dice):
                err(("victory_table",), f"table '{vt.id}' is a {vt.kind}{' with dice' if dice else ''}"
                    ": the Victory button looks the points up in a lookup table without dice",
                    "name a lookup table keyed on the points, or leave victory_table out")
            halves = [v for v in scenario.victory_counts
                      if Fraction(str(v.vp)).denominator != 1
                      or any(Fraction(str(w)).denominator != 1 for w in v.weights.values())]
            if halves and vt is not None and vt.kind == "lookup" and not vt.rounding:
                err(("victory_table",), f"'{halves[0].name}' scores a fraction of a point, but "
                    f"table '{vt.id}' does not say how a total with a fraction is read",
                    f"give table '{vt.id}' rounding = 'down' (or 'up', 'half-up', ...)")
            if scenario.victory_default and scenario.victory_table:
                err(("victory_default",), "victory_default is the standing when there is no "
                    "victory_table, but this scenario has one", "remove one of the two")
            if scenario.first_player:
                self.side(scenario.first_player, lambda m, f: err(("first_player",), m, f))
            if scenario.turns and not (first <= scenario.turns[0] <= scenario.turns[1] <= last) \
                    and (self.complete or scenario.turns[0] > scenario.turns[1]):
                err(("turns",), f"turns {list(scenario.turns)} are outside {first}-{last}", "correct them")

    def _victory_count(self, sc, v, err, boxes, regions, map_ok) -> None:
        """A victory count names a side, one thing to count, and places the module can read."""
        g = self.g
        self.side(v.side, lambda m, f: err(("side",), m, f))
        if bool(v.held) + bool(v.pieces_in) + v.by_hand != 1:
            err(("held",), "a victory count needs one of 'held' (places), 'pieces_in' (where units "
                "are counted) or by_hand = true (the players count it)", "give one of them")
        if v.left and not v.pieces_in.startswith("box:"):
            err(("left",), "'left' counts the units that started in a box and left it",
                "give pieces_in = 'box:<id>', or remove left")
        if v.weigh_by or v.weights:
            self._weights(v, err)
        if v.per and not v.pieces_in:
            err(("per",), "'per' counts units by formation where 'pieces_in' says",
                "give pieces_in, or remove per")
        if v.threshold is not None and (v.all or not v.vp):
            err(("threshold",), "'threshold' scores the vp once when the count reaches it: it "
                "needs vp and cannot go with 'all'", "give vp, and one of threshold and all")
        if v.only_if and v.only_if not in sc.victory_questions:
            err(("only_if",), f"'{v.only_if}' is no question of victory_questions",
                "declare it: victory_questions = { " + v.only_if + " = 'the question players "
                "answer' }")
        ids = {x.id for x in sc.victory_counts}
        for j, p in enumerate(v.provided):
            if p.count not in ids or p.count == v.id:
                err(("provided", j, "count"), f"'{p.count}' is not another victory count",
                    "use one of: " + ", ".join(sorted(ids - {v.id})))
            if (p.at_least is None) == (p.at_most is None):
                err(("provided", j), "a proviso gives at_least or at_most", "give one of them")
        if v.provided and not v.result:
            err(("provided",), "'provided' qualifies the result a count decides",
                "give at_least / at_most and result, or remove provided")
        for j, place in enumerate(v.held):
            if not map_ok:
                break
            if g.is_hex:
                try:
                    ok = g.grid.contains(g.hex(place))
                except ValueError:
                    ok = False
            else:
                ok = place in g.sector_by_id
            if not ok:
                err(("held", j), f"'{place}' is no {'hex' if g.is_hex else 'sector'} of the map",
                    "use a hex number of map.toml" if g.is_hex else "use a sector id of map.toml")
        # a side with no eliminated or losses box gets one in the module: '<side>-eliminated'
        boxes = set(boxes) | {f"{sd.id}-eliminated" for sd in g.info.sides if not any(
            b.kind in ("eliminated", "losses") and b.side == sd.id for b in g.info.boxes)}
        kind, _, ident = v.pieces_in.partition(":")
        if v.pieces_in and not ((kind == "box" and ident in boxes) or v.pieces_in == "map"
                                or (kind == "region" and (ident in regions or not map_ok))):
            err(("pieces_in",), f"'{v.pieces_in}' is no box or region",
                f"use 'map', box:<id> ({', '.join(sorted(boxes)) or 'no boxes'}) or region:<id> "
                f"({', '.join(sorted(regions)) or 'no regions'})")
        if v.factor and v.factor not in g.all_factor_names:
            err(("factor",), f"unknown factor '{v.factor}'",
                f"use a factor name of game.toml (factor_names or counter_types): "
                f"{', '.join(g.all_factor_names) or '(none)'}")
        if v.factor and not v.pieces_in:
            err(("factor",), "'factor' sums the units counted by 'pieces_in'", "add pieces_in or remove factor")
        if v.all and not v.held:
            err(("all",), "'all' applies to held places", "remove it, or give the places in 'held'")
        if (v.at_least is not None or v.at_most is not None) != bool(v.result):
            err(("result",), "at_least / at_most and result go together: the result the count decides",
                "give both, or neither")

    def _weights(self, v, err) -> None:
        """weigh_by names a counter attribute and weights gives every value of it the side has."""
        attrs = ("type", "size", "formation")
        if v.weigh_by not in attrs:
            err(("weigh_by",), f"'{v.weigh_by}' is not a counter attribute a count can weigh by",
                f"use one of: {', '.join(attrs)} (with weights)")
            return
        if not v.weights or not v.pieces_in or v.factor:
            err(("weights",), "weigh_by and weights go together, with pieces_in and without factor",
                "give pieces_in, weigh_by and weights (value -> what one unit counts)")
            return
        have = sorted({getattr(u, v.weigh_by) for u in self.g.units if u.side == v.side})
        missing = [x for x in have if x not in v.weights]
        if missing:
            err(("weights",), f"no weight for {v.weigh_by} {', '.join(repr(x) for x in missing)} "
                f"(the side's units have {', '.join(repr(x) for x in have)})",
                "give every value a weight (0 for units that do not count)")

    def location_problem(self, loc: str, boxes, first, last, map_ok=True) -> tuple[str, str] | None:
        g = self.g
        if loc == "off-map":
            return None
        if loc.startswith("box:"):
            return None if loc[4:] in boxes else (f"unknown box '{loc[4:]}'",
                                                  f"use one of: {', '.join(sorted(boxes)) or '(none)'}")
        if loc.startswith("turn:"):
            n = loc[5:]
            ok = n.isdigit() and first <= int(n) <= last
            return None if ok else (f"'{loc}' is not a turn box", f"use turn:{first} to turn:{last}")
        if not map_ok:
            return None
        if g.is_hex:
            m = g.map
            try:
                h = parse_hex(loc, m.column_digits, m.row_digits)
            except ValueError as exc:
                return str(exc), "give a hex number, 'box:<id>', 'turn:<n>' or 'off-map'"
            if not g.grid.contains(h):
                return f"hex {loc} is outside the map ({self.extent()})", "correct the hex"
            return None
        if loc not in g.sector_by_id:
            return f"unknown sector '{loc}'", "use a sector id from map.toml, 'box:<id>' or 'off-map'"
        return None


def image_problem(path: Path) -> tuple[str, tuple[int, int]]:
    """What is wrong with a supplied image ('' when nothing), and its size in pixels.

    Only the header is decoded in full; a PNG's chunks are checked and a JPEG is decoded at an
    eighth of its size, so a corrupt file is found here and not half-way through a build.
    """
    import warnings

    from PIL import Image, UnidentifiedImageError

    try:
        info = path.stat()
    except OSError as exc:
        return f"cannot be read ({exc.strerror})", (0, 0)
    if not stat.S_ISREG(info.st_mode):
        return "is not a file", (0, 0)
    if info.st_size > MAX_IMAGE_BYTES:
        mib = f"{info.st_size / 2**20:.0f}"
        return f"is {mib} MiB, more than the {MAX_IMAGE_BYTES >> 20} MiB an image may be", (0, 0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as im:
                size, fmt = im.size, im.format
                if fmt not in ("PNG", "JPEG"):
                    return f"is a {fmt} image, not a PNG or JPEG", size
                if size[0] * size[1] > MAX_IMAGE_PIXELS:
                    return (f"is {size[0]:,} x {size[1]:,} pixels, more than the "
                            f"{MAX_IMAGE_PIXELS:,} an image may have"), size
                if fmt == "JPEG":
                    im.draft("RGB", (max(1, size[0] // 8), max(1, size[1] // 8)))
                    im.load()
                else:
                    im.verify()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        return f"has more than the {MAX_IMAGE_PIXELS:,} pixels an image may have", (0, 0)
    except UnidentifiedImageError:
        return "is not a PNG or JPEG image", (0, 0)
    except (OSError, SyntaxError, ValueError) as exc:  # truncated or corrupt data
        return f"is a damaged image ({exc})", (0, 0)
    return "", size


def _range_size(text: str, col_digits: int, row_digits: int) -> int:
    """How many hexes 'A..B' names, without listing them (1 for a single hex)."""
    text = str(text)
    if ".." not in text:
        return 1
    left, right = (part.strip() for part in text.split("..", 1))
    a = parse_hex(left, col_digits, row_digits)
    b = parse_hex(right, col_digits, row_digits, sheet=a.sheet)
    return (abs(b.col - a.col) + 1) * (abs(b.row - a.row) + 1)
