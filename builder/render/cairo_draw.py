"""The drawings builder.render makes, drawn straight onto a cairo context (PDF, PNG, recordings).

builder.render describes every component in one small vocabulary, in millimetres: groups with
transforms, clips and opacity; rect, circle, line, polygon, polyline and path shapes with fill,
stroke, dashes and joins; single-run text with its font, size, weight and anchor; nested
drawings placed on a page. This module is the cairo writer for that vocabulary: it walks the
description (lxml's C parser holds it) and issues the cairo calls directly, each path's data
turned into cairo moves, lines and curves in one pass. A shape or text's attributes are read
once into a prepared drawing kept for every element like it (_LEAVES): counter faces repeat
their frames, symbols and digits thousands of times. The SVG writer is the description's own
text (builder.render.svg), so the SVG files, the PDF pages and the PNG pictures are drawn from
one description.

Area fills may be a <pattern> in user space (a terrain texture's tile, repeated by cairo).
Anything outside the vocabulary (images, gradients, other patterns, <use>, styled CSS, tspans)
makes ``record`` return None and the caller draws that drawing with CairoSVG, which covers full SVG.
Text is drawn as CairoSVG drew it for builder.render (the whole run in one show_text, unhinted
advances, anchored on its advance width), so PDFs keep real, searchable text with subset fonts.
"""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
from lxml import etree

from builder.render.cairo_lib import cairo

PT_PER_MM = 72 / 25.4
SVG_NS = "{http://www.w3.org/2000/svg}"
_PARSER = etree.XMLParser(huge_tree=True, remove_comments=True, remove_pis=True,
                          resolve_entities=False, no_network=True)

# attributes a child takes from its group (SVG presentation attributes that inherit)
_INHERITED = (
    "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity",
    "stroke-linecap", "stroke-linejoin", "stroke-dasharray", "stroke-miterlimit",
    "font-family", "font-size", "font-weight", "font-style", "text-anchor",
)
_HANDLED = frozenset((
    *_INHERITED, "id", "x", "y", "width", "height", "viewBox", "version", "transform",
    "opacity", "clip-path", "d", "points", "cx", "cy", "r", "rx", "ry", "x1", "y1", "x2", "y2",
    "preserveAspectRatio",
))
_CAPS = {"round": cairo.LINE_CAP_ROUND, "square": cairo.LINE_CAP_SQUARE}
_JOINS = {"round": cairo.LINE_JOIN_ROUND, "bevel": cairo.LINE_JOIN_BEVEL}
_UNHINTED = cairo.FontOptions()
_UNHINTED.set_hint_metrics(cairo.HINT_METRICS_OFF)
_UNHINTED.set_hint_style(cairo.HINT_STYLE_NONE)
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_TRANSFORM = re.compile(r"(\w+)\s*\(([^)]*)\)")


# a <pattern>'s tile is recorded at this many units per mm: cairo paints a repeated tile on a
# raster from a picture of it at one pixel per unit, so this is the finest raster it stays
# sharp on (the module's boards and the previews are 4-7 px/mm), and the tile's width and
# height must be whole units or the repeats would drift
PATTERN_UNITS_PER_MM = 10
_C = cairo.cairo  # cairo's C functions: the walk calls them straight and checks the status once
_EXTENTS = cairo.ffi.new("cairo_text_extents_t *")


class Unsupported(Exception):
    """The drawing uses something outside builder.render's vocabulary."""


def record(svg: str | bytes) -> cairo.RecordingSurface | None:
    """The drawing in a recording surface whose unit is the point, or None if it uses anything
    this writer does not draw (the caller then uses CairoSVG)."""
    doc = _parse(svg)
    if doc is None:
        return None
    _, width, height, _ = doc
    rec = cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA,
                                 (0, 0, width * PT_PER_MM, height * PT_PER_MM))
    if not _draw_parsed(cairo.Context(rec), doc):
        rec.finish()
        return None
    return rec


def draw(ctx: cairo.Context, svg: str | bytes) -> bool:
    """Draw the drawing on ctx, one unit a point (as record() records it); False if it uses
    anything this writer does not draw: ctx may then hold part of it, so the caller starts
    again without it."""
    doc = _parse(svg)
    return doc is not None and _draw_parsed(ctx, doc)


def _draw_parsed(ctx: cairo.Context, doc) -> bool:
    """Draw a _parse()d drawing on ctx in points; False where it leaves cairo_draw's vocabulary."""
    root, width, height, box = doc
    try:
        _Writer(ctx, root).document(root, width * PT_PER_MM, height * PT_PER_MM, box)
    except Unsupported:
        return False
    return True


def raster(svg: str | bytes, px_per_mm: float) -> cairo.ImageSurface | None:
    """The drawing rasterised at px_per_mm (its size rounded to whole pixels), or None as
    record() does."""
    doc = _parse(svg)
    if doc is None:
        return None
    root, width, height, box = doc
    w_px, h_px = width * px_per_mm, height * px_per_mm
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, max(1, round(w_px)), max(1, round(h_px)))
    try:
        _Writer(cairo.Context(surface), root, fill_clips=True).document(root, w_px, h_px, box)
    except Unsupported:
        surface.finish()
        return None
    return surface


def _parse(svg: str | bytes):
    """(root element, width mm, height mm, viewBox), or None for a drawing without a size."""
    root = etree.fromstring(svg.encode("utf-8") if isinstance(svg, str) else svg, _PARSER)
    width, height = _length_mm(root.get("width")), _length_mm(root.get("height"))
    box = _viewbox(root.get("viewBox"), width, height)
    if width is None or height is None or box is None:
        return None
    return root, width, height, box


