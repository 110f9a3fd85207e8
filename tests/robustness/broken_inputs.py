"""The catalogue of broken and hostile sources: one named case per entry, as data.

Each case copies a fixture game (tests/fixtures/mini, a hex map, or tests/fixtures/robust-area,
an area map), applies its steps, and names the message it must give: the file, the place (line,
key or column) and words saying what is wrong. tests/load/test_broken_sources.py holds 38 more
that are not repeated here.
"""

from __future__ import annotations

import io
import os
import shutil
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


# --- steps: what a case does to the copied game ----------------------------------------------
@dataclass(frozen=True)
class Replace:
    """Replace the first occurrence of old with new in a UTF-8 file."""

    file: str
    old: str
    new: str

    def apply(self, game: Path) -> None:
        path = game / self.file
        text = path.read_text(encoding="utf-8")
        assert self.old in text, f"fixture changed: {self.old!r} not in {self.file}"
        path.write_text(text.replace(self.old, self.new, 1), encoding="utf-8")


@dataclass(frozen=True)
class Append:
    file: str
    text: str | Callable[[], str]

    def apply(self, game: Path) -> None:
        text = self.text() if callable(self.text) else self.text
        with open(game / self.file, "a", encoding="utf-8") as fh:
            fh.write(text)


@dataclass(frozen=True)
class Write:
    """Replace a file's whole content (bytes are written as they are; text as UTF-8)."""

    file: str
    data: bytes | str | Callable[[], bytes | str]

    def apply(self, game: Path) -> None:
        data = self.data() if callable(self.data) else self.data
        path = game / self.file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)


@dataclass(frozen=True)
class Recode:
    """Re-encode a file's text (e.g. as UTF-16 or Latin-1), after an optional text change."""

    file: str
    encoding: str
    old: str = ""
    new: str = ""

    def apply(self, game: Path) -> None:
        path = game / self.file
        text = path.read_text(encoding="utf-8").replace(self.old, self.new, 1) if self.old else \
            path.read_text(encoding="utf-8")
        path.write_bytes(text.encode(self.encoding))


@dataclass(frozen=True)
class Bytes:
    """Change the file's bytes with a function (insert a NUL, cut a UTF-8 sequence in half)."""

    file: str
    change: Callable[[bytes], bytes]

    def apply(self, game: Path) -> None:
        path = game / self.file
        path.write_bytes(self.change(path.read_bytes()))


@dataclass(frozen=True)
class Link:
    """Replace the file with a symbolic link to target."""

    file: str
    target: str

    def apply(self, game: Path) -> None:
        path = game / self.file
        path.unlink(missing_ok=True)
        path.symlink_to(self.target)


@dataclass(frozen=True)
class Special:
    """Replace the file with a folder or a named pipe; or the whole folder with a file."""

    file: str
    kind: str  # "folder" | "fifo" | "file"

    def apply(self, game: Path) -> None:
        path = game / self.file
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)
        if self.kind == "folder":
            path.mkdir()
        elif self.kind == "fifo":
            os.mkfifo(path)
        else:
            path.write_text("not a folder\n", encoding="utf-8")


@dataclass(frozen=True)
class Sparse:
    """Make the file a sparse file of this many bytes: huge to stat and read, nothing on disk."""

    file: str
    size: int

    def apply(self, game: Path) -> None:
        with open(game / self.file, "r+b") as fh:
            fh.truncate(self.size)


@dataclass(frozen=True)
class Copies:
    """Copy a file count times under names made from pattern ('s{}.toml')."""

    file: str
    pattern: str
    count: int

    def apply(self, game: Path) -> None:
        data = (game / self.file).read_bytes()
        for i in range(self.count):
            (game / self.pattern.format(i)).write_bytes(data)


@dataclass(frozen=True)
class Rename:
    file: str
    to: str

    def apply(self, game: Path) -> None:
        (game / self.file).rename(game / self.to)


@dataclass(frozen=True)
class Case:
    """One broken input and the message it must give."""

    name: str
    steps: tuple
    file: str  # the file the message names (its last part is enough)
    place: str  # "line 3", "key turns.count", "column 'copies'", or "" for the whole file
    words: tuple[str, ...]  # all of these are in the same message line
    game: str = "mini"  # or "area"
    fixable: bool = True  # the message carries a "(fix: ...)"
    target: str = ""  # what to pass to `builder build` instead of the game folder
    defect: str = ""  # a known defect outside the loader that makes this case fail (xfail)
    notes: str = field(default="", compare=False)


