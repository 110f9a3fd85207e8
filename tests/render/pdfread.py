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


def overlapping_words(page, pad: float = 0.12) -> list[tuple[str, str]]:
    """Pairs of words whose boxes (shrunk by `pad` mm, as neighbouring lines touch) overlap;
    a halo's copy of a word, exactly on it, is not counted."""
    boxes = sorted(
        ((w["x0"] + pad, w["top"] + pad, w["x1"] - pad, w["bottom"] - pad), w["text"])
        for w in words(page)
    )
    out = []
    for i, (a, t) in enumerate(boxes):
        for b, u in boxes[i + 1 :]:
            if b[0] >= a[2]:
                break  # sorted by left edge: nothing further right reaches a
            if abs(a[0] - b[0]) < 0.05 and abs(a[1] - b[1]) < 0.05:
                continue
            if a[1] < b[3] and b[1] < a[3]:
                out.append((t, u))
    return out