def _length_mm(value: str | None) -> float | None:
    """A root width/height: millimetres, or unitless/px at CairoSVG's 96 per inch."""
    if not value:
        return None
    v = value.strip()
    for unit, k in (("mm", 1.0), ("cm", 10.0), ("in", 25.4), ("pt", 25.4 / 72), ("px", 25.4 / 96)):
        if v.endswith(unit):
            return float(v[: -len(unit)]) * k
    try:
        return float(v) * 25.4 / 96
    except ValueError:
        return None


def _viewbox(value: str | None, width, height):
    if not value:
        return None if width is None else (0.0, 0.0, width / (25.4 / 96), height / (25.4 / 96))
    parts = [float(p) for p in _NUMBER.findall(value)]
    return tuple(parts) if len(parts) == 4 else None


def _rgba(value: str, opacity: float):
    """A paint colour as cairo's (r, g, b, a), or None for 'none'."""
    rgb = _RGB.get(value)
    if rgb is None and _HEX_COLOUR.fullmatch(value):
        # '#rgb' is '#rrggbb' with each digit doubled (as CairoSVG reads it, whose import
        # would otherwise cost a module build a tenth of a second for one '#000')
        full = value if len(value) == 7 else "#" + "".join(2 * c for c in value[1:])
        rgb = _RGB[value] = (int(full[1:3], 16) / 255, int(full[3:5], 16) / 255,
                             int(full[5:7], 16) / 255)
    if rgb is not None:
        return (*rgb, opacity)
    if value == "none" or value == "transparent":
        return None
    if value.startswith("url("):
        raise Unsupported(value)
    from cairosvg.colors import color

    r, g, b, a = color(value, opacity)
    return (r, g, b, a)


_RGB: dict[str, tuple[float, float, float]] = {}  # '#rrggbb' -> cairo's r, g, b (a few dozen)
_HEX_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}){1,2}")


