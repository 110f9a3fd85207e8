"""PNG files from cairo image surfaces, encoded for speed: no row filter, deflate level 1.

cairo's own write_to_png (libpng, adaptive row filters, zlib level 6) took about a sixth of a
small game's pdf + vmod build. The drawings here are flat colour over large areas, which deflate
compresses well without filtering: level 1 with no filter is 5-6 times faster and, on a map,
smaller too. Opaque pictures are written as RGB (no alpha channel).

The rows are deflated by libdeflate (the deflate package) at its level 1: 1.5 to 2.2 times as
fast as zlib's level 1 at about the same size, and, like zlib, the same bytes for the same pixels
every time (its author: "no version of libdeflate has ever been non-deterministic"). ISA-L was
faster still but now and then wrote other, equally valid, bytes for the same pixels from one
process to the next, and a build must be byte-identical to the last.
"""

from __future__ import annotations

import struct

import deflate
import numpy as np

from builder.render.cairo_lib import cairo

LEVEL = 1
_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(
        ">I", deflate.crc32(data, deflate.crc32(kind)) & 0xFFFFFFFF)


def _bgra(surface: cairo.ImageSurface) -> tuple[np.ndarray, bool]:
    """The surface's pixels as cairo keeps them (native-endian 32-bit ARGB: B, G, R, A in
    memory), rows x columns x 4, and whether every pixel is opaque."""
    surface.flush()
    w, h, stride = surface.get_width(), surface.get_height(), surface.get_stride()
    raw = np.frombuffer(surface.get_data(), np.uint8).reshape(h, stride)[:, : w * 4]
    bgra = raw.reshape(h, w, 4)
    return bgra, surface.get_format() == cairo.FORMAT_RGB24 or bgra[:, :, 3].min() == 255


def _straight(bgra: np.ndarray, out: np.ndarray) -> None:
    """Lay the pixels into out (rows x columns x 3 for RGB, x 4 for RGBA) as straight colour.
    Channel by channel: numpy copies a strided channel 3 times faster than the whole reversed
    (B, G, R to R, G, B) view at once."""
    for c in range(3):
        out[:, :, c] = bgra[:, :, 2 - c]
    if out.shape[2] == 3:
        return
    alpha = bgra[:, :, 3]
    out[:, :, 3] = alpha
    part = alpha < 255  # only these are premultiplied by less than one (a board: its edge)
    if part.any():
        colour = out[part]
        a = np.maximum(colour[:, 3:], 1).astype(np.uint16)
        # cairo's own unpremultiply, (c * 255 + a / 2) / a (c <= a, so 16 bits hold it); a
        # colour under alpha 0 is 0 already
        colour[:, :3] = (colour[:, :3].astype(np.uint16) * 255 + a // 2) // a
        out[part] = colour


def pixels(surface: cairo.ImageSurface) -> np.ndarray:
    """The surface as straight (not premultiplied) RGBA, or RGB where every pixel is opaque,
    rows x columns."""
    bgra, opaque = _bgra(surface)
    h, w, _ = bgra.shape
    out = np.empty((h, w, 3 if opaque else 4), np.uint8)
    _straight(bgra, out)
    return out


def encode(surface: cairo.ImageSurface) -> bytes:
    """The surface as PNG bytes (RGB when every pixel is opaque, else RGBA)."""
    bgra, opaque = _bgra(surface)
    h, w, _ = bgra.shape
    channels = 3 if opaque else 4
    rows = np.empty((h, w * channels + 1), np.uint8)
    rows[:, 0] = 0  # filter type None on every row
    _straight(bgra, rows[:, 1:].reshape(h, w, channels))  # laid straight into the rows
    header = struct.pack(">IIBBBBB", w, h, 8, 6 if channels == 4 else 2, 0, 0, 0)
    return b"".join((_SIGNATURE, _chunk(b"IHDR", header),
                     _chunk(b"IDAT", deflate.zlib_compress(rows, LEVEL)),
                     _chunk(b"IEND", b"")))
