"""Where the module's pictures come from: the same drawings as the printed components.

The one switch between the module and the renderer (builder.render's contract): the board is the
printed map, each piece the printed counter face, both rasterised at the board's scale.
"""

from __future__ import annotations

from builder.model.game_model import Game
from builder.render import counter_svg, svg_to_png


BOARD_IN_PIECES_HEXES = 10_000  # above this a multi-sheet board is rasterised sheet by sheet


def board_png(game: Game, px_per_mm: float) -> bytes:
    """The whole printed map (all sheets in place) as the main board image, without the panel
    of tracks and boxes printed under it (geometry.board_layout says why)."""
    parts = board_parts(game)
    return compose_board(game, parts, [board_part(game, p, px_per_mm) for p in parts],
                         px_per_mm)


def board_parts(game: Game) -> list[tuple[str | None, str]]:
    """What the board is rasterised in: the whole map at once, or, for a campaign map (a
    20-sheet Europa map has 34,000 hexes: one raster of it is beyond cairo's memory), the map
    without its hexes, each sheet's hexes, then the sheet boundaries ((sheet, part) pairs)."""
    sheets = getattr(game.map, "sheets", ())
    if not sheets or game.grid.hex_count <= BOARD_IN_PIECES_HEXES:
        return [(None, "whole")]
    return [(None, "surround"), *((s.id, "hexes") for s in sheets), (None, "joins")]


def board_part(game: Game, part: tuple[str | None, str], px_per_mm: float) -> bytes:
    """One piece of board_parts rasterised: the board's PNG when it is drawn whole, else the
    piece's packed pixels (render.convert.svg_to_pixels) for compose_board to lay."""
    from builder.render import convert

    sheet, what = part
    svg = board_svg(game, sheet, what)
    if what == "whole":
        return svg_to_png(svg, px_per_mm)
    return convert.svg_to_pixels(svg, px_per_mm)


def board_svg(game: Game, sheet: str | None = None, part: str = "whole") -> str:
    """The map as render.map_svg draws it, on the module's board layout (no panel)."""
    from builder.model.maps import AreaMap
    from builder.vassal.geometry import board_layout

    layout = board_layout(game)
    if isinstance(game.map, AreaMap):
        from builder.render.map_area import draw_area_map

        return draw_area_map(game, layout)
    from builder.render.map_hex import draw_hex_map

    return draw_hex_map(game, layout if sheet is None else layout.sheet_layout(sheet), part)


def draw_shared_map(game: Game) -> None:
    """Draw the map's hexes of every board part into the build cache, on the cores, before the
    print files and the module are built side by side: both then take them from the cache
    (map_hex.HexDrawing.hex_layers) instead of each drawing them."""
    from builder import cache, parallel
    from builder.model.maps import AreaMap

    if cache.active() is None or isinstance(game.map, AreaMap) or game.map.artwork:
        return
    from builder import keys
    from builder.render.map_hex import HexDrawing
    from builder.vassal.geometry import board_layout

    sheets = [sheet for sheet, what in board_parts(game) if what in ("whole", "hexes")]
    # the hexes' keys come from the map's inputs (keys.map_parts) and where the board lays its
    # sheets (from the same inputs): one entry says all were drawn, so a rebuild after a
    # counter changed does not lay out 20 sheets of hexes to find their keys
    done = cache.key(("map-hexes-drawn", keys.map_parts(game), *sheets))
    if cache.active().holds(done):
        return
    layout = board_layout(game)

    def drawing(sheet: str | None) -> HexDrawing:
        return HexDrawing(game, layout if sheet is None else layout.sheet_layout(sheet))

    todo = [("hexes", sheet) for sheet in sheets
            if not cache.active().holds(cache.key(drawing(sheet).hex_layers_parts()))]
    if len(sheets) > 1:  # a campaign map's sheet joins too (the map and the board draw them),
        todo.insert(0, ("joins", None))  # first: they take as long as a few sheets' hexes

    def draw(_, job) -> None:
        what, sheet = job
        if what == "joins":
            drawing(None).sheet_joins()
        else:
            drawing(sheet).hex_layers()

    # the workers get the sheet ids (the game is theirs already: forked)
    parallel.pmap(draw, todo, desc="map hexes")
    cache.active().put(done, b"")


def compose_board(game: Game, parts: list, pieces: list[bytes], px_per_mm: float) -> bytes:
    """Lay the pieces of board_parts (board_part) over the first, each where it lies on the
    whole map, and write the board's PNG."""
    if len(pieces) == 1:
        return pieces[0]
    from builder.render.cairo_lib import cairo

    from builder.render import convert, png
    from builder.vassal.geometry import board_layout

    layout = board_layout(game)
    # an opaque board the size of the first piece (the surround): cairo lays each piece
    # through its own alpha, premultiplied as drawn
    board = cairo.ImageSurface(cairo.FORMAT_RGB24, *convert.packed_size(pieces[0]))
    ctx = cairo.Context(board)
    ctx.set_source_rgb(1, 1, 1)
    ctx.paint()
    for (sheet, _), packed in zip(parts, pieces):
        piece = convert.surface_of(packed)  # unpacked when laid, freed after
        x = y = 0
        if sheet is not None:  # a sheet drawn alone: its origin lies elsewhere on the whole map
            sx, sy = layout.sheet_layout(sheet).origin_mm
            x = round((layout.origin_mm[0] - sx) * px_per_mm)
            y = round((layout.origin_mm[1] - sy) * px_per_mm)
        ctx.set_source_surface(piece, x, y)
        ctx.paint()
        ctx.set_source_rgb(0, 0, 0)  # the context lets go of the piece
        piece.finish()
        del piece
    return png.encode(board)


def counter_png(game: Game, counter_id: str, face: str, px_per_mm: float) -> bytes:
    """One printed counter face, at the map's scale so pieces fit their hexes as on paper."""
    return svg_to_png(counter_svg(game, counter_id, face), px_per_mm)


def drawing_png(svg: str, px_per_mm: float = 1.0) -> bytes:
    """Any other drawing made with the renderer's SVG helpers (the off-map board): from the build
    cache when the same drawing was rasterised before."""
    from builder import cache

    return cache.cached(("module-drawing-png", svg, px_per_mm), lambda: svg_to_png(svg, px_per_mm))


CARD_WIDTH_MM = 180.0  # chart images: one player-aid card at a time, as wide as on the page
CARD_PX_PER_MM = 6.0


def chart_pngs(game: Game) -> list[tuple[str, bytes]]:
    """Every player-aid card (tables, terrain, sequence, turns, set-ups) as printed, one each:
    from the cache when unchanged, else drawn on all the cores."""
    from builder import parallel
    from builder.render import svg as S
    from builder.render.aids import all_cards, flow

    titled = []
    for card in all_cards(game):
        bodies = flow([card], CARD_WIDTH_MM, 1000.0)
        for i, body in enumerate(bodies):
            # a page taller than any card; only the drawn part is rasterised
            doc = S.document(CARD_WIDTH_MM + 4, 1000.0, S.g(body, transform="translate(2 2)"))
            title = card.title if len(bodies) == 1 else f"{card.title} ({i + 1})"
            titled.append((title, doc))
    pngs = parallel.cached_map(_chart_png, [doc for _, doc in titled],
                               lambda doc: ("module-chart-png", doc, CARD_PX_PER_MM),
                               desc="module charts")
    return [(title, png) for (title, _), png in zip(titled, pngs)]


def _chart_png(_context, doc: str) -> bytes:
    from builder.render.convert import svg_to_png_trimmed

    return svg_to_png_trimmed(doc, CARD_PX_PER_MM)