class _Writer:
    """One drawing's walk: state kept here so the per-element work stays small."""

    def __init__(self, ctx: cairo.Context, root, fill_clips: bool = False) -> None:
        self.ctx = ctx
        self.p = ctx._pointer
        self.fill_clips = fill_clips
        self.root = root
        self.clips = {
            el.get("id"): el for el in root.iter(SVG_NS + "clipPath") if el.get("id")
        }
        self.patterns: dict[str, cairo.SurfacePattern] = {}  # drawn on first use
        self.draw_tag = {
            "g": self.group, "svg": self.nested, "rect": self.rect, "circle": self.circle,
            "ellipse": self.ellipse, "line": self.line, "polygon": self.polygon,
            "polyline": self.polyline, "path": self.path, "text": self.text,
        }

    # --- structure ----------------------------------------------------------------------------
    def document(self, root, width: float, height: float, box) -> None:
        """The whole drawing on a surface `width` x `height` device units."""
        ctx = self.ctx
        vx, vy, vw, vh = box
        # the page itself clips, as an SVG viewport does
        ctx.rectangle(0, 0, width, height)
        ctx.clip()
        ctx.scale(width / vw, height / vh)
        ctx.translate(-vx, -vy)
        ctx.set_font_options(_UNHINTED)  # true advances: hinting would round them to points
        self.children(root, self._inherit(dict(root.attrib), {}))
        ctx._check_status()  # the walk's cairo calls skip the wrapper's check after each call

    def _inherit(self, attrib: dict, inh: dict) -> dict:
        own = [k for k in _INHERITED if k in attrib]
        if not own:
            return inh
        out = dict(inh)
        for k in own:
            out[k] = attrib[k]
        # what a leaf inherits, as part of its key in _LEAVES (the "" entry is no attribute)
        out[""] = tuple((k, out[k]) for k in _INHERITED if k in out)
        return out

    def children(self, el, inh: dict) -> None:
        for child in el:
            tag = child.tag
            if not isinstance(tag, str):
                continue
            if tag.startswith(SVG_NS):
                tag = tag[len(SVG_NS):]
            if tag in _LEAF_TAGS:
                self.leaf(child, tag, inh)
                continue
            if tag in ("title", "desc", "defs", "clipPath", "pattern", "metadata"):
                continue
            draw = self.draw_tag.get(tag)
            if draw is None:
                raise Unsupported(tag)
            self.element(child, draw, inh)

    def element(self, el, draw, inh: dict) -> None:
        """Transform, clip and group opacity around one element's own drawing."""
        # the attributes as a dict once: each lookup in lxml's own mapping makes a new string
        attrib = dict(el.attrib)
        if not _HANDLED.issuperset(attrib):
            raise Unsupported(next(k for k in attrib if k not in _HANDLED))
        transform = attrib.get("transform")
        clip = attrib.get("clip-path")
        opacity = attrib.get("opacity")
        alpha = float(opacity) if opacity is not None else 1.0
        grouped = alpha < 1.0 and len(el) > 0
        ctx, p = self.ctx, self.p
        _C.cairo_save(p)
        if transform:
            _apply_transform(ctx, transform)
        if clip and self.fill_clips and not grouped and len(el) > 0:
            # on a raster, a group's content drawn unclipped and then filled through the clip
            # outline: cairo composites a complex clip (a terrain's 300 hexes) on every stroke
            # and fill of the group, which took most of a map's raster time
            ctx.push_group()
            draw(el, attrib, inh, alpha)
            ctx.pop_group_to_source()
            if self._clip_path(clip):
                ctx.fill()
            else:
                ctx.paint()
            _C.cairo_restore(p)
            return
        if clip and self._clip_path(clip):
            ctx.clip()
        if grouped:
            ctx.push_group()
            draw(el, attrib, inh, 1.0)
            ctx.pop_group_to_source()
            ctx.paint_with_alpha(alpha)
        else:
            draw(el, attrib, inh, alpha)
        _C.cairo_restore(p)

    def _clip_path(self, ref: str) -> bool:
        """The outline of a clipPath as the current path; False for an unknown one (it does
        not clip, as in CairoSVG)."""
        m = re.fullmatch(r"\s*url\(\s*#([^)\s]+)\s*\)\s*", ref)
        target = self.clips.get(m.group(1)) if m else None
        if target is None:
            return False
        ctx = self.ctx
        ctx.new_path()
        for child in target:
            tag = child.tag
            if not isinstance(tag, str):
                continue
            tag = tag[len(SVG_NS):] if tag.startswith(SVG_NS) else tag
            outline = _PATH_OPS.get(tag)
            if outline is None:
                raise Unsupported("clipPath/" + tag)
            t = child.get("transform")
            if t:
                ctx.save()
                _apply_transform(ctx, t)
                _outline(ctx, outline(child.attrib))
                ctx.restore()
            else:
                _outline(ctx, outline(child.attrib))
        return True

    def group(self, el, a: dict, inh: dict, alpha: float) -> None:
        self.children(el, self._inherit(a, inh))

    def nested(self, el, a: dict, inh: dict, alpha: float) -> None:
        """A drawing placed inside another (x, y, width, height; its viewBox fitted and centred,
        clipped to its viewport)."""
        x, y = float(a.get("x", 0)), float(a.get("y", 0))
        w, h = float(a.get("width", 0)), float(a.get("height", 0))
        if not w or not h:
            return
        box = _viewbox(a.get("viewBox"), None, None) or (0.0, 0.0, w, h)
        vx, vy, vw, vh = box
        if a.get("preserveAspectRatio", "xMidYMid") != "xMidYMid":
            raise Unsupported("preserveAspectRatio")
        k = min(w / vw, h / vh)
        ctx = self.ctx
        ctx.translate(x, y)
        ctx.translate(-vx * k, -vy * k)
        ctx.rectangle(vx * k, vy * k, w, h)
        ctx.clip()
        ctx.scale(k, k)
        ctx.translate((w / k - vw) / 2, (h / k - vh) / 2)
        self.children(el, self._inherit(a, inh))

    # --- shapes and text: read once into a prepared leaf, then drawn -------------------------
    def leaf(self, el, tag: str, inh: dict) -> None:
        """A shape or a text: its attributes (with what it inherits) read into a prepared
        drawing once per distinct element, then drawn. A sheet of counters repeats the same
        frames, symbols and factor digits thousands of times; reading them was most of a
        face's drawing time."""
        if len(el):  # a leaf's children (a text's spans): refused there
            self.element(el, self.draw_tag[tag], inh)
            return
        items = tuple(el.items())
        key = (tag, el.text, items, inh.get("", ()))
        prepared = _LEAVES.get(key)
        if prepared is None:
            attrib = dict(items)
            if "clip-path" in attrib:  # clipped in element(); not kept
                self.element(el, self.draw_tag[tag], inh)
                return
            prepared = _prepare_leaf(el, tag, attrib, inh)
            if len(attrib.get("d") or attrib.get("points") or "") <= _LEAF_KEY_CHARS:
                if len(_LEAVES) >= _LEAVES_KEPT:
                    _LEAVES.clear()
                _LEAVES[key] = prepared
        p = self.p
        _C.cairo_save(p)
        for f, args in prepared[0]:
            f(p, *args)
        prepared[1](self, *prepared[2:])
        _C.cairo_restore(p)

    def _drawn_leaf(self, el, a: dict, inh: dict, alpha: float) -> None:
        """A leaf drawn inside element()'s transform and clip: one with a clip-path, or with
        children (a text's spans, which _prepare_text refuses)."""
        tag = el.tag[len(SVG_NS):] if el.tag.startswith(SVG_NS) else el.tag
        prepared = _prepare_drawing(el, tag, a, inh, alpha)
        prepared[0](self, *prepared[1:])

    rect = circle = ellipse = line = polygon = polyline = path = text = _drawn_leaf

    def shape(self, path, fill, stroke) -> None:
        """Fill then stroke a prepared outline (_PATH_OPS) with a prepared paint (_paint_specs)."""
        p = self.p
        _C.cairo_new_path(p)
        _outline(self.ctx, path)
        if fill is not None:
            if fill[0]:
                self._fill_pattern(*fill[1:])
            else:
                _C.cairo_set_source_rgba(p, *fill[1])
                if fill[2]:  # even-odd
                    _C.cairo_set_fill_rule(p, cairo.FILL_RULE_EVEN_ODD)
                    _C.cairo_fill_preserve(p)
                    _C.cairo_set_fill_rule(p, cairo.FILL_RULE_WINDING)
                else:
                    _C.cairo_fill_preserve(p)
        if stroke is not None:
            _stroke_style(p, stroke)
            _C.cairo_set_source_rgba(p, *stroke[-1])
            _C.cairo_stroke(p)
        _C.cairo_new_path(p)

    def text_run(self, face, size: float, x: float, y: float, utf8: bytes, anchor: int,
                 fill, stroke, content: str) -> None:
        """One run of text (_prepare_text), baseline at (x, y), anchored on its advance."""
        p = self.p
        _C.cairo_set_font_face(p, face)
        _C.cairo_set_font_size(p, size)
        if anchor:
            _C.cairo_text_extents(p, utf8, _EXTENTS)
            advance = _EXTENTS.x_advance
            x -= advance / 2 if anchor == 1 else advance
        if fill is not None:
            _C.cairo_set_source_rgba(p, *fill)
            _C.cairo_move_to(p, x, y)
            _C.cairo_show_text(p, utf8)
        if stroke is not None:
            ctx = self.ctx
            ctx.new_path()
            ctx.move_to(x, y)
            ctx.text_path(content)
            _stroke_style(p, stroke)
            ctx.set_source_rgba(*stroke[-1])
            ctx.stroke()
        _C.cairo_new_path(p)

    def _fill_pattern(self, ref: str, opacity: float, rule: str | None) -> None:
        """Fill the current path (kept) with a <pattern>: its tile is drawn once into a
        recording and repeated by cairo (a tiling pattern in a PDF, drawn once)."""
        m = re.fullmatch(r"\s*url\(\s*#([^)\s]+)\s*\)\s*", ref)
        source = self._pattern(m.group(1)) if m else None
        if source is None:
            raise Unsupported(ref)
        ctx = self.ctx
        ctx.save()
        ctx.set_source(source)
        if rule == "evenodd":
            ctx.set_fill_rule(cairo.FILL_RULE_EVEN_ODD)
        if opacity < 1.0:
            ctx.clip_preserve()
            ctx.paint_with_alpha(opacity)
        else:
            ctx.fill_preserve()
        ctx.restore()

    def _pattern(self, pid: str) -> cairo.SurfacePattern | None:
        """A <pattern> in user space (patternUnits="userSpaceOnUse", no viewBox or transform:
        what builder.render writes), or None when there is none or it is anything else."""
        if pid in self.patterns:
            return self.patterns[pid]
        el = next((e for e in self.root.iter(SVG_NS + "pattern") if e.get("id") == pid), None)
        if el is None or el.get("patternUnits") != "userSpaceOnUse" or any(
                k in el.attrib for k in ("viewBox", "patternTransform", "patternContentUnits",
                                         "href", "{http://www.w3.org/1999/xlink}href")):
            return None
        x, y = float(el.get("x", 0)), float(el.get("y", 0))
        w, h = float(el.get("width", 0)), float(el.get("height", 0))
        k = PATTERN_UNITS_PER_MM
        if w <= 0 or h <= 0 or max(abs(v * k - round(v * k)) for v in (w, h)) > 1e-6:
            return None  # cairo would repeat it at a whole number of units: the tiles would drift
        tile = cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA,
                                      (0, 0, round(w * k), round(h * k)))
        tile_ctx = cairo.Context(tile)
        tile_ctx.scale(k, k)
        tile_ctx.set_font_options(_UNHINTED)
        walker = _Writer(tile_ctx, self.root)
        walker.patterns = self.patterns
        walker.children(el, walker._inherit(dict(el.attrib), {}))
        tile_ctx._check_status()
        source = cairo.SurfacePattern(tile)
        source.set_extend(cairo.EXTEND_REPEAT)
        # on a raster cairo samples the tile's picture: its default filter (GOOD) convolves
        # every pixel, a third of a map sheet's preview; bilinear gives the same pixels within
        # 3/255 at the 3.5-7 px/mm drawn here (a PDF keeps the tile as vectors either way)
        source.set_filter(cairo.FILTER_BILINEAR)
        source.set_matrix(cairo.Matrix(xx=k, yy=k, x0=-x * k, y0=-y * k))  # user -> tile space
        self.patterns[pid] = source
        return source

    def nothing(self) -> None:
        """A text with no characters to show."""


