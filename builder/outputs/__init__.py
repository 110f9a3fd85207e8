"""Output builders: each format is one module with a build(game, out_dir) -> [paths] function.

Player formats (html, svg, pdf, png, vmod) build from builder.views.player_view(game): no
provenance, readings or editor's notes; "proof" and "json" (the model for tools and diffs) show
everything."""

from __future__ import annotations

from pathlib import Path

from builder.model.game_model import Game
from builder.outputs import html, json_model, proof
from builder.outputs import print as print_out
from builder.outputs import vmod

BUILDERS = {"json": json_model.build, "html": html.build, "svg": print_out.build_svg,
            "pdf": print_out.build_pdf, "png": print_out.build_png}
BUILDERS["vmod"] = vmod.build
BUILDERS["proof"] = proof.build  # the designer's proof: only on request (--proof)


def build_game(game: Game, formats, out_root: Path, *, cache=None, digest: str = "") -> list[Path]:
    """Build the chosen formats of one game into out_root/<slug>/.

    cache (builder.cache.Cache) keeps drawn components between builds; digest (the game
    folder's builder.incremental.sources_digest, taken before loading) records each format's
    files so an identical rebuild is skipped.
    """
    from builder import cache as cache_mod
    from builder import incremental, progress

    out_dir = out_root / game.slug
    written: list[Path] = []
    with cache_mod.using(cache), progress.game(game.slug):
        for fmt in formats:
            paths = list(BUILDERS[fmt](game, out_dir))
            incremental.record(cache, digest, fmt, out_dir, paths)
            written.extend(paths)
    return written
