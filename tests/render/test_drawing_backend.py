"""The cairo writer's own parts: PNG files as cairo would write them, path data read right."""

from __future__ import annotations

import io

import cairocffi as cairo
import numpy as np
import pytest
from PIL import Image

from builder.render import cairo_draw, png


def _decoded(data: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGBA")).astype(int)


def _translucent_surface() -> cairo.ImageSurface:
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, 120, 40)
    ctx = cairo.Context(surface)
    for i in range(40):  # every alpha from 0 to 1, premultiplied colours to undo
        ctx.set_source_rgba(i / 39, 1 - i / 39, 0.3, i / 39)
        ctx.rectangle(i * 3, 0, 3, 40)
        ctx.fill()
    return surface


def test_png_has_the_pixels_cairo_writes():
    surface = _translucent_surface()
    ours = png.encode(surface)
    theirs = io.BytesIO()
    surface.write_to_png(theirs)
    assert Image.open(io.BytesIO(ours)).mode == "RGBA"
    assert np.array_equal(_decoded(ours), _decoded(theirs.getvalue()))
    assert png.encode(surface) == ours  # the same bytes every build


def test_opaque_png_is_rgb():
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, 30, 20)
    ctx = cairo.Context(surface)
    ctx.set_source_rgb(0.2, 0.4, 0.6)
    ctx.paint()
    image = Image.open(io.BytesIO(png.encode(surface)))
    assert image.mode == "RGB"
    assert image.getpixel((5, 5)) == (51, 102, 153)


def _raster(body: str) -> np.ndarray:
    doc = (f'<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="40mm" '
           f'viewBox="0 0 60 40">{body}</svg>')
    surface = cairo_draw.raster(doc, 4)
    assert surface is not None
    return png.pixels(surface).astype(int)


@pytest.mark.parametrize("ours,same", [
    # implicit repeats after a move are lines; relative and absolute; H/V; closing
    ("M5 5 20 5 20 20Z", "M5 5L20 5L20 20Z"),
    ("m5 5l15 0 0 15z", "M5 5L20 5L20 20Z"),
    ("M5 5H20V20z", "M5 5L20 5L20 20Z"),
    ("M5,5h15v15Z", "M5 5L20 5L20 20Z"),
    # numbers written without spaces
    ("M5-5L20.5.5", "M5 -5L20.5 0.5"),
    # smooth curves reflect the last control point
    ("M5 20C10 5 20 5 25 20S40 35 45 20", "M5 20C10 5 20 5 25 20C30 35 40 35 45 20"),
    ("M5 20Q15 5 25 20T45 20", "M5 20Q15 5 25 20Q35 35 45 20"),
])
def test_path_data_forms_draw_the_same(ours, same):
    style = 'fill="#336699" stroke="#000000" stroke-width="0.8"'
    assert np.array_equal(_raster(f'<path d="{ours}" {style}/>'),
                          _raster(f'<path d="{same}" {style}/>'))


def test_circle_arcs_draw_a_circle():
    """Two half-circle arcs (how terrain textures write a circle) fill what <circle> fills."""
    arcs = _raster('<path d="M20 20a10 10 0 1 0 20 0a10 10 0 1 0 -20 0Z" fill="#336699"/>')
    circle = _raster('<circle cx="30" cy="20" r="10" fill="#336699"/>')
    assert np.abs(arcs - circle).max() <= 8  # anti-aliased edge only


def test_elliptical_arc_rotated():
    """Arcs of a rotated ellipse too small for their chord are scaled up about the chord's
    middle (the SVG spec's correction): two of them make the whole ellipse through both ends."""
    arcs = _raster('<path d="M10 20A20 8 30 1 1 50 20A20 8 30 1 1 10 20Z" fill="#336699"/>')
    k = (0.75 + 1.5625) ** 0.5  # the spec's lambda for this chord, as a radius scale
    ellipse = _raster(f'<ellipse cx="30" cy="20" rx="{20 * k:.4f}" ry="{8 * k:.4f}" '
                      'transform="rotate(30 30 20)" fill="#336699"/>')
    area = np.count_nonzero(ellipse[:, :, 3])
    assert abs(np.count_nonzero(arcs[:, :, 3]) - area) < area * 0.002
    # cairo splits the two into different curves: only anti-aliased edge pixels differ
    assert np.count_nonzero(np.abs(arcs - ellipse).max(axis=2) > 8) < area * 0.02


def _doc(body: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'width="30mm" height="20mm" viewBox="0 0 30 20">{body}</svg>')


def _straight(surface: cairo.ImageSurface) -> np.ndarray:
    return png.pixels(surface).astype(int)


