"""The VASSAL module: output/<game>/<game>.vmod, loadable by VASSAL 3.7."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import click

from builder.atomic import write_bytes
from builder.model.game_model import Game

EXIT_SOURCE_ERROR = 2


def build(game: Game, out_dir: Path) -> list[Path]:
    from builder.vassal.module import SourceProblem, build_module

    try:
        with _pictures_drawn_first(game):
            data = build_module(game).vmod()
    except SourceProblem as exc:
        click.echo(f"error: {game.slug}: cannot build the VASSAL module: {exc}", err=True)
        sys.exit(EXIT_SOURCE_ERROR)
    return [write_bytes(out_dir / f"{game.slug}.vmod", data)]


def _picture(context, job) -> bytes:
    from builder.vassal import images

    game, px = context
    if job == ("board",):
        return images.board_png(game, px)
    return images.counter_png(game, job[0], job[1], px)


@contextlib.contextmanager
def _pictures_drawn_first(game: Game):
    """Draw the module's pictures (the board, every piece face) before build_module asks
    builder.vassal.images for them: from the cache when unchanged, else on all the cores."""
    from builder import keys, parallel
    from builder.vassal import images, pieces
    from builder.vassal.geometry import BoardGeometry

    px = BoardGeometry(game).px_per_mm
    items = {**game.unit_by_id, **game.marker_by_id}
    jobs = [("board",)] + [tuple(f) for f in pieces.faces(game)]  # the longest job first

    def parts(job) -> tuple:
        if job == ("board",):
            return ("module-board-png", keys.map_parts(game), px)
        return ("module-piece-png", keys.counter_parts(game, items[job[0]], job[1]), px)

    drawn = dict(zip(jobs, parallel.cached_map(_picture, jobs, parts, (game, px),
                                               desc="module pictures")))
    board_png, counter_png = images.board_png, images.counter_png

    def served_board(g, px_):
        return drawn[("board",)] if (g, px_) == (game, px) else board_png(g, px_)

    def served_counter(g, cid, face, px_):
        hit = drawn.get((cid, face)) if (g, px_) == (game, px) else None
        return hit if hit is not None else counter_png(g, cid, face, px_)

    images.board_png, images.counter_png = served_board, served_counter
    try:
        yield
    finally:
        images.board_png, images.counter_png = board_png, counter_png
