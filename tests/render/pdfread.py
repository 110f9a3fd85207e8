"""Reading what a PDF really contains: glyph boxes from the text matrix, rectangles, text."""

from __future__ import annotations

PT = 25.4 / 72
ASCENT, DESCENT = 0.93, 0.24  # DejaVu, as a share of the font size


def glyph_box(ch: dict, page_height: float) -> tuple[float, float, float, float]:
    """(x0, top, x1, bottom) in mm of a glyph's advance box, ascent to descent, however rotated
    or narrowed (the text matrix carries size, rotation and scale)."""
    a, b, c, d, e, f = ch["matrix"]
    corners = []
    for u, v in ((0, -DESCENT), (ch["adv"], -DESCENT), (0, ASCENT), (ch["adv"], ASCENT)):
        x = a * u + c * v + e
        y = b * u + d * v + f
        corners.append((x * PT, (page_height - y) * PT))
    xs = [p[0] for p in corners]
    ys = [p[1] for p in corners]
    return min(xs), min(ys), max(xs), max(ys)


def mm(v: float) -> float:
    return v * PT


def words(page) -> list[dict]:
    """Words with their centre in mm: {'text', 'cx', 'cy', 'top', 'bottom'}."""
    out = []
    for w in page.extract_words(keep_blank_chars=False, use_text_flow=False, x_tolerance=0.6):
        out.append(
            {
                "text": w["text"],
                "cx": mm((w["x0"] + w["x1"]) / 2),
                "x0": mm(w["x0"]),
                "x1": mm(w["x1"]),
                "top": mm(w["top"]),
                "bottom": mm(w["bottom"]),
            }
        )
    return out