def test_packed_pixels_are_the_raster():
    """A campaign board's pieces travel as cairo's own pixels (convert.svg_to_pixels): unpacked,
    they are the drawing rasterised, alpha and all."""
    from builder.render import convert

    svg = _doc('<circle cx="10" cy="10" r="6" fill="#804020" fill-opacity="0.6"/>')
    surface = convert.surface_of(convert.svg_to_pixels(svg, 4))
    assert (surface.get_width(), surface.get_height()) == (120, 80)
    assert np.array_equal(_straight(surface), _straight(cairo_draw.raster(svg, 4)))


def test_packed_pixels_of_a_drawing_cairo_draw_leaves_to_cairosvg():
    """Supplied artwork (an <image>) is drawn by CairoSVG; its pixels are packed all the same."""
    from builder.render import convert

    dot = io.BytesIO()
    Image.new("RGB", (4, 4), (0, 128, 255)).save(dot, "PNG")
    import base64

    href = "data:image/png;base64," + base64.b64encode(dot.getvalue()).decode("ascii")
    svg = _doc(f'<image x="0" y="0" width="30" height="20" xlink:href="{href}"/>')
    assert cairo_draw.raster(svg, 4) is None
    pixels = _straight(convert.surface_of(convert.svg_to_pixels(svg, 4)))
    assert pixels.shape[:2] == (80, 120)
    assert tuple(pixels[40, 60][:3]) == (0, 128, 255)


def _image_doc() -> str:
    """A drawing cairo_draw leaves to CairoSVG (an <image>): blue where it is drawn."""
    import base64

    dot = io.BytesIO()
    Image.new("RGB", (4, 4), (0, 128, 255)).save(dot, "PNG")
    href = "data:image/png;base64," + base64.b64encode(dot.getvalue()).decode("ascii")
    return _doc(f'<image x="0" y="0" width="30" height="20" xlink:href="{href}"/>')


