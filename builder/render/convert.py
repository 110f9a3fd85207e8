"""SVG to PDF and PNG through CairoSVG and the machine's cairo: vector PDFs, embedded fonts.

A multi-page PDF is assembled from placed SVG layers. Each distinct SVG is drawn once into a
cairo recording surface and painted wherever it is placed, so a map tiled over nine pages or a
counter printed forty times is drawn (and stored in the PDF) once.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import math
import re
import struct
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass

from isal import isal_zlib

from builder.buildtime import build_time_utc
from builder.render import cairo_draw, png
from builder.render.cairo_lib import cairo

PT_PER_MM = 72 / 25.4


@dataclass(frozen=True)
class Layer:
    """An SVG drawn on a page with its top-left at (x, y) mm, optionally clipped to a rectangle
    given in page mm."""

    svg: str
    x: float = 0.0
    y: float = 0.0
    clip: tuple[float, float, float, float] | None = None
    scale: float = 1.0
    alone: bool = False  # a drawing with a preview of its own (a map), not of the pages it is on


@dataclass(frozen=True)
class Page:
    width: float
    height: float
    layers: tuple[Layer, ...]
    label: str = ""


def _cairosvg_recording(svg: str) -> cairo.RecordingSurface:
    """The drawing recorded in points by CairoSVG (imported here: most builds never need it, and
    importing it took a tenth of a small game's build)."""
    from cairosvg.parser import Tree
    from cairosvg.surface import Surface

    class _Recording(Surface):
        """A CairoSVG surface that draws into a cairo recording surface in points."""

        def _create_surface(self, width, height):
            rec = cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, (0, 0, width, height))
            return rec, width, height

        @property
        def device_units_per_user_units(self):
            return self.points_per_pixel

    with _simple_text():
        return _Recording(Tree(bytestring=svg.encode("utf-8")), None, 96).cairo


def _fast_text(surface, node, draw_as_text: bool = False) -> None:
    """CairoSVG's <text> for the simple text builder.render writes: the whole string in one
    show_text (one text object, not one per letter), anchored on its advance width. Anything
    fancier (textPath, per-letter positions, spacing, tspans) goes to CairoSVG's own."""
    if (
        node.get_href()
        or node.parent.get_href()
        or node.children
        or any(k in node for k in ("dx", "dy", "rotate", "letter-spacing"))
        or " " in str(node.get("x", ""))
        or " " in str(node.get("y", ""))
    ):
        return _CAIROSVG_TEXT[0](surface, node, draw_as_text)
    content = node.text or ""
    if not content.strip():
        return None
    ctx = surface.context
    family = (node.get("font-family") or "sans-serif").split(",")[0].strip("\"' ")
    weight = node.get("font-weight")
    bold = weight == "bold" or (weight and weight.isdigit() and int(weight) >= 550)
    slant = (
        cairo.FONT_SLANT_ITALIC if node.get("font-style") == "italic" else cairo.FONT_SLANT_NORMAL
    )
    ctx.select_font_face(
        family, slant, cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL
    )
    ctx.set_font_size(surface.font_size)
    ctx.set_font_options(_UNHINTED)  # true advances: hinting would round them to whole points
    from cairosvg.helpers import size

    x = size(surface, node.get("x"), "x")
    y = size(surface, node.get("y"), "y")
    anchor = node.get("text-anchor")
    if anchor in ("middle", "end"):
        advance = ctx.text_extents(content)[4]
        x -= advance / 2 if anchor == "middle" else advance
    ctx.move_to(x, y)
    if draw_as_text:
        ctx.show_text(content)
    elif node.get("stroke") not in (None, "none"):
        ctx.text_path(content)  # outlines only for a stroke (a halo under the text)
    return None


_CAIROSVG_TEXT: list = []  # CairoSVG's own text(), while _simple_text replaces it
_UNHINTED = cairo.FontOptions()
_UNHINTED.set_hint_metrics(cairo.HINT_METRICS_OFF)
_UNHINTED.set_hint_style(cairo.HINT_STYLE_NONE)


@contextlib.contextmanager
def _simple_text():
    """Use _fast_text while converting (CairoSVG looks the function up at draw time)."""
    import cairosvg.surface as cs

    saved = cs.text, cs.TAGS["text"]
    _CAIROSVG_TEXT[:] = [saved[0]]
    cs.text = cs.TAGS["text"] = _fast_text
    try:
        yield
    finally:
        cs.text, cs.TAGS["text"] = saved


def _pdf_date() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", build_time_utc())


MAX_RASTER_PIXELS = 60_000_000  # cairo runs out of memory well before a 200-megapixel surface
MAX_RASTER_SIDE = 30_000  # cairo's image surfaces stop at 32,767 pixels a side


