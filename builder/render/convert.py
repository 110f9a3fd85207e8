"""SVG to PDF and PNG through CairoSVG and the machine's cairo: vector PDFs, embedded fonts.

A multi-page PDF is assembled from placed SVG layers. Each distinct SVG is drawn once into a
cairo recording surface and painted wherever it is placed, so a map tiled over nine pages or a
counter printed forty times is drawn (and stored in the PDF) once.
"""

from __future__ import annotations

import io
import os
import re
import time
from dataclasses import dataclass

import cairocffi as cairo
from cairosvg.parser import Tree
from cairosvg.surface import PNGSurface, Surface

PT_PER_MM = 72 / 25.4
DEFAULT_DATE = 946684800  # 2000-01-01: a fixed date keeps rebuilt PDFs byte-identical


@dataclass(frozen=True)
class Layer:
    """An SVG drawn on a page with its top-left at (x, y) mm, optionally clipped to a rectangle
    given in page mm."""

    svg: str
    x: float = 0.0
    y: float = 0.0
    clip: tuple[float, float, float, float] | None = None
    scale: float = 1.0


@dataclass(frozen=True)
class Page:
    width: float
    height: float
    layers: tuple[Layer, ...]
    label: str = ""


class _Recording(Surface):
    """A CairoSVG surface that draws into a cairo recording surface in points."""

    def _create_surface(self, width, height):
        rec = cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, (0, 0, width, height))
        return rec, width, height

    @property
    def device_units_per_user_units(self):
        return self.points_per_pixel


def _pdf_date() -> str:
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    seconds = int(epoch) if epoch.strip().isdigit() else DEFAULT_DATE
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def svg_to_png(svg: str, px_per_mm: float) -> bytes:
    """Rasterise an SVG (mm user units) at px_per_mm pixels per millimetre."""
    dpi = px_per_mm * 25.4
    return PNGSurface.convert(bytestring=svg.encode("utf-8"), dpi=dpi)


def _record(svg: str) -> cairo.RecordingSurface:
    tree = Tree(bytestring=svg.encode("utf-8"))
    return _Recording(tree, None, 96).cairo


def pdf_document(pages: list[Page], title: str = "", author: str = "") -> bytes:
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
    recordings: dict[str, cairo.RecordingSurface] = {}
    for page in pages:
        surface.set_size(page.width * PT_PER_MM, page.height * PT_PER_MM)
        ctx = cairo.Context(surface)
        ctx.scale(PT_PER_MM, PT_PER_MM)
        for layer in page.layers:
            rec = recordings.get(layer.svg)
            if rec is None:
                rec = recordings[layer.svg] = _record(layer.svg)
            ctx.save()
            if layer.clip:
                cx, cy, cw, ch = layer.clip
                ctx.rectangle(cx, cy, cw, ch)
                ctx.clip()
            ctx.translate(layer.x, layer.y)
            ctx.scale(layer.scale / PT_PER_MM, layer.scale / PT_PER_MM)
            ctx.set_source_surface(rec, 0, 0)
            ctx.paint()
            ctx.restore()
        ctx.show_page()
    surface.finish()
    return out.getvalue()


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
