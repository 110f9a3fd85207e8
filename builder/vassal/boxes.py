"""The off-map window: a turn track (reinforcements wait on their turn), holding boxes, decks.

One board of labelled boxes, each a VASSAL zone named as players read it ("Turn 3", "German
eliminated", "Reserves"), sized for the most pieces any scenario puts there.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from builder.model.game_model import Game
from builder.render import style, svg

OFF_MAP = "Off-map"
GAP = 12  # pixels between boxes
LABEL = 34  # label band at the top of a box
WIDTH = 1500  # the window's board width in pixels


@dataclass
class Box:
    """One labelled box on the off-map board (pixels)."""

    key: str  # 'turn:3', 'box:reserves', 'deck:support', 'off-map'
    name: str
    subtitle: str = ""
    night: bool = False
    slots: int = 1
    x: int = 0
    y: int = 0
    w: int = 0
    h: int = 0
    deck: str = ""  # deck id whose DrawPile sits here

    def path(self) -> str:
        x1, y1 = self.x + self.w, self.y + self.h
        return f"{self.x},{self.y};{x1},{self.y};{x1},{y1};{self.x},{y1}"

    def slot_point(self, i: int, cell: int) -> tuple[int, int]:
        """Where the i-th piece in the box stands (row by row, left to right)."""
        cols = max(1, (self.w - 8) // cell)
        r, c = divmod(i, cols)
        if self.deck:
            c += 1  # the deck's own spot is the first cell
        return self.x + 4 + cell // 2 + c * cell, self.y + LABEL + cell // 2 + r * cell

    def deck_point(self, cell: int) -> tuple[int, int]:
        return self.x + 4 + cell // 2, self.y + LABEL + cell // 2


@dataclass
class BoxBoard:
    boxes: list[Box] = field(default_factory=list)
    cell: int = 70
    width: int = WIDTH
    height: int = 0

    def by_key(self) -> dict[str, Box]:
        return {b.key: b for b in self.boxes}


def turn_label(game: Game, n: int) -> tuple[str, str, bool]:
    """('Turn 3', 'April 9 Evening', night?) for turn n."""
    detail = {d.number: d for d in game.info.turns.detail}.get(n)
    sub = detail.name if detail and detail.name else ""
    night = bool(detail and detail.night)
    return f"Turn {n}", sub, night


def turns(game: Game) -> list[int]:
    first = game.info.turns.first
    return list(range(first, first + game.info.turns.count))


def box_keys(game: Game) -> list[tuple[str, str]]:
    """Every box the window holds, in display order: (key, name)."""
    out = [(f"turn:{n}", turn_label(game, n)[0]) for n in turns(game)]
    box_ids = {b.id for b in game.info.boxes}
    for b in game.info.boxes:
        out.append((f"box:{b.id}", b.name))
    for side in game.info.sides:
        has = any(b.kind in ("eliminated", "losses") and b.side == side.id for b in game.info.boxes)
        if not has:
            out.append((f"box:{side.id}-eliminated", f"{side.name} eliminated"))
    if any(not w.box for sc in game.scenarios for w in sc.withdrawals) and "withdrawn" not in box_ids:
        out.append(("box:withdrawn", "Withdrawn"))
    for d in game.info.decks:
        if d.id not in box_ids:
            out.append((f"deck:{d.id}", d.name))
    out.append(("off-map", OFF_MAP))
    return _unique_names(out)


def _unique_names(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    seen: Counter = Counter(name for _, name in items)
    return [(k, n if seen[n] == 1 else f"{n} ({k.split(':')[-1]})") for k, n in items]


def layout(game: Game, counts: dict[str, int], cell: int) -> BoxBoard:
    """Place the boxes: the turn track first, then the others, flowing left to right."""
    board = BoxBoard(cell=cell)
    box_ids = {b.id for b in game.info.boxes}
    deck_in = {f"box:{d.id}" if d.id in box_ids else f"deck:{d.id}": d.id for d in game.info.decks}
    for key, name in box_keys(game):
        sub, night = "", False
        if key.startswith("turn:"):
            _, sub, night = turn_label(game, int(key[5:]))
        n = counts.get(key, 0) + (1 if key in deck_in else 0)
        board.boxes.append(Box(key, name, sub, night, max(n, 1), deck=deck_in.get(key, "")))
    x, y, row_h = GAP, GAP, 0
    for b in board.boxes:
        min_cols = 2 if b.key.startswith("turn:") else 4
        cols = max(min_cols, min(b.slots, 10))
        rows = -(-b.slots // cols)
        b.w, b.h = cols * cell + 8, LABEL + rows * cell + 4
        if x + b.w + GAP > board.width and x > GAP:
            x, y, row_h = GAP, y + row_h + GAP, 0
        b.x, b.y = x, y
        x += b.w + GAP
        row_h = max(row_h, b.h)
    board.height = y + row_h + GAP
    return board


def board_svg(board: BoxBoard) -> str:
    """The off-map board drawn as labelled boxes (one SVG unit = one pixel)."""
    parts = []
    for b in board.boxes:
        fill = "#d8dde6" if b.night else ("#f3efe2" if b.key.startswith("turn:") else "#ebe7dc")
        parts.append(svg.rect(b.x, b.y, b.w, b.h, fill=fill, stroke=style.INK, stroke_width=2))
        parts.append(svg.fitted(b.x + 6, b.y + 16, b.name, b.w - 12, 14, anchor="start", bold=True))
        if b.subtitle:
            parts.append(svg.fitted(b.x + 6, b.y + 30, b.subtitle + (" (night)" if b.night else ""),
                                    b.w - 12, 11, anchor="start"))
    return svg.document(board.width, board.height, "".join(parts), background="#ffffff",
                        title="Off-map boxes")
