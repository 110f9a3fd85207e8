"""A few string builders for SVG in millimetre user units, with text sized to fit."""

from __future__ import annotations

import functools
import re
from xml.sax.saxutils import escape, quoteattr

from builder.render import style


_NUMS: dict[float, str] = {}  # a map repeats its coordinates (corners shared by three hexes)


def num(v: float) -> str:
    """A coordinate with at most 3 decimals and no '-0' (stable, compact output)."""
    text = _NUMS.get(v)
    if text is None:
        if len(_NUMS) > 100_000:  # about 13 MB
            _NUMS.clear()
        text = f"{v:.3f}".rstrip("0").rstrip(".")
        text = _NUMS[v] = "0" if text in ("-0", "") else text
    return text


def pts(points) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in points)


_NEEDS_QUOTING = re.compile(r'[&<>"\n\r\t]')
_PREFIXES: dict[str, str] = {}  # keyword -> ' attribute-name='
_QUOTED: dict[str, str] = {}  # value -> its quoted form (colours, sizes, coordinates repeat)


def _attr_name(key: str) -> str:
    return key.rstrip("_").replace("xlink_", "xlink:").replace("_", "-")


def _quote(value: str) -> str:
    """quoteattr's answer, without its replacement passes for the plain values nearly every
    attribute has (most of the time spent writing a map's SVG)."""
    quoted = quoteattr(value) if _NEEDS_QUOTING.search(value) else f'"{value}"'
    if len(_QUOTED) > 200_000:
        _QUOTED.clear()
    _QUOTED[value] = quoted
    return quoted


def _attrs(attrs: dict) -> str:
    out = []
    prefixes, quoted = _PREFIXES, _QUOTED
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        if type(value) is not str:  # most values come as text already (num() made them)
            value = num(value) if isinstance(value, float) else str(value)
        prefix = prefixes.get(key)
        if prefix is None:
            prefix = prefixes[key] = f" {_attr_name(key)}="
        out.append(prefix)
        out.append(quoted.get(value) or _quote(value))
    return "".join(out)


def el(tag: str, body: str = "", **attrs) -> str:
    """One element; body is already-built markup."""
    if body:
        return f"<{tag}{_attrs(attrs)}>{body}</{tag}>"
    return f"<{tag}{_attrs(attrs)}/>"


def g(children, **attrs) -> str:
    body = "".join(children) if not isinstance(children, str) else children
    return el("g", body, **attrs) if body else ""


def rect(x, y, w, h, **attrs) -> str:
    return el("rect", x=num(x), y=num(y), width=num(w), height=num(h), **attrs)


def circle(cx, cy, r, **attrs) -> str:
    return el("circle", cx=num(cx), cy=num(cy), r=num(r), **attrs)


def line(x1, y1, x2, y2, **attrs) -> str:
    return el("line", x1=num(x1), y1=num(y1), x2=num(x2), y2=num(y2), **attrs)


def polygon(points, **attrs) -> str:
    return el("polygon", points=pts(points), **attrs)


def polyline(points, **attrs) -> str:
    return el("polyline", points=pts(points), fill=attrs.pop("fill", "none"), **attrs)


def path(d: str, **attrs) -> str:
    return el("path", d=d, **attrs)


def rounded_rect_d(x: float, y: float, w: float, h: float, r: float) -> str:
    """Path data of a rectangle with corners rounded to radius r (as <rect rx=r> draws it:
    quarter circles as cubic curves), in absolute moves, lines and curves only."""
    r = min(r, w / 2, h / 2)
    k = r * (1 - 4 * (2**0.5 - 1) / 3)  # how far each control point stands in from the corner
    x1, y1 = x + w, y + h
    return (f"M{num(x + r)} {num(y)}L{num(x1 - r)} {num(y)}"
            f"C{num(x1 - k)} {num(y)} {num(x1)} {num(y + k)} {num(x1)} {num(y + r)}"
            f"L{num(x1)} {num(y1 - r)}"
            f"C{num(x1)} {num(y1 - k)} {num(x1 - k)} {num(y1)} {num(x1 - r)} {num(y1)}"
            f"L{num(x + r)} {num(y1)}"
            f"C{num(x + k)} {num(y1)} {num(x)} {num(y1 - k)} {num(x)} {num(y1 - r)}"
            f"L{num(x)} {num(y + r)}"
            f"C{num(x)} {num(y + k)} {num(x + k)} {num(y)} {num(x + r)} {num(y)}Z")


def poly_d(points, close: bool = True) -> str:
    """Path data of a polygon or polyline."""
    first, *rest = points
    d = f"M{num(first[0])} {num(first[1])}" + "".join(f"L{num(x)} {num(y)}" for x, y in rest)
    return d + ("Z" if close else "")


def text(x, y, s: str, size: float, **kw) -> str:
    """Text with its baseline at (x, y); scale_x < 1 narrows it; halo draws an outline under it
    (keywords: see _text_markup). The same text comes again and again (a counter's factors and
    marks at the same places on thousands of faces), so each is written once and kept."""
    return _kept_text(x, y, s, size, tuple(kw.items()))