# --- leaves read once: a shape or text's attributes as a prepared drawing ---------------------
_LEAF_TAGS = frozenset(("rect", "circle", "ellipse", "line", "polygon", "polyline", "path",
                        "text"))
_LEAVES: dict[tuple, tuple] = {}  # (tag, text, attributes, inherited) -> prepared leaf
_LEAVES_KEPT = 50_000  # a few tens of MB; the whole set is let go when full
_LEAF_KEY_CHARS = 2_000  # longer path data (a map's grid, a terrain) is not met twice: not kept


def _prepare_leaf(el, tag: str, a: dict, inh: dict) -> tuple:
    """(its transform's cairo calls, the _Writer method that draws it, that method's
    arguments): what element() and the drawing method would do with these attributes."""
    if not _HANDLED.issuperset(a):
        raise Unsupported(next(k for k in a if k not in _HANDLED))
    opacity = a.get("opacity")
    transform = a.get("transform")
    return (_transform_ops(transform) if transform else (),
            *_prepare_drawing(el, tag, a, inh, float(opacity) if opacity is not None else 1.0))


def _prepare_drawing(el, tag: str, a: dict, inh: dict, alpha: float) -> tuple:
    """(the _Writer method that draws the leaf, its arguments)."""
    if tag == "text":
        return _prepare_text(el, a, inh, alpha)
    return (_Writer.shape, _PATH_OPS[tag](a), *_paint_specs(a, inh, alpha))


def _paint_specs(a, inh: dict, alpha: float) -> tuple:
    """(fill, stroke) for _Writer.shape: fill (False, rgba, even-odd) or (True, pattern ref,
    opacity, rule) or None; stroke a _stroke_spec."""
    get = a.get
    fill = get("fill") or inh.get("fill", "#000000")
    fill_spec = None
    rule = get("fill-rule") or inh.get("fill-rule")
    if fill.startswith("url("):
        fill_spec = (True, fill, _opacity(a, inh, "fill-opacity") * alpha, rule)
    elif fill != "none":
        rgba = _rgba(fill, _opacity(a, inh, "fill-opacity") * alpha)
        if rgba is not None:
            fill_spec = (False, rgba, rule == "evenodd")
    return fill_spec, _stroke_spec(a, inh, alpha)