def capped_px_per_mm(width_mm: float, height_mm: float, px_per_mm: float) -> float:
    """px_per_mm, lowered just enough that a raster of this size stays drawable.

    Only a campaign-sized map (a dozen Europa sheets in one image) is affected: it gets a
    coarser picture instead of a failed build.
    """
    w, h = width_mm * px_per_mm, height_mm * px_per_mm
    scale = min(1.0, (MAX_RASTER_PIXELS / max(w * h, 1.0)) ** 0.5, MAX_RASTER_SIDE / max(w, h, 1.0))
    return px_per_mm * scale


def _drawn(svg: str) -> cairo.RecordingSurface:
    """The drawing recorded in points: straight from its description (cairo_draw), or through
    CairoSVG for what that writer does not draw (supplied artwork images, full SVG)."""
    rec = cairo_draw.record(svg)
    return rec if rec is not None else _cairosvg_recording(svg)


def svg_to_png(svg: str, px_per_mm: float) -> bytes:
    """Rasterise an SVG (mm user units) at px_per_mm pixels per millimetre."""
    surface = cairo_draw.raster(svg, px_per_mm)
    if surface is None:
        from cairosvg.surface import PNGSurface

        with _simple_text():
            return PNGSurface.convert(bytestring=svg.encode("utf-8"), dpi=px_per_mm * 25.4)
    return png.encode(surface)


def svg_to_pixels(svg: str, px_per_mm: float) -> bytes:
    """The SVG rasterised at px_per_mm as packed pixels (see surface_of): cairo's own
    premultiplied ARGB, deflated, for a picture that is only laid onto another with cairo. A PNG
    would be unpremultiplied to write and multiplied again to lay: on a campaign board's 22
    pieces (180 megapixels) that took 13 of the module's 80 CPU seconds."""
    surface = cairo_draw.raster(svg, px_per_mm)
    if surface is None:  # outside cairo_draw's vocabulary: CairoSVG's PNG, read by cairo
        surface = cairo.ImageSurface.create_from_png(io.BytesIO(svg_to_png(svg, px_per_mm)))
    surface.flush()
    head = _PACKED.pack(surface.get_width(), surface.get_height(), surface.get_stride())
    return head + isal_zlib.compress(surface.get_data(), png.LEVEL)


_PACKED = struct.Struct("<III")  # width, height and stride in pixels and bytes


def packed_size(packed: bytes) -> tuple[int, int]:
    """Width and height in pixels of what svg_to_pixels packed (read from its head alone)."""
    width, height, _ = _PACKED.unpack_from(packed)
    return width, height


def surface_of(packed: bytes) -> cairo.ImageSurface:
    """The cairo ARGB32 image surface svg_to_pixels packed."""
    width, height, stride = _PACKED.unpack_from(packed)
    data = bytearray(isal_zlib.decompress(memoryview(packed)[_PACKED.size:]))
    return cairo.ImageSurface.create_for_data(data, cairo.FORMAT_ARGB32, width, height, stride)


def _rgb(colour: str) -> tuple[float, float, float]:
    """'#rrggbb' as cairo's 0-1 channels."""
    return tuple(int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))


def svg_to_png_trimmed(svg: str, px_per_mm: float, background: str = "#ffffff",
                       pad_px: int = 12) -> bytes:
    """Rasterise an SVG down to its lowest drawn point (+ pad_px) only, on an opaque background:
    a card laid on a page taller than any card is not rasterised (nor kept) below the card."""
    rec = _record(svg)
    _, _, w, h = rec.get_extents()
    k = px_per_mm / PT_PER_MM
    _, iy, _, ih = rec.ink_extents()
    width = max(1, round(w * k))
    height = max(1, min(round(h * k), math.ceil((iy + ih) * k) + pad_px))
    surface = cairo.ImageSurface(cairo.FORMAT_RGB24, width, height)
    ctx = cairo.Context(surface)
    ctx.set_source_rgb(*_rgb(background))
    ctx.paint()
    ctx.scale(k, k)
    ctx.set_source_surface(rec, 0, 0)
    ctx.paint()
    return png.encode(surface)


_RECORDINGS: OrderedDict[str, cairo.RecordingSurface] = OrderedDict()
_KEEP = 800  # recordings kept for reuse (maps, drawings repeated on a page, one-drawing pages)


def _record(svg: str) -> cairo.RecordingSurface:
    """The SVG drawn once into a recording surface (points), reused by every page and PNG."""
    k = hashlib.sha1(svg.encode("utf-8")).hexdigest()
    rec = _RECORDINGS.get(k)
    if rec is not None:
        _RECORDINGS.move_to_end(k)
        return rec
    rec = _drawn(svg)
    _RECORDINGS[k] = rec
    while len(_RECORDINGS) > _KEEP:
        _RECORDINGS.popitem(last=False)
    return rec


