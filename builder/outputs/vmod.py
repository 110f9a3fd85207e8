"""The VASSAL module: output/<game>/<game>.vmod, loadable by VASSAL 3.7."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

import click

from builder.model.game_model import Game
from builder.views import player_view

EXIT_SOURCE_ERROR = 2


def build(game: Game, out_dir: Path) -> list[Path]:
    from builder.vassal import changes
    from builder.vassal.module import SourceProblem, build_module

    game = player_view(game)  # pieces, charts and chat lines are what players see
    path = out_dir / f"{game.slug}.vmod"
    record = changes.read_record(path)  # the last build's: its version, digest and snapshot
    since = changes.baseline(record, game.info.version)
    try:
        with _pictures_drawn_first(game):
            built = build_module(game, since)
            data = built.vmod()
    except SourceProblem as exc:
        click.echo(f"error: {game.slug}: cannot build the VASSAL module: {exc}", err=True)
        sys.exit(EXIT_SOURCE_ERROR)
    from builder.incremental import write_changed
    from builder.vassal_combat.tables import by_hand_warnings

    for text in by_hand_warnings(game):
        click.echo(f"warning: {game.slug}: {text}", err=True)
    same = changes.unchanged_version_warning(record, game.info.version, built.content_digest)
    if same:
        click.echo(f"warning: {game.slug}: {same}", err=True)

    write_changed(path, data)  # the same bytes: kept, time and all
    write_changed(changes.record_path(path), json.dumps(
        changes.new_record(game.info.version, built.content_digest, built.snapshot, since),
        indent=1, sort_keys=True).encode("utf-8"))
    return [path]


def _picture(context, job) -> bytes:
    from builder.vassal import images

    game, px, piece_px = context
    if job[0] == "board":
        return images.board_part(game, job[1:], px)
    return images.counter_png(game, job[0], job[1], piece_px)


def _board_key(game: Game, part: tuple, px: float) -> tuple:
    """The cache key parts of one piece of the board picture (images.board_parts)."""
    from builder import keys

    return ("module-board-part", keys.map_parts(game, part[0]), part[1], px)


@contextlib.contextmanager
def _pictures_drawn_first(game: Game):
    """Draw the module's pictures (the board, every piece face) before build_module asks
    builder.vassal.images for them: from the cache when unchanged, else on all the cores."""
    from builder import keys, parallel
    from builder.vassal import images, pieces
    from builder.vassal.geometry import BoardGeometry

    geom = BoardGeometry(game)
    px, piece_px = geom.px_per_mm, geom.piece_px_per_mm
    items = {**game.unit_by_id, **game.marker_by_id}
    board_parts = images.board_parts(game)
    board_jobs = [("board", *p) for p in board_parts]
    face_jobs = [tuple(f) for f in pieces.faces(game)]

    def parts(job) -> tuple:
        if job[0] == "board":
            return _board_key(game, job[1:], px)
        return ("module-piece-png", keys.counter_parts(game, items[job[0]], job[1]), piece_px)

    # One board picture goes first, beside the faces. A board in pieces (seconds each) is drawn
    # apart from the faces (milliseconds each, sent to the workers in batches): a batch holding
    # every piece would leave one core drawing them all.
    if len(board_jobs) == 1:
        batches = [(board_jobs + face_jobs, "module pictures")]
    else:
        batches = [(board_jobs, "module board"), (face_jobs, "module pictures")]
    drawn = {}
    for batch, desc in batches:
        # a face takes 2-3 ms, a worker forked from this process about 40: a rebuild after one
        # counter changed draws its two faces here
        drawn.update(zip(batch, parallel.cached_map(_picture, batch, parts, (game, px, piece_px),
                                                    desc=desc, min_batch=16)))
    board_png, counter_png = images.board_png, images.counter_png

    def served_board(g, px_):
        if (g, px_) != (game, px):
            return board_png(g, px_)
        from builder import cache

        pieces = [drawn[j] for j in board_jobs]
        if len(pieces) == 1:
            return pieces[0]
        # laying 22 pieces of a campaign map together takes seconds: kept like the pieces
        return cache.cached(("module-board-composed", *(parts(j) for j in board_jobs)),
                            lambda: images.compose_board(game, board_parts, pieces, px))

    def served_counter(g, cid, face, px_):
        hit = drawn.get((cid, face)) if (g, px_) == (game, piece_px) else None
        return hit if hit is not None else counter_png(g, cid, face, px_)

    images.board_png, images.counter_png = served_board, served_counter
    try:
        yield
    finally:
        images.board_png, images.counter_png = board_png, counter_png