def _opacity(a, inh: dict, name: str) -> float:
    return float(a.get(name) or inh.get(name, 1))


def _stroke_spec(a, inh: dict, alpha: float) -> tuple | None:
    """(width, cap, join, miter limit, dashes as cairo takes them or None, rgba) of a stroke,
    or None where nothing is stroked."""
    get = a.get
    stroke = get("stroke") or inh.get("stroke")
    if not stroke or stroke == "none":
        return None
    rgba = _rgba(stroke, _opacity(a, inh, "stroke-opacity") * alpha)
    if rgba is None:
        return None
    dashes = get("stroke-dasharray") or inh.get("stroke-dasharray")
    dash = None
    if dashes and dashes != "none":
        values = [float(v) for v in _NUMBER.findall(dashes)]
        if sum(values):
            dash = (cairo.ffi.new("double[]", values), len(values))
    return (float(get("stroke-width") or inh.get("stroke-width", 1)),
            _CAPS.get(get("stroke-linecap") or inh.get("stroke-linecap"), cairo.LINE_CAP_BUTT),
            _JOINS.get(get("stroke-linejoin") or inh.get("stroke-linejoin"),
                       cairo.LINE_JOIN_MITER),
            float(get("stroke-miterlimit") or inh.get("stroke-miterlimit", 4)),
            dash, rgba)


def _stroke_style(p, spec: tuple) -> None:
    """Set a _stroke_spec's line style on the context pointer p."""
    width, cap, join, miter, dash = spec[:5]
    _C.cairo_set_line_width(p, width)
    _C.cairo_set_line_cap(p, cap)
    _C.cairo_set_line_join(p, join)
    _C.cairo_set_miter_limit(p, miter)
    if dash is not None:
        _C.cairo_set_dash(p, dash[0], dash[1], 0)
    else:
        _C.cairo_set_dash(p, cairo.ffi.NULL, 0, 0)


def _prepare_text(el, a: dict, inh: dict, alpha: float) -> tuple:
    """(_Writer.text_run, its arguments) for one run of text, or (_Writer.nothing,)."""
    if len(el):
        raise Unsupported("tspan")
    content = _collapse_spaces(el.text or "")
    if not content.strip():
        return (_Writer.nothing,)
    get = a.get
    style = (get("font-family") or inh.get("font-family", "sans-serif"),
             get("font-weight") or inh.get("font-weight"),
             get("font-style") or inh.get("font-style"))
    face = _STYLED_FACES.get(style)
    if face is None:
        face = _STYLED_FACES[style] = _styled_face(*style)
    size = _font_size(get("font-size") or inh.get("font-size"))
    anchor = get("text-anchor") or inh.get("text-anchor")
    fill = get("fill") or inh.get("fill", "#000000")
    fill_rgba = None
    if fill != "none":  # a pattern is not drawn here: _rgba refuses it, CairoSVG draws it
        fill_rgba = _rgba(fill, _opacity(a, inh, "fill-opacity") * alpha)
    return (_Writer.text_run, face, size, float(get("x", 0)), float(get("y", 0)),
            content.encode("utf-8"), 1 if anchor == "middle" else 2 if anchor == "end" else 0,
            fill_rgba, _stroke_spec(a, inh, alpha), content)


# --- shapes' outlines as cairo calls (each (C function, its arguments after the context)) -----
def _rect_ops(a) -> tuple:
    x, y = float(a.get("x", 0)), float(a.get("y", 0))
    w, h = float(a.get("width", 0)), float(a.get("height", 0))
    rx, ry = a.get("rx"), a.get("ry")
    if rx and ry is None:
        ry = rx
    elif ry and rx is None:
        rx = ry
    rx, ry = float(rx or 0), float(ry or 0)
    if rx == 0 or ry == 0:
        return ((_C.cairo_rectangle, (x, y, w, h)),)
    rx, ry = min(rx, w / 2), min(ry, h / 2)
    k = 4 * (2**0.5 - 1) / 3
    c1, c2 = k * rx, k * ry
    line, curve = _C.cairo_rel_line_to, _C.cairo_rel_curve_to
    return ((_C.cairo_move_to, (x + rx, y)),
            (line, (w - 2 * rx, 0)),
            (curve, (c1, 0, rx, c2, rx, ry)),
            (line, (0, h - 2 * ry)),
            (curve, (0, c2, c1 - rx, ry, -rx, ry)),
            (line, (-w + 2 * rx, 0)),
            (curve, (-c1, 0, -rx, -c2, -rx, -ry)),
            (line, (0, -h + 2 * ry)),
            (curve, (0, -c2, rx - c1, -ry, rx, -ry)),
            (_C.cairo_close_path, ()))


def _circle_ops(a) -> tuple:
    r = float(a.get("r", 0))
    if not r:
        return ()
    return ((_C.cairo_new_sub_path, ()),
            (_C.cairo_arc, (float(a.get("cx", 0)), float(a.get("cy", 0)), r, 0, 2 * math.pi)),
            (_C.cairo_close_path, ()))


