"""map.toml: a hex map (one or several sheets) or an area map of named sectors."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from builder.model.base import Colour, Ident, Length, Sourced

EffectValue = int | float | str


class TerrainType(Sourced):
    id: Ident
    name: str
    color: Colour = Field(description="fill colour on the map")
    pattern: Literal[
        "", "trees", "town", "city", "peak", "hill", "water", "marsh", "flood", "craters", "docks",
        "fort", "bunker", "trench", "buildings", "canals", "lake", "rough", "mountain", "farm",
        "coast", "port", "airfield",
    ] = Field(default="", description="symbol drawn over the fill")
    group: str = Field(
        default="",
        description="terrains sharing a group exclude each other in one hex (e.g. 'base': clear/sea)",
    )
    effects: dict[str, EffectValue] = Field(
        default={}, description="what the terrain does, by name: movement, combat, divisor, drm ..."
    )
    level: int = Field(
        default=0, ge=-9, le=99, description="line of sight: the ground level of a hex with this "
        "terrain (a hill 1, a ridge 2); a hex takes the highest of its terrains' levels unless "
        "[[levels]] gives it one")
    height: int | None = Field(
        default=None, ge=0, le=99, description="line of sight: how many levels this terrain stands "
        "above its hex's ground (woods 1, a town 2); 0: lines pass over it. Not given: a terrain "
        "that blocks sight (not the default terrain, not in the line-of-sight table's "
        "clear_terrain) stands 1 level")


class TerrainHexes(Sourced):
    terrain: str = Field(description="terrain type id")
    hexes: tuple[str, ...] = Field(description="hex numbers or ranges 'A..B'")


class HexsideType(Sourced):
    id: Ident
    name: str
    color: Colour
    style: Literal[
        "river", "major-river", "minor-river", "canal", "trench", "causeway", "sea", "fortified",
        "border", "escarpment",
    ]
    effects: dict[str, EffectValue] = Field(default_factory=dict)
    sight: Literal["", "crest", "wall"] = Field(
        default="", description="line of sight: 'crest', the edge of higher ground (it stands at "
        "the higher of its two hexes' level); 'wall', an obstacle standing on the higher of its "
        "two hexes (a wall, hedge or bank); '': sight passes")
    height: int | None = Field(
        default=None, ge=0, le=99, description="with sight: how many levels it stands above the "
        "higher of its two hexes' ground (default: a crest 0, a wall 1)")

    @model_validator(mode="after")
    def _height_needs_sight(self) -> HexsideType:
        if self.height is not None and not self.sight:
            raise ValueError(f"hexside type '{self.id}': height is for a hexside that affects "
                             "sight: add sight = 'crest' or 'wall', or remove height")
        return self


class Hexsides(Sourced):
    type: str = Field(description="hexside type id")
    sides: tuple[str, ...] = Field(description="'2737/2738': the side between two adjacent hexes")


class Levels(Sourced):
    """Hexes at a ground level of their own, whatever their terrain (a summit, a sunken road)."""

    level: int = Field(ge=-9, le=99, description="the ground level of these hexes")
    hexes: tuple[str, ...] = Field(description="hex numbers or ranges 'A..B'")


class LineType(Sourced):
    id: Ident
    name: str
    color: Colour
    style: Literal["road", "minor-road", "railway", "ferry", "boundary", "track"]
    effects: dict[str, EffectValue] = Field(default_factory=dict)


class Line(Sourced):
    type: str = Field(description="line type id")
    name: str = ""
    hexes: tuple[str, ...] = Field(description="adjacent hexes in order; ranges 'A..B' allowed")


class Label(Sourced):
    text: str
    hex: str
    kind: Literal["town", "city", "village", "water", "feature", "region"] = "town"


class Region(Sourced):
    id: Ident
    name: str
    hexes: tuple[str, ...] = ()
    style: Literal["tint", "outline", "none"] = "outline"
    color: Colour = "#7a1f1f"


class Objective(Sourced):
    hex: str
    name: str = ""
    kind: Literal["victory", "supply", "peak", "objective", "town"] = "objective"
    side: str = Field(default="", description="side id that scores or draws supply here")
    vp: float | None = None


class Edge(Sourced):
    edge: Literal["north", "south", "east", "west"]
    side: str = Field(description="side id")
    kind: Literal["supply", "entry", "exit"]
    hexes: tuple[str, ...] = Field(default=(), description="entry hexes; empty means the whole edge")
    name: str = ""


class Sheet(Sourced):
    id: str = Field(description="sheet prefix as printed, e.g. '16A'")
    name: str = ""
    columns: str = Field(description="printed column numbers, e.g. '01-34'")
    rows: str = Field(description="printed row numbers, e.g. '01-50'")
    origin: tuple[int, int] = Field(
        default=(0, 0),
        description="[column, row] where this sheet's first hex sits in the whole map's grid; "
        "sheets whose grids touch join there",
    )


class Track(Sourced):
    """A printed track or box on the map (turn record, artillery track, reserves box)."""

    id: Ident
    name: str
    kind: Literal["turn", "artillery", "losses", "victory", "box"] = "box"
    box: str = Field(default="", description="box id from game.toml for holding boxes")


class Artwork(Sourced):
    """Supplied map art (a scan of a published map) printed instead of drawn terrain, placed by
    its grid calibration so that every hex position still comes from the one geometry."""

    image: str = Field(description="PNG or JPEG in the game folder, e.g. 'art/map.png'")
    calibration: tuple[tuple[str, float, float], ...] = Field(
        min_length=2,
        description="hex centres found on the image, in pixels from its top-left: "
        "[['0101', 96.0, 84.5], ['3430', 4410.0, 5190.0]]; two hexes in different columns "
        "and rows (more are averaged)",
    )

    @model_validator(mode="after")
    def _spread(self) -> "Artwork":
        if len({p[1] for p in self.calibration}) < 2 or len({p[2] for p in self.calibration}) < 2:
            raise ValueError(
                "calibration needs hexes at different x and different y on the image: "
                "give two hexes far apart, e.g. the top-left and bottom-right ones"
            )
        return self


class HexMap(Sourced):
    """A map of flat-topped hexes in columns, numbered column then row."""

    kind: Literal["hex"]
    title: str = ""
    orientation: Literal["flat-top-columns"] = "flat-top-columns"
    hex_size: Length = Field(description="across the flats, e.g. '0.75in'")
    shifted_columns: Literal["even", "odd"] = Field(
        default="even", description="which printed column numbers sit half a hex lower"
    )
    north: Literal["up", "down", "left", "right"] = Field(
        default="up",
        description="where north points on the printed sheet; edges are named by compass direction",
    )
    column_digits: int = Field(default=2, ge=1, le=3)
    row_digits: int = Field(default=2, ge=1, le=3)
    columns: str = Field(default="", description="single-sheet maps: printed columns, e.g. '10-34'")
    rows: str = Field(default="", description="single-sheet maps: printed rows, e.g. '17-48'")
    sheets: tuple[Sheet, ...] = Field(default=(), description="multi-sheet maps: one entry per sheet")
    default_terrain: str
    legend: Literal["bottom", "right", "auto"] = Field(
        default="bottom", description="where the printed map's key, tracks and boxes go: under the "
        "map, to its right, or auto (whichever makes the smaller sheet)")
    terrain_types: tuple[TerrainType, ...] = Field(min_length=1)
    terrain: tuple[TerrainHexes, ...] = ()
    hexside_types: tuple[HexsideType, ...] = ()
    hexsides: tuple[Hexsides, ...] = ()
    levels: tuple[Levels, ...] = Field(
        default=(), description="line of sight: hexes whose ground level is given here rather "
        "than by their terrain's level")
    line_types: tuple[LineType, ...] = ()
    lines: tuple[Line, ...] = ()
    labels: tuple[Label, ...] = ()
    regions: tuple[Region, ...] = ()
    objectives: tuple[Objective, ...] = ()
    edges: tuple[Edge, ...] = ()
    tracks: tuple[Track, ...] = ()
    artwork: Artwork | None = Field(
        default=None, description="a supplied map image with its grid calibration (optional)"
    )


_COMPASS = ("north", "east", "south", "west")
_SCREEN = ("up", "right", "down", "left")


def sheet_side(north: str, edge: str) -> str:
    """The printed sheet's side ('up', 'right', 'down', 'left') of a compass edge."""
    turn = _SCREEN.index(north)
    return _SCREEN[(_COMPASS.index(edge) + turn) % 4]


