"""The validated model as JSON: for other tools, and to diff what a source edit changed."""

from __future__ import annotations

import json
from pathlib import Path

from builder.incremental import write_changed
from builder.model.game_model import Game


def build(game: Game, out_dir: Path) -> list[Path]:
    data = game.model_dump(mode="json", exclude={"folder"})
    text = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    path = out_dir / f"{game.slug}.json"
    write_changed(path, text.encode("utf-8"))  # the same bytes: kept, time and all
    return [path]