def _ellipse_ops(a) -> tuple:
    rx, ry = float(a.get("rx", 0)), float(a.get("ry", 0))
    if not (rx and ry):
        return ()
    return ((_C.cairo_new_sub_path, ()), (_C.cairo_save, ()),
            (_C.cairo_translate, (float(a.get("cx", 0)), float(a.get("cy", 0)))),
            (_C.cairo_scale, (rx, ry)), (_C.cairo_arc, (0, 0, 1, 0, 2 * math.pi)),
            (_C.cairo_restore, ()), (_C.cairo_close_path, ()))


def _line_ops(a) -> tuple:
    return ((_C.cairo_move_to, (float(a.get("x1", 0)), float(a.get("y1", 0)))),
            (_C.cairo_line_to, (float(a.get("x2", 0)), float(a.get("y2", 0)))))


def _points_ops(a, close: bool) -> tuple:
    nums = _NUMBER.findall(a.get("points", ""))
    if len(nums) < 2:
        return ()
    line = _C.cairo_line_to
    ops = [(_C.cairo_move_to, (float(nums[0]), float(nums[1])))]
    ops += [(line, (float(nums[i]), float(nums[i + 1]))) for i in range(2, len(nums) - 1, 2)]
    if close:
        ops.append((_C.cairo_close_path, ()))
    return tuple(ops)


def _path_ops(a) -> tuple | str:
    """A path's outline: handed to cairo whole (_absolute_struct), or its data, to read as it
    is drawn."""
    d = a.get("d", "")
    whole = _absolute_struct(d) if len(d) >= _WHOLE_MIN_CHARS else None
    return ((_append_path, whole),) if whole is not None else d


def _outline(ctx: cairo.Context, path) -> None:
    """Add a shape's outline (_PATH_OPS) to ctx's path."""
    if path.__class__ is str:
        _read_tokens(ctx, path)  # short, or relative or other commands: read as drawn
    else:
        p = ctx._pointer
        for f, args in path:
            f(p, *args)


def _append_path(p, path, _data) -> None:
    _C.cairo_append_path(p, path)  # _data: the numbers path points into, kept alive with it


_PATH_OPS = {
    "rect": _rect_ops, "circle": _circle_ops, "ellipse": _ellipse_ops, "line": _line_ops,
    "polygon": lambda a: _points_ops(a, True), "polyline": lambda a: _points_ops(a, False),
    "path": _path_ops,
}


_SPACES = re.compile(" +")
_FACES: dict[tuple[str, bool, bool], cairo.ToyFontFace] = {}
_STYLED_FACES: dict[tuple, object] = {}  # (font-family, -weight, -style) -> the face's pointer


def _styled_face(family: str, weight: str | None, style: str | None):
    """The face for a text's font attributes (the first family named), as a pointer for the
    C calls; the face itself stays alive in _FACES."""
    bold = weight == "bold" or (weight is not None and weight.isdigit() and int(weight) >= 550)
    return _font_face(family.split(",")[0].strip("\"' "), style == "italic", bold)._pointer


def _font_face(family: str, italic: bool, bold: bool) -> cairo.ToyFontFace:
    """The font face for a family and style, made once (a map has thousands of labels)."""
    key = (family, italic, bold)
    face = _FACES.get(key)
    if face is None:
        face = _FACES[key] = cairo.ToyFontFace(
            family,
            cairo.FONT_SLANT_ITALIC if italic else cairo.FONT_SLANT_NORMAL,
            cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL,
        )
    return face


def _collapse_spaces(text: str) -> str:
    """SVG's default white-space handling (as CairoSVG and browsers apply it): line breaks
    dropped, tabs made spaces, runs of spaces made one, leading and trailing spaces removed."""
    if ("  " in text or "\n" in text or "\r" in text or "\t" in text or text.endswith(" ")
            or text.startswith(" ")):
        text = text.replace("\n", "").replace("\r", "").replace("\t", " ")
        text = _SPACES.sub(" ", text).strip(" ")
    return text


def _font_size(value: str | None) -> float:
    if value is None:
        return 12 * 96 / 72 * 25.4 / 96  # CairoSVG's 12pt default, in mm
    try:
        return float(value)
    except ValueError:
        raise Unsupported("font-size " + value) from None


def _apply_transform(ctx: cairo.Context, text: str) -> None:
    p = ctx._pointer
    for f, args in _transform_ops(text):
        f(p, *args)


_TRANSFORMS: dict[str, tuple] = {}  # transform text -> its cairo calls (offsets and turns recur)


def _transform_ops(text: str) -> tuple:
    """A transform attribute as cairo calls ((C function, its arguments after the context))."""
    ops = _TRANSFORMS.get(text)
    if ops is not None:
        return ops
    out: list = []
    for name, args in _TRANSFORM.findall(text):
        v = [float(n) for n in _NUMBER.findall(args)]
        if name == "translate":
            out.append((_C.cairo_translate, (v[0], v[1] if len(v) > 1 else 0.0)))
        elif name == "rotate":
            if len(v) == 3:
                out += [(_C.cairo_translate, (v[1], v[2])),
                        (_C.cairo_rotate, (math.radians(v[0]),)),
                        (_C.cairo_translate, (-v[1], -v[2]))]
            else:
                out.append((_C.cairo_rotate, (math.radians(v[0]),)))
        elif name == "scale":
            out.append((_C.cairo_scale, (v[0], v[1] if len(v) > 1 else v[0])))
        elif name in ("skewX", "skewY", "matrix"):
            if name == "matrix":
                m = cairo.Matrix(*v[:6])
            else:
                t = math.tan(math.radians(v[0]))
                m = cairo.Matrix(1, 0, t, 1, 0, 0) if name == "skewX" else cairo.Matrix(
                    1, t, 0, 1, 0, 0)
            out.append((_C.cairo_transform, (m._pointer,)))  # the pointer keeps the matrix
        else:
            raise Unsupported("transform " + name)
    if len(_TRANSFORMS) >= _LEAVES_KEPT:
        _TRANSFORMS.clear()
    ops = _TRANSFORMS[text] = tuple(out)
    return ops


