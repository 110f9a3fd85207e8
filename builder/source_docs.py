"""docs/source-format.md: the reference of every source file, table kind and key, generated from
the models' Field descriptions (`builder schema` writes it with the JSON Schemas), so it cannot
fall behind them: a test compares the committed file with a fresh generation, and refuses a key
that has no meaning to print."""

from __future__ import annotations

import types
import typing
from pathlib import Path

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from builder.model.base import Sourced
from builder.model.counters import Marker, Unit
from builder.model.game import GameInfo
from builder.model.maps import AreaMap, HexMap
from builder.model.scenario import Placement, Scenario
from builder.model.tables import TablesFile

DOCS_FILE = Path(__file__).resolve().parents[1] / "docs" / "source-format.md"
PROVENANCE = ("assumed", "source", "note")
INTERNAL = {Scenario: ("setup", "id"), Placement: ("line",)}

# Meanings of keys whose model gives none: by key name, or by 'Model.key' where the name alone
# says too little. A new key with neither a description nor an entry here fails the docs test.
MEANINGS = {
    "id": "unique id, referred to by the other files (lower-case letters, digits, '-', '_', '.')",
    "name": "the name as printed",
    "title": "the title as printed",
    "subtitle": "printed under the title",
    "series": "the series the game belongs to",
    "publisher": "printed in the credits",
    "year": "year of publication",
    "version": "the version printed on the components",
    "description": "a paragraph about it, printed where it is introduced",
    "color": "colour as '#rrggbb'",
    "text_color": "colour of the text on it, as '#rrggbb'",
    "label": "the text printed for it",
    "value": "the number it adds",
    "dice": "the dice rolled: '1d6', '2d6', '1d10' ...",
    "kind": "what sort of item it is (one of the values listed)",
    "side": "a side id from game.toml",
    "hex": "a hex number as printed, e.g. '2717' or '16A:0827'",
    "hexes": "hex numbers or ranges 'A..B' (a run along a column or row, or a rectangle)",
    "style": "how it is drawn (one of the values listed)",
    "effects": "effect name -> value, read by the terrain chart and by the tables (see the table kinds: "
               "terrain_effect, shift_effect)",
    "beyond_low": "what a result below the first column means: read the first column, the last, or refuse",
    "beyond_high": "what a result beyond the last column means: read the first column, the last, or refuse",
    "results": "roll -> the results of that roll, one per column",
    "columns": "the column headings, in order",
    "rows": "the rows of cells, in order",
    "steps": "the steps of the phase, in order",
    "count": "how many",
    "number": "the turn number",
    "vp": "victory points",
    "copies": "how many identical counters",
    "min": "the smallest value allowed",
    "max": "the largest value allowed",
    "when": "when it happens",
    "result": "the result printed",
    "detail": "more text shown with the result",
    "GameInfo.credits": "the credits, as printed",
    "Credit.names": "the names, as printed",
    "GameInfo.paper": "paper of the print files: letter or a4 (builder build --paper overrides it)",
    "CounterSize.shape": "square or round",
    "Phase.name": "the phase as printed on the sequence of play",
    "Phase.skip_on_turns": "turns on which the phase is skipped",
    "Box.kind": "reserves, eliminated, holding, losses or off-map",
    "HexMap.orientation": "how the hexes stand: flat-topped columns",
    "HexMap.column_digits": "digits of the column in a printed hex number ('2717': 2)",
    "HexMap.row_digits": "digits of the row in a printed hex number ('2717': 2)",
    "HexMap.default_terrain": "terrain type id of every hex no [[terrain]] names",
    "HexMap.kind": "\"hex\" for a hex map",
    "AreaMap.kind": "\"area\" for an area map of sectors",
    "AreaMap.width": "width of the printed map, a length such as '17in'",
    "AreaMap.height": "height of the printed map, a length such as '11in'",
    "Line.name": "the name of the road or railway (printed in the key)",
    "Label.text": "the text printed on the map",
    "Label.kind": "how it is lettered: town, city, village, water, feature or region",
    "Region.style": "tint (filled), outline or none",
    "Objective.kind": "victory, supply, peak, objective or town",
    "Edge.edge": "the map edge by compass direction (map.toml 'north' says where north is printed)",
    "Edge.kind": "supply, entry (where reinforcements enter) or exit",
    "Edge.name": "printed along the edge",
    "Track.kind": "the kind of track or box (one of the values listed)",
    "Sector.name": "the name as printed in the sector",
    "Shift.id": "unique id of the shift, named in `builder calc` (e.g. shift=armour)",
    "Shift.label": "the shift as printed",
    "Modifier.id": "unique id of the modifier, named in `builder calc` (e.g. town=yes)",
    "Modifier.label": "the modifier as printed",
    "Modifier.value": "the number it adds to the roll (or to the column for a column modifier)",
    "Modifier.max_uses": "the most times it may count in one calculation",
    "Reading.id": "unique id of the reading, named in `builder calc` (reading=<id>)",
    "Input.id": "the input's name in `builder calc` (id=value)",
    "Input.name": "the input as printed on the card",
    "DifferentialTable.columns": "how many result columns the table has",
    "DifferentialTable.terrain_rows": "the terrain rows over the columns: which terrain reads which "
                                      "differential bands (see TerrainRow)",
    "DifferentialTable.row_choice": "several rows apply: which is read (one of the values listed)",
    "RatioTable.result_format": "single, or attacker/defender ('6/2': the attacker loses 6, the defender 2)",
    "RatioTable.rounding_note": "how the rules word the rounding (printed on the card)",
    "RatioTable.terrain_choice": "several terrains: the best for the defender, or all of them added up",
    "FireTable.rounding": "how a firepower between bands is rounded",
    "ChartTable.columns": "the column headings, in order",
    "ChartTable.rows": "the rows of cells, in order",
    "LookupTable.inputs": "the inputs other than the roll (see Input)",
    "Scenario.name": "the scenario's name as printed",
    "Scenario.first_player": "side id that moves first in this scenario (default: game.toml's)",
    "Scenario.special_rules": "special rules in words, printed on the scenario card",
    "Allowance.kind": "rebuild or replacement",
    "Allowance.count": "how many per turn",
    "TrackRow.name": "the row as printed on the track",
    "DeckDraw.deck": "a deck id from game.toml",
    "DeckDraw.when": "when the draw happens, in words",
    "Unit.type": "NATO unit type (one of the values listed)",
    "Unit.size": "unit size: squad ... army (one of the values listed)",
    "Unit.marks": "marks printed on the counter: strategic-reserve, stacking-bonus, outpost ...",
    "Unit.formation": "a formation id of the unit's side in game.toml",
    "Marker.kind": "what the marker is for (one of the values listed)",
}