def _faces_page(n: int, extra: tuple = ()):
    """A page of n different small drawings side by side (a counter sheet's faces), then extra."""
    from builder.render.convert import Layer, Page

    faces = tuple(
        Layer(_doc(f'<rect x="0" y="0" width="12" height="12" fill="#{i * 40 % 256:02x}4060"/>'
                   f'<text x="2" y="8" font-size="4">{i}</text>'), x=(i % 10) * 14,
              y=(i // 10) * 14, scale=0.5)
        for i in range(n))
    return Page(150, 100, faces + tuple(extra))


def test_faces_drawn_in_place_not_one_pdf_form_each():
    """A page's once-shown drawings go into the page itself: a counter sheet of 182 faces was
    570 PDF objects (a form each), its PDF four times larger and ten times slower to join."""
    import pikepdf

    from builder.render import convert

    data = convert.pdf_document([_faces_page(40)])
    pdf = pikepdf.open(io.BytesIO(data))
    forms = [o for o in pdf.objects
             if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Form"]
    assert len(forms) <= 2, len(forms)  # the page's own drawing, not one per face
    # the page drawn for the PDF is the page its preview shows
    preview = np.asarray(Image.open(io.BytesIO(convert.page_to_png(_faces_page(40), 4))))
    assert preview.shape[:2] == (400, 600)
    assert tuple(preview[20, 20][:3]) == (0, 64, 96)  # face 0's fill, below its text


def test_a_repeated_drawing_is_one_form_and_artwork_falls_back():
    """A drawing shown twice on a page is recorded once (a row of identical markers), and one
    that cairo_draw does not draw (supplied artwork) is drawn by CairoSVG in its place."""
    from builder.render import convert
    from builder.render.convert import Layer

    marker = _doc('<rect x="0" y="0" width="12" height="12" fill="#aa0000"/>')
    extra = (Layer(marker, x=0, y=60, scale=0.5), Layer(marker, x=20, y=60, scale=0.5),
             Layer(_image_doc(), x=60, y=60, scale=0.5))
    page = _faces_page(5, extra)
    pixels = np.asarray(Image.open(io.BytesIO(convert.page_to_png(page, 4))).convert("RGB"))
    assert tuple(pixels[260, 10]) == (170, 0, 0) and tuple(pixels[260, 90]) == (170, 0, 0)
    assert tuple(pixels[260, 260]) == (0, 128, 255)  # the artwork, drawn by CairoSVG
    assert tuple(pixels[20, 20]) == (0, 64, 96)  # the faces around it still drawn in place
    import pikepdf

    pdf = pikepdf.open(io.BytesIO(convert.pdf_document([page])))
    assert len(pdf.pages) == 1



@pytest.mark.parametrize("d, whole", [
    ("M10 10L40 10L40 30Z M50 10 L60 30 L50 30 Z", True),  # moves, lines, closes
    (" M10 10 L40 10\nL40 30 Z", True),  # any spacing
    ("M1e1 10L40 10.5L-4 3", True),  # exponents, negatives, an open end
    ("M10 10L40 10ZL5 5", True),  # a line after a close starts from the subpath's start
    ("M5 20C10 5 20 5 25 20L30 30C35 35 40 35 45 20Z", True),  # curves among lines
    ("M5 20C10 5 20 5 25 20 30 35 40 35 45 20", False),  # implicit repeated curves
    ("M5 20C10 5 20 5", False),  # a curve cut short
    ("M10,10L40,10L40,30Z", False),  # commas
    ("M10 10 40 10 40 30Z", False),  # implicit lines after a move
    ("M10 10L40 10 40 30Z", False),  # implicit repeated lines
    ("M10-10L40-10", False),  # signs as separators
    ("M10 10L40 10l5 5Z", False),  # a relative line
    ("M10 10L40", False),  # a pair cut short
    ("M1.2.3 4 5L5 6", False),  # numbers run together
    ("M10 10H20 10", False),  # another command inside a pair
    ("M10 10Linf 10", False),  # what Python reads as a number and SVG does not
    ("M10 10L4é 10", False),  # not ASCII
    ("x M10 10L40 10", False),  # something before the first command
    ("", False),
])
def test_absolute_path_handed_whole_give_the_same_path(d, whole):
    """Path data of absolute moves, lines and curves alone goes to cairo as one cairo_path_t
    (cairo_draw._absolute_struct); every other form is read token by token. cairo ends up
    holding the same path either way."""
    ctx = cairo.Context(cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, None))
    struct = cairo_draw._absolute_struct(d)
    assert (struct is not None) is whole
    if whole:
        cairo.cairo.cairo_append_path(ctx._pointer, struct[0])
    else:
        cairo_draw.path_data(ctx, d)
    handed = list(ctx.copy_path())
    ctx = cairo.Context(cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, None))
    cairo_draw._read_tokens(ctx, d)
    assert handed == list(ctx.copy_path())
    # data long enough to be handed whole by path_data itself
    long_d = " ".join([d] * (cairo_draw._WHOLE_MIN_CHARS // max(1, len(d)) + 1))
    if whole and long_d.lstrip()[0] == "M":
        ctx = cairo.Context(cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, None))
        cairo_draw.path_data(ctx, long_d)
        handed = list(ctx.copy_path())
        ctx = cairo.Context(cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, None))
        cairo_draw._read_tokens(ctx, long_d)
        assert handed == list(ctx.copy_path())
        assert cairo_draw._absolute_struct(long_d) is not None


def test_a_leaf_read_once_draws_as_read_afresh(monkeypatch):
    """Shapes and texts are read into prepared drawings once (cairo_draw._LEAVES); a drawing
    met again is drawn from them, pixel for pixel as when read afresh, and what a leaf
    inherits from its group is part of what it is recognised by."""
    body = ('<g fill="#ff0000"><rect x="5" y="5" width="10" height="10"/></g>'
            '<g fill="#0000ff">'
            '<rect x="5" y="5" width="10" height="10" transform="translate(20 0)"/></g>'
            '<path d="M40 5L55 5L55 20Z" stroke="#00aa00" stroke-width="1.5" fill="none" '
            'stroke-dasharray="2 1"/>'
            '<text x="30" y="35" font-size="6" text-anchor="middle" fill="#202020">F 4-5</text>')
    cairo_draw._LEAVES.clear()
    afresh = _raster(body)
    assert cairo_draw._LEAVES  # kept for the next drawing
    assert np.array_equal(_raster(body), afresh)
    assert tuple(afresh[40, 40][:3]) == (255, 0, 0)  # (10, 10) mm at 4 px/mm
    assert tuple(afresh[40, 120][:3]) == (0, 0, 255)  # translated 20 mm
    # the red square's <rect> again, in a blue group: blue
    red_again = _raster('<g fill="#0000ff"><rect x="5" y="5" width="10" height="10"/></g>')
    assert tuple(red_again[40, 40][:3]) == (0, 0, 255)
    monkeypatch.setattr(cairo_draw, "_LEAVES_KEPT", 0)  # none kept: every leaf read afresh
    assert np.array_equal(_raster(body), afresh)


def test_a_text_with_spans_is_refused_after_a_plain_one_like_it():
    """A leaf is recognised by its attributes and text, not its children: a text with a span
    is still left to CairoSVG after a plain text with the same attributes was drawn."""
    plain = '<text x="10" y="10" font-size="4">A</text>'
    spanned = '<text x="10" y="10" font-size="4">A<tspan>B</tspan></text>'
    doc = ('<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="40mm" '
           'viewBox="0 0 60 40">{}</svg>')
    assert cairo_draw.raster(doc.format(plain), 4) is not None
    assert cairo_draw.raster(doc.format(spanned), 4) is None


@pytest.mark.parametrize("colour", ["#000", "#fFf", "#a3c", "#12ab9F", "white", "rgb(10, 20, 30)"])
def test_colours_read_as_cairosvg_reads_them(colour):
    # '#rgb' is read here, not handed to CairoSVG (importing it cost a module build 0.1 s)
    from cairosvg.colors import color

    assert cairo_draw._rgba(colour, 0.5) == color(colour, 0.5)