# path data's characters for _absolute_struct: 1 a space, 2 part of a number, 3 a command
_CHAR_KIND = np.zeros(256, dtype=np.int8)
_CHAR_KIND[list(b" \t\n\r")] = 1
_CHAR_KIND[list(b"0123456789.eE+-")] = 2
_CHAR_KIND[list(b"MLCZ")] = 3
_NUMBERS = np.zeros(256, dtype=np.int64)  # numbers each command takes
_NUMBERS[list(b"MLC")] = (2, 2, 6)
_PATH_TYPES = np.zeros(256, dtype=np.int32)
_PATH_TYPES[list(b"MLCZ")] = (cairo.PATH_MOVE_TO, cairo.PATH_LINE_TO, cairo.PATH_CURVE_TO,
                              cairo.PATH_CLOSE_PATH)
_COMMANDS_AS_SPACES = str.maketrans("MLCZ", "    ")
# shorter data is read token by token in less time than numpy takes to start
_WHOLE_MIN_CHARS = 400


def _absolute_struct(d: str):
    """(cairo_path_t, the numbers it points into) for path data made only of M x y, L x y,
    C x1 y1 x2 y2 x y and Z (any spacing), read by numpy; None for any other data.

    The same cairo calls as path_data's (cairo_append_path replays the moves, lines, curves
    and closes in user space); a map sheet's paths of this kind (a million characters) are
    read in a sixth of the time, the characters classified and the numbers counted per
    command as arrays, the numbers parsed by numpy (the same doubles as Python's float)."""
    try:
        chars = np.frombuffer(d.encode("ascii"), dtype=np.uint8)
    except UnicodeEncodeError:
        return None
    kind = _CHAR_KIND[chars]
    at = np.flatnonzero(kind == 3)
    if not len(at) or (kind[: at[0]] != 1).any() or not kind.all():
        return None  # no command, something before the first, or a character of no number
    in_number = kind == 2
    starts = in_number.copy()
    starts[1:] &= ~in_number[:-1]
    seen = np.cumsum(starts)  # numbers begun up to each character
    letters = chars[at]
    counts = _NUMBERS[letters]
    if not np.array_equal(np.diff(seen[at], append=seen[-1]), counts):
        return None  # a command with more or fewer numbers than it takes
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # numpy only warns of "1-2" or "1.2.3"
            points = np.fromstring(d.translate(_COMMANDS_AS_SPACES), sep=" ")
    except (ValueError, DeprecationWarning):
        return None
    if len(points) != counts.sum() or not np.isfinite(points).all():
        return None
    # cairo_path_data_t: a header {int type, int length} and then each point {double x, y},
    # 16 bytes each: a move or line is a header and one point, a curve a header and three, a
    # close a header alone
    pairs = counts // 2
    lengths = pairs + 1
    heads = np.cumsum(lengths) - lengths
    data = np.zeros((int(lengths.sum()), 2), dtype=np.float64)
    header = data.view(np.int32).reshape(len(data), 4)
    header[heads, 0] = _PATH_TYPES[letters]
    header[heads, 1] = lengths
    first = np.cumsum(pairs) - pairs  # each command's first pair among all the pairs
    data[np.repeat(heads + 1 - first, pairs) + np.arange(len(points) // 2)] = points.reshape(-1, 2)
    path = cairo.ffi.new("cairo_path_t *")
    path.status = cairo.STATUS_SUCCESS
    path.num_data = len(data)
    path.data = cairo.ffi.cast("cairo_path_data_t *", cairo.ffi.from_buffer(data))
    return path, data


_TOKENS = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_LETTERS = frozenset("MmLlHhVvCcSsQqTtAaZz")


def path_data(ctx: cairo.Context, d: str) -> None:
    """SVG path data as cairo path operations (all commands, implicit repeats).

    The data is cut into command letters and numbers by one regular expression, then read
    token by token: terrain textures are single paths of tens of thousands of commands, and a
    function call or list per command took most of a map's drawing time. Data of absolute
    moves, lines and curves alone, each with its own letter (what builder.render writes for
    a map's hex grid, terrain areas, number plates and rivers), is handed to cairo as one path
    instead (_absolute_struct) when it is long enough to gain by it."""
    _outline(ctx, _path_ops({"d": d}))


def _read_tokens(ctx: cairo.Context, d: str) -> None:
    """path_data read token by token."""
    lib, ptr = cairo.cairo, ctx._pointer  # cairo's C calls straight: the status is checked once
    move_to, line_to, curve_to = lib.cairo_move_to, lib.cairo_line_to, lib.cairo_curve_to
    t = _TOKENS.findall(d)
    n = len(t)
    i = 0
    cmd = ""
    cx = cy = 0.0  # current point
    sx = sy = 0.0  # start of the subpath
    qx = qy = None  # last quadratic control point (absolute), for T
    kx = ky = None  # last cubic second control point (absolute), for S
    while i < n:
        tok = t[i]
        if tok in _LETTERS:
            i += 1
            if tok == "Z" or tok == "z":
                lib.cairo_close_path(ptr)
                cx, cy = sx, sy
                qx = kx = None
                cmd = ""
                continue
            cmd = tok
        elif cmd == "M":  # further pairs after a move are lines
            cmd = "L"
        elif cmd == "m":
            cmd = "l"
        elif not cmd:
            return _done(ctx)  # numbers without a command: the rest is ignored, as SVG says
        if cmd == "l":
            if i + 1 >= n:
                break
            cx += float(t[i])
            cy += float(t[i + 1])
            i += 2
            line_to(ptr, cx, cy)
            qx = kx = None
        elif cmd == "L":
            if i + 1 >= n:
                break
            cx, cy = float(t[i]), float(t[i + 1])
            i += 2
            line_to(ptr, cx, cy)
            qx = kx = None
        elif cmd == "M" or cmd == "m":
            if i + 1 >= n:
                break
            x, y = float(t[i]), float(t[i + 1])
            i += 2
            if cmd == "m":
                x, y = cx + x, cy + y
            move_to(ptr, x, y)
            cx, cy = sx, sy = x, y
            qx = kx = None
        elif cmd == "a" or cmd == "A":
            if i + 6 >= n:
                break
            rx, ry, rot = abs(float(t[i])), abs(float(t[i + 1])), float(t[i + 2])
            large, sweep = float(t[i + 3]) != 0, float(t[i + 4]) != 0
            x, y = float(t[i + 5]), float(t[i + 6])
            i += 7
            if cmd == "a":
                x, y = cx + x, cy + y
            _arc(ctx, cx, cy, rx, ry, rot, large, sweep, x, y)
            cx, cy = x, y
            qx = kx = None
        elif cmd in "HhVv":
            if i >= n:
                break
            v = float(t[i])
            i += 1
            if cmd == "H":
                cx = v
            elif cmd == "h":
                cx += v
            elif cmd == "V":
                cy = v
            else:
                cy += v
            line_to(ptr, cx, cy)
            qx = kx = None
        elif cmd in "CcSs":
            k = 6 if cmd in "Cc" else 4
            if i + k - 1 >= n:
                break
            a = [float(v) for v in t[i : i + k]]
            i += k
            if cmd == "c":
                a = [cx + a[0], cy + a[1], cx + a[2], cy + a[3], cx + a[4], cy + a[5]]
            elif cmd == "s":
                a = [cx + a[0], cy + a[1], cx + a[2], cy + a[3]]
            if k == 4:
                x1, y1 = (2 * cx - kx, 2 * cy - ky) if kx is not None else (cx, cy)
                a = [x1, y1, *a]
            curve_to(ptr, *a)
            kx, ky, qx = a[2], a[3], None
            cx, cy = a[4], a[5]
        elif cmd in "QqTt":
            k = 4 if cmd in "Qq" else 2
            if i + k - 1 >= n:
                break
            a = [float(v) for v in t[i : i + k]]
            i += k
            if cmd == "q":
                a = [cx + a[0], cy + a[1], cx + a[2], cy + a[3]]
            elif cmd == "t":
                a = [cx + a[0], cy + a[1]]
            if k == 2:
                a = [*((2 * cx - qx, 2 * cy - qy) if qx is not None else (cx, cy)), *a]
            x1, y1, x, y = a
            curve_to(ptr, cx + 2 / 3 * (x1 - cx), cy + 2 / 3 * (y1 - cy),
                     x + 2 / 3 * (x1 - x), y + 2 / 3 * (y1 - y), x, y)
            qx, qy, kx = x1, y1, None
            cx, cy = x, y
    _done(ctx)


def _done(ctx: cairo.Context) -> None:
    ctx._check_status()


def _arc(ctx, x1, y1, rx, ry, rotation, large, sweep, x2, y2) -> None:
    """An SVG elliptical arc from (x1, y1) to (x2, y2) (the SVG spec's centre parametrisation)."""
    if x1 == x2 and y1 == y2:
        return
    if not rx or not ry:
        ctx.line_to(x2, y2)
        return
    phi = math.radians(rotation)
    cos_p, sin_p = math.cos(phi), math.sin(phi)
    dx, dy = (x1 - x2) / 2, (y1 - y2) / 2
    xp, yp = cos_p * dx + sin_p * dy, -sin_p * dx + cos_p * dy
    lam = (xp * xp) / (rx * rx) + (yp * yp) / (ry * ry)
    if lam > 1:
        s = math.sqrt(lam)
        rx, ry = rx * s, ry * s
    num = rx * rx * ry * ry - rx * rx * yp * yp - ry * ry * xp * xp
    den = rx * rx * yp * yp + ry * ry * xp * xp
    coef = math.sqrt(max(0.0, num / den)) if den else 0.0
    if large == sweep:
        coef = -coef
    cxp, cyp = coef * rx * yp / ry, -coef * ry * xp / rx
    ccx = cos_p * cxp - sin_p * cyp + (x1 + x2) / 2
    ccy = sin_p * cxp + cos_p * cyp + (y1 + y2) / 2
    a1 = math.atan2((yp - cyp) / ry, (xp - cxp) / rx)
    a2 = math.atan2((-yp - cyp) / ry, (-xp - cxp) / rx)
    if rx == ry:
        # a circle's arc (terrain symbols have thousands): one call, no matrix to save and set
        lib = cairo.cairo
        (lib.cairo_arc if sweep else lib.cairo_arc_negative)(ctx._pointer, ccx, ccy, rx,
                                                              a1 + phi, a2 + phi)
        return
    ctx.save()
    ctx.translate(ccx, ccy)
    ctx.rotate(phi)
    ctx.scale(rx, ry)
    (ctx.arc if sweep else ctx.arc_negative)(0, 0, 1, a1, a2)
    ctx.restore()