FILES = [  # (heading, model, how items are written)
    ("game.toml", GameInfo, "toml"),
    ("map.toml: a hex map (kind = \"hex\")", HexMap, "toml"),
    ("map.toml: an area map (kind = \"area\")", AreaMap, "toml"),
    ("counters.csv: one row per unit counter design", Unit, "csv"),
    ("markers.csv: markers, chits and tokens", Marker, "csv"),
    ("tables.toml", TablesFile, "toml"),
    ("scenarios/<id>.toml", Scenario, "toml"),
    ("scenarios/<id>.setup.csv: where every counter starts", Placement, "csv"),
]


def _models_in(annotation) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    out: list = []
    for arg in typing.get_args(annotation):
        out.extend(_models_in(arg))
    return out


def type_text(annotation) -> str:
    """A key's type in words: 'text', 'list of text', 'one of: a, b', 'colour'."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        names = " ".join(getattr(getattr(m, "func", None), "__name__", "") for m in annotation.__metadata__)
        if "_colour" in names:
            return "colour '#rrggbb'"
        if "parse_length" in names:
            return "length ('5/8in', '16mm')"
        if "_ident" in names:
            return "id"
        return type_text(args[0])
    if origin is typing.Literal:
        return "one of: " + ", ".join(f"`{a}`" for a in args if a != "")
    if origin in (typing.Union, types.UnionType):
        parts = [type_text(a) for a in args if a is not type(None)]
        return " or ".join(dict.fromkeys(parts))
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"list of {type_text(args[0])}"
        return "[" + ", ".join(type_text(a) for a in args) + "]"
    if origin is dict:
        return f"table of {type_text(args[0])} -> {type_text(args[1])}"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return f"[{annotation.__name__}](#{annotation.__name__.lower()})"
    return {str: "text", int: "whole number", float: "number", bool: "true or false"}.get(
        annotation, getattr(annotation, "__name__", str(annotation)))


def meaning(model, name: str, field) -> str:
    """What a key means: its description, else MEANINGS, else (for nested items) where to look."""
    if field.description:
        return field.description
    for key in (f"{model.__name__}.{name}", name):
        if key in MEANINGS:
            return MEANINGS[key]
    nested = _models_in(field.annotation)
    if nested:
        return "see " + ", ".join(f"[{m.__name__}](#{m.__name__.lower()})" for m in nested)
    return ""


def _default(field) -> str:
    if field.is_required():
        return "**required**"
    value = field.default
    if value is PydanticUndefined:
        return ""
    if value in ((), {}, None, "") or isinstance(value, BaseModel):
        return ""
    return f"`{value}`" if not isinstance(value, tuple) else "`[" + ", ".join(map(str, value)) + "]`"


def model_section(model, level: int, missing: list[str]) -> list[str]:
    doc = (model.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
    out = [f"{'#' * level} {model.__name__}", ""]
    if doc and not doc.startswith(("Base", "Usage docs")):
        out += [doc, ""]
    kind = model.model_fields.get("kind")
    if kind is not None and typing.get_origin(kind.annotation) is typing.Literal \
            and len(typing.get_args(kind.annotation)) == 1:
        out += [f"Written `kind = \"{typing.get_args(kind.annotation)[0]}\"`.", ""]
    out += ["| key | type | default | meaning |", "| --- | --- | --- | --- |"]
    skip = INTERNAL.get(model, ()) + (PROVENANCE if issubclass(model, Sourced) else ())
    for name, field in model.model_fields.items():
        if name in skip:
            continue
        text = meaning(model, name, field)
        if not text:
            missing.append(f"{model.__name__}.{name}")
        cell = text.replace("|", "\\|").replace("\n", " ")
        key = field.alias or name  # the name the loader reads ('not', not the field's 'not_')
        out.append(f"| `{key}` | {type_text(field.annotation)} | {_default(field)} | {cell} |")
    if issubclass(model, Sourced):
        out += ["", "Also takes the provenance keys `assumed`, `source` and `note` (see Provenance)."]
    return out + [""]


def generate() -> tuple[str, list[str]]:
    """The reference text, and the keys it could give no meaning for (should be none)."""
    missing: list[str] = []
    out = ["# Source format reference", "",
           "Generated from the models (`builder/model/*.py`) by `builder schema`; do not edit by hand.",
           "README.md walks through a game; this lists every key of every file and table kind.", "",
           "## Provenance", "",
           "Every item marked *also takes the provenance keys* can carry:", "",
           "| key | meaning |", "| --- | --- |"]
    for name in PROVENANCE:
        out.append(f"| `{name}` | {Sourced.model_fields[name].description} |")
    out += ["", "In a CSV file they are columns; `assumed` is `*` for the whole row or the "
            "reconstructed columns joined by `;`. In rules.md a heading ends in an attribute block "
            "that is not displayed: `### 17.4 Night {assumed note=\"reconstructed from 17.2\"}` "
            "(keys `assumed`, `source`, `note`).", ""]
    done: set = set()
    for heading, model, how in FILES:
        out += [f"## {heading}", ""]
        if how == "csv":
            out += ["One row per item; the header names the columns. A list cell joins its values "
                    "with `;`. Lines starting with `#` are comments.", ""]
        queue = [model]
        while queue:
            m = queue.pop(0)
            if m in done:
                continue
            done.add(m)
            out += model_section(m, 3, missing)
            for name, field in m.model_fields.items():
                if name in INTERNAL.get(m, ()):
                    continue
                queue.extend(x for x in _models_in(field.annotation) if x not in done)
    return "\n".join(out).rstrip() + "\n", missing


def write_docs(path: Path = DOCS_FILE) -> Path:
    text, _ = generate()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
