"""Where the module's pictures come from: the same drawings as the printed components.

The one switch between the module and the renderer (builder.render's contract): the board is the
printed map, each piece the printed counter face, both rasterised at the board's scale.
"""

from __future__ import annotations

from builder.model.game_model import Game
from builder.render import counter_svg, map_svg, svg_to_png


def board_png(game: Game, px_per_mm: float) -> bytes:
    """The whole printed map (all sheets in place) as the main board image."""
    return svg_to_png(map_svg(game), px_per_mm)


def counter_png(game: Game, counter_id: str, face: str, px_per_mm: float) -> bytes:
    """One printed counter face, at the map's scale so pieces fit their hexes as on paper."""
    return svg_to_png(counter_svg(game, counter_id, face), px_per_mm)


def drawing_png(svg: str, px_per_mm: float = 1.0) -> bytes:
    """Any other drawing made with the renderer's SVG helpers (the off-map board)."""
    return svg_to_png(svg, px_per_mm)


CARD_WIDTH_MM = 180.0  # chart images: one player-aid card at a time, as wide as on the page
CARD_PX_PER_MM = 6.0


def chart_pngs(game: Game) -> list[tuple[str, bytes]]:
    """Every player-aid card (tables, terrain, sequence, turns, set-ups) as printed, one each."""
    import io

    from PIL import Image, ImageChops

    from builder.render import svg as S
    from builder.render.aids import all_cards, flow

    out = []
    for card in all_cards(game):
        bodies = flow([card], CARD_WIDTH_MM, 1000.0)
        for i, body in enumerate(bodies):
            doc = S.document(CARD_WIDTH_MM + 4, 1000.0, S.g(body, transform="translate(2 2)"),
                             background="#ffffff")
            im = Image.open(io.BytesIO(svg_to_png(doc, CARD_PX_PER_MM))).convert("RGB")
            box = ImageChops.difference(im, Image.new("RGB", im.size, "#ffffff")).getbbox()
            if box:  # keep the drawn part: the page is taller than any card
                im = im.crop((0, 0, im.size[0], min(im.size[1], box[3] + 12)))
            buf = io.BytesIO()
            im.save(buf, "PNG", optimize=False)
            title = card.title if len(bodies) == 1 else f"{card.title} ({i + 1})"
            out.append((title, buf.getvalue()))
    return out
