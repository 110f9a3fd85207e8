"""SVG drawn by librsvg (the C/Rust library of GNOME), about ten times faster than CairoSVG.

A thin ctypes binding to the system's librsvg-2 (Debian: librsvg2-2), drawing onto the same
cairo (cairocffi) contexts and surfaces that builder.render.convert uses, so it can stand in
for CairoSVG where drawing time matters: ``record(svg)`` gives a cairo recording surface in
points (what convert's PDF assembly paints), ``svg_to_png(svg, px_per_mm)`` a PNG.
``available()`` says whether the library loads; callers keep CairoSVG as the fallback.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
import re
from functools import lru_cache

PT_PER_MM = 72 / 25.4
_SIZE = re.compile(r'viewBox="\s*[-\d.]+\s+[-\d.]+\s+([\d.]+)\s+([\d.]+)\s*"')


class RsvgError(RuntimeError):
    """librsvg could not read or draw an SVG."""


class _Rect(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double),
                ("width", ctypes.c_double), ("height", ctypes.c_double)]


class _GError(ctypes.Structure):
    _fields_ = [("domain", ctypes.c_uint32), ("code", ctypes.c_int), ("message", ctypes.c_char_p)]


@lru_cache(maxsize=1)
def _libs():
    rsvg = ctypes.CDLL(ctypes.util.find_library("rsvg-2") or "librsvg-2.so.2")
    gobject = ctypes.CDLL(ctypes.util.find_library("gobject-2.0") or "libgobject-2.0.so.0")
    glib = ctypes.CDLL(ctypes.util.find_library("glib-2.0") or "libglib-2.0.so.0")
    err = ctypes.POINTER(ctypes.POINTER(_GError))
    rsvg.rsvg_handle_new_from_data.restype = ctypes.c_void_p
    rsvg.rsvg_handle_new_from_data.argtypes = [ctypes.c_char_p, ctypes.c_size_t, err]
    rsvg.rsvg_handle_render_document.restype = ctypes.c_int
    rsvg.rsvg_handle_render_document.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                                 ctypes.POINTER(_Rect), err]
    gobject.g_object_unref.argtypes = [ctypes.c_void_p]
    glib.g_error_free.argtypes = [ctypes.POINTER(_GError)]
    return rsvg, gobject, glib


def available() -> bool:
    """True when librsvg (2.46 or later) can be loaded."""
    try:
        rsvg = _libs()[0]
        return hasattr(rsvg, "rsvg_handle_render_document")
    except OSError:
        return False


def size_mm(svg: str) -> tuple[float, float]:
    """Width and height of a builder SVG (its viewBox: one unit per millimetre)."""
    m = _SIZE.search(svg)
    if not m:
        raise RsvgError("the SVG has no viewBox: draw it with builder.render.svg.document()")
    return float(m.group(1)), float(m.group(2))


def _check(ok: int, error) -> None:
    if ok:
        return
    glib = _libs()[2]
    message = "unknown error"
    if error:
        message = (error.contents.message or b"").decode("utf-8", "replace")
        glib.g_error_free(error)
    raise RsvgError(f"librsvg: {message}")


def draw(svg: str, ctx, width: float, height: float) -> None:
    """Draw svg onto a cairocffi Context, its viewBox filling (0, 0, width, height) user units."""
    from cairocffi import ffi

    rsvg, gobject, _ = _libs()
    data = svg.encode("utf-8")
    error = ctypes.POINTER(_GError)()
    handle = rsvg.rsvg_handle_new_from_data(data, len(data), ctypes.byref(error))
    _check(bool(handle), error)
    try:
        cr = ctypes.c_void_p(int(ffi.cast("uintptr_t", ctx._pointer)))
        ok = rsvg.rsvg_handle_render_document(handle, cr, ctypes.byref(_Rect(0, 0, width, height)),
                                              ctypes.byref(error))
        _check(ok, error)
    finally:
        gobject.g_object_unref(handle)


def record(svg: str):
    """The SVG drawn into a cairo recording surface in points, top-left at the origin."""
    import cairocffi as cairo

    w, h = size_mm(svg)
    rec = cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, (0, 0, w * PT_PER_MM, h * PT_PER_MM))
    ctx = cairo.Context(rec)
    draw(svg, ctx, w * PT_PER_MM, h * PT_PER_MM)
    del ctx
    return rec


def svg_to_png(svg: str, px_per_mm: float) -> bytes:
    """Rasterise a builder SVG at px_per_mm pixels per millimetre."""
    import io

    import cairocffi as cairo

    w, h = size_mm(svg)
    width, height = max(1, math.ceil(w * px_per_mm - 1e-6)), max(1, math.ceil(h * px_per_mm - 1e-6))
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, width, height)
    ctx = cairo.Context(surface)
    draw(svg, ctx, w * px_per_mm, h * px_per_mm)
    out = io.BytesIO()
    surface.write_to_png(out)
    return out.getvalue()