# --- generated content for absurd sizes ------------------------------------------------------
def _many_counters(rows: int) -> Callable[[], str]:
    def make() -> str:
        return "".join(f"x-{i},blue,,{i},infantry,,5-4-6,,,,,,,,\n" for i in range(rows))
    return make


def _huge_counter_file() -> str:
    return "".join(f"x-{i},blue,,{i},infantry,,5-4-6,,,,,,,,\n" for i in range(300_000))


def _rules_10mb() -> str:
    return "# Big\n\n## 1.0 Everything\n\n" + ("All work and no play makes a rulebook long. " * 20
                                              + "\n") * 11_500


def _rules_many_sections() -> str:
    return "# Many\n\n" + "".join(f"## {i}.0 Part\n\nText.\n\n" for i in range(1, 20_002))


def _many_sheets() -> str:
    return "".join(f'\n[[sheets]]\nid = "S{i}"\ncolumns = "01-20"\nrows = "01-20"\norigin = [{i * 20}, 0]\n'
                   for i in range(1000))


def _many_regions() -> str:
    return "".join(f'\n[[regions]]\nid = "r{i}"\nname = "R"\nhexes = ["0101..0605"]\n'
                   for i in range(17_000))


def _nested(depth: int, open_: str, close: str, inner: str = "1") -> str:
    return "\nnested = " + open_ * depth + inner + close * depth + "\n"


def _comments_3mb() -> str:
    return "".join("# " + "padding " * 12 + "\n" for _ in range(32_000))


def _cut_utf8(data: bytes) -> bytes:
    i = data.index("—".encode())  # an em dash is three bytes: keep only the first
    return data[: i + 1] + b"\n"


def _insert(after: bytes, what: bytes) -> Callable[[bytes], bytes]:
    def change(data: bytes) -> bytes:
        i = data.index(after) + len(after)
        return data[:i] + what + data[i:]
    return change


_MODIFIED_ROLL = """
[[tables]]
id = "bombard"
name = "Bombardment"
kind = "modified-roll"
dice = "1d6"
results = { "0" = "-", "1" = "-", "2" = "D", "3" = "D", "4" = "E", "5" = "E", "6" = "E" }
natural = { "9" = "E" }
"""
_RATIO = """
[[tables]]
id = "odds"
name = "Odds"
kind = "ratio"
dice = "1d6"
rounding = "down"
columns = ["1:2", "3:2", "2:1"]
results = { "1" = ["A", "B", "C"], "2" = ["A", "B", "C"], "3" = ["A", "B", "C"], "4" = ["A", "B", "C"], "5" = ["A", "B", "C"], "6" = ["A", "B", "C"] }
"""
_LOOKUP_BIG = """
[[tables]]
id = "victory"
name = "Victory"
kind = "lookup"
key = "vp"
inputs = [{ id = "vp", name = "Victory points", min = 0, max = 100000000 }]
entries = [{ when = "else", result = "Draw" }]
"""
_LOOKUP_BACKWARDS = _LOOKUP_BIG.replace("min = 0, max = 100000000", "min = 10, max = 1")
_PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"

def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG that claims width x height pixels in a few dozen bytes: a decompression bomb."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr)
            + _png_chunk(b"IDAT", zlib.compress(b"\0" * 64)) + _png_chunk(b"IEND", b""))


def _image(fmt: str = "PNG", size: tuple[int, int] = (100, 100)) -> Callable[[], bytes]:
    def make() -> bytes:
        from PIL import Image

        buf = io.BytesIO()
        Image.new("RGB", size, (200, 180, 120)).save(buf, fmt)
        return buf.getvalue()
    return make


def _truncated_png() -> bytes:
    return _image("PNG", (300, 300))()[:200]


def _artwork(image: str, calibration: str = '[["0101", 10.0, 10.0], ["0605", 90.0, 90.0]]') -> Append:
    return Append("map.toml", f'\n[artwork]\nimage = "{image}"\ncalibration = {calibration}\n')


