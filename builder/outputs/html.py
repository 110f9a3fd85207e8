"""The offline HTML player aid: <game>-aid.html, one self-contained file per game, and the
index of every game's outputs that `builder build --all` writes."""

from __future__ import annotations

from pathlib import Path

from builder.atomic import write_text
from builder.model.game_model import Game
from builder.views import player_view


def build(game: Game, out_dir: Path) -> list[Path]:
    """Write out_dir/<slug>-aid.html."""
    from builder.aid.page import render_aid
    from builder.incremental import write_changed

    path = out_dir / f"{game.slug}-aid.html"
    write_changed(path, render_aid(player_view(game)).encode("utf-8"))  # the same: kept as is
    return [path]


def build_index(names: list[str], out_root: Path) -> Path:
    """Write out_root/index.html linking every file each named game's folder holds (aid first)."""
    from builder.aid.page import render_index
    from builder.load import find_game, load_game

    from builder.aid import previews

    games = [load_game(find_game(n)) for n in names]
    entries = []
    for game in sorted(games, key=lambda g: (g.info.title.lower(), g.slug)):
        shown = player_view(game)  # the pictures are player material
        folder = out_root / game.slug
        here = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                      if p.is_file() and not any(part.startswith(".") for part in
                                                 p.relative_to(folder).parts))
        labels = _file_labels(game.slug)
        main = [(labels[n], n, f"{game.slug}/{n}") for n in labels if n in here]
        aid = f"{game.slug}-aid.html"  # linked on its own, first
        rest = [(n, f"{game.slug}/{n}") for n in here if n not in labels and n != aid]
        entries.append({"slug": game.slug, "title": game.info.title, "subtitle": game.info.subtitle,
                        "main": main, "files": rest,
                        "map_png": previews.data_uri(previews.map_png(shown)),
                        "counters_png": previews.data_uri(previews.counters_png(shown)),
                        "aid": f"{game.slug}/{aid}" if aid in here else ""})
    return write_text(out_root / "index.html", render_index(entries))


def _file_labels(slug: str) -> dict[str, str]:
    """The outputs a player or designer looks for first, in that order, with what each is."""
    return {
        f"{slug}.vmod": "VASSAL module (open in VASSAL 3.7)",
        f"print/{slug}-map.pdf": "Map (PDF: print at 100 %)",
        f"print/{slug}-counters.pdf": "Counter sheets (PDF: duplex, flip on the long edge)",
        f"print/{slug}-aids.pdf": "Player-aid cards (PDF)",
        f"{slug}.json": "Game data (JSON)",
    }
