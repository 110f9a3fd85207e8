"""The offline HTML player aid: <game>-aid.html, one self-contained file per game, and the
index of every game's outputs that `builder build --all` writes."""

from __future__ import annotations

from pathlib import Path

from builder.atomic import write_text
from builder.model.game_model import Game


def build(game: Game, out_dir: Path) -> list[Path]:
    """Write out_dir/<slug>-aid.html."""
    from builder.aid.page import render_aid

    return [write_text(out_dir / f"{game.slug}-aid.html", render_aid(game))]


def build_index(names: list[str], out_root: Path) -> Path:
    """Write out_root/index.html linking every file each named game's folder holds (aid first)."""
    from builder.aid.page import render_index
    from builder.load import find_game, load_game

    games = [load_game(find_game(n)) for n in names]
    entries = []
    for game in sorted(games, key=lambda g: (g.info.title.lower(), g.slug)):
        folder = out_root / game.slug
        names_here = sorted((p.name for p in folder.iterdir()
                             if p.is_file() and not p.name.startswith("."))
                            if folder.is_dir() else [])
        aid = f"{game.slug}-aid.html"
        names_here.sort(key=lambda n: n != aid)  # the player aid first, the rest by name
        entries.append({"slug": game.slug, "title": game.info.title, "subtitle": game.info.subtitle,
                        "files": [(n, f"{game.slug}/{n}") for n in names_here],
                        "aid": f"{game.slug}/{aid}" if aid in names_here else ""})
    return write_text(out_root / "index.html", render_index(entries))