class Sector(Sourced):
    id: Ident
    name: str
    terrain: tuple[str, ...] = Field(default=(), description="terrain type ids (bunker, trench ...)")
    outline: tuple[tuple[float, float], ...] = Field(
        min_length=3, description="polygon corners in mm from the map's top-left"
    )
    vp: int = Field(default=0, ge=0)
    fire_arc: tuple[str, ...] = Field(
        default=(), description="sectors this sector's heavy machine guns can fire on"
    )
    mg: int = Field(default=0, ge=0, description="heavy machine gun fire strength [SP] when garrisoned")


class AreaMap(Sourced):
    """A map of named sectors (areas) with adjacency instead of hexes."""

    kind: Literal["area"]
    title: str = ""
    width: Length
    height: Length
    stacking_cap: int | None = Field(default=None, description="most strength points in one sector")
    legend: Literal["bottom", "right", "auto"] = Field(
        default="bottom", description="where the printed map's key, tracks and boxes go: under the "
        "map, to its right, or auto (whichever makes the smaller sheet)")
    terrain_types: tuple[TerrainType, ...] = Field(min_length=1)
    sectors: tuple[Sector, ...] = Field(min_length=1)
    adjacent: tuple[tuple[str, str], ...] = Field(description="pairs of sectors sharing an edge")
    water_edges: tuple[tuple[str, str], ...] = Field(
        default=(), description="pairs of sectors across water: adjacent, but movement is blocked"
    )
    water: tuple[tuple[tuple[float, float], ...], ...] = Field(
        default=(), description="water polygons (mm) drawn on the map"
    )
    tracks: tuple[Track, ...] = ()


MapSpec = Annotated[HexMap | AreaMap, Field(discriminator="kind")]
