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
from builder.views import player_view

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
    from builder import progress, side_by_side
    from builder.load import later

    out_dir = out_root / game.slug

    def step(fmts: list[str]):
        return lambda: _build_formats(game, fmts, out_dir, cache, digest)

    from builder.render import convert  # noqa: F401 - cairo loaded once, not in each forked step

    groups = _side_by_side(formats)
    with cache_mod.using(cache), progress.game(game.slug):
        if set(formats) & set(GROUPS[0]) and "vmod" in formats:
            from builder.vassal.images import draw_shared_map

            draw_shared_map(player_view(game))  # the printed map and the board share its hexes
        # the loaded model is written for the next command while the formats are built
        made = side_by_side.run([step(fmts) for fmts in groups], while_waiting=later.flush)
    by_format = {fmt: paths for group in made for fmt, paths in group}
    return [path for fmt in formats for path in by_format[fmt]]


# Formats built together, in one process: the print formats share one drawing of every
# component (outputs.print.PrintSet); the module and the web files draw their own. The
# groups run side by side (builder.side_by_side), so a small game uses both cores; a campaign
# game too: its board pieces are laid as cairo pixels (vassal.images.compose_board), so the
# module drawing its board beside the print files stays well under 2 GiB (1.1 GiB PSS).
GROUPS = (("svg", "pdf", "png"), ("vmod",), ("json", "html", "proof"))


def _side_by_side(formats) -> list[list[str]]:
    """formats split into GROUPS, each in the order asked for (empty groups left out)."""
    groups = [[f for f in formats if f in group] for group in GROUPS]
    rest = [f for f in formats if not any(f in group for group in GROUPS)]
    return [g for g in groups if g] + ([rest] if rest else [])


def _build_formats(game: Game, formats, out_dir: Path, cache,
                   digest: str) -> list[tuple[str, list[Path]]]:
    from builder import incremental

    written = []
    # the previews follow the PDF: its workers make them from the recordings they just made
    ahead = "pdf" in formats and "png" in formats[formats.index("pdf"):]
    with print_out.previews_with_pdf(ahead):
        for fmt in formats:
            paths = list(BUILDERS[fmt](game, out_dir))
            incremental.record(cache, digest, fmt, out_dir, paths)
            written.append((fmt, paths))
    return written