def _wrapped(rec: cairo.RecordingSurface) -> cairo.RecordingSurface:
    """A fresh surface that paints rec: cairo 1.16 lists a source painted twice on one page twice
    in the page's resources (a dictionary with a repeated key, which qpdf rejects), so every
    further copy on a page goes through its own wrapper; rec itself is still stored once."""
    x, y, w, h = rec.get_extents()
    out = cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, (x, y, w, h))
    ctx = cairo.Context(out)
    ctx.set_source_surface(rec, 0, 0)
    ctx.paint()
    return out


_PAGES: OrderedDict[int, tuple[Page, cairo.RecordingSurface, list]] = OrderedDict()
_KEEP_PAGES = 16  # a page group's pages, drawn for the PDF and painted again for the previews


def _paint(ctx: cairo.Context, page: Page, stand_ins: dict | None = None) -> None:
    """Paint a page on a context whose unit is one millimetre (stand_ins: see _stand_ins)."""
    ctx.save()
    ctx.scale(1 / PT_PER_MM, 1 / PT_PER_MM)
    if stand_ins and any(layer.svg in stand_ins for layer in page.layers):
        drawing = _drawn_page(page, stand_ins)[0]  # not kept: a preview shows the real drawing
    else:
        drawing = _page_drawing(page)
    ctx.set_source_surface(drawing, 0, 0)
    ctx.paint()
    ctx.restore()


def _page_drawing(page: Page) -> cairo.RecordingSurface:
    """The page drawn once in a recording (points), kept for its preview.

    A layer shown once on the page (a counter face, a card) is drawn into the page itself; a
    map, and a drawing shown several times (a row of identical markers), is recorded once and
    painted where it goes, so a PDF holds it once. Painted, every recording becomes a PDF form
    of its own: a counter sheet of 182 faces was 570 PDF objects, which made its PDF four times
    larger and its joining into the counters PDF ten times slower (1.4 s for 48 pages)."""
    hit = _PAGES.get(id(page))
    if hit is not None and hit[0] is page:
        return hit[1]
    rec, keep = _drawn_page(page, {})
    _PAGES[id(page)] = (page, rec, keep)
    while len(_PAGES) > _KEEP_PAGES:
        _PAGES.popitem(last=False)
    return rec


def _drawn_page(page: Page, stand_ins: dict) -> tuple[cairo.RecordingSurface, list]:
    """The page's recording and the recordings it paints (to keep alive with it)."""
    outside: set[str] = set()  # drawings cairo_draw does not draw: recorded by CairoSVG instead
    while True:
        rec = cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA,
                                     (0, 0, page.width * PT_PER_MM, page.height * PT_PER_MM))
        keep: list = []
        missing = _draw_layers(cairo.Context(rec), page, outside, keep, stand_ins)
        if missing is None:
            return rec, keep
        rec.finish()
        outside.add(missing)


def _draw_layers(ctx: cairo.Context, page: Page, outside: set[str], keep: list,
                 stand_ins: dict) -> str | None:
    """Draw a page's layers on a context whose unit is the point; the SVG of a layer drawn in
    place that cairo_draw does not draw (the page is then drawn again without it), else None."""
    shown = Counter(layer.svg for layer in page.layers)
    in_place = len(page.layers) > 1  # a page of one drawing paints its recording (kept for reuse)
    used: set[int] = set()
    ctx.scale(PT_PER_MM, PT_PER_MM)
    for layer in page.layers:
        ctx.save()
        if layer.clip:
            cx, cy, cw, ch = layer.clip
            ctx.rectangle(cx, cy, cw, ch)
            ctx.clip()
        ctx.translate(layer.x, layer.y)
        ctx.scale(layer.scale / PT_PER_MM, layer.scale / PT_PER_MM)
        if (in_place and shown[layer.svg] == 1 and not layer.alone
                and layer.svg not in outside and layer.svg not in stand_ins):
            if not cairo_draw.draw(ctx, layer.svg):
                return layer.svg
        else:
            rec = stand_ins[layer.svg][0] if layer.svg in stand_ins else _record(layer.svg)
            if id(rec) in used:
                rec = _wrapped(rec)
            used.add(id(rec))
            keep.append(rec)
            ctx.set_source_surface(rec, 0, 0)
            ctx.paint()
        ctx.restore()
    return None