C = Case
CASES: list[Case] = [
    # --- encodings, byte-order marks, bytes that are not text --------------------------------
    C("game.toml UTF-16 with BOM", (Recode("game.toml", "utf-16"),), "game.toml", "", ("UTF-16",)),
    C("map.toml UTF-16 without BOM", (Recode("map.toml", "utf-16-le"),), "map.toml",
      "line 1, column 2", ("U+0000", "UTF-16")),
    C("counters.csv UTF-16BE with BOM", (Recode("counters.csv", "utf-16"),), "counters.csv", "",
      ("UTF-16",)),
    C("tables.toml Windows-1252", (Recode("tables.toml", "cp1252", "Combat Results Table",
                                     "Table des résultats"),), "tables.toml", "line 3",
      ("not UTF-8", "0xe9")),
    C("rules.md Latin-1", (Recode("rules.md", "latin-1", "Each hex is 1 km.", "Chaque hex fait 1 km: déjà."),),
      "rules.md", "line 9", ("not UTF-8",)),
    C("scenario Windows-1252 quotes", (Recode("scenarios/basic.toml", "cp1252", "Blue wins",
                                              "\u201cBlue\u201d wins"),), "basic.toml", "line 3",
      ("not UTF-8", "0x93")),
    C("setup.csv cut inside a UTF-8 character", (
        Append("scenarios/basic.setup.csv", "b-2,0101,,,,arrives — late\n"),
        Bytes("scenarios/basic.setup.csv", _cut_utf8)), "basic.setup.csv", "line 6", ("not UTF-8",)),
    C("BOM in the middle of the counters header", (Replace("counters.csv", "id,side,", "id,\ufeffside,"),),
      "counters.csv", "line 1", ("unknown column", "U+FEFF")),
    C("NUL byte in counters.csv", (Bytes("counters.csv", _insert(b"b-1,blue,1st,1/1", b"\x00")),),
      "counters.csv", "line 2, column 17", ("U+0000",)),
    C("NUL byte in rules.md", (Bytes("rules.md", _insert(b"A tiny", b"\x00")),), "rules.md",
      "line 5, column 7", ("U+0000",)),
    C("terminal escape in markers.csv", (Replace("markers.csv", "Support +2", "Support \x1b[31m+2"),),
      "markers.csv", "line 2, column 14", ("U+001B",)),
    C("a PNG saved as map.toml", (Write("map.toml", _PNG),), "map.toml", "line 1", ("not UTF-8",)),

    # --- syntax ---------------------------------------------------------------------------------
    C("map.toml unclosed array", (Replace("map.toml", 'hexes = ["0202"]', 'hexes = ["0202"'),),
      "map.toml", "line 42", ("TOML syntax", "Unclosed array")),
    C("tables.toml key without '='", (Replace("tables.toml", 'name = "Weather"', 'name "Weather"'),),
      "tables.toml", "line 21", ("TOML syntax", "'='")),
    C("game.toml table declared twice", (Append("game.toml", '\n[scale]\nhex = "2 km"\n'),), "game.toml",
      "line", ("TOML syntax", "twice")),
    C("duplicate key in an inline table", (Replace("map.toml", "movement = 2, divisor = 2",
                                                   "movement = 2, movement = 3"),), "map.toml", "line 19",
      ("TOML syntax",)),
    C("counters.csv unclosed quote", (Replace("counters.csv", "r-1,red,,711", 'r-1,red,,"711'),),
      "counters.csv", "line", ("CSV syntax error",)),
    C("markers.csv column given twice", (Replace("markers.csv", "id,name,kind,side", "id,name,kind,name"),),
      "markers.csv", "line 1", ("column 'name' appears twice",)),
    C("setup.csv without its 'at' column", (Replace("scenarios/basic.setup.csv", "unit,at,", "unit,where,"),),
      "basic.setup.csv", "line 1", ("no column 'at'",)),
    C("csv field of 200,000 characters", (Replace("counters.csv", "1/1", "1" * 200_000),),
      "counters.csv", "line 2", ("field larger than field limit",)),
    C("rules.md with two titles", (Replace("rules.md", "## 2.0 Movement", "# 2.0 Movement"),), "rules.md",
      "line 11", ("second '# ' title",)),
    C("rules.md with no sections", (Write("rules.md", "# Mini Game\n\nJust text.\n"),), "rules.md", "",
      ("has no sections",)),

    # --- wrong types ----------------------------------------------------------------------------
    C("tables is a number", (Write("tables.toml", "tables = 5\n"),), "tables.toml", "key tables",
      ("valid tuple",)),
    C("hex size is a boolean", (Replace("map.toml", 'hex_size = "0.75in"', "hex_size = true"),), "map.toml",
      "key hex_size", ("not a length",)),
    C("turn count with a fraction", (Replace("game.toml", "count = 4", "count = 4.5"),), "game.toml",
      "key turns.count", ("fractional part", "whole number")),
    C("copies with a decimal point", (Replace("counters.csv", "strategic-reserve,2,", "strategic-reserve,1.5,"),),
      "counters.csv", "line 4, column 'copies'", ("whole number",)),
    C("reinforcement turn as words", (Replace("scenarios/basic.toml", "turn = 2", 'turn = "two"'),),
      "basic.toml", "key reinforcements[0].turn", ("whole number",)),
    C("terrain hexes as one string", (Replace("map.toml", 'hexes = ["0202"]', 'hexes = "0202"'),), "map.toml",
      "key terrain[1].hexes", ("valid tuple",)),
    C("marker value in words", (Replace("markers.csv", "Support +2,support-fire,blue,+2,,2,",
                                        "Support +2,support-fire,blue,+2,,two,"),), "markers.csv",
      "line 2, column 'value'", ("integer",)),

    # --- missing and dangling references ---------------------------------------------------------
    C("counter size not defined", (Replace("counters.csv", "1,unit,,11.2,", "1,huge,,11.2,"),), "counters.csv",
      "line 2, column 'counter'", ("counter size 'huge'",)),
    C("marker deck not defined", (Replace("markers.csv", "marker,3,support", "marker,3,supprt"),),
      "markers.csv", "line 2, column 'deck'", ("deck 'supprt'",)),
    C("table row names an unknown terrain", (Replace("tables.toml", 'terrain = ["woods"]', 'terrain = ["swamp"]'),),
      "tables.toml", "terrain_rows[0].terrain", ("unknown terrain 'swamp'",)),
    C("hexside of an unknown type", (Replace("map.toml", 'type = "river"', 'type = "creek"'),), "map.toml",
      "key hexsides[0].type", ("unknown hexside type 'creek'",)),
    C("line of an unknown type", (Replace("map.toml", 'type = "road"', 'type = "railroad"'),), "map.toml",
      "key lines[0].type", ("unknown line type 'railroad'",)),
    C("objective for an unknown side", (Replace("map.toml", 'kind = "victory"\nside = "blue"',
                                                'kind = "victory"\nside = "green"'),), "map.toml",
      "key objectives[0].side", ("side 'green'",)),
    C("edge for an unknown side", (Replace("map.toml", 'edge = "east"\nside = "red"', 'edge = "east"\nside = "rouge"'),),
      "map.toml", "key edges[0].side", ("side 'rouge'",)),
    C("deck of an unknown side", (Replace("game.toml", 'side = "blue"\ndraw', 'side = "azure"\ndraw'),),
      "game.toml", "key decks[0].side", ("side 'azure'",)),
    C("default terrain not defined", (Replace("map.toml", 'default_terrain = "clear"', 'default_terrain = "grass"'),),
      "map.toml", "key default_terrain", ("default terrain 'grass'",)),
    C("victory table not defined", (Replace("scenarios/basic.toml", 'name = "Basic"',
                                            'name = "Basic"\nvictory_table = "vp"'),), "basic.toml",
      "key victory_table", ("unknown table 'vp'",)),
    C("draw from an unknown deck", (Append("scenarios/basic.toml", '\n[[draws]]\ndeck = "air"\n'),),
      "basic.toml", "key draws[0].deck", ("unknown deck 'air'",)),
    C("set-up in an unknown region", (Replace("scenarios/basic.setup.csv", "b-1,0102,,,,", "b-1,0102,,,east,"),),
      "basic.setup.csv", "line 2, column 'region'", ("unknown region 'east'",)),
    C("reinforcement waits in an unknown box", (Replace("scenarios/basic.toml", 'at = ["0101"]',
                                                        'at = ["0101"]\nbox = "pool"'),), "basic.toml",
      "key reinforcements[0].box", ("unknown box 'pool'",)),
    C("setup_file that does not exist", (Replace("scenarios/basic.toml", 'name = "Basic"',
                                                 'name = "Basic"\nsetup_file = "nope.setup.csv"'),),
      "basic.toml", "key setup_file", ("nope.setup.csv", "does not exist")),
    C("area: adjacency names an unknown sector", (Replace("map.toml", '[["west", "centre"]]',
                                                          '[["west", "centre"], ["centre", "north"]]'),),
      "map.toml", "key adjacent[1]", ("unknown sector 'north'",), game="area"),
    C("area: fire arc on an unknown sector", (Replace("map.toml", 'fire_arc = ["west"]', 'fire_arc = ["wset"]'),),
      "map.toml", "key sectors[1].fire_arc", ("unknown sector 'wset'",), game="area"),
    C("area: sector of an unknown terrain", (Replace("map.toml", 'terrain = ["woods"]', 'terrain = ["forest"]'),),
      "map.toml", "key sectors[1].terrain", ("unknown terrain 'forest'",), game="area"),
    C("area: set-up in an unknown sector", (Replace("scenarios/basic.setup.csv", "b-1,west", "b-1,north"),),
      "basic.setup.csv", "line 2, column 'at'", ("unknown sector 'north'",), game="area"),
    C("area: sector paired with itself", (Replace("map.toml", '[["west", "centre"]]',
                                                  '[["west", "centre"], ["east", "east"]]'),),
      "map.toml", "key adjacent[1]", ("paired with itself",), game="area"),
    C("area: sector that touches nothing", (Replace("map.toml", 'water_edges = [["centre", "east"]]\n', ""),),
      "map.toml", "key sectors[2]", ("touches no other sector",), game="area"),
    C("area: corner outside the map", (Replace("map.toml", "[200, 0], [200, 100]", "[260, 0], [200, 100]"),),
      "map.toml", "key sectors[2].outline", ("outside the 200 x 100 mm map",), game="area"),

    # --- values out of range ---------------------------------------------------------------------
    C("negative copies", (Replace("counters.csv", "strategic-reserve,2,", "strategic-reserve,-3,"),),
      "counters.csv", "line 4, column 'copies'", ("greater than or equal to 1", "-3")),
    C("zero copies", (Replace("markers.csv", "marker,3,support", "marker,0,support"),), "markers.csv",
      "line 2, column 'copies'", ("greater than or equal to 1",)),
    C("copies of 5,000 digits", (Replace("counters.csv", "strategic-reserve,2,", "strategic-reserve,"
                                         + "9" * 5000 + ","),), "counters.csv", "line 4, column 'copies'",
      ("integer",)),
    C("no turns", (Replace("game.toml", "count = 4", "count = 0"),), "game.toml", "key turns.count",
      ("greater than or equal to 1",)),
    C("a trillion turns", (Replace("game.toml", "count = 4", "count = 1_000_000_000_000"),), "game.toml",
      "key turns.count", ("13-digit number", "beyond")),
    C("a number of 5,000 digits in TOML", (Replace("game.toml", "count = 4", "count = " + "9" * 5000),),
      "game.toml", "", ("cannot be read as TOML", "digits")),
    C("victory points of infinity", (Replace("map.toml", "vp = 1", "vp = inf"),), "map.toml",
      "key objectives[0].vp", ("inf is not a usable number",)),
    C("terrain effect of NaN", (Replace("map.toml", "divisor = 2", "divisor = nan"),), "map.toml",
      "key terrain_types[1].effects.divisor", ("nan is not a usable number",)),
    C("float of 1e300", (Replace("map.toml", "vp = 1", "vp = 1e300"),), "map.toml", "key objectives[0].vp",
      ("1e+300", "beyond")),
    C("hexes a hundredth of a millimetre", (Replace("map.toml", 'hex_size = "0.75in"', 'hex_size = "0.01mm"'),),
      "map.toml", "key hex_size", ("not a sane size",)),
    C("counters ten metres wide", (Replace("game.toml", 'size = "5/8in"', 'size = "10000mm"'),), "game.toml",
      "key counter_sizes[0].size", ("not a sane size",)),
    C("rows running backwards", (Replace("map.toml", 'rows = "01-05"', 'rows = "05-01"'),), "map.toml",
      "key columns", ("runs backwards",)),
    C("nine-digit hex columns", (Replace("map.toml", 'kind = "hex"', 'kind = "hex"\ncolumn_digits = 9'),),
      "map.toml", "key column_digits", ("less than or equal to 3",)),
    C("negative 'within'", (Replace("scenarios/basic.setup.csv", "r-1,0404,0405,1,", "r-1,0404,0405,-1,"),),
      "basic.setup.csv", "line 3, column 'within'", ("greater than or equal to 0",)),
    C("scenario turns reversed", (Replace("scenarios/basic.toml", "turns = [1, 4]", "turns = [4, 1]"),),
      "basic.toml", "key turns", ("outside",)),
    C("natural roll a d6 cannot roll", (Append("tables.toml", _MODIFIED_ROLL),), "tables.toml", "tables[2]",
      ("natural roll '9' cannot be rolled on 1d6",)),
    C("ratio column 3:2", (Append("tables.toml", _RATIO),), "tables.toml", "tables[2]",
      ("column '3:2' is not a ratio",)),
    C("lookup input min above max", (Append("tables.toml", _LOOKUP_BACKWARDS),), "tables.toml",
      "tables[2].inputs[0]", ("min 10 is above max 1",)),
    C("lookup over 100 million values", (Append("tables.toml", _LOOKUP_BIG),), "tables.toml", "tables[2]",
      ("100,000,001 cases", "narrow")),
    C("five dice", (Replace("tables.toml", 'dice = "1d6"\ncolumns', 'dice = "5d6"\ncolumns'),), "tables.toml",
      "tables[0]", ("'5d6' is not a dice spec",)),
    C("a seven-sided die", (Replace("tables.toml", 'dice = "1d6"\nentries', 'dice = "1d7"\nentries'),),
      "tables.toml", "tables[1]", ("'1d7' is not a dice spec",)),
    C("a CRT without columns", (Replace("tables.toml", "columns = 4", "columns = 0"),), "tables.toml",
      "tables[0].columns", ("greater than or equal to 1",)),

    # --- duplicates and look-alikes ----------------------------------------------------------------
    C("side id used twice", (Replace("game.toml", 'id = "red"', 'id = "blue"'),), "game.toml", "key sides",
      ("'blue' is used twice",)),
    C("terrain type id used twice", (Replace("map.toml", 'id = "town"', 'id = "woods"'),), "map.toml",
      "key terrain_types", ("'woods' is used twice",)),
    C("table id used twice", (Replace("tables.toml", 'id = "weather"', 'id = "crt"'),), "tables.toml",
      "key tables", ("'crt' is used twice",)),
    C("area: sector id used twice", (Replace("map.toml", 'id = "east"', 'id = "west"'),), "map.toml",
      "key sectors", ("'west' is used twice",), game="area"),
    C("side written with a Cyrillic e", (Replace("counters.csv", "r-1,red,", "r-1,r\u0435d,"),), "counters.csv",
      "line 4, column 'side'", ("side 'r\u0435d' is not defined", "U+0435 CYRILLIC SMALL LETTER IE")),
    C("set-up unit with a Unicode hyphen", (Replace("scenarios/basic.setup.csv", "b-1,0102", "b\u20101,0102"),),
      "basic.setup.csv", "line 2, column 'unit'", ("unknown unit or marker", "U+2010 HYPHEN")),
    C("counter id with a Greek omicron", (Replace("counters.csv", "b-1,blue", "b\u03bf-1,blue"),),
      "counters.csv", "line 2, column 'id'", ("not an id", "U+03BF GREEK SMALL LETTER OMICRON")),
    C("terrain id with a zero-width space", (Replace("map.toml", 'terrain = "town"', 'terrain = "to\u200bwn"'),),
      "map.toml", "key terrain[1].terrain", ("unknown terrain", "U+200B ZERO WIDTH SPACE")),

    # --- absurd sizes ------------------------------------------------------------------------------
    C("a 10,000 x 10,000 hex map", (Replace("map.toml", 'columns = "01-06"\nrows = "01-05"',
                                            'columns = "01-10000"\nrows = "01-10000"'),), "map.toml",
      "key columns", ("100,000,000 hexes", "250,000")),
    C("1,000 sheets of 400 hexes", (Replace("map.toml", 'columns = "01-06"\nrows = "01-05"\n', ""),
                                    Append("map.toml", _many_sheets)), "map.toml", "key sheets",
      ("400,000 hexes", "250,000")),
    C("a million counters by copies", (Append("counters.csv", lambda: "".join(
        f"x-{i},blue,,{i},infantry,,5-4-6,,,,1000,,,,\n" for i in range(1000))),), "counters.csv", "",
      ("1,000,008 counters", "50,000")),
    C("counters.csv of 30,000 rows", (Append("counters.csv", _many_counters(30_000)),), "counters.csv",
      "line 20002", ("more than 20,000 rows",)),
    C("counters.csv a 3 GB sparse file", (Sparse("counters.csv", 3 << 30),), "counters.csv", "",
      ("3072.0 MiB", "larger than the 2 MiB")),
    C("counters.csv of 11 MB", (Append("counters.csv", _huge_counter_file),), "counters.csv", "",
      ("MiB, larger than the 2 MiB",)),
    C("rules.md of 10 MB", (Write("rules.md", _rules_10mb),), "rules.md", "", ("larger than the 4 MiB",)),
    C("rules.md of 20,000 sections", (Write("rules.md", _rules_many_sections),), "rules.md", "line",
      ("more than 10,000 sections",)),
    C("map.toml of 3 MB of comments", (Append("map.toml", _comments_3mb),), "map.toml", "",
      ("larger than the 2 MiB",)),
    C("one range across 9,801 hexes", (Replace("map.toml", 'hexes = ["0202"]', 'hexes = ["0101..9999"]'),),
      "map.toml", "key terrain[1].hexes[0]", ("9,801 hexes", "map's 30")),
    C("17,000 regions covering the map", (Append("map.toml", _many_regions),), "map.toml", "regions",
      ("more than 500,000 hexes",)),
    C("5,000 scenarios", (Write("scenarios/basic.toml", lambda: "name = 'x'\n"),
                          Copies("scenarios/basic.toml", "scenarios/s{}.toml", 5000)), "scenarios", "",
      ("5,001 scenarios", "more than the 500")),
    C("arrays nested 100,000 deep", (Append("game.toml", _nested(100_000, "[", "]")),), "game.toml", "",
      ("nests arrays or tables", "32")),
    C("inline tables nested 5,000 deep", (Append("game.toml", _nested(5_000, "{a = ", "}")),), "game.toml", "",
      ("nests arrays or tables", "32")),
    C("arrays nested 40 deep", (Append("game.toml", _nested(40, "[", "]")),), "game.toml", "nested[0][0]",
      ("more than the 32 levels",)),

    # --- files that are not what they seem -------------------------------------------------------
    C("rules.md links to /etc/passwd", (Link("rules.md", "/etc/passwd"),), "rules.md", "",
      ("link to /etc/passwd", "outside the game folder")),
    C("counters.csv links to /etc/passwd", (Link("counters.csv", "/etc/passwd"),), "counters.csv", "",
      ("outside the game folder",)),
    C("markers.csv links to /dev/zero", (Link("markers.csv", "/dev/zero"),), "markers.csv", "",
      ("outside the game folder",)),
    C("tables.toml is a broken link", (Link("tables.toml", "gone.toml"),), "tables.toml", "",
      ("link to gone.toml", "cannot be read")),
    C("rules.md is a named pipe", (Special("rules.md", "fifo"),), "rules.md", "", ("not a regular file",)),
    C("counters.csv is a folder", (Special("counters.csv", "folder"),), "counters.csv", "", ("is a folder",)),
    C("scenarios is a file", (Special("scenarios", "file"),), "scenarios", "", ("is not a folder",)),
    C("setup_file climbs out of the game", (Replace("scenarios/basic.toml", 'name = "Basic"',
                                                    'name = "Basic"\nsetup_file = "../../../../../etc/passwd"'),),
      "basic.toml", "key setup_file", ("not a file name in scenarios/",)),
    C("setup_file is an absolute path", (Replace("scenarios/basic.toml", 'name = "Basic"',
                                                 'name = "Basic"\nsetup_file = "/etc/passwd"'),),
      "basic.toml", "key setup_file", ("not a file name in scenarios/",)),
    C("scenario file name with markup", (Rename("scenarios/basic.toml", 'scenarios/<b>"x".toml'),),
      '<b>"x".toml', "", ("is not a scenario id",)),
    C("game.toml is a folder", (Special("game.toml", "folder"),), "mini", "", ("no game",), fixable=False),
    C("the game folder is a file", (), "mini.txt", "", ("no game",), fixable=False, target="mini.txt"),

    # --- images read from the sources: only the game's own, only real ones, not too large -------
    C("artwork climbs out of the game", (_artwork("../../../../../../etc/passwd"),), "map.toml",
      "key artwork.image", ("outside the game folder",)),
    C("artwork is an absolute path", (_artwork("/etc/hostname"),), "map.toml", "key artwork.image",
      ("outside the game folder",)),
    C("artwork links to /etc/passwd", (_artwork("art.png"), Link("art.png", "/etc/passwd")), "map.toml",
      "key artwork.image", ("outside the game folder",)),
    C("artwork that is text", (_artwork("art.png"), Write("art.png", "not an image\n")), "map.toml",
      "key artwork.image", ("is not a PNG or JPEG image",)),
    C("artwork cut short", (_artwork("art.png"), Write("art.png", _truncated_png)), "map.toml",
      "key artwork.image", ("damaged image",)),
    C("artwork of 20,000 x 20,000 pixels in 100 bytes", (_artwork("art.png"),
                                                         Write("art.png", _png_header_only(20_000, 20_000))),
      "map.toml", "key artwork.image", ("more than the 89,478,485 pixels",)),
    C("artwork of 10,000 x 9,500 pixels", (_artwork("art.png"), Write("art.png", _png_header_only(10_000, 9_500))),
      "map.toml", "key artwork.image", ("more than the 89,478,485 pixels",)),
    C("artwork that is a GIF", (_artwork("art.png"), Write("art.png", _image("GIF"))), "map.toml",
      "key artwork.image", ("is a GIF image",)),
    C("artwork of 100 MB", (_artwork("art.png"), Write("art.png", _image()), Sparse("art.png", 100 << 20)),
      "map.toml", "key artwork.image", ("100 MiB", "64 MiB")),
    C("artwork that is missing", (_artwork("art/map.png"),), "map.toml", "key artwork.image",
      ("cannot be read",)),
    C("artwork that is a folder", (_artwork("art"), Special("art", "folder")), "map.toml",
      "key artwork.image", ("is not a file",)),
    C("artwork calibrated off the image", (_artwork("art.png", '[["0101", 10.0, 10.0], ["0605", 900.0, 90.0]]'),
                                           Write("art.png", _image())), "map.toml",
      "key artwork.calibration[1]", ("outside the 100 x 100 pixel image",)),
    C("artwork calibrated on a hex off the map", (_artwork("art.png", '[["0101", 10.0, 10.0], ["0909", 90.0, 90.0]]'),
                                                  Write("art.png", _image())), "map.toml",
      "artwork.calibration[1]", ("outside the map",)),

    # --- empty files -----------------------------------------------------------------------------
    C("empty counters.csv", (Write("counters.csv", ""),), "counters.csv", "", ("is empty",)),
    C("empty tables.toml", (Write("tables.toml", ""),), "tables.toml", "", ("is empty",)),
    C("game.toml of blank lines", (Write("game.toml", "\n\n   \n"),), "game.toml", "", ("is empty",)),
    C("empty rules.md", (Write("rules.md", ""),), "rules.md", "line 1", ("no title",)),
    C("empty scenario", (Write("scenarios/basic.toml", ""),), "basic.toml", "", ("is empty",)),
    C("empty setup.csv", (Write("scenarios/basic.setup.csv", ""),), "basic.setup.csv", "", ("is empty",)),
]


def prepare(case: Case, fixtures: dict[str, Path], where: Path) -> Path:
    """Copy the case's fixture to where/mini, apply its steps; return what to pass to the CLI."""
    game = where / "mini"
    shutil.copytree(fixtures[case.game], game, symlinks=True)
    for step in case.steps:
        step.apply(game)
    if case.target:
        target = where / case.target
        target.write_text("title = 'I am a file, not a folder'\n", encoding="utf-8")
        return target
    return game