@functools.lru_cache(maxsize=20_000)  # a few MB
def _kept_text(x, y, s: str, size: float, kw: tuple) -> str:
    return _text_markup(x, y, s, size, **dict(kw))


def _text_markup(
    x,
    y,
    s: str,
    size: float,
    *,
    anchor: str = "middle",
    bold: bool = False,
    family: str = style.SANS,
    fill: str = style.INK,
    scale_x: float = 1.0,
    rotate: float = 0.0,
    skew: float = 0.0,
    halo: str | None = None,
    halo_width: float = 0.0,
    **attrs,
) -> str:
    if not s:
        return ""
    transform = []
    if rotate:
        transform.append(f"rotate({num(rotate)})")
    if skew:
        transform.append(f"skewX({num(skew)})")
    if abs(scale_x - 1.0) > 1e-4:
        transform.append(f"scale({num(scale_x)} 1)")
    # plain text placed by x and y; a turned, slanted or narrowed one moved there first (a
    # transform per text costs every reader: a map sheet has 1,700 hex numbers)
    if transform and (x or y):
        transform.insert(0, f"translate({num(x)} {num(y)})")
        x = y = 0
    common = {
        "x": num(x) if x else None,
        "y": num(y) if y else None,
        "font_family": family,
        "font_size": num(size),
        "text_anchor": anchor,
        "font_weight": "bold" if bold else None,
        "transform": " ".join(transform) or None,
    }
    out = ""
    body = escape(s) if ("&" in s or "<" in s or ">" in s) else s
    if halo:
        out += el(
            "text",
            body,
            fill="none",
            stroke=halo,
            stroke_width=num(halo_width or size * 0.22),
            stroke_linejoin="round",
            **common,
        )
    return out + el("text", body, fill=fill, **common, **attrs)


def fit(
    s: str,
    width: float,
    size: float,
    *,
    min_size: float | None = None,
    bold: bool = False,
    family: str = style.SANS,
) -> tuple[float, float]:
    """(font size, horizontal scale) so that s is at most `width` mm wide.

    Shrinks the font down to min_size (default 70 %), then narrows the letters: text always fits.
    """
    if not s or width <= 0:
        return size, 1.0
    w = style.text_width(s, size, bold, family)
    if w <= width:
        return size, 1.0
    floor = min_size if min_size is not None else size * 0.7
    shrunk = max(floor, size * width / w)
    w = style.text_width(s, shrunk, bold, family)
    return shrunk, min(1.0, width / w * 0.999)


def fitted(x, y, s: str, width: float, size: float, **kw) -> str:
    """text() shrunk/narrowed to fit in `width` mm (anchor as given)."""
    min_size = kw.pop("min_size", None)
    fsize, sx = fit(
        s,
        width,
        size,
        min_size=min_size,
        bold=kw.get("bold", False),
        family=kw.get("family", style.SANS),
    )
    return text(x, y, s, fsize, scale_x=sx, **kw)


def wrap(
    s: str, width: float, size: float, bold: bool = False, family: str = style.SANS
) -> list[str]:
    """Greedy word wrap to lines at most `width` mm wide (a long word gets a line of its own)."""
    lines: list[str] = []
    for para in s.split("\n"):
        current = ""
        for word in para.split():
            trial = f"{current} {word}" if current else word
            if current and style.text_width(trial, size, bold, family) > width:
                lines.append(current)
                current = word
            else:
                current = trial
        lines.append(current)
    return lines


def document(
    width: float,
    height: float,
    body: str,
    *,
    defs: str = "",
    title: str = "",
    background: str | None = None,
) -> str:
    """A standalone SVG whose user unit is one millimetre."""
    head = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'version="1.1" width="{num(width)}mm" height="{num(height)}mm" '
        f'viewBox="0 0 {num(width)} {num(height)}">\n'
    )
    parts = [head]
    if title:
        parts.append(f"<title>{escape(title)}</title>\n")
    if defs:
        parts.append(f"<defs>{defs}</defs>\n")
    if background:
        parts.append(rect(0, 0, width, height, fill=background) + "\n")
    parts.append(body)
    parts.append("\n</svg>\n")
    return "".join(parts)


def nest(svg_doc: str, x: float, y: float, width: float, height: float) -> str:
    """Place a standalone SVG document (from document()) inside another at (x, y)."""
    start = svg_doc.index("<svg")
    inner = svg_doc[start:]
    inner = inner.replace("<svg ", f'<svg x="{num(x)}" y="{num(y)}" ', 1)
    # nested documents keep their viewBox; width/height in mm would be read as px, so use user units
    head_end = inner.index(">")
    head = re.sub(
        r'width="[^"]*" height="[^"]*"',
        f'width="{num(width)}" height="{num(height)}"',
        inner[:head_end],
        count=1,
    )
    inner = head + inner[head_end:]
    return inner.replace(
        'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'version="1.1" ',
        "",
        1,
    )
