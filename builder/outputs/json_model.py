"""The validated model as JSON: for other tools, and to diff what a source edit changed."""

from __future__ import annotations

from pathlib import Path

from builder.incremental import write_changed
from builder.model.game_model import Game


def build(game: Game, out_dir: Path) -> list[Path]:
    # pydantic's own serialiser, in Rust: keys in the model's field order (a dict field's in its
    # source order), the same from build to build; Python's indenting json.dumps took 0.3 s on
    # the Europa-scale game, this 0.04 s
    data = game.model_dump_json(indent=1, exclude={"folder"}).encode("utf-8") + b"\n"
    path = out_dir / f"{game.slug}.json"
    write_changed(path, data)  # the same bytes: kept, time and all
    return [path]
