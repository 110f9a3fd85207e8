"""Ruled tables for player-aid cards: column widths from the content, wrapped cells, rows that
split across pages with the header repeated. Everything is measured with the real font."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from builder.render import style
from builder.render import svg as S

PAD_X = 1.0
PAD_Y = 0.7
LINE = 1.22  # line height as a share of the font size


@dataclass
class Cell:
    text: str = ""
    bold: bool = False
    fill: str | None = None
    colour: str = style.INK
    align: str = "middle"  # start | middle | end
    span: int = 1
    draw: Callable[[float, float, float, float], str] | None = None  # a picture instead of text
    draw_w: float = 0.0


@dataclass
class Row:
    """A laid-out row: its height and how to draw it at (x, y)."""

    h: float
    draw: Callable[[float, float], str]
    glue: bool = False  # kept on the same page and column as the row after it


@dataclass
class Grid:
    header: list[list[Cell]]
    rows: list[list[Cell]]
    size: float = style.CARD_BODY  # 7.5 pt: a published aid card's table text
    min_size: float = style.CARD_BODY  # never smaller: a wide table wraps or narrows instead
    stripes: bool = True
    col_min: list[float] = field(default_factory=list)
    wrap_cols: set[int] = field(default_factory=set)  # columns that may wrap (long text)

    def ncols(self) -> int:
        return max(sum(c.span for c in r) for r in self.header + self.rows)

    def _natural(self, size: float) -> list[float]:
        n = self.ncols()
        widths = [0.0] * n
        for r in self.header + self.rows:
            col = 0
            head = any(r is h for h in self.header)
            for c in r:
                if c.span == 1:
                    # a header cell wraps between words: its longest word is what it needs
                    parts = c.text.split() if head else c.text.split("\n")
                    w = (
                        c.draw_w
                        if c.draw
                        else max(
                            (style.text_width(line, size, c.bold or head) for line in parts),
                            default=0,
                        )
                    )
                    widths[col] = max(widths[col], w + 2 * PAD_X)
                col += c.span
        for i, w in enumerate(self.col_min):
            widths[i] = max(widths[i], w)
        return widths

    def word_widths(self, size: float) -> list[float]:
        """Each column's narrowest width: its longest word (a wrapped cell never breaks one)."""
        widths = [0.0] * self.ncols()
        for r in self.header + self.rows:
            col = 0
            for c in r:
                if c.span == 1:
                    w = c.draw_w if c.draw else max(
                        (style.text_width(word, size, c.bold or r in self.header)
                         for word in c.text.split()), default=0)
                    widths[col] = max(widths[col], w + 2 * PAD_X)
                col += c.span
        return widths

    def widths(self, avail: float) -> tuple[list[float], float]:
        """Column widths and font size so the grid fits `avail` mm (wrapping the wrap columns)."""
        size = self.size
        nat = self._natural(size)
        while sum(nat) > avail and size > self.min_size and not self.wrap_cols:
            size = max(self.min_size, size * 0.94)
            nat = self._natural(size)
        total = sum(nat)
        if total > avail:
            floor = self.word_widths(size)
            fixed = sum(w for i, w in enumerate(nat) if i not in self.wrap_cols)
            flex = [i for i in self.wrap_cols if i < len(nat)]
            room = max(avail - fixed, 12.0 * len(flex))
            # water-filling: short columns keep their width, the long ones share what is left
            todo = sorted(flex, key=lambda i: nat[i])
            while todo:
                fair = room / len(todo)
                i = todo[0]
                if nat[i] <= fair:
                    room -= nat[i]
                    todo.pop(0)
                    continue
                for k in todo:
                    nat[k] = max(min(12.0, nat[k]), floor[k], fair)
                break
            total = sum(nat)
            if total > avail:  # still too wide: squeeze every column (text is narrowed to fit)
                nat = [w * avail / total for w in nat]
        return nat, size

    def layout(
        self, avail: float, x_scale_ok: bool = True, stretch: bool = False
    ) -> tuple[list[Row], list[Row], float]:
        """(header rows, body rows, width) laid out for `avail` mm; `stretch` widens the columns
        (each by the same amount, so a CRT's result columns gain as much as its labels) so the
        grid fills `avail`, as its card's frame does."""
        widths, size = self.widths(avail)
        if stretch and 0 < sum(widths) < avail:
            extra = (avail - sum(widths)) / len(widths)
            widths = [w + extra for w in widths]
        width = sum(widths)

        def make(r: list[Cell], head: bool, index: int) -> Row:
            cells = []
            col = 0
            lines_max = 1
            for c in r:
                w = sum(widths[col : col + c.span])
                if c.draw:
                    lines = [""]
                elif head or col in self.wrap_cols or c.span > 1 or "\n" in c.text:
                    lines = S.wrap(c.text, w - 2 * PAD_X, size, c.bold or head)
                else:
                    lines = [c.text]
                cells.append((c, col, w, lines))
                lines_max = max(lines_max, len(lines))
                col += c.span
            h = lines_max * size * LINE + 2 * PAD_Y
            if any(c.draw for c, *_ in cells):
                h = max(h, max(c.draw_w * 0.8 for c, *_ in cells if c.draw) + 2 * PAD_Y)

            def draw(x: float, y: float) -> str:
                out = []
                if head:
                    out.append(S.rect(x, y, width, h, fill=style.TABLE_HEAD))
                elif self.stripes and index % 2 == 1:
                    out.append(S.rect(x, y, width, h, fill=style.TABLE_STRIPE))
                cx = x
                for c, col, w, lines in cells:
                    cx = x + sum(widths[:col])
                    if c.fill:
                        out.append(S.rect(cx, y, w, h, fill=c.fill))
                    if c.draw:
                        out.append(c.draw(cx + PAD_X, y + PAD_Y, w - 2 * PAD_X, h - 2 * PAD_Y))
                        continue
                    top = y + (h - len(lines) * size * LINE) / 2
                    for k, ln in enumerate(lines):
                        base = top + k * size * LINE + size * 0.95
                        tx = {"start": cx + PAD_X, "middle": cx + w / 2, "end": cx + w - PAD_X}[
                            c.align
                        ]
                        out.append(
                            S.fitted(
                                tx,
                                base,
                                ln,
                                w - 2 * PAD_X,
                                size,
                                bold=c.bold or head,
                                anchor=c.align,
                                fill=c.colour,
                                min_size=size,
                            )
                        )
                out.append(
                    S.line(x, y + h, x + width, y + h, stroke=style.TABLE_RULE, stroke_width=0.12)
                )
                return "".join(out)

            return Row(h, draw)

        head_rows = [make(r, True, i) for i, r in enumerate(self.header)]
        body_rows = [make(r, False, i) for i, r in enumerate(self.rows)]
        return head_rows, body_rows, width


def column_rules(widths: list[float], x: float, y: float, h: float) -> str:
    """Thin vertical rules between columns."""
    out = []
    cx = x
    for w in widths[:-1]:
        cx += w
        out.append(S.line(cx, y, cx, y + h, stroke=style.TABLE_RULE, stroke_width=0.1))
    return "".join(out)