def page_to_png(page: Page, px_per_mm: float, background: str = "#ffffff") -> bytes:
    """A page rasterised from the same recordings as its PDF page."""
    w = max(1, round(page.width * px_per_mm))
    h = max(1, round(page.height * px_per_mm))
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, w, h)
    ctx = cairo.Context(surface)
    ctx.set_source_rgb(*_rgb(background))
    ctx.paint()
    ctx.scale(px_per_mm, px_per_mm)
    _paint(ctx, page)
    return png.encode(surface)


def pdf_document(pages: list[Page], title: str = "", author: str = "", *,
                 _stand_ins_allowed: bool = True) -> bytes:
    """A multi-page vector PDF: each page a list of placed SVG layers."""
    if not pages:
        raise ValueError("a PDF needs at least one page")
    out = io.BytesIO()
    first = pages[0]
    surface = cairo.PDFSurface(out, first.width * PT_PER_MM, first.height * PT_PER_MM)
    date = _pdf_date()
    surface.set_metadata(cairo.PDF_METADATA_CREATE_DATE, date)
    surface.set_metadata(cairo.PDF_METADATA_MOD_DATE, date)
    if title:
        surface.set_metadata(cairo.PDF_METADATA_TITLE, title)
    if author:
        surface.set_metadata(cairo.PDF_METADATA_AUTHOR, author)
    surface.set_metadata(cairo.PDF_METADATA_CREATOR, "builder")
    stand_ins = _stand_ins(pages) if _stand_ins_allowed else {}
    for page in pages:
        surface.set_size(page.width * PT_PER_MM, page.height * PT_PER_MM)
        ctx = cairo.Context(surface)
        ctx.scale(PT_PER_MM, PT_PER_MM)
        _paint(ctx, page, stand_ins)
        ctx.show_page()
    for _, real in stand_ins.values():  # each shared drawing once, on a page of its own
        _, _, w, h = real.get_extents()
        surface.set_size(w, h)
        ctx = cairo.Context(surface)
        ctx.set_source_surface(real, 0, 0)
        ctx.paint()
        ctx.show_page()
    surface.finish()
    if not stand_ins:
        return out.getvalue()
    from builder.render.pdf_stand_ins import put_in_place

    done = put_in_place(out.getvalue(), len(pages), _STAND_IN_MARKS[:len(stand_ins)])
    if done is None:  # a stand-in left where cairo put it: the pages drawn the plain way
        return pdf_document(pages, title, author, _stand_ins_allowed=False)
    return done


# A drawing painted on several pages of one PDF (a map sheet tiled over nine pages) is painted
# there through a small stand-in recording, then swapped for the drawing itself
# (builder.render.pdf_stand_ins). cairo stores the drawing once either way, but it replays
# everything a page paints to decide how to write the page: the whole map again for every tile,
# a third of a map sheet's PDF time.
SHARED_MIN_CHARS = 50_000  # smaller drawings replay in less time than the swap takes
_STAND_IN_MARKS = [(0.1234, 0.5678, round(0.9012 - i / 10_000, 4)) for i in range(64)]


def _stand_ins(pages: list[Page]) -> dict[str, tuple]:
    """{svg: (stand-in recording, real recording)} for the large drawings painted on more than
    one page (each placed with its own position and clip)."""
    pages_of: Counter = Counter()
    for page in pages:
        for svg in {layer.svg for layer in page.layers if len(layer.svg) >= SHARED_MIN_CHARS}:
            pages_of[svg] += 1
    out: dict[str, tuple] = {}
    for svg, n in pages_of.items():
        if n < 2 or len(out) == len(_STAND_IN_MARKS):
            continue
        real = _record(svg)
        extents = real.get_extents()
        if extents is None:
            continue
        x, y, w, h = extents
        stand_in = cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, (x, y, w, h))
        mark = cairo.Context(stand_in)
        mark.set_source_rgb(*_STAND_IN_MARKS[len(out)])  # opaque: it adds no transparency
        mark.rectangle(x, y, 1, 1)
        mark.fill()
        out[svg] = (stand_in, real)
    return out


def svg_size_mm(svg: str) -> tuple[float, float]:
    """Width and height of an SVG made by builder.render (its viewBox, one unit per mm)."""
    m = re.search(r'viewBox="\s*[-\d.]+\s+[-\d.]+\s+([\d.]+)\s+([\d.]+)\s*"', svg)
    if not m:
        raise ValueError("the SVG has no viewBox: draw it with builder.render.svg.document()")
    return float(m.group(1)), float(m.group(2))


def svg_to_pdf(svg: str, title: str = "") -> bytes:
    """A one-page vector PDF of an SVG (mm user units) drawn at its true size."""
    width, height = svg_size_mm(svg)
    return pdf_document([Page(width, height, (Layer(svg),))], title=title)
