"""Where a hex map's names go: each label is tried at positions around its hex, then smaller,
and printed at the first where its box covers no hex number, no hexside feature, no victory
symbol and no label placed before it (issue 16, item 2)."""

from __future__ import annotations

from dataclasses import dataclass

from builder.render import style

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm


@dataclass(frozen=True)
class Placed:
    text: str
    x: float  # anchor: middle of the baseline
    y: float
    size: float
    box: Box


def text_box(x: float, y: float, text: str, size: float, bold: bool, family: str) -> Box:
    """The box a PDF reader gives middle-anchored text on baseline y: ascent to descent."""
    w = style.text_width(text, size, bold, family)
    return x - w / 2, y - style.ASCENT * size, x + w / 2, y + style.DESCENT * size


def overlaps(a: Box, b: Box, pad: float = 0.0) -> bool:
    return a[0] < b[2] + pad and b[0] < a[2] + pad and a[1] < b[3] + pad and b[1] < a[3] + pad


def crosses(box: Box, seg, pad: float = 0.15) -> bool:
    """Does the segment ((x1, y1), (x2, y2)) enter the box (Liang-Barsky clipping)?"""
    (x1, y1), (x2, y2) = seg
    x0, y0, x3, y3 = box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad
    dx, dy = x2 - x1, y2 - y1
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, x1 - x0), (dx, x3 - x1), (-dy, y1 - y0), (dy, y3 - y1)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


class Buckets:
    """Boxes filed by the square cells they cover, so a label looks only at what lies near it
    (a campaign map keeps out 34,000 hex numbers: testing each against every label took
    seconds)."""

    CELL = 12.0  # mm: a few hexes

    def __init__(self):
        self.cells: dict[tuple[int, int], list] = {}
        self.count = 0

    def _span(self, box: Box):
        c = self.CELL
        for i in range(int(box[0] // c), int(box[2] // c) + 1):
            for j in range(int(box[1] // c), int(box[3] // c) + 1):
                yield i, j

    def add(self, box: Box, item) -> None:
        self.count += 1
        for cell in self._span(box):
            self.cells.setdefault(cell, []).append((self.count, item))

    def near(self, box: Box) -> list:
        """Every item filed in a cell the box covers, once each."""
        seen: dict[int, object] = {}
        for cell in self._span(box):
            for n, item in self.cells.get(cell, ()):
                seen[n] = item
        return list(seen.values())


def _segment_box(seg) -> Box:
    (x1, y1), (x2, y2) = seg
    return min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)


class Placer:
    """Keeps what is already on the map and finds each new label a free place."""

    def __init__(self, keep_out: list[Box], segments: list, frame: Box):
        self.boxes = Buckets()
        for b in keep_out:
            self.boxes.add(b, b)
        self.segments = Buckets()
        for sg in segments:
            self.segments.add(_segment_box(sg), sg)
        self.frame = frame

    def clashes(self, box: Box, boxes, segments) -> int:
        f = self.frame
        if box[0] < f[0] + 0.5 or box[2] > f[2] - 0.5 or box[1] < f[1] + 0.3 or box[3] > f[3] - 0.3:
            return 1
        n = sum(1 for b in boxes if overlaps(box, b, 0.1))
        return n + sum(1 for s in segments if crosses(box, s))

    def place(self, text: str, cx: float, cy: float, size: float, bold: bool, family: str,
              reach: float) -> Placed:
        """The label near (cx, cy baseline), moved up to `reach` mm and shrunk to 70 % at most;
        where nothing is free, the place with the fewest clashes."""
        w = style.text_width(text, size, bold, family)
        near = (cx - reach - w, cy - reach - size * 2, cx + reach + w, cy + reach + size * 2)
        boxes = [b for b in self.boxes.near(near) if overlaps(b, near)]
        segments = [sg for sg in self.segments.near(near) if crosses(near, sg, 0.0)]
        best = None
        steps = [k * 0.35 for k in range(int(reach / 0.35) + 1)]
        offsets = [0.0] + [s * sign for s in steps[1:] for sign in (1, -1)]
        for scale in (1.0, 0.85, 0.72):
            sz = size * scale
            for dx in (0.0, reach * 0.5, -reach * 0.5, reach, -reach):
                for dy in offsets:
                    x, y = cx + dx, cy + dy
                    box = text_box(x, y, text, sz, bold, family)
                    n = self.clashes(box, boxes, segments)
                    cost = (n, scale < 1.0, abs(dx) + abs(dy))
                    if best is None or cost < best[0]:
                        best = (cost, Placed(text, x, y, sz, box))
                    if n == 0:
                        break
                if best[0][0] == 0:
                    break
            if best[0][0] == 0:
                break
        placed = best[1]
        self.boxes.add(placed.box, placed.box)
        return placed
