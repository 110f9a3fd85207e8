"""JSON Schemas of the source files, so an editor validates and completes them as a designer types.

Generated from the same pydantic models the loader validates with, so they cannot drift apart
(a test compares the committed files with a fresh generation).
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import TypeAdapter

from builder import resources
from builder.model.counters import Marker, Unit
from builder.model.game import GameInfo
from builder.model.maps import MapSpec
from builder.model.scenario import Placement, Scenario
from builder.model.tables import TablesFile

SCHEMA_DIR = resources.schema_dir()

# file name -> (title, model); CSV schemas describe one row (the column names are the keys)
SCHEMAS = {
    "game.schema.json": ("game.toml", GameInfo),
    "map.schema.json": ("map.toml", MapSpec),
    "tables.schema.json": ("tables.toml", TablesFile),
    "scenario.schema.json": ("scenarios/<id>.toml", Scenario),
    "counters-row.schema.json": ("one row of counters.csv", Unit),
    "markers-row.schema.json": ("one row of markers.csv", Marker),
    "setup-row.schema.json": ("one row of scenarios/<id>.setup.csv", Placement),
}
_INTERNAL = {"Scenario": ("setup", "id"), "Placement": ("line",)}


def schema_for(title: str, model) -> dict:
    schema = TypeAdapter(model).json_schema(mode="validation")
    name = getattr(model, "__name__", "")
    for field in _INTERNAL.get(name, ()):
        schema.get("properties", {}).pop(field, None)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = f"builder source: {title}"
    return schema


def write_schemas(out: Path = SCHEMA_DIR) -> list[Path]:
    """Write every schema file; returns the paths."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for filename, (title, model) in SCHEMAS.items():
        text = json.dumps(schema_for(title, model), indent=1, sort_keys=True) + "\n"
        (out / filename).write_text(text, encoding="utf-8")
        paths.append(out / filename)
    return paths
