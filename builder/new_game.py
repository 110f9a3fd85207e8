"""`builder new NAME`: a new game folder from templates/new-game, every key commented, that
`builder check` passes and every format builds."""

from __future__ import annotations

import os
import re
from pathlib import Path

from builder import resources
from builder.atomic import write_bytes
from builder.schema import SCHEMA_DIR

TEMPLATE = resources.new_game_template()
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")


def title_of(slug: str) -> str:
    """'my-first-game' -> 'My First Game'."""
    return " ".join(w.capitalize() for w in re.split(r"[-_]+", slug) if w)


def create_game(folder: Path, title: str = "") -> list[Path]:
    """Write a new game into `folder` (which must not exist yet); the files written.

    Raises ValueError with what is wrong and how to fix it."""
    if not _NAME.fullmatch(folder.name):
        raise ValueError(f"'{folder.name}' cannot name a game (it names the game's outputs): use "
                         "lower-case letters, digits, '-' or '_', e.g. 'my-game'")
    if folder.exists() or folder.is_symlink():
        raise ValueError(f"{folder} already exists: choose another name, or remove it first")
    title = title or title_of(folder.name)
    if any(c in title for c in '"\\\n'):
        raise ValueError("the title may not contain quotes, backslashes or line breaks")
    written = []
    for src in sorted(TEMPLATE.rglob("*")):
        if not src.is_file():
            continue
        dest = folder / src.relative_to(TEMPLATE)
        dest.parent.mkdir(parents=True, exist_ok=True)
        # the schema line works from wherever the game is: a path relative to the new file
        schema = Path(os.path.relpath(SCHEMA_DIR.resolve(), dest.parent.resolve())).as_posix()
        text = src.read_text(encoding="utf-8").replace("{title}", title).replace("{schema}", schema)
        write_bytes(dest, text.encode("utf-8"))
        written.append(dest)
    return written
